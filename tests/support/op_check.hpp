#pragma once
// Shared machinery of the op tests (tests/core/test_ops_*.cpp).
//
// `check<In...>(op(name, f, ref, domains, tol), op(...), ...)` checks a
// group of ops of one result type under host and under par, on the same
// data (the references computed once): `f` builds the sinter expression from
// rank-2 views of the inputs, `ref` is an independent scalar reference in
// long double (called with a tag of the result type and the exact input
// values). The inputs are random (fixed seed) with NaN, ±inf, ±0, denormals
// and integer extremes injected, and are laid out in every way the catalogue
// below knows (contiguous, step 2 and 3, reversed, misaligned by one element,
// transposed, broadcast row / column / 1x1, strided output).
//
// Compile time: an expression assignment costs ~0.3 s of g++ -O2 each, and
// ops x dtypes x policies is over a thousand. So the ops of a group are fused
// into one expression, `where(sel == 0, f0(x), where(sel == 1, f1(x), ...))`,
// with `sel` a broadcast 1x1 array set to the op under test: one
// instantiation per (group, input types, policy), ops and layouts chosen at
// run time. Everything that does not depend on the expression (data,
// reference loop, comparison) is compiled once, not per op.
//
// The large layouts (262147 elements contiguous, 384x389 strided) run the
// whole group in ONE pass: `sel` is then a full random array, so each
// element picks its op at random, its inputs come from that op's domains,
// and every element is compared with that op's reference. Every op and
// dtype is covered at that size at the cost of one pass per group, not one
// per op.
//
// Floating results are compared in ULPs of the result type against the
// unrounded reference (0.5 ULP = correctly rounded); NaN where the reference is
// NaN and infinities exactly. Integer and bool results are compared exactly.
#include <sinter/sinter.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <iomanip>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <type_traits>
#include <vector>

