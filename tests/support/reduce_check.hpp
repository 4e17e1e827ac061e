#pragma once
// Reduction checks shared by tests/top/test_reduce_*.cpp: random data per
// dtype, an independent reference in double (or exact integers) computed by
// plain loops, the expected NumPy result types, and a driver that runs one
// reduction in full and along every axis choice (each subset of axes, sorted
// and reversed-with-negative-indices, with and without keepdims).
//
// Tolerances (acc_rel): integer results, argmin/argmax, any/all, count, min,
// max and prod (data are +-1 and a few 2s, so products are exact) are exact.
// Float sums use a pairwise scheme like NumPy's (reduce/host_engine.hpp):
// tiles of 4096 cut into leaf blocks of 32 * L consecutive elements, each
// spread over L = leaf_lanes lanes (64 for 4-byte accumulators: float, half
// and bfloat16 sums; 32 otherwise; element k to lane k % L, so each lane adds
// at most 32 elements: <= 31 rounded adds after the exact first one); a
// tile's 2 or 4 leaves combined lane by lane as a balanced tree (1 or 2
// levels), then its lanes (6 or 5 levels); the tiles combined pairwise.
// Every element thus passes through at most 38 (31 + 1 + 6, or 31 + 2 + 5) + ceil(log2(tiles))
// rounded additions, and the error is at most that depth times u * sum|x|
// (first order). For n <= 1e7 (2442 tiles, 12 levels) the depth is <= 50:
// 3.0e-6 for float (u = 2^-24) and 5.6e-15 for double (u = 2^-53), so we
// allow 1e-5 and 1e-12 of sum|x| (margins of >= 3x and >= 180x). 16-bit
// floats accumulate in float and round the result once (2^-11 relative for
// half, 2^-8 for bfloat16).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <span>
#include <sinter/sinter.hpp>
#include <string>
#include <type_traits>
#include <vector>

namespace sinter_test {

namespace st = sinter;

enum class rop { sum, prod, min, max, mean, var, std_, any, all, count, argmin, argmax };

/// The reduction's name (a std::string: doctest 2.4's INFO prints a const
/// char* variable as a pointer).
inline std::string rop_name(rop o) {
  constexpr const char* names[] = {"sum", "prod", "min",  "max",          "mean",   "var",
                                   "std", "any",  "all",  "count_nonzero", "argmin", "argmax"};
  return names[static_cast<int>(o)];
}

template <class T>
inline constexpr bool is_16bit_float = std::is_same_v<T, st::half> || std::is_same_v<T, st::bfloat16>;
template <class T>
inline constexpr bool is_float_like = std::is_floating_point_v<T> || is_16bit_float<T>;

/// The NumPy result type of reduction O on elements T, written out independently of sinter.
template <rop O, class T>
struct result_of {
  static auto pick() {
    if constexpr (O == rop::sum || O == rop::prod) {
      if constexpr (std::is_same_v<T, bool>) return std::int64_t{};
      else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) return std::int64_t{};
      else if constexpr (std::is_integral_v<T>) return std::uint64_t{};
      else return T{};
    } else if constexpr (O == rop::min || O == rop::max) {
      return T{};
    } else if constexpr (O == rop::mean || O == rop::var || O == rop::std_) {
      if constexpr (is_float_like<T>) return T{};
      else return double{};
    } else if constexpr (O == rop::any || O == rop::all) {
      return bool{};
    } else {
      return std::int64_t{};
    }
  }
  using type = decltype(pick());
};
template <rop O, class T>
using result_of_t = typename result_of<O, T>::type;

/// Calls sinter's reduction O with the given arguments.
template <rop O, class... A>
auto call(A&&... a) {
  if constexpr (O == rop::sum) return st::sum(std::forward<A>(a)...);
  else if constexpr (O == rop::prod) return st::prod(std::forward<A>(a)...);
  else if constexpr (O == rop::min) return st::min(std::forward<A>(a)...);
  else if constexpr (O == rop::max) return st::max(std::forward<A>(a)...);
  else if constexpr (O == rop::mean) return st::mean(std::forward<A>(a)...);
  else if constexpr (O == rop::var) return st::var(std::forward<A>(a)...);
  else if constexpr (O == rop::std_) return st::std(std::forward<A>(a)...);
  else if constexpr (O == rop::any) return st::any(std::forward<A>(a)...);
  else if constexpr (O == rop::all) return st::all(std::forward<A>(a)...);
  else if constexpr (O == rop::count) return st::count_nonzero(std::forward<A>(a)...);
  else if constexpr (O == rop::argmin) return st::argmin(std::forward<A>(a)...);
  else return st::argmax(std::forward<A>(a)...);
}

