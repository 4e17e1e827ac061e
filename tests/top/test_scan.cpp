// Scans (cumsum, cumprod, cummax, cummin, nancumsum, nancumprod) against a
// sequential double-precision (floats) or 64-bit wrapping (integers) scalar
// reference: every dtype, NaN/±inf/±0, empty and size-1 axes, each axis of
// a 3-D array, strided/reversed/misaligned views, fused producers (trace:
// one pass, one allocation), bad axes, float accuracy at 10^7, and host and
// par with 1, 2, 3 and 8 threads bitwise equal.
#include <doctest/doctest.h>

#include "support/scale.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sinter/sinter.hpp>
#include <string>
#include <type_traits>
#include <vector>

namespace test_scan {

namespace st = sinter;
using st::index_t;

enum class kind { sum, prod, max, min, nansum, nanprod };
constexpr kind kinds[] = {kind::sum, kind::prod, kind::max, kind::min, kind::nansum, kind::nanprod};

template <class T>
constexpr bool float_like = std::is_floating_point_v<T> || st::is_half_like_v<T>;

/// Restores the thread count when a test ends.
struct threads_guard {
  int saved = st::get_num_threads();
  ~threads_guard() { st::set_num_threads(saved); }
};

/// The scan of kind k of x (a sinter expression), flat or along axis a (a >= -rank: along it).
template <class X>
auto run(kind k, X&& x) {
  // nancumsum/nancumprod of integers are cumsum/cumprod: instantiated for floats only (compile time).
  constexpr bool nan_kinds = float_like<typename std::remove_cvref_t<X>::value_type>;
  switch (k) {
    case kind::sum: return st::cumsum(x);
    case kind::prod: return st::cumprod(x);
    case kind::nansum:
      if constexpr (nan_kinds) return st::nancumsum(x);
      else return st::cumsum(x);
    case kind::nanprod:
      if constexpr (nan_kinds) return st::nancumprod(x);
      else return st::cumprod(x);
    default: break;
  }
  // cummax/cummin keep the input type; the callers compare through double.
  using R = decltype(st::cumsum(x));
  R r(st::cumsum(x).shape());
  auto m = k == kind::max ? st::cummax(x) : st::cummin(x);
  for (index_t i = 0; i < r.size(); ++i) r.data()[i] = static_cast<typename R::value_type>(m.data()[i]);
  return r;
}

/// cummax of x in cumsum's result type (as run).
template <class X>
auto run_max(const X& x) {
  using R = decltype(st::cumsum(x));
  R r(st::cumsum(x).shape());
  const auto m = st::cummax(x);
  for (index_t i = 0; i < r.size(); ++i) r.data()[i] = static_cast<typename R::value_type>(m.data()[i]);
  return r;
}

/// Random values of T; floats in [-2, 2) (or near 1 for products), integers over their range.
template <class T>
std::vector<T> make(std::size_t n, unsigned seed, bool near_one = false) {
  std::mt19937_64 g(seed);
  std::vector<T> v(n);
  if constexpr (float_like<T>) {
    std::uniform_real_distribution<float> u(near_one ? 0.999f : -2.f, near_one ? 1.001f : 2.f);
    for (auto& e : v) e = static_cast<T>(u(g));
  } else if constexpr (std::is_same_v<T, bool>) {
    for (std::size_t i = 0; i < n; ++i) v[i] = (g() % 5) != 0;
  } else {
    for (auto& e : v) e = static_cast<T>(g());
  }
  return v;
}

/// A float-like value as double (16-bit floats through float).
template <class T>
double to_double(T v) {
  if constexpr (st::is_half_like_v<T>) return static_cast<double>(static_cast<float>(v));
  else return static_cast<double>(v);
}

/// NumPy's maximum/minimum: the first NaN wins, ties keep the earlier value.
template <class A>
A pick(kind k, A acc, A v) {
  if (acc != acc) return acc;
  if (v != v) return v;
  return (k == kind::max ? v > acc : v < acc) ? v : acc;
}

/// Sequential double reference for float-like inputs (element 0 is x0, as NumPy).
template <class T>
std::vector<double> ref_float(kind k, const std::vector<T>& x) {
  std::vector<double> out(x.size());
  double acc = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    double v = to_double(x[i]);
    if (v != v && k == kind::nansum) v = 0;
    if (v != v && k == kind::nanprod) v = 1;
    if (i == 0) acc = v;
    else if (k == kind::sum || k == kind::nansum) acc += v;
    else if (k == kind::prod || k == kind::nanprod) acc *= v;
    else acc = pick(k, acc, v);
    out[i] = acc;
  }
  return out;
}