namespace op_test {

namespace st = sinter;
using ld = long double;
using st::index_t;

// ---- types -------------------------------------------------------------------

template <class T> struct tag { using type = T; };
template <class... T> struct type_list {};

template <class... T, class F>
void for_each_type(type_list<T...>, F&& f) {
  (f(tag<T>{}), ...);
}

using int_types = type_list<std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
                            std::uint16_t, std::uint32_t, std::uint64_t>;
using float_types = type_list<float, double, st::half, st::bfloat16>;
/// Everything but bool: what arithmetic accepts.
using numeric_types = type_list<std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
                                std::uint16_t, std::uint32_t, std::uint64_t, float, double, st::half,
                                st::bfloat16>;
/// Integers and bool: what bitwise ops accept.
using bitwise_types = type_list<bool, std::int8_t, std::int16_t, std::int32_t, std::int64_t,
                                std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t>;
using all_types = type_list<bool, std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
                            std::uint16_t, std::uint32_t, std::uint64_t, float, double, st::half,
                            st::bfloat16>;

template <class T>
inline constexpr bool is_float_v = std::is_floating_point_v<T> || st::is_half_like_v<T>;
template <class T>
inline constexpr bool is_int_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

/// The exact value of an element as long double (x86 long double holds every int64/uint64).
template <class T>
ld to_ld(T v) {
  if constexpr (st::is_half_like_v<T>) return static_cast<ld>(static_cast<float>(v));
  else return static_cast<ld>(v);
}

/// A value as element type T (the caller keeps integer targets in range).
template <class T>
T from_ld(ld x) {
  if constexpr (st::is_half_like_v<T>) return T(static_cast<float>(x));
  else return static_cast<T>(x);
}

/// x rounded to the type C (as an operand converted to the type an op computes in).
template <class C>
ld in(ld x) {
  if constexpr (std::is_same_v<C, bool>) return x != 0 ? 1 : 0;  // NaN is true
  else return to_ld(from_ld<C>(x));
}

/// The type an op of result R computes in: float for half/bfloat16 (documented).
template <class R>
using compute_of = std::conditional_t<st::is_half_like_v<R>, float, R>;

/// Integer wrap-around to R of an exact integer given as two's complement bits.
template <class R>
ld wrap(std::uint64_t bits) {
  return static_cast<ld>(static_cast<R>(bits));  // modular since C++20
}
template <class R>
std::uint64_t bits_of(ld x) {  // x an integer value of R (or of a type R converts from exactly)
  if (x < 0) return static_cast<std::uint64_t>(static_cast<std::int64_t>(x));
  return static_cast<std::uint64_t>(x);
}

// ---- tolerances -------------------------------------------------------------

/// A bound on the error of a floating result, in ULPs of the result type.
/// 0.5 is "correctly rounded"; the slack above it absorbs the reference's own
/// long double rounding (64-bit mantissa) when the result type is double.
struct ulps {
  double f32_64;
  double f16;
  bool signed_zero = false;  // also require the sign of a zero result to match
};
inline constexpr double correctly_rounded = 0.501;
/// Exact, the sign of zero included.
inline constexpr ulps exact{0, 0, true};
/// Exact value, either sign of zero.
inline constexpr ulps exact_value{0, 0, false};
inline constexpr ulps rounded{correctly_rounded, correctly_rounded};
/// A ULP bound of a math function: `ulps32_64` for float and double; 16-bit
/// results are computed in float and rounded once more, so 1 half ULP.
constexpr ulps math_ulps(double ulps32_64) { return {ulps32_64, 1.0}; }

/// What the comparison needs to know of the result type.
struct type_info {
  const char* name;
  bool is_float;
  bool half_like;
  int digits, min_exponent, max_exponent;
  ld max;
};
template <class R>
type_info info_of() {
  if constexpr (is_float_v<R>) {
    using L = std::numeric_limits<R>;
    return {st::dtype_name<R>(), true, st::is_half_like_v<R>, L::digits, L::min_exponent,
            L::max_exponent, to_ld(L::max())};
  } else {
    return {st::dtype_name<R>(), false, false, 0, 0, 0, 0};
  }
}

/// Error of `got` against the unrounded `ref`, in ULPs of the result type;
/// infinity for a NaN / infinity mismatch. Overflow is measured on an
/// extended scale where infinity sits at 2^max_exponent.
inline double ulp_error(const type_info& t, ld got, ld ref) {
  const bool gn = std::isnan(got), rn = std::isnan(ref);
  if (gn || rn) return gn == rn ? 0.0 : HUGE_VAL;
  if (std::isinf(ref)) return got == ref ? 0.0 : HUGE_VAL;
  const ld top = std::ldexp(ld{1}, t.max_exponent);
  const ld ulp_top = std::ldexp(ld{1}, t.max_exponent - t.digits);
  const ld g = std::isinf(got) ? std::copysign(top, got) : got;
  ld r = ref;
  if (std::fabs(r) >= t.max + ulp_top / 2) r = std::copysign(top, r);  // rounds to inf
  int e = 0;
  (void)std::frexp(std::min(std::fabs(r), t.max), &e);
  e = std::max(e, t.min_exponent);
  const ld u = std::ldexp(ld{1}, e - t.digits);
  return static_cast<double>(std::fabs(g - r) / u);
}

inline bool close(const type_info& t, ld got, ld ref, const ulps& tol, double* err) {
  if (!t.is_float) {
    *err = got == ref ? 0.0 : HUGE_VAL;
    return got == ref;
  }
  *err = ulp_error(t, got, ref);
  if (*err > (t.half_like ? tol.f16 : tol.f32_64)) return false;
  if (tol.signed_zero && got == 0 && ref == 0 && std::signbit(got) != std::signbit(ref)) {
    *err = HUGE_VAL;
    return false;
  }
  return true;
}

// ---- random data ------------------------------------------------------------

/// Where an operand's values come from. Floats: uniform in [lo, hi] (or
/// sign * 10^U(lo, hi) when `log_scale`), ints: uniform in [lo, hi] clamped to
/// the type, or the full range. `special_rate` of the values are replaced by
/// specials (NaN, ±inf, ±0, denormals, extremes, ±1, ±0.5 for floats; min, max,
/// 0, ±1 for ints), `zero_rate` by 0, `halves_rate` rounded to a multiple of 0.5.
struct domain {
  double lo = -1e3, hi = 1e3;
  bool int_full = true;  // ints: the whole range of the type
  bool log_scale = false;
  double neg_rate = 0.5;  // log_scale: fraction negated
  double special_rate = 0.1;
  double zero_rate = 0.0;
  double halves_rate = 0.0;
  double integral_rate = 0.0;  // floats: fraction rounded to an integer
  bool nonfinite = true;       // floats: allow NaN and inf among the specials
};
inline domain dom(double lo, double hi) {
  domain d;
  d.lo = lo;
  d.hi = hi;
  d.int_full = false;
  return d;
}
inline domain log_dom(double lo_exp, double hi_exp, double neg_rate = 0.5) {
  domain d;
  d.lo = lo_exp;
  d.hi = hi_exp;
  d.log_scale = true;
  d.neg_rate = neg_rate;
  d.int_full = false;
  return d;
}

/// The tests' random bits: splitmix64, a UniformRandomBitGenerator several
/// times cheaper than std::mt19937_64 with std::uniform_real_distribution
/// (which took a quarter of the matrix's run time at -Og).
struct rng {
  using result_type = std::uint64_t;
  std::uint64_t s;
  explicit rng(std::uint64_t seed) : s(seed) {}
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type{0}; }
  result_type operator()() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1): the top 53 bits.
  double u01() { return static_cast<double>((*this)() >> 11) * 0x1.0p-53; }
};