template <class T>
double to_double(T v) {
  if constexpr (is_16bit_float<T>) return static_cast<double>(static_cast<float>(v));
  else return static_cast<double>(v);
}

template <class T>
T from_double(double v) {
  if constexpr (is_16bit_float<T>) return T(static_cast<float>(v));
  else return static_cast<T>(v);
}

/// What the data look like. general: signed ints in [-50, 50], unsigned in
/// [0, 100], floats uniform in [-1, 1] (16-bit floats on a 1/64 grid, exact);
/// zero_prob: each element is zero with that probability (any/all/count);
/// prod: +-1 (unsigned: 1) with a 2 every n/6 elements, so products are exact.
struct data_kind {
  double zero_prob = 0.0;
  bool prod = false;
};

template <class T>
std::vector<T> make_data(std::size_t n, unsigned seed, data_kind k = {}) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<T> v(n);
  const std::size_t two_every = std::max<std::size_t>(1, n / 6);
  for (std::size_t i = 0; i < n; ++i) {
    double x;
    if (k.prod) {
      x = (std::is_unsigned_v<T> || u(g) < 0.5) ? 1.0 : -1.0;
      if (i % two_every == 3 || n == 1) x *= 2.0;
      if constexpr (std::is_same_v<T, bool>) x = u(g) < 0.97 ? 1.0 : 0.0;
    } else if constexpr (std::is_same_v<T, bool>) {
      x = u(g) < 0.5 ? 1.0 : 0.0;
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      x = std::floor(u(g) * 101.0) - 50.0;
    } else if constexpr (std::is_integral_v<T>) {
      x = std::floor(u(g) * 101.0);
    } else if constexpr (is_16bit_float<T>) {
      x = std::round((u(g) * 2.0 - 1.0) * 64.0) / 64.0;
    } else {
      x = u(g) * 2.0 - 1.0;
    }
    if (k.zero_prob > 0) {
      const bool zero = u(g) < k.zero_prob;
      if (zero) x = 0.0;
      else if (x == 0.0) x = 1.0;
    }
    v[i] = from_double<T>(x);
  }
  return v;
}

template <class T>
std::vector<double> to_doubles(const std::vector<T>& v) {
  std::vector<double> d(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) d[i] = to_double(v[i]);
  return d;
}

/// A reference result: the value and the allowed absolute error (0: exact).
struct ref_value {
  double value;
  double tol;
};

/// What the reference needs to know about the element type, at run time
/// (so the reference and comparison code is compiled once, not per dtype).
struct dtype_traits {
  bool float_like;    ///< float, double, half, bfloat16
  double acc_rel;     ///< relative error bound of floating_t<T> accumulation (see the file comment)
  double result_eps;  ///< relative rounding of a 16-bit float result
};

template <class T>
constexpr dtype_traits traits_of() {
  return {is_float_like<T>, (std::is_same_v<T, double> || !is_float_like<T>) ? 1e-12 : 1e-5,
          std::is_same_v<T, st::half> ? 0x1p-11 : std::is_same_v<T, st::bfloat16> ? 0x1p-8 : 0.0};
}

/// The reference for reduction o of xs (in order), in plain double loops.
inline ref_value reference(rop o, const dtype_traits& t, std::span<const double> xs) {
  const double n = static_cast<double>(xs.size());
  double s = 0, sa = 0, s2 = 0;
  for (double x : xs) {
    s += x;
    sa += std::abs(x);
    s2 += x * x;
  }
  switch (o) {
    case rop::sum:
      if (t.float_like) return {s, t.result_eps * std::abs(s) + t.acc_rel * sa};
      return {s, 0.0};  // integers: exact (|sum| < 2^53 for the data used)
    case rop::prod: {
      double p = 1;
      for (double x : xs) p *= x;
      return {p, 0.0};
    }
    case rop::min:
    case rop::max: {
      double m = xs[0];
      for (double x : xs) m = (o == rop::max) ? std::max(m, x) : std::min(m, x);
      return {m, 0.0};
    }
    case rop::mean: {
      const double m = s / n;
      return {m, t.result_eps * std::abs(m) + t.acc_rel * sa / n};
    }
    case rop::var:
    case rop::std_: {
      const double m = s / n;
      double d2 = 0;
      for (double x : xs) d2 += (x - m) * (x - m);
      const double v = d2 / n;
      const double tv = 10 * t.acc_rel * (s2 / n);
      if (o == rop::var) return {v, t.result_eps * v + tv};
      // |sqrt(a) - sqrt(b)| <= sqrt(|a - b|)
      return {std::sqrt(v), t.result_eps * std::sqrt(v) + std::sqrt(tv)};
    }
    case rop::any:
    case rop::all:
    case rop::count: {
      double c = 0;
      for (double x : xs) c += (x != 0) ? 1 : 0;
      if (o == rop::any) return {c > 0 ? 1.0 : 0.0, 0.0};
      if (o == rop::all) return {c == n ? 1.0 : 0.0, 0.0};
      return {c, 0.0};
    }
    default: {
      std::size_t best = 0;
      for (std::size_t i = 0; i < xs.size(); ++i) {
        if (std::isnan(xs[best])) break;
        if (std::isnan(xs[i]) || (o == rop::argmax ? xs[i] > xs[best] : xs[i] < xs[best])) best = i;
      }
      return {static_cast<double>(best), 0.0};
    }
  }
}

