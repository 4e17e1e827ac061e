#pragma once
/// \file random_gen.hpp
/// The generators of sinter::random's lazy leaves: element i of each is a
/// pure function of (key, i), taken from Philox4x32-10 block i / P at counter
/// (b mod 2^32, b / 2^32, the distribution's tag, 0), P = 4, 2 or 1 elements
/// per block. `g(i)` computes one element; `g.fill_run` whole runs through
/// philox_blocks' vector lanes. The bit recipes are docs/design.md's "Random
/// numbers"; change none without changing that page.
#include <cstddef>
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
/// Word j (0..3) of block b, by selects (a run-time index into the block
/// would put it in CUDA's local memory).
SINTER_HD SINTER_FORCEINLINE std::uint32_t word_of(const u32x4& b, unsigned j) {
  const std::uint32_t lo = (j & 1u) ? b.v[1] : b.v[0], hi = (j & 1u) ? b.v[3] : b.v[2];
  return (j & 2u) ? hi : lo;
}
/// Words 2j and 2j + 1 (j = 0, 1) of block b: the j-th pair.
SINTER_HD SINTER_FORCEINLINE void pair_of(const u32x4& b, unsigned j, std::uint32_t& first, std::uint32_t& second) {
  first = j ? b.v[2] : b.v[0];
  second = j ? b.v[3] : b.v[1];
}
/// A uniform of compute type C from one word (float) or a pair (double).
template <class C, bool Pos>
SINTER_HD SINTER_FORCEINLINE C unit_of(std::uint32_t w0, std::uint32_t w1) {
  if constexpr (std::is_same_v<C, float>) return Pos ? unit_float_pos(w0) : unit_float(w0);
  else return Pos ? unit_double_pos(w0, w1) : unit_double(w0, w1);
}
/// Elements per Philox block of a generator in compute type C: four floats
/// (a word each) or two doubles (a pair of words each).
template <class C>
inline constexpr index_t per_block_v = std::is_same_v<C, float> ? 4 : 2;

/// cos(2 pi u) and sin(2 pi u) for u = m 2^-B (m below 2^B, B = 24 or 53):
/// the quadrant from m's top bits (exact), then polynomials on
/// |x| <= pi/4 (Taylor to x^9 / x^10 in float, x^17 / x^18 in double).
/// Branch-free, the same code on host and device.
template <class C, class M>
SINTER_HD SINTER_FORCEINLINE void turn_cos_sin(M m, C& c, C& s) {
  constexpr int B = std::is_same_v<C, float> ? 24 : 53;
  using I = std::make_signed_t<M>;
  const M q = (m + (M{1} << (B - 3))) >> (B - 2);                      // the nearest quarter turn, 0..4
  const I r = static_cast<I>(m) - static_cast<I>(q << (B - 2));         // |r| <= 2^(B-3): exact in C
  const C x = static_cast<C>(r) * static_cast<C>(6.283185307179586476925286766559 / (B == 24 ? 0x1p24 : 0x1p53));
  const C x2 = x * x;
  C sp, cp;
  if constexpr (std::is_same_v<C, float>) {
    sp = x + x * x2 * (-1.f / 6 + x2 * (1.f / 120 + x2 * (-1.f / 5040 + x2 * (1.f / 362880))));
    cp = 1.f + x2 * (-0.5f + x2 * (1.f / 24 + x2 * (-1.f / 720 + x2 * (1.f / 40320 + x2 * (-1.f / 3628800)))));
  } else {
    constexpr double f3 = 6, f5 = f3 * 20, f7 = f5 * 42, f9 = f7 * 72, f11 = f9 * 110, f13 = f11 * 156,
                     f15 = f13 * 210, f17 = f15 * 272;
    constexpr double f2 = 2, f4 = f2 * 12, f6 = f4 * 30, f8 = f6 * 56, f10 = f8 * 90, f12 = f10 * 132,
                     f14 = f12 * 182, f16 = f14 * 240, f18 = f16 * 306;
    sp = x + x * x2 * (-1 / f3 + x2 * (1 / f5 + x2 * (-1 / f7 + x2 * (1 / f9 + x2 * (-1 / f11 + x2 * (1 / f13 +
         x2 * (-1 / f15 + x2 * (1 / f17))))))));
    cp = 1 + x2 * (-1 / f2 + x2 * (1 / f4 + x2 * (-1 / f6 + x2 * (1 / f8 + x2 * (-1 / f10 + x2 * (1 / f12 +
         x2 * (-1 / f14 + x2 * (1 / f16 + x2 * (-1 / f18)))))))));
  }
  // angle = q quarter turns + x: rotate (cos x, sin x) by q.
  const bool swap = (q & 1u) != 0, neg_c = ((q + 1u) & 2u) != 0, neg_s = (q & 2u) != 0;
  const C a = swap ? sp : cp, b = swap ? cp : sp;
  c = neg_c ? -a : a;
  s = neg_s ? -b : b;
}