template <class T>
T random_value(rng& g, const domain& d) {
  if constexpr (std::is_same_v<T, bool>) {
    return (g() & 1u) != 0;
  } else if constexpr (is_int_v<T>) {
    using L = std::numeric_limits<T>;
    const double p = g.u01();
    if (p < d.zero_rate) return T(0);
    if (p < d.zero_rate + d.special_rate) {
      const T sp[] = {L::min(), L::max(), T(0), T(1), static_cast<T>(-1), static_cast<T>(L::min() + 1),
                      static_cast<T>(L::max() - 1)};
      return sp[g() % (std::is_signed_v<T> ? 7u : 4u)];
    }
    if (d.int_full) return static_cast<T>(g());
    const double lo = std::max(d.lo, static_cast<double>(L::min()));
    const double hi = std::min(d.hi, static_cast<double>(L::max()));
    const auto ilo = static_cast<std::int64_t>(std::ceil(lo));
    const auto ihi = static_cast<std::int64_t>(std::floor(hi));
    if (ihi <= ilo) return static_cast<T>(ilo);
    const auto span = static_cast<std::uint64_t>(ihi - ilo) + 1;
    return static_cast<T>(static_cast<std::uint64_t>(ilo) + g() % span);
  } else {
    using L = std::numeric_limits<T>;
    const double p = g.u01();
    if (p < d.zero_rate) return T(0.0f);
    if (p < d.zero_rate + d.special_rate) {
      const ld inf = std::numeric_limits<ld>::infinity();
      const ld sp[] = {0.0L, -0.0L, to_ld(L::denorm_min()), -to_ld(L::denorm_min()),
                       to_ld(L::min()) / 2, -to_ld(L::min()) * 3 / 4, to_ld(L::min()),
                       to_ld(L::max()), to_ld(L::lowest()), 1.0L, -1.0L, 0.5L, -0.5L, 2.5L, -1.5L,
                       std::numeric_limits<ld>::quiet_NaN(), inf, -inf};
      const std::size_t n = d.nonfinite ? std::size(sp) : std::size(sp) - 3;
      return from_ld<T>(sp[g() % n]);
    }
    double x;
    if (d.log_scale) {
      x = std::pow(10.0, d.lo + (d.hi - d.lo) * g.u01());
      if (g.u01() < d.neg_rate) x = -x;
    } else {
      x = d.lo + (d.hi - d.lo) * g.u01();
    }
    const double q = g.u01();
    if (q < d.halves_rate) x = std::round(x * 2) / 2;
    else if (q < d.halves_rate + d.integral_rate) x = std::round(x);
    return from_ld<T>(x);
  }
}

// ---- layouts ----------------------------------------------------------------

enum class kind { contiguous, step2, step3, reversed, misaligned, transposed };

struct operand_layout {
  st::extents<2> shape;
  kind k;
};

struct layout_case {
  std::string name;
  st::extents<2> out;
  std::vector<operand_layout> in;
  kind out_kind;
};