inline bool close(double got, const ref_value& r) {
  if (std::isnan(r.value)) return std::isnan(got);
  if (r.tol == 0) return got == r.value;
  return std::abs(got - r.value) <= r.tol;
}

/// The inputs of every output of a reduction, in one buffer: (*this)[o]
/// lists, in order, the elements output o reduces (outputs row-major over
/// the kept axes; within an output, row-major over the reduced axes). Every
/// output reduces the same number of elements, `per`.
struct groups_t {
  std::vector<double> flat;
  std::size_t outputs = 0;
  std::size_t per = 0;
  std::size_t size() const { return outputs; }
  bool empty() const { return outputs == 0; }
  std::span<const double> operator[](std::size_t o) const { return {flat.data() + o * per, per}; }
};

/// Groups flat row-major values of an array of `shape` by the output they
/// reduce into when the axes marked in `reduced` are reduced. Plain index
/// arithmetic on raw pointers: the sanitizer build runs it unoptimised, where
/// a vector of vectors filled by push_back was a third of the reduction
/// files' run time.
inline groups_t group_by_output(const std::vector<double>& vals, const std::vector<std::int64_t>& shape,
                                const std::vector<bool>& reduced) {
  const std::size_t R = shape.size();
  std::vector<std::int64_t> ostride(R, 0), idx(R, 0);
  std::int64_t outputs = 1;
  for (std::size_t d = R; d-- > 0;)
    if (!reduced[d]) {
      ostride[d] = outputs;
      outputs *= shape[d];
    }
  groups_t g;
  g.outputs = static_cast<std::size_t>(outputs);
  g.per = g.outputs > 0 ? vals.size() / g.outputs : 0;
  g.flat.resize(vals.size());
  std::vector<std::size_t> filled(g.outputs, 0);
  const std::int64_t* os = ostride.data();
  const std::int64_t* sh = shape.data();
  std::int64_t* ix = idx.data();
  std::size_t* fill = filled.data();
  double* out = g.flat.data();
  const double* in = vals.data();
  const std::size_t n = vals.size(), per = g.per;
  for (std::size_t f = 0; f < n; ++f) {
    std::int64_t o = 0;
    for (std::size_t d = 0; d < R; ++d) o += ix[d] * os[d];
    const auto u = static_cast<std::size_t>(o);
    out[u * per + fill[u]++] = in[f];
    for (std::size_t d = R; d-- > 0;) {
      if (++ix[d] < sh[d]) break;
      ix[d] = 0;
    }
  }
  return g;
}

/// The reference of every output of reduction o over the axes marked in
/// `reduced`: computed once per set of axes, for all the ways check_axes
/// names it (sorted, reversed and negative, with and without keepdims).
inline std::vector<ref_value> references_along(rop o, const dtype_traits& t, const std::vector<double>& vals,
                                               const std::vector<std::int64_t>& shape,
                                               const std::vector<bool>& reduced) {
  const groups_t groups = group_by_output(vals, shape, reduced);
  std::vector<ref_value> refs(groups.size());
  for (std::size_t i = 0; i < groups.size(); ++i) refs[i] = reference(o, t, groups[i]);
  return refs;
}

template <class X>
using value_t = typename std::remove_cvref_t<decltype(st::detail::as_expr(std::declval<const X&>()))>::value_type;
template <class X>
inline constexpr std::size_t rank_v = std::remove_cvref_t<decltype(st::detail::as_expr(std::declval<const X&>()))>::rank;