/// Box-Muller on one pair: z_cos = rho cos(2 pi u2), z_sin = rho sin(2 pi u2),
/// rho = sqrt(-2 log u1), u1 = u+ from the first word(s), u2 from the second.
template <class C>
SINTER_HD SINTER_FORCEINLINE void box_muller(std::uint32_t a0, std::uint32_t a1, std::uint32_t b0, std::uint32_t b1,
                                             C& z_cos, C& z_sin) {
  const C rho = math::sqrt(C(-2) * math::log(unit_of<C, true>(a0, a1)));
  C c, s;
  if constexpr (std::is_same_v<C, float>) turn_cos_sin<C>(b0 >> 8, c, s);
  else turn_cos_sin<C>(join64(b0, b1) >> 11, c, s);
  z_cos = rho * c;
  z_sin = rho * s;
}

/// Fills out[0, n) with elements first .. first + n - 1 of generator g: the
/// partial blocks at either end element by element, the whole blocks by
/// philox_blocks (vector lanes) and g.from_words. The same values as g(i).
template <class G>
void gen_fill(const G& g, index_t first, index_t n, typename G::value_type* out) {
  constexpr index_t P = G::per_block;
  constexpr std::size_t chunk = 256;  // blocks per pass of the word buffer: 4 KiB
  index_t k = 0;
  for (; k < n && (first + k) % P != 0; ++k) out[k] = g(first + k);
  alignas(64) std::uint32_t w[4 * chunk];
  while (n - k >= P) {
    const index_t whole = (n - k) / P;
    const std::size_t nb = static_cast<std::size_t>(whole) < chunk ? static_cast<std::size_t>(whole) : chunk;
    philox_blocks(g.key, G::tag, static_cast<std::uint64_t>((first + k) / P), nb, w);
    g.from_words(w, static_cast<index_t>(nb), out + k);
    k += static_cast<index_t>(nb) * P;
  }
  for (; k < n; ++k) out[k] = g(first + k);
}

/// Element i of a generator whose element takes one word (P = 4) or one
/// pair (P = 2) of block i / P through g.value(w0, w1).
template <class G>
SINTER_HD SINTER_FORCEINLINE typename G::value_type word_element(const G& g, index_t i) {
  const u32x4 b = philox_at(g.key, static_cast<std::uint64_t>(i / G::per_block), G::tag);
  const auto j = static_cast<unsigned>(i % G::per_block);
  if constexpr (G::per_block == 4) {
    return g.value(word_of(b, j), 0u);
  } else {
    std::uint32_t w0, w1;
    pair_of(b, j, w0, w1);
    return g.value(w0, w1);
  }
}
/// word_element's values for whole blocks' words (philox_blocks' layout).
template <class G>
SINTER_FORCEINLINE void word_values(const G& g, const std::uint32_t* w, index_t blocks, typename G::value_type* out) {
  const G c = g;  // a copy: read through the reference, stores to out might change it
  if constexpr (G::per_block == 4) {
    for (index_t k = 0; k < 4 * blocks; ++k) out[k] = c.value(w[k], 0u);
  } else {
    for (index_t k = 0; k < 2 * blocks; ++k) out[k] = c.value(w[2 * k], w[2 * k + 1]);
  }
}