/// Sequential 64-bit reference for integers and bool (sums and products wrap).
template <class T>
std::vector<double> ref_int(kind k, const std::vector<T>& x, std::vector<std::uint64_t>& bits) {
  std::vector<double> out(x.size());
  bits.resize(x.size());
  std::uint64_t acc = 0;
  T m{};
  for (std::size_t i = 0; i < x.size(); ++i) {
    const std::uint64_t v = static_cast<std::uint64_t>(static_cast<std::int64_t>(x[i]));
    const std::uint64_t vu = std::is_signed_v<T> ? v : static_cast<std::uint64_t>(x[i]);
    if (k == kind::max || k == kind::min) {
      m = i == 0 ? x[i] : pick(k, m, x[i]);
      bits[i] = static_cast<std::uint64_t>(m);
      out[i] = static_cast<double>(m);
      continue;
    }
    const bool mul = k == kind::prod || k == kind::nanprod;
    acc = i == 0 ? vu : (mul ? acc * vu : acc + vu);
    bits[i] = acc;
    out[i] = std::is_signed_v<T> ? static_cast<double>(static_cast<std::int64_t>(acc)) : static_cast<double>(acc);
  }
  return out;
}

/// Machine epsilon of the result type R (double rounding through float for 16-bit floats: one more ulp).
template <class R>
double eps_of() {
  if constexpr (std::is_same_v<R, st::half>) return 2.0 / 1024;
  else if constexpr (std::is_same_v<R, st::bfloat16>) return 2.0 / 128;
  else if constexpr (std::is_same_v<R, float>) return 1.0 / (1 << 23);
  else return 1e-15;
}

/// The smallest step of R near 0 (a subnormal's rounding).
template <class R>
double tiny_of() {
  if constexpr (st::is_half_like_v<R>) return std::is_same_v<R, st::half> ? 6e-8 : 1e-40;
  else return static_cast<double>(std::numeric_limits<R>::denorm_min());
}

/// Compares got (any array of the scan's result) with the reference of kind
/// k over x; term_tol: the relative error of each term (a producer's maths).
template <class T, class G>
void check_against(kind k, const std::vector<T>& x, const G& got, const char* what, double term_tol = 1e-12) {
  using R = typename G::value_type;
  CAPTURE(what);
  CAPTURE(static_cast<int>(k));
  REQUIRE(got.size() == static_cast<index_t>(x.size()));
  if constexpr (float_like<T>) {
    const auto ref = ref_float(k, x);
    double mag = 0;  // running sum of |terms|: the scale of a sum's rounding
    int bad = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double g = to_double(got.data()[i]);
      const double v = to_double(x[i]);
      mag += v == v ? std::abs(v) : 0;
      const double r = ref[i];
      bool ok;
      if (r != r) ok = g != g;
      else if (std::isinf(r)) ok = g == r;
      else if (k == kind::max || k == kind::min) ok = g == r && std::signbit(g) == std::signbit(r);
      else if (k == kind::sum || k == kind::nansum) ok = std::abs(g - r) <= eps_of<R>() * std::abs(r) + term_tol * mag + tiny_of<R>();
      else ok = std::abs(g - r) <= (eps_of<R>() + 1e-12) * std::abs(r) + tiny_of<R>();
      if (!ok && bad++ < 5) FAIL_CHECK("element " << i << ": got " << g << ", reference " << r);
    }
    CHECK(bad == 0);
  } else {
    std::vector<std::uint64_t> bits;
    const auto ref = ref_int(k, x, bits);
    int bad = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const R g = got.data()[i];
      const bool ok = (k == kind::max || k == kind::min) ? static_cast<double>(g) == ref[i]
                                                         : static_cast<std::uint64_t>(g) == bits[i];
      if (!ok && bad++ < 5) FAIL_CHECK("element " << i << ": got " << static_cast<double>(g) << ", reference " << ref[i]);
    }
    CHECK(bad == 0);
  }
}

