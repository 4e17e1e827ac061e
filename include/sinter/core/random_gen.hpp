#pragma once
/// \file random_gen.hpp
/// The generators of sinter::random's lazy leaves: element i of each is a
/// pure function of (key, i), one Philox4x32-10 block per element at counter
/// (i mod 2^32, i / 2^32, the distribution's tag, 0). The bit recipes are
/// docs/design.md's "Random numbers"; change none without changing that page.
#include <cstdint>
#include <type_traits>

#include "dtype.hpp"
#include "math/functions.hpp"
#include "philox.hpp"

namespace sinter::detail {

/// Counter word 2 of each stream: distributions drawn from one key differ.
enum random_tag : std::uint32_t {
  tag_uniform = 1,
  tag_normal = 2,
  tag_integers = 3,
  tag_bernoulli = 4,
  tag_exponential = 5,
  tag_split = 0x73706c74u,  // "splt": split's derived keys
  tag_fold = 0x666f6c64u,   // "fold": fold_in's derived key
};

/// Uniform in [0, 1) from the top 24 bits of w: a multiple of 2^-24, never 1.
SINTER_HD SINTER_FORCEINLINE float unit_float(std::uint32_t w) { return static_cast<float>(w >> 8) * 0x1p-24f; }
/// Uniform in (0, 1] from the top 24 bits of w (never 0: a logarithm's input).
SINTER_HD SINTER_FORCEINLINE float unit_float_pos(std::uint32_t w) {
  return static_cast<float>((w >> 8) + 1u) * 0x1p-24f;
}
/// Uniform in [0, 1) from the top 53 bits of hi:lo: a multiple of 2^-53.
SINTER_HD SINTER_FORCEINLINE double unit_double(std::uint32_t hi, std::uint32_t lo) {
  return static_cast<double>(join64(hi, lo) >> 11) * 0x1p-53;
}
/// Uniform in (0, 1] from the top 53 bits of hi:lo.
SINTER_HD SINTER_FORCEINLINE double unit_double_pos(std::uint32_t hi, std::uint32_t lo) {
  return static_cast<double>((join64(hi, lo) >> 11) + 1u) * 0x1p-53;
}
/// A uniform of compute type C (float: word 0; double: words 0 and 1).
template <class C, bool Pos>
SINTER_HD SINTER_FORCEINLINE C unit_of(const u32x4& b) {
  if constexpr (std::is_same_v<C, float>) return Pos ? unit_float_pos(b.v[0]) : unit_float(b.v[0]);
  else return Pos ? unit_double_pos(b.v[0], b.v[1]) : unit_double(b.v[0], b.v[1]);
}

/// sinter::random::uniform: lo + span * u, at most `top` (the largest T below hi).
template <class T>
struct uniform_gen {
  using value_type = T;
  using C = compute_t<T>;
  static constexpr const char* name = "uniform";
  u32x2 key;
  C lo, span, top;
  SINTER_HD SINTER_FORCEINLINE T operator()(index_t i) const {
    const C r = lo + span * unit_of<C, false>(philox_at(key, static_cast<std::uint64_t>(i), tag_uniform));
    return convert<T>(r < top ? r : top);  // rounding can reach hi; top is exact in T
  }
};

/// sinter::random::normal: Box-Muller, mean + stddev * sqrt(-2 log u1) * cos(2 pi u2).
template <class T>
struct normal_gen {
  using value_type = T;
  using C = compute_t<T>;
  static constexpr const char* name = "normal";
  u32x2 key;
  C mean, stddev;
  SINTER_HD SINTER_FORCEINLINE T operator()(index_t i) const {
    const u32x4 b = philox_at(key, static_cast<std::uint64_t>(i), tag_normal);
    C u1, u2;
    if constexpr (std::is_same_v<C, float>) {
      u1 = unit_float_pos(b.v[0]);
      u2 = unit_float(b.v[1]);
    } else {
      u1 = unit_double_pos(b.v[0], b.v[1]);
      u2 = unit_double(b.v[2], b.v[3]);
    }
    const C two_pi = static_cast<C>(6.283185307179586476925286766559);
    const C z = math::sqrt(C(-2) * math::log(u1)) * math::cos(two_pi * u2);
    return convert<T>(mean + stddev * z);
  }
};

/// sinter::random::exponential: scale * -log(u), u in (0, 1].
template <class T>
struct exponential_gen {
  using value_type = T;
  using C = compute_t<T>;
  static constexpr const char* name = "exponential";
  u32x2 key;
  C scale;
  SINTER_HD SINTER_FORCEINLINE T operator()(index_t i) const {
    const C u = unit_of<C, true>(philox_at(key, static_cast<std::uint64_t>(i), tag_exponential));
    return convert<T>(scale * (C(0) - math::log(u)));  // 0 - log(1) is +0, not -0
  }
};

/// floor(x * r / 2^64) for r <= 2^32, in 64-bit arithmetic.
SINTER_HD SINTER_FORCEINLINE std::uint64_t mul_hi_64_32(std::uint64_t x, std::uint64_t r) {
  return ((x >> 32) * r + (((x & 0xFFFFFFFFu) * r) >> 32)) >> 32;
}
/// floor((x1 * 2^32 + x0) * r / 2^96), r = 0 meaning 2^64.
SINTER_HD SINTER_FORCEINLINE std::uint64_t mul_hi_96_64(std::uint64_t x1, std::uint32_t x0, std::uint64_t r) {
  const std::uint64_t m = 0xFFFFFFFFu;
  const std::uint64_t a1 = x1 >> 32, a0 = x1 & m, r1 = r >> 32, r0 = r & m;
  // x1 * r as a 128-bit hi:lo, from four 32x32 products.
  const std::uint64_t p00 = a0 * r0, p01 = a0 * r1, p10 = a1 * r0, p11 = a1 * r1;
  const std::uint64_t mid = (p00 >> 32) + (p01 & m) + (p10 & m);
  const std::uint64_t lo = (mid << 32) | (p00 & m);
  std::uint64_t hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
  // + floor(x0 * r / 2^32), below 2^64.
  const std::uint64_t add = x0 * r1 + ((x0 * r0) >> 32);
  hi += lo + add < lo ? 1u : 0u;  // the carry of the low half
  return r == 0 ? x1 : hi;  // r = 2^64: the formula gives x1 itself
}

/// sinter::random::integers: lo + floor(X * r / 2^B), X the first B bits of
/// the block (B = 64 for types up to 32 bits, 96 for 64-bit types), r = hi - lo.
template <class T>
struct integers_gen {
  using value_type = T;
  using U = std::make_unsigned_t<T>;
  static constexpr const char* name = "integers";
  u32x2 key;
  U lo;
  std::uint64_t range;  // hi - lo; 0 means 2^64 (the full range of a 64-bit T)
  SINTER_HD SINTER_FORCEINLINE T operator()(index_t i) const {
    const u32x4 b = philox_at(key, static_cast<std::uint64_t>(i), tag_integers);
    std::uint64_t v;
    if constexpr (sizeof(T) <= 4) v = mul_hi_64_32(join64(b.v[0], b.v[1]), range);
    else v = mul_hi_96_64(join64(b.v[0], b.v[1]), b.v[2], range);
    return static_cast<T>(static_cast<U>(lo + static_cast<U>(v)));  // wraps as unsigned: no UB
  }
};

/// sinter::random::bernoulli: word 0 below threshold = round(p * 2^32).
struct bernoulli_gen {
  using value_type = bool;
  static constexpr const char* name = "bernoulli";
  u32x2 key;
  std::uint64_t threshold;
  SINTER_HD SINTER_FORCEINLINE bool operator()(index_t i) const {
    return philox_at(key, static_cast<std::uint64_t>(i), tag_bernoulli).v[0] < threshold;
  }
};

}  // namespace sinter::detail
