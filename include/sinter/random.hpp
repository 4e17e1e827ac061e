#pragma once
/// \file random.hpp
/// Counter-based random numbers (sinter::random): a key, and lazy generator
/// leaves whose element i is a pure function of (key, i), so a random array
/// costs no memory, fuses into the pass that reads it, and has the same
/// values on every policy, thread count, layout and view. The bit recipes:
/// docs/design.md, "Random numbers".
#include <array>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "array.hpp"
#include "core/philox.hpp"
#include "core/random_gen.hpp"

namespace sinter::random {

/// A Philox key from a 64-bit seed: `sinter::random::key k{42};` (words: the
/// seed's low then high 32 bits). Keys are values; derive new ones with split and fold_in.
struct key {
  std::array<std::uint32_t, 2> words{};  ///< the Philox key, low word first
  /// The key of seed 0.
  constexpr key() = default;
  /// The key of `seed` (any integer type; a negative seed as its 64-bit two's complement).
  template <std::integral I>
    requires(!std::is_same_v<I, bool>)
  constexpr explicit key(I seed)
      : words{static_cast<std::uint32_t>(static_cast<std::uint64_t>(seed)),
              static_cast<std::uint32_t>(static_cast<std::uint64_t>(seed) >> 32)} {}
  /// The key of the given Philox key words.
  constexpr explicit key(std::array<std::uint32_t, 2> w) : words(w) {}
  /// Keys are equal when their words are.
  friend constexpr bool operator==(const key&, const key&) = default;
};

}  // namespace sinter::random

namespace sinter::detail {
/// The Philox words of a key.
inline constexpr u32x2 random_words(const random::key& k) { return {{k.words[0], k.words[1]}}; }
/// The key derived from k by block (v mod 2^32, v / 2^32, tag, 0): its words 0 and 1.
inline constexpr random::key random_derive(const random::key& k, std::uint64_t v, std::uint32_t tag) {
  const u32x4 b = philox_at(random_words(k), v, tag);
  return random::key(std::array<std::uint32_t, 2>{b.v[0], b.v[1]});
}
/// The shape of a generator: value_error naming a negative axis.
template <std::size_t R>
extents<R> random_shape(const extents<R>& s, const char* who) {
  check_extents(s, who);
  return s;
}
/// Throws value_error: "sinter::random::<who>: <arg> = <value>; <rule>".
[[noreturn]] inline void random_bad(const char* who, const char* arg, double value, const char* rule) {
  throw value_error(std::string("sinter::random::") + who + ": " + arg + " = " + std::to_string(value) + "; " + rule);
}
/// The largest T below h (h finite), in T's compute type.
template <class T>
compute_t<T> random_below(T h) {
  if constexpr (is_half_like_v<T>) {
    T t = h;
    const bool neg = (t.bits & 0x8000u) != 0, zero = (t.bits & 0x7FFFu) == 0;
    t.bits = static_cast<std::uint16_t>(zero ? 0x8001u : (neg ? t.bits + 1u : t.bits - 1u));
    return static_cast<float>(t);
  } else {
    return std::nextafter(h, -std::numeric_limits<T>::infinity());
  }
}
/// The default rank of a generator whose rank comes from its extents argument.
inline constexpr std::size_t any_rank = static_cast<std::size_t>(-1);
/// True for sinter::extents<R>.
template <class S>
inline constexpr bool is_extents_v = false;
template <std::size_t R>
inline constexpr bool is_extents_v<extents<R>> = true;
template <class G, std::size_t R>
auto random_leaf(const G& g, const extents<R>& s) {
  return expr<gen_leaf<G, R>, any_policy, 0>(
      {g, 0, s, row_major_strides(s)});
}
}  // namespace sinter::detail