/// Bitwise equality of two arrays' contents.
template <class A, class B>
bool same_bits(const A& a, const B& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(*a.data())) == 0;
}

/// x's values copied in axis order a of a (d0, d1, d2) array, for the per-lane reference.
template <class T>
std::vector<T> lane(const std::vector<T>& x, const index_t* d, int a, index_t i, index_t j) {
  std::vector<T> v(static_cast<std::size_t>(d[a]));
  for (index_t t = 0; t < d[a]; ++t) {
    const index_t p = a == 0 ? (t * d[1] + i) * d[2] + j : a == 1 ? (i * d[1] + t) * d[2] + j : (i * d[1] + j) * d[2] + t;
    v[static_cast<std::size_t>(t)] = x[static_cast<std::size_t>(p)];
  }
  return v;
}

/// Every kind (All; else cumsum and cummax, to keep compile time down),
/// flat and along each axis of a (d0, d1, d2) array of T, on policy P.
template <class T, class P, bool All = true>
void check_type(const index_t* d, unsigned seed) {
  const index_t n = d[0] * d[1] * d[2];
  for (const kind k : kinds) {
    if (!float_like<T> && (k == kind::nansum || k == kind::nanprod)) continue;  // as cumsum, cumprod
    if (!All && k != kind::sum && k != kind::max) continue;
    const bool mul = k == kind::prod || k == kind::nanprod;
    const auto x = make<T>(static_cast<std::size_t>(n), seed, mul);
    st::array<T, 3, P> a({d[0], d[1], d[2]});
    std::copy(x.begin(), x.end(), a.data());
    if constexpr (All) check_against(k, x, run(k, a), "flat");
    else check_against(k, x, k == kind::sum ? st::cumsum(a) : run_max(a), "flat");
    for (int ax = 0; ax < 3; ++ax) {
      auto r = [&] {
        switch (k) {
          case kind::sum: return st::cumsum(a, st::axis(ax));
          case kind::prod:
            if constexpr (All) return st::cumprod(a, st::axis(ax - 3));
            break;
          case kind::nansum:
            if constexpr (All && float_like<T>) return st::nancumsum(a, st::axis(ax));
            break;
          case kind::nanprod:
            if constexpr (All && float_like<T>) return st::nancumprod(a, st::axis(ax));
            break;
          default: break;
        }
        using R = decltype(st::cumsum(a, st::axis(ax)));
        R out(a.shape());
        auto m = [&] {
          if constexpr (All) return k == kind::max ? st::cummax(a, st::axis(ax)) : st::cummin(a, st::axis(ax));
          else return st::cummax(a, st::axis(ax));
        }();
        static_assert(std::is_same_v<typename decltype(m)::value_type, T>);
        for (index_t i = 0; i < n; ++i) out.data()[i] = static_cast<typename R::value_type>(m.data()[i]);
        return out;
      }();
      CHECK(r.shape() == a.shape());
      const int o1 = ax == 0 ? 1 : 0, o2 = ax == 2 ? 1 : 2;
      for (index_t i = 0; i < d[o1]; ++i)
        for (index_t j = 0; j < d[o2]; ++j) {
          const auto xs = lane(x, d, ax, i, j);
          using R = typename decltype(r)::value_type;
          st::array<R, 1, st::host> got({d[ax]});
          for (index_t t = 0; t < d[ax]; ++t) {
            const index_t p = ax == 0   ? (t * d[1] + i) * d[2] + j
                              : ax == 1 ? (i * d[1] + t) * d[2] + j
                                        : (i * d[1] + j) * d[2] + t;
            got.data()[t] = r.data()[p];
          }
          check_against(k, xs, got, ax == 0 ? "axis 0" : ax == 1 ? "axis 1" : "axis 2");
        }
    }
  }
}

constexpr index_t small_dims[3] = {3, 5, 7};
constexpr index_t par_dims[3] = {4, 130, 257};  // 133640 elements: par's threads engage