/// Strides, buffer length and offset of the first element for a layout.
struct placement {
  st::extents<2> strides{};
  index_t len = 0, base = 0;
};
inline placement place(const operand_layout& l) {
  const index_t r = l.shape[0], c = l.shape[1], n = r * c;
  switch (l.k) {
    case kind::contiguous: return {{c, 1}, n, 0};
    case kind::step2: return {{2 * c, 2}, 2 * n, 0};
    case kind::step3: return {{3 * c, 3}, 3 * n, 0};
    case kind::reversed: return {{-c, -1}, n, n > 0 ? n - 1 : 0};
    case kind::misaligned: return {{c, 1}, n + 1, 1};
    case kind::transposed: return {{1, r}, n, 0};
  }
  return {};
}

/// Offset of element (i, j) of a layout broadcast to `out`.
inline index_t offset(const operand_layout& l, const placement& p, const st::extents<2>& out,
                      index_t i, index_t j) {
  const index_t s0 = l.shape[0] == 1 && out[0] != 1 ? 0 : p.strides[0];
  const index_t s1 = l.shape[1] == 1 && out[1] != 1 ? 0 : p.strides[1];
  return p.base + i * s0 + j * s1;
}

/// Sizes 0, 1, 7, 64 in every layout, 2-D 0x3, transposed and broadcasts on
/// 8x8 and 7x9 (run once per op, with a 1x1 `sel`).
inline std::vector<layout_case> layouts(std::size_t N) {
  std::vector<layout_case> v;
  auto all = [N](st::extents<2> s, kind k) { return std::vector<operand_layout>(N, {s, k}); };
  for (index_t n : {0, 1, 7, 64}) {
    const st::extents<2> s{1, n};
    const std::string sz = " n=" + std::to_string(n);
    v.push_back({"contiguous" + sz, s, all(s, kind::contiguous), kind::contiguous});
    auto steps = all(s, kind::step2);
    for (std::size_t i = 1; i < N; i += 2) steps[i].k = kind::step3;
    v.push_back({"step 2/3" + sz, s, steps, kind::contiguous});
    v.push_back({"reversed, output step 2" + sz, s, all(s, kind::reversed), kind::step2});
    v.push_back({"misaligned, output reversed" + sz, s, all(s, kind::misaligned), kind::reversed});
  }
  const st::extents<2> sq{8, 8};
  auto t = all(sq, kind::contiguous);
  t[0].k = kind::transposed;
  v.push_back({"transposed 8x8, output transposed", sq, t, kind::transposed});
  v.push_back({"2-D 0x3", {0, 3}, all({0, 3}, kind::step2), kind::contiguous});
  if (N == 1) {
    v.push_back({"row {1,8} broadcast to 8x8", sq, {{{1, 8}, kind::step2}}, kind::contiguous});
    v.push_back({"column {8,1} broadcast to 8x8", sq, {{{8, 1}, kind::reversed}}, kind::step3});
    v.push_back({"1x1 broadcast to 7x9", {7, 9}, {{{1, 1}, kind::misaligned}}, kind::contiguous});
  } else {
    auto row = all(sq, kind::contiguous);
    row[1] = {{1, 8}, kind::step2};
    v.push_back({"8x8 with row {1,8}", sq, row, kind::contiguous});
    auto outer = all({1, 8}, kind::reversed);
    outer[0] = {{8, 1}, kind::contiguous};
    v.push_back({"column {8,1} with row {1,8}", sq, outer, kind::step2});
    auto scal = all({7, 9}, kind::transposed);
    scal[0] = {{1, 1}, kind::misaligned};
    v.push_back({"1x1 with 7x9", {7, 9}, scal, kind::contiguous});
    if (N == 3) {
      auto mix = all(sq, kind::step2);
      mix[0] = {{8, 1}, kind::reversed};
      mix[2] = {{1, 8}, kind::transposed};
      v.push_back({"column, full, row", sq, mix, kind::reversed});
    }
  }
  return v;
}