/// sinter::random::uniform: lo + span * u, at most `top` (the largest T below hi).
template <class T>
struct uniform_gen {
  using value_type = T;
  using C = compute_t<T>;
  static constexpr const char* name = "uniform";
  static constexpr std::uint32_t tag = tag_uniform;
  static constexpr index_t per_block = per_block_v<C>;  ///< elements per Philox block
  u32x2 key;
  C lo, span, top;
  /// The value of a word (float) or a pair of words (double).
  SINTER_HD SINTER_FORCEINLINE T value(std::uint32_t w0, std::uint32_t w1) const {
    const C r = lo + span * unit_of<C, false>(w0, w1);
    return convert<T>(r < top ? r : top);  // rounding can reach hi; top is exact in T
  }
  SINTER_HD SINTER_FORCEINLINE T operator()(index_t i) const { return word_element(*this, i); }
  /// Whole blocks' words (philox_blocks) to values.
  void from_words(const std::uint32_t* w, index_t blocks, T* out) const { word_values(*this, w, blocks, out); }
  /// Elements first .. first + n - 1 into out (the host's blocks: policy/host/buffered.hpp).
  void fill_run(index_t first, index_t n, T* out) const { gen_fill(*this, first, n, out); }
};

/// sinter::random::normal: Box-Muller on pairs of words (float: words 0-1
/// give elements 4b and 4b + 1, words 2-3 elements 4b + 2 and 4b + 3; double:
/// the four words give elements 2b and 2b + 1), the cosine to the even element.
template <class T>
struct normal_gen {
  using value_type = T;
  using C = compute_t<T>;
  static constexpr const char* name = "normal";
  static constexpr std::uint32_t tag = tag_normal;
  static constexpr index_t per_block = per_block_v<C>;
  u32x2 key;
  C mean, stddev;
  SINTER_HD SINTER_FORCEINLINE T operator()(index_t i) const {
    const u32x4 b = philox_at(key, static_cast<std::uint64_t>(i / per_block), tag);
    const auto j = static_cast<unsigned>(i % per_block);
    C zc, zs;
    if constexpr (per_block == 4) {
      std::uint32_t a, c;
      pair_of(b, j >> 1, a, c);
      box_muller<C>(a, 0u, c, 0u, zc, zs);
    } else {
      box_muller<C>(b.v[0], b.v[1], b.v[2], b.v[3], zc, zs);
    }
    return convert<T>(mean + stddev * ((j & 1u) ? zs : zc));
  }
  /// Whole blocks' words (philox_blocks) to values.
  void from_words(const std::uint32_t* w, index_t blocks, T* out) const {
    const normal_gen g = *this;
    const index_t pairs = 2 * blocks / (4 / per_block);  // float: 2 per block; double: 1
    constexpr index_t step = per_block == 4 ? 2 : 4;     // words per pair
    for (index_t k = 0; k < pairs; ++k) {
      C zc, zs;
      if constexpr (per_block == 4) box_muller<C>(w[2 * k], 0u, w[2 * k + 1], 0u, zc, zs);
      else box_muller<C>(w[step * k], w[step * k + 1], w[step * k + 2], w[step * k + 3], zc, zs);
      out[2 * k] = convert<T>(g.mean + g.stddev * zc);
      out[2 * k + 1] = convert<T>(g.mean + g.stddev * zs);
    }
  }
  /// Elements first .. first + n - 1 into out.
  void fill_run(index_t first, index_t n, T* out) const { gen_fill(*this, first, n, out); }
};