// The test cases are in the namespace too: the batch's other files have helpers of the same names.

// ---- result types -------------------------------------------------------------

TEST_CASE("scan: result types follow NumPy (64-bit integer sums, floats keep their type)") {
  st::array<std::int32_t, 1, st::host> i({3});
  st::array<std::uint8_t, 1, st::host> u({3});
  st::array<bool, 2, st::host> b({2, 2});
  st::array<float, 1, st::par> f({3});
  st::array<st::half, 1, st::host> h({3});
  static_assert(std::is_same_v<decltype(st::cumsum(i)), st::array<std::int64_t, 1, st::host>>);
  static_assert(std::is_same_v<decltype(st::cumprod(u)), st::array<std::uint64_t, 1, st::host>>);
  static_assert(std::is_same_v<decltype(st::cumsum(b)), st::array<std::int64_t, 1, st::host>>);
  static_assert(std::is_same_v<decltype(st::cumsum(b, st::axis(1))), st::array<std::int64_t, 2, st::host>>);
  static_assert(std::is_same_v<decltype(st::cummax(b)), st::array<bool, 1, st::host>>);
  static_assert(std::is_same_v<decltype(st::cummin(i)), st::array<std::int32_t, 1, st::host>>);
  static_assert(std::is_same_v<decltype(st::cumsum(f)), st::array<float, 1, st::par>>);
  static_assert(std::is_same_v<decltype(st::nancumsum(h)), st::array<st::half, 1, st::host>>);
  static_assert(std::is_same_v<decltype(st::cumsum(f * 2.0)), st::array<float, 1, st::par>>);  // weak scalars
  b.data()[0] = true;
  b.data()[1] = false;
  b.data()[2] = true;
  b.data()[3] = true;
  const auto c = st::cumsum(b);
  CHECK(c.data()[3] == 3);
  CHECK(st::cummax(b).data()[1] == true);
}

// ---- every dtype, every kind, flat and each axis -------------------------------

TEST_CASE_TEMPLATE("scan: every kind, flat and along each axis of a 3-D array", T, bool, std::uint8_t, std::int32_t,
                   st::half, float, double) {
  check_type<T, st::host>(small_dims, 11);
}

TEST_CASE_TEMPLATE("scan: cumsum and cummax of every other dtype", T, std::int8_t, std::int16_t, std::uint16_t,
                   std::uint32_t, std::int64_t, std::uint64_t, st::bfloat16) {
  check_type<T, st::host, false>(small_dims, 14);
}

TEST_CASE_TEMPLATE("scan: along each axis on par's threads", T, float, std::int32_t) {
  threads_guard guard;
  st::set_num_threads(3);
  check_type<T, st::par>(par_dims, 13);
}

// ---- special values --------------------------------------------------------------

TEST_CASE("scan: NaN, ±inf and ±0 as NumPy") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  std::vector<double> x = {-0.0, -0.0, 1.5, -inf, 2.0, nan, 3.0, inf, -0.0, 0.0};
  st::array<double, 1, st::host> a({static_cast<index_t>(x.size())});
  std::copy(x.begin(), x.end(), a.data());
  for (const kind k : kinds) check_against(k, x, run(k, a), "specials");
  // Explicit values (NumPy 1.26): cumsum keeps -0.0 while every term is -0.0;
  // maximum.accumulate propagates the first NaN and keeps the earlier of ±0.
  const auto s = st::cumsum(a);
  CHECK(std::signbit(s.data()[0]));
  CHECK(std::signbit(s.data()[1]));
  CHECK(s.data()[3] == -inf);
  CHECK(std::isnan(s.data()[5]));
  const auto mx = st::cummax(a);
  CHECK((mx.data()[1] == 0 && std::signbit(mx.data()[1])));
  CHECK(mx.data()[4] == 2.0);
  CHECK(std::isnan(mx.data()[9]));
  const auto mn = st::cummin(a);
  CHECK(mn.data()[3] == -inf);
  CHECK(std::isnan(mn.data()[6]));
  const auto ns = st::nancumsum(a);
  CHECK(ns.data()[5] == -inf);
  const auto np = st::nancumprod(a);
  CHECK(std::isnan(np.data()[3]));  // -0 * -inf
  // NaN and inf beyond the first tile, in a float array on par.
  const index_t n = 3 * 4096 + 17;
  auto y = make<float>(static_cast<std::size_t>(n), 3);
  y[5000] = -0.f;
  y[9000] = std::numeric_limits<float>::infinity();
  y[12000] = std::numeric_limits<float>::quiet_NaN();
  st::array<float, 1, st::par> b({n});
  std::copy(y.begin(), y.end(), b.data());
  for (const kind k : kinds) check_against(k, y, run(k, b), "specials, par");
}