/// 262147 elements (a prime) contiguous and 384x389 strided (step 2,
/// operand 0 transposed), both above the 131072 elements from which run()
/// checks that par ran threaded (par splits from 2 * par_grain = 65536:
/// 8 chunks on 2 threads, the last one shorter); every operand has the
/// output's shape. Run once per group, with a full random `sel`. (They were
/// 1000003 and 512x512, which took most of the matrix's run time for no
/// path of their own: the 9 matrix files ran in 220 CPU-seconds, now 100,
/// under ctest -j2 on a 2-core Zen 3.)
inline std::vector<layout_case> large_layouts(std::size_t N) {
  std::vector<layout_case> v;
  const st::extents<2> b{1, 262147};
  v.push_back({"contiguous n=262147", b, std::vector<operand_layout>(N, {b, kind::contiguous}),
               kind::contiguous});
  std::vector<operand_layout> str(N, {{384, 389}, kind::step2});
  str[0].k = kind::transposed;
  v.push_back({"strided 384x389", {384, 389}, str, kind::contiguous});
  return v;
}

/// A buffer of T for a layout, filled with random values; `vals` holds their exact values.
template <class T>
struct buffer {
  std::unique_ptr<T[]> data;
  std::vector<ld> vals;
  buffer(index_t len, rng& g, const domain& d)
      : data(new T[static_cast<std::size_t>(len)]), vals(static_cast<std::size_t>(len)) {
    // Past `period` elements the random values repeat with a prime period:
    // every position still holds a random value (never a constant fill),
    // and the large layouts cost little more to set up than the small ones.
    constexpr std::size_t period = 8191;
    for (std::size_t i = 0; i < vals.size(); ++i) {
      data[i] = i < period ? random_value<T>(g, d) : data[i - period];
      vals[i] = to_ld(data[i]);
    }
  }
  buffer(buffer&&) noexcept = default;
  /// A copy (each policy writes its own copy of the output's initial contents).
  buffer(const buffer& o) : data(new T[o.vals.size()]), vals(o.vals) {
    std::copy(o.data.get(), o.data.get() + o.vals.size(), data.get());
  }
  /// Position p gets value v (its exact value recorded).
  void set(index_t p, T v) {
    data[static_cast<std::size_t>(p)] = v;
    vals[static_cast<std::size_t>(p)] = to_ld(v);
  }
  void read_back() {
    for (std::size_t i = 0; i < vals.size(); ++i) vals[i] = to_ld(data[i]);
  }
};

// ---- the check ----------------------------------------------------------------

struct options {
  bool lhs_full = false;  // only layouts where operand 0 already has the output's shape
};

/// One op of a group: how to build it, its reference, domains per operand
/// (the last repeats), tolerance and options.
template <class F, class Ref>
struct op_spec {
  std::string name;
  F f;
  Ref ref;
  std::vector<domain> doms;
  ulps tol;
  options opt;
};
template <class F, class Ref>
op_spec<F, Ref> op(std::string name, F f, Ref ref, std::initializer_list<domain> doms = {domain{}},
                   const ulps& tol = exact, const options& opt = {}) {
  return {std::move(name), f, ref, doms, tol, opt};
}

/// The op-independent part of one op's check, compiled once.
struct op_run {
  std::string name;
  std::function<ld(const ld*)> ref;
  std::vector<domain> doms;
  ulps tol;
  options opt;
};

inline std::string show(const type_info& t, ld v) {
  std::ostringstream os;
  os.precision(t.is_float ? 21 : 20);
  if (!t.is_float && std::isfinite(v)) os << std::fixed << std::setprecision(0);
  os << v;
  return os.str();
}

/// Maps an output element (i, j) to the index in `runs` of its op.
using which_fn = std::function<std::size_t(index_t, index_t)>;

/// The operands' exact values at output element (i, j).
inline void args_at(const layout_case& lc, const std::vector<const std::vector<ld>*>& ins,
                    const std::vector<placement>& pl, index_t i, index_t j, std::vector<ld>& args) {
  for (std::size_t k = 0; k < ins.size(); ++k)
    args[k] = (*ins[k])[static_cast<std::size_t>(offset(lc.in[k], pl[k], lc.out, i, j))];
}