/// sinter::random::exponential: scale * -log(u), u in (0, 1].
template <class T>
struct exponential_gen {
  using value_type = T;
  using C = compute_t<T>;
  static constexpr const char* name = "exponential";
  static constexpr std::uint32_t tag = tag_exponential;
  static constexpr index_t per_block = per_block_v<C>;
  u32x2 key;
  C scale;
  /// The value of a word (float) or a pair of words (double).
  SINTER_HD SINTER_FORCEINLINE T value(std::uint32_t w0, std::uint32_t w1) const {
    return convert<T>(scale * (C(0) - math::log(unit_of<C, true>(w0, w1))));  // 0 - log(1) is +0, not -0
  }
  SINTER_HD SINTER_FORCEINLINE T operator()(index_t i) const { return word_element(*this, i); }
  /// Whole blocks' words (philox_blocks) to values.
  void from_words(const std::uint32_t* w, index_t blocks, T* out) const { word_values(*this, w, blocks, out); }
  /// Elements first .. first + n - 1 into out.
  void fill_run(index_t first, index_t n, T* out) const { gen_fill(*this, first, n, out); }
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

/// sinter::random::integers: lo + floor(X * r / 2^B), r = hi - lo. Types of
/// up to 32 bits: X = a pair of words (B = 64), two elements per block;
/// 64-bit types: X = words 0-2 of the element's own block (B = 96).
template <class T>
struct integers_gen {
  using value_type = T;
  using U = std::make_unsigned_t<T>;
  static constexpr const char* name = "integers";
  static constexpr std::uint32_t tag = tag_integers;
  static constexpr index_t per_block = sizeof(T) <= 4 ? 2 : 1;
  u32x2 key;
  U lo;
  std::uint64_t range;  // hi - lo; 0 means 2^64 (the full range of a 64-bit T)
  /// The value of a pair of words (types of up to 32 bits).
  SINTER_HD SINTER_FORCEINLINE T value(std::uint32_t w0, std::uint32_t w1) const {
    return static_cast<T>(static_cast<U>(lo + static_cast<U>(mul_hi_64_32(join64(w0, w1), range))));
  }
  /// The value of a block (64-bit types).
  SINTER_HD SINTER_FORCEINLINE T value3(std::uint32_t w0, std::uint32_t w1, std::uint32_t w2) const {
    return static_cast<T>(static_cast<U>(lo + static_cast<U>(mul_hi_96_64(join64(w0, w1), w2, range))));  // wraps: no UB
  }
  SINTER_HD SINTER_FORCEINLINE T operator()(index_t i) const {
    if constexpr (per_block == 2) {
      return word_element(*this, i);
    } else {
      const u32x4 b = philox_at(key, static_cast<std::uint64_t>(i), tag);
      return value3(b.v[0], b.v[1], b.v[2]);
    }
  }
  /// Whole blocks' words (philox_blocks) to values.
  void from_words(const std::uint32_t* w, index_t blocks, T* out) const {
    if constexpr (per_block == 2) {
      word_values(*this, w, blocks, out);
    } else {
      const integers_gen g = *this;
      for (index_t k = 0; k < blocks; ++k) out[k] = g.value3(w[4 * k], w[4 * k + 1], w[4 * k + 2]);
    }
  }
  /// Elements first .. first + n - 1 into out.
  void fill_run(index_t first, index_t n, T* out) const { gen_fill(*this, first, n, out); }
};

/// sinter::random::bernoulli: a word below threshold = round(p * 2^32), four elements per block.
struct bernoulli_gen {
  using value_type = bool;
  static constexpr const char* name = "bernoulli";
  static constexpr std::uint32_t tag = tag_bernoulli;
  static constexpr index_t per_block = 4;
  u32x2 key;
  std::uint64_t threshold;
  /// The value of a word.
  SINTER_HD SINTER_FORCEINLINE bool value(std::uint32_t w0, std::uint32_t) const { return w0 < threshold; }
  SINTER_HD SINTER_FORCEINLINE bool operator()(index_t i) const { return word_element(*this, i); }
  /// Whole blocks' words (philox_blocks) to values.
  void from_words(const std::uint32_t* w, index_t blocks, bool* out) const { word_values(*this, w, blocks, out); }
  /// Elements first .. first + n - 1 into out.
  void fill_run(index_t first, index_t n, bool* out) const { gen_fill(*this, first, n, out); }
};

}  // namespace sinter::detail
