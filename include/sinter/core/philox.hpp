#pragma once
/// \file philox.hpp
/// The Philox4x32-10 block function (Salmon et al., "Parallel random numbers:
/// as easy as 1, 2, 3", SC 2011; the Random123 library's philox4x32_R with 10
/// rounds): a bijection of a 128-bit counter under a 64-bit key. Branch-free,
/// 32x32->64 multiplies only, so the host loop vectorises it; the same code
/// runs in CUDA kernels.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "../config.hpp"

/// SINTER_PHILOX_LANES is 1 where philox_blocks runs the rounds on vector
/// lanes (GCC or Clang host code on x86-64, not nvcc's front end); else it
/// computes one block at a time.
#if !defined(SINTER_PHILOX_LANES)
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(__CUDACC__)
#define SINTER_PHILOX_LANES 1
#else
#define SINTER_PHILOX_LANES 0
#endif
#endif
#if SINTER_PHILOX_LANES
#include <immintrin.h>
#endif

namespace sinter::detail {

/// Four 32-bit words: a Philox counter or output.
struct u32x4 {
  std::uint32_t v[4];
};
/// Two 32-bit words: a Philox key.
struct u32x2 {
  std::uint32_t v[2];
};

/// One Philox4x32 round under key (k0, k1).
SINTER_HD SINTER_FORCEINLINE constexpr u32x4 philox_round(u32x4 c, std::uint32_t k0, std::uint32_t k1) {
  const std::uint64_t p0 = std::uint64_t{0xD2511F53u} * c.v[0];
  const std::uint64_t p1 = std::uint64_t{0xCD9E8D57u} * c.v[2];
  return u32x4{{static_cast<std::uint32_t>(p1 >> 32) ^ c.v[1] ^ k0, static_cast<std::uint32_t>(p1),
                static_cast<std::uint32_t>(p0 >> 32) ^ c.v[3] ^ k1, static_cast<std::uint32_t>(p0)}};
}

/// Philox4x32 with 10 rounds, on plain structs (used by the generators). The
/// rounds are written out: a loop left rolled (clang -O1) kept the loop over
/// elements from vectorising.
SINTER_HD SINTER_FORCEINLINE constexpr u32x4 philox4x32_10(u32x4 c, u32x2 k) {
  constexpr std::uint32_t w0 = 0x9E3779B9u, w1 = 0xBB67AE85u;  // the key schedule's bumps
  const std::uint32_t k0 = k.v[0], k1 = k.v[1];
  c = philox_round(c, k0, k1);
  c = philox_round(c, k0 + w0, k1 + w1);
  c = philox_round(c, k0 + 2u * w0, k1 + 2u * w1);
  c = philox_round(c, k0 + 3u * w0, k1 + 3u * w1);
  c = philox_round(c, k0 + 4u * w0, k1 + 4u * w1);
  c = philox_round(c, k0 + 5u * w0, k1 + 5u * w1);
  c = philox_round(c, k0 + 6u * w0, k1 + 6u * w1);
  c = philox_round(c, k0 + 7u * w0, k1 + 7u * w1);
  c = philox_round(c, k0 + 8u * w0, k1 + 8u * w1);
  return philox_round(c, k0 + 9u * w0, k1 + 9u * w1);
}

/// Block `b` of a stream: counter (low 32 bits of b, high 32 bits of b, the
/// stream's tag, 0) under `key`.
SINTER_HD SINTER_FORCEINLINE constexpr u32x4 philox_at(u32x2 key, std::uint64_t b, std::uint32_t tag) {
  return philox4x32_10(u32x4{{static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(b >> 32), tag, 0u}}, key);
}

#if SINTER_PHILOX_LANES
#if defined(__AVX512F__)
/// Bytes of philox_blocks' vectors: one block per 64-bit lane.
inline constexpr int philox_vector_bytes = 64;
#elif defined(__AVX2__)
inline constexpr int philox_vector_bytes = 32;
#else
inline constexpr int philox_vector_bytes = 16;
#endif
/// philox_blocks' vector: a 32-bit word in the low half of each 64-bit lane
/// (the high half is never read: the multiplies take low halves only).
typedef std::uint64_t philox_lanes __attribute__((vector_size(philox_vector_bytes)));
/// Blocks per philox_lanes.
inline constexpr int philox_width = philox_vector_bytes / 8;

/// The 64-bit products of the lanes' low words with m's (pmuludq).
inline philox_lanes philox_mul(philox_lanes a, philox_lanes m) {
#if defined(__AVX512F__)
  // maskz with every lane: _mm512_mul_epu32's undefined source gave GCC 12 a false -Wmaybe-uninitialized.
  return reinterpret_cast<philox_lanes>(
      _mm512_maskz_mul_epu32(static_cast<__mmask8>(0xFF), reinterpret_cast<__m512i>(a), reinterpret_cast<__m512i>(m)));
#elif defined(__AVX2__)
  return reinterpret_cast<philox_lanes>(_mm256_mul_epu32(reinterpret_cast<__m256i>(a), reinterpret_cast<__m256i>(m)));
#else
  return reinterpret_cast<philox_lanes>(_mm_mul_epu32(reinterpret_cast<__m128i>(a), reinterpret_cast<__m128i>(m)));
#endif
}

/// Blocks first .. first + philox_width - 1 into out (4 words each, block
/// by block), the rounds on one lane per block; `ka`/`kb` the round keys.
inline void philox_lane_group(const philox_lanes* ka, const philox_lanes* kb, philox_lanes tag, std::uint64_t first,
                              std::uint32_t* out) {
  philox_lanes c0{};
  for (int l = 0; l < philox_width; ++l) c0[l] = first + static_cast<std::uint64_t>(l);
  const philox_lanes m0 = philox_lanes{} + 0xD2511F53u, m1 = philox_lanes{} + 0xCD9E8D57u;
  philox_lanes c1 = c0 >> 32, c2 = tag, c3{};  // counter (b low, b high, tag, 0)
  for (int r = 0; r < 10; ++r) {  // GCC and Clang unroll it (ten rounds, known)
    const philox_lanes p0 = philox_mul(c0, m0), p1 = philox_mul(c2, m1);
    c0 = (p1 >> 32) ^ c1 ^ ka[r];
    c2 = (p0 >> 32) ^ c3 ^ kb[r];
    c1 = p1;
    c3 = p0;
  }
  const philox_lanes mask = philox_lanes{} + 0xFFFFFFFFu;
  const philox_lanes a = (c0 & mask) | (c1 << 32), b = (c2 & mask) | (c3 << 32);  // words 0-1, 2-3 of each block
#if defined(__AVX512F__)
  const philox_lanes o0 = __builtin_shufflevector(a, b, 0, 8, 1, 9, 2, 10, 3, 11);
  const philox_lanes o1 = __builtin_shufflevector(a, b, 4, 12, 5, 13, 6, 14, 7, 15);
#elif defined(__AVX2__)
  const philox_lanes o0 = __builtin_shufflevector(a, b, 0, 4, 1, 5);
  const philox_lanes o1 = __builtin_shufflevector(a, b, 2, 6, 3, 7);
#else
  const philox_lanes o0 = __builtin_shufflevector(a, b, 0, 2);
  const philox_lanes o1 = __builtin_shufflevector(a, b, 1, 3);
#endif
  std::memcpy(out, &o0, sizeof o0);  // little-endian: word 0 of a block first
  std::memcpy(out + 2 * philox_width, &o1, sizeof o1);
}
#endif

/// The words of blocks first .. first + count - 1 of a stream (counter
/// (b mod 2^32, b / 2^32, tag, 0) under key): out[4k + j] is word j of block
/// first + k. Host only; the same words as philox_at, block for block.
inline void philox_blocks(u32x2 key, std::uint32_t tag, std::uint64_t first, std::size_t count, std::uint32_t* out) {
  std::size_t k = 0;
#if SINTER_PHILOX_LANES
  constexpr std::uint32_t w0 = 0x9E3779B9u, w1 = 0xBB67AE85u;
  philox_lanes ka[10], kb[10];
  for (int r = 0; r < 10; ++r) {
    ka[r] = philox_lanes{} + (key.v[0] + static_cast<std::uint32_t>(r) * w0);
    kb[r] = philox_lanes{} + (key.v[1] + static_cast<std::uint32_t>(r) * w1);
  }
  const philox_lanes tags = philox_lanes{} + tag;
  for (; k + philox_width <= count; k += philox_width) philox_lane_group(ka, kb, tags, first + k, out + 4 * k);
#endif
  for (std::uint32_t* o = out + 4 * k; k < count; ++k, o += 4) {  // a pointer: 4 * k gave GCC 12 a false
    const u32x4 b = philox_at(key, first + k, tag);                  // -Waggressive-loop-optimizations
    std::memcpy(o, b.v, sizeof b.v);
  }
}

/// Two words as one 64-bit value, `hi` in the upper half.
SINTER_HD SINTER_FORCEINLINE constexpr std::uint64_t join64(std::uint32_t hi, std::uint32_t lo) {
  return (std::uint64_t{hi} << 32) | lo;
}

}  // namespace sinter::detail

namespace sinter::random {

/// The raw Philox4x32-10 block function: `philox4x32_10({0, 0, 0, 0}, {0, 0})`
/// is {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8} (Random123's kat_vectors).
SINTER_HD SINTER_FORCEINLINE constexpr std::array<std::uint32_t, 4> philox4x32_10(std::array<std::uint32_t, 4> counter,
                                                                     std::array<std::uint32_t, 2> key) {
  // bit_cast, not operator[]: std::array's members are host functions to nvcc.
  const detail::u32x4 out = detail::philox4x32_10(__builtin_bit_cast(detail::u32x4, counter),
                                                  __builtin_bit_cast(detail::u32x2, key));
  return __builtin_bit_cast(std::array<std::uint32_t, 4>, out);
}

}  // namespace sinter::random