/// The reference value of every output element (i, j), row-major, each from
/// its op's reference: computed once per layout and compared with the
/// output of every policy.
inline std::vector<ld> expected(const std::vector<op_run>& runs, const which_fn& which, const layout_case& lc,
                                const std::vector<const std::vector<ld>*>& ins, const std::vector<placement>& pl) {
  std::vector<ld> want(static_cast<std::size_t>(lc.out[0] * lc.out[1]));
  std::vector<ld> args(ins.size());
  std::size_t f = 0;
  for (index_t i = 0; i < lc.out[0]; ++i)
    for (index_t j = 0; j < lc.out[1]; ++j) {
      args_at(lc, ins, pl, i, j, args);
      want[f++] = runs[which(i, j)].ref(args.data());
    }
  return want;
}

/// Compare every output position with `want` (expected()). Failures are
/// counted per op; each op reports its count and first failure.
inline void verify(const std::vector<op_run>& runs, const which_fn& which, const std::string& types, const char* pol,
                   const layout_case& lc, const std::vector<const std::vector<ld>*>& ins,
                   const std::vector<placement>& pl, const std::vector<type_info>& in_info,
                   const std::vector<ld>& want, const std::vector<ld>& out, const placement& op,
                   const type_info& rt) {
  const std::size_t n = ins.size();
  std::vector<std::size_t> bad(runs.size()), seen(runs.size());
  std::vector<std::string> first(runs.size());
  std::vector<ld> args(n);
  const operand_layout out_l{lc.out, lc.out_kind};
  std::size_t f = 0;
  for (index_t i = 0; i < lc.out[0]; ++i) {
    for (index_t j = 0; j < lc.out[1]; ++j, ++f) {
      const std::size_t w = which(i, j);
      const op_run& r = runs[w];
      ++seen[w];
      const ld got = out[static_cast<std::size_t>(offset(out_l, op, lc.out, i, j))];
      double err = 0;
      if (!close(rt, got, want[f], r.tol, &err) && bad[w]++ == 0) {
        args_at(lc, ins, pl, i, j, args);
        first[w] = "at (" + std::to_string(i) + ", " + std::to_string(j) + "): (";
        for (std::size_t k = 0; k < n; ++k) first[w] += (k ? ", " : "") + show(in_info[k], args[k]);
        first[w] += ") gave " + show(rt, got) + ", reference " + show(rt, want[f]);
        if (rt.is_float) first[w] += " (" + std::to_string(err) + " ulp)";
      }
    }
  }
  for (std::size_t w = 0; w < runs.size(); ++w) {
    if (seen[w] == 0) continue;
    CHECK_MESSAGE(bad[w] == 0, runs[w].name << "(" << types << ") -> " << std::string(rt.name) << ", "
                                            << std::string(pol) << ", " << lc.name << ": " << bad[w]
                                            << " of " << seen[w] << " wrong, first " << first[w]);
  }
}

/// Build `where(sel == J, f_J(v...), where(sel == J + 1, ...))`.
template <std::size_t J, class Sel, class Tup, class... V>
auto fused(const Sel& sel, const Tup& fs, const V&... v) {
  if constexpr (J + 1 == std::tuple_size_v<Tup>) {
    return std::get<J>(fs)(v...);
  } else {
    return st::where(sel == static_cast<std::uint8_t>(J), std::get<J>(fs)(v...),
                     fused<J + 1>(sel, fs, v...));
  }
}

/// A group's fused expression assigned under policy P, type-erased.
/// (Wrapped in type_identity_t: In... is given explicitly, never deduced from it.)
template <class P, class R, class... In>
using evaluator = std::type_identity_t<
    std::function<void(st::view<const std::uint8_t, 2, P>, st::view<const In, 2, P>..., st::view<R, 2, P>)>>;

/// The ops' selector: `sel` elements of the given shape (1x1 or the output's).
struct selector {
  const std::uint8_t* data;
  st::extents<2> shape;
};

/// Everything one layout's check shares between the policies: the inputs,
/// the output's initial contents, the expected values.
template <class R, class... In>
struct layout_run {
  const std::vector<op_run>& runs;
  const layout_case& lc;
  selector sel;
  const which_fn& which;
  std::vector<placement> pl;
  std::tuple<buffer<In>...> bufs;
  placement op;
  buffer<R> init;
  std::vector<const std::vector<ld>*> ins;
  std::vector<ld> want;