namespace sinter::random {

/// n independent keys derived from k (key j from Philox block (j, 0, "splt", 0)
/// under k): `auto ks = sinter::random::split(k, 4);` as jax.random.split.
inline std::vector<key> split(const key& k, std::size_t n) {
  std::vector<key> out;
  out.reserve(n);
  for (std::size_t j = 0; j != n; ++j) out.push_back(detail::random_derive(k, j, detail::tag_split));
  return out;
}

/// A key derived from k and an integer (a step, a rank, an index) through
/// Philox, as jax.random.fold_in: `fold_in(k, step)`.
template <std::integral I>
  requires(!std::is_same_v<I, bool>)
constexpr key fold_in(const key& k, I data) {
  return detail::random_derive(k, static_cast<std::uint64_t>(data), detail::tag_fold);
}

/// Lazy uniform values in [lo, hi) (never hi, also after rounding to T):
/// `sinter::random::uniform<float>(k, {n}, -1, 1)`. value_error unless lo < hi in T.
/// S is deduced (never from a braced list), so `uniform<float, 1>(k, {n})` picks the braced form.
template <floating_element T = double, std::size_t R = detail::any_rank, class S>
  requires detail::is_extents_v<S> && (R == detail::any_rank || R == S::size())
auto uniform(const key& k, const S& shape, double lo = 0, double hi = 1) {
  using C = compute_t<T>;
  const auto s = detail::random_shape(shape, "sinter::random::uniform");
  const C l = static_cast<C>(static_cast<T>(lo)), h = static_cast<C>(static_cast<T>(hi));
  if (!std::isfinite(l)) detail::random_bad("uniform", "lo", lo, "lo must be finite in the element type");
  if (!(h > l) || !std::isfinite(h))
    detail::random_bad("uniform", "hi", hi, "hi must be finite and above lo (after rounding to the element type)");
  if (!std::isfinite(h - l)) detail::random_bad("uniform", "hi", hi, "hi - lo overflows the element type");
  const detail::uniform_gen<T> g{detail::random_words(k), l, h - l, detail::random_below(static_cast<T>(h))};
  return detail::random_leaf(g, s);
}
/// The same with a braced shape: `uniform<double>(k, {3, 4})`.
template <floating_element T = double, std::size_t R>
auto uniform(const key& k, const detail::extent_arg (&shape)[R], double lo = 0, double hi = 1) {
  return uniform<T>(k, detail::extents_of(shape, "sinter::random::uniform"), lo, hi);
}

/// Lazy normal values (Box-Muller): `x = a + 0.1f * normal<float>(k, a.shape())`
/// is one pass. value_error if stddev is negative or not finite.
/// S as in uniform.
template <floating_element T = double, std::size_t R = detail::any_rank, class S>
  requires detail::is_extents_v<S> && (R == detail::any_rank || R == S::size())
auto normal(const key& k, const S& shape, double mean = 0, double stddev = 1) {
  using C = compute_t<T>;
  const auto s = detail::random_shape(shape, "sinter::random::normal");
  if (!(stddev >= 0) || !std::isfinite(stddev))
    detail::random_bad("normal", "stddev", stddev, "stddev must be finite and 0 or more");
  const detail::normal_gen<T> g{detail::random_words(k), static_cast<C>(mean), static_cast<C>(stddev)};
  return detail::random_leaf(g, s);
}
/// The same with a braced shape.
template <floating_element T = double, std::size_t R>
auto normal(const key& k, const detail::extent_arg (&shape)[R], double mean = 0, double stddev = 1) {
  return normal<T>(k, detail::extents_of(shape, "sinter::random::normal"), mean, stddev);
}

/// Lazy exponential values of mean `scale`: `exponential<float>(k, {n}, 2.0)`.
/// value_error unless scale is finite and above 0.
/// S as in uniform.
template <floating_element T = double, std::size_t R = detail::any_rank, class S>
  requires detail::is_extents_v<S> && (R == detail::any_rank || R == S::size())
auto exponential(const key& k, const S& shape, double scale = 1) {
  const auto s = detail::random_shape(shape, "sinter::random::exponential");
  if (!(scale > 0) || !std::isfinite(scale))
    detail::random_bad("exponential", "scale", scale, "scale must be finite and above 0");
  const detail::exponential_gen<T> g{detail::random_words(k), static_cast<compute_t<T>>(scale)};
  return detail::random_leaf(g, s);
}
/// The same with a braced shape.
template <floating_element T = double, std::size_t R>
auto exponential(const key& k, const detail::extent_arg (&shape)[R], double scale = 1) {
  return exponential<T>(k, detail::extents_of(shape, "sinter::random::exponential"), scale);
}

/// Lazy integers in [lo, hi) of type T, bias below 2^-32 (docs/design.md):
/// `integers<std::int8_t>(k, {n}, -128, 128)`. lo and hi of any integer
/// types; value_error unless T's minimum <= lo < hi <= T's maximum + 1.
/// S as in uniform.
template <integral_element T, std::size_t R = detail::any_rank, class S, std::integral L, std::integral H>
  requires detail::is_extents_v<S> && (R == detail::any_rank || R == S::size())
auto integers(const key& k, const S& shape, L lo, H hi) {
  const auto s = detail::random_shape(shape, "sinter::random::integers");
  using lim = std::numeric_limits<T>;
  if (std::cmp_less(lo, lim::min()) || std::cmp_greater(lo, lim::max()))
    detail::random_bad("integers", "lo", static_cast<double>(lo), "lo must be within the element type's range");
  if (!std::cmp_greater(hi, lo))
    detail::random_bad("integers", "hi", static_cast<double>(hi), "hi must be above lo (the range is [lo, hi))");
  if (std::cmp_greater(hi, lim::max()) && !(std::cmp_equal(hi - 1, lim::max())))
    detail::random_bad("integers", "hi", static_cast<double>(hi), "hi must be at most the element type's maximum + 1");
  using U = std::make_unsigned_t<T>;
  // hi - lo modulo 2^64: at most 2^64, which wraps to 0, the generator's 2^64.
  const std::uint64_t range = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
  const detail::integers_gen<T> g{detail::random_words(k), static_cast<U>(lo), range};
  return detail::random_leaf(g, s);
}
/// The same with a braced shape.
template <integral_element T, std::size_t R, std::integral L, std::integral H>
auto integers(const key& k, const detail::extent_arg (&shape)[R], L lo, H hi) {
  return integers<T>(k, detail::extents_of(shape, "sinter::random::integers"), lo, hi);
}
/// Lazy integers over the whole range of T (every bit pattern equally
/// likely; for 64-bit types, whose hi could not be written): `integers<std::uint64_t>(k, {n})`.
/// S as in uniform.
template <integral_element T, std::size_t R = detail::any_rank, class S>
  requires detail::is_extents_v<S> && (R == detail::any_rank || R == S::size())
auto integers(const key& k, const S& shape) {
  const auto s = detail::random_shape(shape, "sinter::random::integers");
  const std::uint64_t range = sizeof(T) == 8 ? 0 : std::uint64_t{1} << (8 * sizeof(T));
  const detail::integers_gen<T> g{detail::random_words(k), static_cast<std::make_unsigned_t<T>>(std::numeric_limits<T>::min()), range};
  return detail::random_leaf(g, s);
}
/// The same with a braced shape.
template <integral_element T, std::size_t R>
auto integers(const key& k, const detail::extent_arg (&shape)[R]) {
  return integers<T>(k, detail::extents_of(shape, "sinter::random::integers"));
}

/// Lazy booleans, true with probability p (to 2^-33): `bernoulli(k, {n}, 0.3)`.
/// value_error unless 0 <= p <= 1. S is deduced (never from a braced list), so
/// `bernoulli<1>(k, {n}, p)` picks the braced form below instead of being ambiguous.
template <std::size_t R = detail::any_rank, class S>
  requires detail::is_extents_v<S> && (R == detail::any_rank || R == S::size())
auto bernoulli(const key& k, const S& shape, double p) {
  const auto s = detail::random_shape(shape, "sinter::random::bernoulli");
  if (!(p >= 0 && p <= 1)) detail::random_bad("bernoulli", "p", p, "p must be within [0, 1]");
  const auto threshold = static_cast<std::uint64_t>(std::llround(p * 0x1p32));
  const detail::bernoulli_gen g{detail::random_words(k), threshold};
  return detail::random_leaf(g, s);
}
/// The same with a braced shape.
template <std::size_t R>
auto bernoulli(const key& k, const detail::extent_arg (&shape)[R], double p) {
  return bernoulli(k, detail::extents_of(shape, "sinter::random::bernoulli"), p);
}

}  // namespace sinter::random