/// Compares an axis reduction's outputs (flattened to double) with the
/// references of its outputs (references_along).
inline void compare_along(rop o, const std::vector<double>& got, const std::vector<std::int64_t>& got_shape,
                          const std::vector<ref_value>& refs, const std::vector<std::int64_t>& shape,
                          const std::vector<int>& ax, bool keep, const std::string& what) {
  const std::size_t R = shape.size();
  std::vector<bool> reduced(R, false);
  std::string axs;
  for (std::size_t k = 0; k < ax.size(); ++k) {
    reduced[static_cast<std::size_t>(ax[k] < 0 ? ax[k] + static_cast<int>(R) : ax[k])] = true;
    axs += (k ? "," : "") + std::to_string(ax[k]);
  }
  INFO(what, " ", rop_name(o), "(axes ", axs, std::string(keep ? ", keepdims" : ""), ")");
  // Shape: kept axes in order, reduced ones dropped (or 1 with keepdims).
  std::vector<std::int64_t> want_shape;
  for (std::size_t d = 0; d < R; ++d)
    if (!reduced[d]) want_shape.push_back(shape[d]);
    else if (keep) want_shape.push_back(1);
  REQUIRE(got_shape == want_shape);
  REQUIRE(got.size() == refs.size());
  std::size_t bad = 0, first = 0;
  double first_got = 0, first_want = 0;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    const ref_value& r = refs[i];
    if (!close(got[i], r) && bad++ == 0) {
      first = i;
      first_got = got[i];
      first_want = r.value;
    }
  }
  INFO("first mismatch at output ", first, ": got ", first_got, ", want ", first_want);
  CHECK(bad == 0);
}

/// Reduce x along `ax` (with or without keepdims) and compare every output
/// with `refs`, the references of those axes (references_along).
template <rop O, bool Keep, std::size_t N, class X>
void check_along(const X& x, const std::vector<ref_value>& refs, const std::vector<std::int64_t>& shape,
                 const st::axes_t<N>& ax, const std::string& what) {
  using T = value_t<X>;
  constexpr std::size_t R = rank_v<X>;
  const auto out = [&] {
    if constexpr (Keep) return call<O>(x, ax, st::keepdims);
    else return call<O>(x, ax);
  }();
  using Out = std::remove_cvref_t<decltype(out)>;
  static_assert(std::is_same_v<Out, st::array<result_of_t<O, T>, Keep ? R : R - N, typename Out::policy_type>>,
                "axis reduction: wrong result type");
  std::vector<double> got(static_cast<std::size_t>(out.size()));
  for (std::size_t i = 0; i < got.size(); ++i) got[i] = to_double(out.data()[i]);
  const auto gs = out.shape();
  compare_along(O, got, std::vector<std::int64_t>(gs.begin(), gs.end()), refs, shape,
                std::vector<int>(ax.a, ax.a + N), Keep, what);
}

/// Every subset of the axes of a rank-R expression, sorted with non-negative
/// indices and reversed with negative ones, with and without keepdims.
template <rop O, class X>
void check_axes(const X& x, const std::vector<double>& vals, const std::vector<std::int64_t>& shape,
                const std::string& what) {
  constexpr int R = static_cast<int>(rank_v<X>);
  for (int mask = 1; mask < (1 << R); ++mask) {
    int sel[3] = {}, n = 0;
    std::vector<bool> reduced(static_cast<std::size_t>(R), false);
    for (int d = 0; d < R; ++d)
      if (mask & (1 << d)) {
        sel[n++] = d;
        reduced[static_cast<std::size_t>(d)] = true;
      }
    const auto refs = references_along(O, traits_of<value_t<X>>(), vals, shape, reduced);
    auto both = [&]<std::size_t N>(std::integral_constant<std::size_t, N>) {
      st::axes_t<N> fwd{}, neg{};
      for (std::size_t k = 0; k < N; ++k) {
        fwd.a[k] = sel[k];
        neg.a[k] = sel[N - 1 - k] - (k % 2 == 0 ? R : 0);  // reversed; every other one negative
      }
      check_along<O, false>(x, refs, shape, fwd, what);
      check_along<O, true>(x, refs, shape, fwd, what);
      check_along<O, false>(x, refs, shape, neg, what);
      check_along<O, true>(x, refs, shape, neg, what);
    };
    if (n == 1) both(std::integral_constant<std::size_t, 1>{});
    if constexpr (R >= 2)
      if (n == 2) both(std::integral_constant<std::size_t, 2>{});
    if constexpr (R >= 3)
      if (n == 3) both(std::integral_constant<std::size_t, 3>{});
  }
}