  /// Evaluate under P into a copy of the initial output and verify it.
  template <class P>
  void run(const evaluator<P, R, In...>& eval) const {
    const char* pol = std::is_same_v<P, st::par> ? "par" : "host";
    const std::vector<type_info> in_info{info_of<In>()...};
    std::string types;
    for (const auto& t : in_info) types += std::string(types.empty() ? "" : ", ") + t.name;
    buffer<R> out = init;
    {
      st::trace_scope trace;
      [&]<std::size_t... I>(std::index_sequence<I...>) {
        eval(st::view<const std::uint8_t, 2, P>(sel.data, sel.shape),
             st::view<const In, 2, P>(std::get<I>(bufs).data.get() + pl[I].base, lc.in[I].shape, pl[I].strides)...,
             st::view<R, 2, P>(out.data.get() + op.base, lc.out, op.strides));
      }(std::index_sequence_for<In...>{});
      if (std::is_same_v<P, st::par> && lc.out[0] * lc.out[1] >= 131072 && st::get_num_threads() > 1) {
        bool threaded = false;
        for (const auto& p : trace.passes())
          threaded = threaded || (p.detail.find(" threads") != std::string::npos);
        CHECK_MESSAGE(threaded, types << " " << lc.name << ": par ran on one thread");
      }
    }
    out.read_back();
    verify(runs, which, types, pol, lc, ins, pl, in_info, want, out.vals, op, info_of<R>());
  }
};

/// Check one layout under host and par, on the same data. `which` maps an
/// element to its op, `fill(g, pl, bufs)` may overwrite input positions after
/// the default random fill.
template <class R, class... In, class Fill>
void run_layout(const std::vector<op_run>& runs, const evaluator<st::host, R, In...>& eval_host,
                const evaluator<st::par, R, In...>& eval_par, const layout_case& lc, std::uint64_t seed,
                const std::vector<domain>& doms, selector sel, const which_fn& which, Fill fill) {
  rng g(seed);
  std::vector<placement> pl;
  for (const auto& l : lc.in) pl.push_back(place(l));
  auto bufs = [&]<std::size_t... I>(std::index_sequence<I...>) {
    // A braced list constructs in order, so the data does not depend on the compiler.
    return std::tuple<buffer<In>...>{buffer<In>(pl[I].len, g, doms[std::min(I, doms.size() - 1)])...};
  }(std::index_sequence_for<In...>{});
  fill(g, pl, bufs);
  const placement op = place({lc.out, lc.out_kind});
  layout_run<R, In...> lr{runs, lc, sel, which, pl, std::move(bufs), op, buffer<R>(op.len, g, domain{}), {}, {}};
  lr.ins = std::apply([](const auto&... b) { return std::vector<const std::vector<ld>*>{&b.vals...}; }, lr.bufs);
  lr.want = expected(runs, which, lc, lr.ins, pl);
  lr.template run<st::host>(eval_host);
  lr.template run<st::par>(eval_par);
}