// ---- shapes: empty, size 1, large and odd -----------------------------------------

TEST_CASE_TEMPLATE("scan: empty and size-1 axes", P, st::host, st::par) {
  st::array<float, 3, P> e({3, 0, 4});
  CHECK(st::cumsum(e).size() == 0);
  CHECK(st::cumsum(e).shape() == st::extents<1>{0});
  for (int ax = 0; ax < 3; ++ax) CHECK(st::cummax(e, st::axis(ax)).shape() == e.shape());
  st::array<double, 2, P> row({1, 6}), col({6, 1});
  for (index_t i = 0; i < 6; ++i) row.data()[i] = col.data()[i] = static_cast<double>(i) - 2.5;
  const auto r0 = st::cumsum(row, st::axis(0));
  const auto c1 = st::cumprod(col, st::axis(1));
  for (index_t i = 0; i < 6; ++i) {
    CHECK(r0.data()[i] == row.data()[i]);
    CHECK(c1.data()[i] == col.data()[i]);
  }
  st::array<std::int16_t, 1, P> one({1});
  one.data()[0] = -7;
  CHECK(st::cumsum(one).data()[0] == -7);
}

TEST_CASE_TEMPLATE("scan: 2^20 + 3 elements, strided, reversed and misaligned views", P, st::host, st::par) {
  const index_t n = (index_t{1} << 20) + 3;
  const auto x = make<float>(static_cast<std::size_t>(n), 21);
  st::array<float, 1, P> a({n});
  std::copy(x.begin(), x.end(), a.data());
  check_against(kind::sum, x, st::cumsum(a), "2^20 + 3");
  const index_t m = n / sinter_test::scale;  // the views: a sample in sanitizer builds
  const auto b = a(st::slice(0, m));
  const std::vector<float> xb(x.begin(), x.begin() + m);
  std::vector<float> every2, rev, shifted;
  for (index_t i = 0; i < m; i += 2) every2.push_back(xb[static_cast<std::size_t>(i)]);
  rev.assign(xb.rbegin(), xb.rend());
  shifted.assign(xb.begin() + 1, xb.end());
  check_against(kind::sum, every2, st::cumsum(b(st::slice(st::none, st::none, 2))), "a[::2]");
  check_against(kind::max, rev, run(kind::max, b(st::slice(st::none, st::none, -1))), "a[::-1]");
  check_against(kind::min, shifted, run(kind::min, b(st::slice(1, st::none))), "a[1:]");
  // A 2-D strided, reversed view along each axis.
  st::array<float, 2, P> g({301, 203});
  const auto y = make<float>(301 * 203, 22);
  std::copy(y.begin(), y.end(), g.data());
  const auto v = g(st::slice(st::none, st::none, 2), st::slice(st::none, st::none, -1));  // (151, 203)
  for (int ax = 0; ax < 2; ++ax) {
    const auto r = st::cumsum(v, st::axis(ax));
    for (index_t lane_i = 0; lane_i < (ax == 0 ? 203 : 151); lane_i += 17) {
      std::vector<float> xs;
      st::array<float, 1, st::host> got({ax == 0 ? 151 : 203});
      for (index_t t = 0; t < (ax == 0 ? 151 : 203); ++t) {
        const index_t i = ax == 0 ? t : lane_i, j = ax == 0 ? lane_i : t;
        xs.push_back(y[static_cast<std::size_t>(2 * i * 203 + (202 - j))]);
        got.data()[t] = r.data()[i * 203 + j];
      }
      check_against(kind::sum, xs, got, "2-D view");
    }
  }
}