/// Full reduction of x (a host value) against the reference.
template <rop O, class X>
void check_full(const X& x, const std::vector<double>& vals, const std::string& what) {
  using T = value_t<X>;
  const auto got = call<O>(x);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(got)>, result_of_t<O, T>>,
                "full reduction: wrong result type");
  const auto r = reference(O, traits_of<T>(), vals);
  INFO(what, " ", rop_name(O), "(all) n=", vals.size(), ": got ", to_double(got), ", want ", r.value, " +- ", r.tol);
  CHECK(close(to_double(got), r));
}

template <rop O, class X>
void check_op(const X& x, const std::vector<double>& vals, const std::vector<std::int64_t>& shape,
              const std::string& what, bool along = true) {
  check_full<O>(x, vals, what);
  if (along) check_axes<O>(x, vals, shape, what);
}

/// The data kind each reduction is tested on.
inline data_kind kind_for(rop o) {
  if (o == rop::prod) return {0.0, true};
  if (o == rop::any) return {0.8, false};   // so some groups are all zero
  if (o == rop::all) return {0.03, false};  // so some groups are all non-zero
  if (o == rop::count) return {0.5, false};
  return {};
}

inline const rop all_rops[] = {rop::sum, rop::prod, rop::min, rop::max, rop::mean, rop::var,
                               rop::std_, rop::any, rop::all, rop::count, rop::argmin, rop::argmax};

/// Runs F.template operator()<O>() for every reduction O.
template <class F>
void for_each_rop(F&& f) {
  f.template operator()<rop::sum>();
  f.template operator()<rop::prod>();
  f.template operator()<rop::min>();
  f.template operator()<rop::max>();
  f.template operator()<rop::mean>();
  f.template operator()<rop::var>();
  f.template operator()<rop::std_>();
  f.template operator()<rop::any>();
  f.template operator()<rop::all>();
  f.template operator()<rop::count>();
  f.template operator()<rop::argmin>();
  f.template operator()<rop::argmax>();
}

/// An array of shape `shape` on policy P holding `data`.
template <class T, std::size_t R, class P>
st::array<T, R, P> make_array(const st::extents<R>& shape, const std::vector<T>& data) {
  st::array<T, R, P> a(shape);
  std::copy(data.begin(), data.end(), a.begin());
  return a;
}

inline std::size_t count_of(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (auto s : shape) n *= s;
  return static_cast<std::size_t>(n);
}

/// The whole matrix for one dtype and policy: every reduction, ranks 1-3 on
/// odd shapes, in full and along every axis choice. The test files run it
/// under par only for the dtypes they give `big3`, a shape of more than
/// 2 * par_grain elements: below that par's reducer runs the serial code
/// host's does (reduce.hpp, reducer::full and along, `threads` false), so a
/// par case of small shapes alone compiled every reduction again and checked
/// nothing host had not (test_reduce_unsigned.cpp at -Og: 85 -> 56 s without
/// three such cases).
template <class T, class P>
void check_dtype(std::initializer_list<std::int64_t> big3 = {}) {
  for_each_rop([&]<rop O>() {
    const data_kind k = kind_for(O);
    unsigned seed = 17u * static_cast<unsigned>(O) + 1u;
    {
      const std::vector<std::int64_t> s{7};
      const auto d = make_data<T>(count_of(s), seed++, k);
      check_op<O>(make_array<T, 1, P>({7}, d), to_doubles(d), s, "rank 1 (7)");
    }
    {
      const std::vector<std::int64_t> s{5, 9};
      const auto d = make_data<T>(count_of(s), seed++, k);
      check_op<O>(make_array<T, 2, P>({5, 9}, d), to_doubles(d), s, "rank 2 (5, 9)");
    }
    {
      const std::vector<std::int64_t> s{3, 5, 7};
      const auto d = make_data<T>(count_of(s), seed++, k);
      check_op<O>(make_array<T, 3, P>({3, 5, 7}, d), to_doubles(d), s, "rank 3 (3, 5, 7)");
    }
    if (big3.size() == 3) {
      // Large enough (> 2 * par_grain) for par's parallel paths.
      const std::vector<std::int64_t> s(big3);
      const auto d = make_data<T>(count_of(s), seed++, k);
      check_op<O>(make_array<T, 3, P>({s[0], s[1], s[2]}, d), to_doubles(d), s, "rank 3 big");
    }
  });
}

}  // namespace sinter_test