template <class R, class... In>
void run_group(const std::vector<op_run>& runs, const evaluator<st::host, R, In...>& eval_host,
               const evaluator<st::par, R, In...>& eval_par) {
  constexpr std::size_t N = sizeof...(In);
  std::string types;
  for (const auto& t : std::vector<type_info>{info_of<In>()...}) types += t.name;
  const auto no_fill = [](auto&, const auto&, auto&) {};
  // Small layouts: one op at a time, `sel` a 1x1 array broadcast over the output.
  for (std::size_t sel = 0; sel < runs.size(); ++sel) {
    const op_run& r = runs[sel];
    std::uint64_t seed = 0x5eed;
    for (char ch : r.name + types) seed = seed * 131 + static_cast<unsigned char>(ch);
    const std::uint8_t sel_value = static_cast<std::uint8_t>(sel);
    const which_fn which = [sel](index_t, index_t) { return sel; };
    for (const auto& lc : layouts(N)) {
      if (r.opt.lhs_full && lc.in[0].shape != lc.out) continue;
      run_layout<R, In...>(runs, eval_host, eval_par, lc, seed, r.doms, {&sel_value, {1, 1}}, which, no_fill);
    }
  }
  // Large layouts: the whole group in one pass, each element's op drawn at
  // random and its inputs from that op's domains.
  std::uint64_t seed = 0x1a67e;
  for (const auto& r : runs)
    for (char ch : r.name + types) seed = seed * 131 + static_cast<unsigned char>(ch);
  for (const auto& lc : large_layouts(N)) {
    const index_t cols = lc.out[1];
    std::vector<std::uint8_t> ops(static_cast<std::size_t>(lc.out[0] * cols));
    rng g(seed);
    for (auto& w : ops) w = static_cast<std::uint8_t>(g() % runs.size());
    const which_fn op_of = [&](index_t i, index_t j) {
      return static_cast<std::size_t>(ops[static_cast<std::size_t>(i * cols + j)]);
    };
    const auto fill = [&](rng& gen, const std::vector<placement>& pl, auto& bufs) {
      [&]<std::size_t... I>(std::index_sequence<I...>) {
        for (index_t i = 0; i < lc.out[0]; ++i)
          for (index_t j = 0; j < cols; ++j) {
            const auto& doms = runs[op_of(i, j)].doms;
            // One input at a time, in order, so the data does not depend on the compiler.
            (std::get<I>(bufs).set(
                 offset(lc.in[I], pl[I], lc.out, i, j),
                 random_value<typename std::tuple_element_t<I, std::tuple<In...>>>(
                     gen, doms[std::min(I, doms.size() - 1)])),
             ...);
          }
      }(std::index_sequence_for<In...>{});
    };
    run_layout<R, In...>(runs, eval_host, eval_par, lc, seed, std::vector<domain>{domain{}}, {ops.data(), lc.out},
                         op_of, fill);
  }
}

/// A par view's elements as a host view (both policies use host memory).
template <class T>
st::view<T, 2, st::host> on_host(const st::view<T, 2, st::par>& v) {
  return {v.data(), v.shape(), v.strides()};
}

/// The fused expression of a group assigned under policy P. Under par, the
/// expression is built from host views and assigned as a policy-free
/// expression: its node tree is the same type either way (trees carry no
/// policy), so par's passes run on exactly the tree host's do, while the
/// operators are not instantiated a second time for par operands (the same
/// templates, with the policy as a parameter, which test_api, test_fusion
/// and the other par tests build).
/// 10% of the group's compile time at -Og (test_ops_math.cpp's first group
/// on float and double: 27.4 -> 25.6 s).
template <class P, class R, class... In, class Fs>
evaluator<P, R, In...> evaluate_with(const Fs& fs) {
  return [fs](st::view<const std::uint8_t, 2, P> s, st::view<const In, 2, P>... v, st::view<R, 2, P> o) {
    if constexpr (std::is_same_v<P, st::par>) {
      const auto e = fused<0>(on_host(s), fs, on_host(v)...);
      o = st::expr<typename decltype(e)::node_type, st::detail::any_policy>(e.node());
    } else {
      o = fused<0>(s, fs, v...);
    }
  };
}

/// Check a group of ops, all of the same result type, on inputs In... under
/// host and under par: the same data, references computed once. The ops'
/// builders are called with views of either policy.
template <class... In, class... F, class... Ref>
void check(const op_spec<F, Ref>&... ops) {
  using sel_view = st::view<const std::uint8_t, 2, st::host>;
  const auto fs = std::make_tuple(ops.f...);
  using E = decltype(fused<0>(std::declval<sel_view>(), fs, std::declval<st::view<const In, 2, st::host>>()...));
  using R = typename E::value_type;
  static_assert(std::is_same_v<typename E::policy_type, st::host>);
  static_assert((std::is_same_v<typename decltype(ops.f(std::declval<st::view<const In, 2, st::host>>()...))::value_type, R> && ...),
                "the ops of a group must have the same result type");
  std::vector<op_run> runs{op_run{ops.name,
                                  [ref = ops.ref](const ld* x) {
                                    return [&]<std::size_t... I>(std::index_sequence<I...>) {
                                      return static_cast<ld>(ref(tag<R>{}, x[I]...));
                                    }(std::index_sequence_for<In...>{});
                                  },
                                  ops.doms, ops.tol, ops.opt}...};
  run_group<R, In...>(runs, evaluate_with<st::host, R, In...>(fs), evaluate_with<st::par, R, In...>(fs));
}

}  // namespace op_test
