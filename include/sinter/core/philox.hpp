#pragma once
/// \file philox.hpp
/// The Philox4x32-10 block function (Salmon et al., "Parallel random numbers:
/// as easy as 1, 2, 3", SC 2011; the Random123 library's philox4x32_R with 10
/// rounds): a bijection of a 128-bit counter under a 64-bit key. Branch-free,
/// 32x32->64 multiplies only, so the host loop vectorises it; the same code
/// runs in CUDA kernels.
#include <array>
#include <cstdint>

#include "../config.hpp"

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

/// The Philox block of element `i` of a stream: counter (low 32 bits of i,
/// high 32 bits of i, the stream's tag, 0) under `key`.
SINTER_HD SINTER_FORCEINLINE constexpr u32x4 philox_at(u32x2 key, std::uint64_t i, std::uint32_t tag) {
  return philox4x32_10(u32x4{{static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i >> 32), tag, 0u}}, key);
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