// ---- determinism -------------------------------------------------------------------

TEST_CASE("scan: host and par with 1, 2, 3 and 8 threads are bitwise equal") {
  threads_guard guard;
  const index_t n = (index_t{1} << 20) + 3;
  const auto x = make<float>(static_cast<std::size_t>(n), 31);
  st::array<float, 1, st::host> h({n});
  std::copy(x.begin(), x.end(), h.data());
  const auto p = st::as_view(h.data(), {n}, st::par{});
  const auto want = st::cumsum(h);
  const auto want_e = st::cumsum(st::exp(h) * 0.5f);
  st::array<float, 3, st::host> cube({64, 65, 63});
  std::copy(x.begin(), x.begin() + 64 * 65 * 63, cube.data());
  const auto want_ax = st::cumsum(cube, st::axis(1));
  const auto want_last = st::cumprod(cube, st::axis(2));
  for (const int t : {1, 2, 3, 8}) {
    CAPTURE(t);
    st::set_num_threads(t);
    CHECK(same_bits(st::cumsum(p), want));
    CHECK(same_bits(st::cumsum(st::exp(p) * 0.5f), want_e));
    const auto pc = st::as_view(cube.data(), {64, 65, 63}, st::par{});
    CHECK(same_bits(st::cumsum(pc, st::axis(1)), want_ax));
    CHECK(same_bits(st::cumprod(pc, st::axis(2)), want_last));
  }
}

// ---- accuracy, fusion, errors -------------------------------------------------------

TEST_CASE_TEMPLATE("scan: float cumsum of 10^7 uniforms within 1e-6 of a double sum", P, st::host, st::par) {
  const index_t n = 10'000'000 / sinter_test::scale;
  std::mt19937 g(5);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  st::array<float, 1, P> a({n});
  double exact = 0;
  for (auto& v : a) {
    v = u(g);
    exact += static_cast<double>(v);
  }
  const auto c = st::cumsum(a);
  CHECK(std::abs(static_cast<double>(c.data()[n - 1]) - exact) <= 1e-6 * exact);
}

TEST_CASE_TEMPLATE("scan: cumsum(exp(x) * w, axis(1)) is one pass and allocates only its result", P, st::host,
                   st::par) {
  const auto xv = make<float>(37 * 2011, 41), wv = make<float>(2011, 42);
  st::array<float, 2, P> x({37, 2011});
  st::array<float, 1, P> w({2011});
  std::copy(xv.begin(), xv.end(), x.data());
  std::copy(wv.begin(), wv.end(), w.data());
  st::trace_scope t;
  const auto r = st::cumsum(st::exp(x) * w, st::axis(1));
  CHECK(t.passes().size() == 1);
  CHECK(t.allocations() == 1);
  for (index_t i = 0; i < 37; i += 9) {
    std::vector<float> xs(2011);
    for (index_t j = 0; j < 2011; ++j)
      xs[static_cast<std::size_t>(j)] = std::exp(xv[static_cast<std::size_t>(i * 2011 + j)]) * wv[static_cast<std::size_t>(j)];
    st::array<float, 1, st::host> got({2011});
    std::copy(r.data() + i * 2011, r.data() + (i + 1) * 2011, got.data());
    check_against(kind::sum, xs, got, "exp(x) * w", 4e-7);  // sinter's exp: a few ulp from std::exp
  }
}

TEST_CASE("scan: an axis out of range is a value_error before any work") {
  st::array<float, 3, st::host> a({2, 3, 4});
  st::trace_scope t;
  CHECK_THROWS_AS(st::cumsum(a, st::axis(3)), st::value_error);
  CHECK_THROWS_AS(st::cummax(a, st::axis(-4)), st::value_error);
  std::string what;
  try {
    (void)st::cumprod(a, st::axis(7));
  } catch (const st::value_error& e) {
    what = e.what();
  }
  CHECK(what.find("cumprod: axis 7 is out of bounds") != std::string::npos);
  CHECK(t.passes().empty());
  CHECK(t.allocations() == 0);
  CHECK(st::cumsum(a, st::axis(-1)).shape() == a.shape());
}

}  // namespace test_scan
