// The explicit vector loop of policy/host/simd.hpp, included by
// test_host_simd_v3.cpp (AVX2 + FMA) and test_host_simd_v4.cpp (AVX-512):
// which passes take it (checked at compile time, so a broken dispatch fails
// the build of this file), and that every pass gives the bits of a scalar
// loop over the same operations (impl::exp_f and impl::tanh_f, the scalar
// kernels) and lies near a double-precision reference, at odd lengths,
// misaligned starts, in place, streamed, on par's split chunks, row by row
// over a 2-D view, with sentinels after the last element (the masked tail
// must not write past it).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <tuple>
#include <utility>
#include <sinter/sinter.hpp>
#include <vector>

#include "support/random.hpp"
#include "support/streaming.hpp"

#ifndef SINTER_SIMD_CASE
#error "define SINTER_SIMD_CASE(name) before including host_simd_cases.hpp"
#endif
#if !SINTER_HOST_SIMD
#error "tests/fma/host_simd_cases.hpp: compile for AVX2 + FMA or AVX-512 (SINTER_HOST_SIMD)"
#endif

namespace {

namespace st = sinter;
namespace sd = sinter::detail;
namespace mi = sinter::detail::math::impl;

// ---- which passes take the loop (compile time) -----------------------------

// The contiguous cursor a pass over expression E evaluates.
template <class E>
using cursor_t = decltype(std::declval<const E&>().node().bind(std::declval<const E&>().shape()).linear());
template <class T, class E>
constexpr bool takes_simd_v = sd::simd::applies_v<T, cursor_t<E>>;
#define TAKES_SIMD(T, ...) takes_simd_v<T, decltype(__VA_ARGS__)>

const std::vector<float> fa(8, 1.0f), fb(8, 2.0f);
const std::vector<double> da(8, 1.0), db(8, 2.0);
const st::view<const float, 1> va(fa.data(), {8}), vb(fb.data(), {8});
const st::view<const double, 1> wa(da.data(), {8}), wb(db.data(), {8});
const std::vector<int> ia(8, 1);
const st::view<const int, 1> vi(ia.data(), {8});

// A call (exp, tanh, sqrt) with every node vectorisable: the loop.
static_assert(TAKES_SIMD(float, st::exp(va + vb) * 2.0f));
static_assert(TAKES_SIMD(float, st::tanh(va * 0.5f + vb) * va - st::sqrt(st::abs(va))));
static_assert(TAKES_SIMD(double, st::sqrt(wa * wa + wb / 3.0)));
static_assert(TAKES_SIMD(float, st::sqrt(va) * 2));  // an int scalar, converted to float
static_assert(TAKES_SIMD(double, st::maximum(st::sqrt(wa), st::minimum(wa, wb)) - (-wb)));
static_assert(TAKES_SIMD(float, st::exp(st::square(va))));
// No call: GCC's own loop is as fast.
static_assert(!TAKES_SIMD(float, va * 2.0f + vb));
// The double maths functions: the vector lanes' kernels (kernels_f64.hpp,
// 4 doubles of AVX2 or 8 of AVX-512).
static_assert(TAKES_SIMD(double, st::exp(wa + wb) * 2.0));
static_assert(TAKES_SIMD(double, st::tanh(wa * 0.5 + wb) * wa - st::sqrt(st::abs(wa))));
static_assert(TAKES_SIMD(double, st::log(wa) + st::erf(wb) * st::erfc(wa)));
static_assert(TAKES_SIMD(double, st::exp2(wa) + st::expm1(wb) * st::log1p(wa) - st::log2(wb) / st::log10(wa)));
static_assert(TAKES_SIMD(double, st::sinh(wa) + st::cosh(wb) * st::asinh(wa) - st::acosh(wb) / st::atanh(wa)));
// float functions that compute in double: the same kernels on each
// half of the vector (log, log2, log10, erf and erfc with float's own).
static_assert(TAKES_SIMD(float, st::log(va) + st::erf(vb) * st::erfc(va)));
static_assert(TAKES_SIMD(float, st::exp2(va) + st::expm1(vb) * st::log1p(va) - st::log2(vb) / st::log10(va)));
static_assert(TAKES_SIMD(float, st::sinh(va) + st::cosh(vb) * st::asinh(va) - st::acosh(vb) / st::atanh(va)));
// Nodes without a vector form: a mixed-type operand, a cast.
static_assert(!TAKES_SIMD(double, st::sqrt(vi + wa)));
static_assert(!TAKES_SIMD(float, st::sqrt(st::cast<float>(wa))));
// The output type must be the expression's.
static_assert(!TAKES_SIMD(double, st::exp(va)));

// Which passes step by pairs of vectors: on AVX-512, trees of exp, tanh,
// sqrt and arithmetic (exp and tanh have pair lanes there); trees with
// another function, one vector a step.
template <class T, class E>
constexpr bool pairs_v = sd::simd::pair_steps && sd::simd::eval<cursor_t<E>, T>::pairs;
#define PAIRS_SIMD(T, ...) pairs_v<T, decltype(__VA_ARGS__)>
constexpr bool avx512 = sd::simd::vector_bytes == 64;
static_assert(PAIRS_SIMD(float, st::exp(va + vb) * 2.0f) == avx512);
static_assert(PAIRS_SIMD(float, st::tanh(va * 0.5f + vb) * va - st::sqrt(st::abs(va))) == avx512);
static_assert(PAIRS_SIMD(float, st::maximum(st::exp(st::square(va)), -vb) / st::minimum(va, 2)) == avx512);
static_assert(!PAIRS_SIMD(float, st::exp(va) + st::log(vb)));
static_assert(PAIRS_SIMD(double, st::exp(wa + wb) * 2.0) == avx512);
static_assert(PAIRS_SIMD(double, st::tanh(wa * 0.5 + wb) * wa - st::sqrt(st::abs(wa))) == avx512);
static_assert(PAIRS_SIMD(double, st::sqrt(wa * wa + wb / 3.0)) == avx512);
static_assert(!PAIRS_SIMD(double, st::exp(wa) + st::log(wb)));
static_assert(!PAIRS_SIMD(double, st::expm1(wa)));

// ---- values ------------------------------------------------------------------

// Every kind of float: random bits, exp's and tanh's whole ranges, specials.
std::vector<float> inputs(std::size_t n, unsigned seed) {
  std::vector<float> v = sinter_test::random_vector<float>(n, seed, -12.0f, 12.0f);
  std::uint64_t s = 0x9e3779b97f4a7c15ull ^ seed;
  for (std::size_t i = 0; i < n; ++i) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    if (i % 5 == 1) {
      const auto b = static_cast<std::uint32_t>(s >> 32);
      std::memcpy(&v[i], &b, sizeof b);
    } else if (i % 5 == 2) {
      v[i] = static_cast<float>(-110.0 + 205.0 * (static_cast<double>(s >> 11) * 0x1p-53));
    }
  }
  using L = std::numeric_limits<float>;
  const float sp[] = {0.0f, -0.0f, 88.72284f, -103.97208f, L::infinity(), -L::infinity(),
                      L::quiet_NaN(), L::denorm_min(), 1.25f, 0x1.3ffffep+0f, -1.25f, 9.02f};
  for (std::size_t i = 0; i < sizeof sp / sizeof sp[0] && i * 3 < n; ++i) v[i * 3] = sp[i];
  return v;
}

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// |got - want| within k ulps of float at want (NaN and infinities matched).
bool near_f(float got, double want, double k) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want) || std::fabs(want) > std::numeric_limits<float>::max())
    return std::isinf(got) && (got > 0) == (want > 0);
  const double ulp = std::ldexp(1.0, std::max(std::ilogb(want), -126) - 23);
  return std::fabs(static_cast<double>(got) - want) <= k * ulp;
}

// Lengths around the vector widths (8 and 16 floats, 4 and 8 doubles) and
// AVX-512's pairs of float vectors (32: a pair, a vector and a masked tail
// in 61, a pair and a vector in 48), primes, and longer.
const std::size_t lengths[] = {0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 48, 61, 64, 100, 257, 1031, 4099};
constexpr std::size_t guard = 20;  // sentinels after the output

// out = exp(a + b) * 2 over [off, off + n) of buffers with sentinels after.
template <class Policy>
void check_exp_add(std::size_t off, std::size_t n, unsigned seed) {
  const std::vector<float> a = inputs(off + n + guard, seed), b = inputs(off + n + guard, seed + 1);
  std::vector<float> out(off + n + guard, 7.5f);
  st::view<float, 1, Policy> o(out.data() + off, {static_cast<st::index_t>(n)});
  const st::view<const float, 1, Policy> x(a.data() + off, {static_cast<st::index_t>(n)});
  const st::view<const float, 1, Policy> y(b.data() + off, {static_cast<st::index_t>(n)});
  o = st::exp(x + y) * 2.0f;
  for (std::size_t i = 0; i < off + n + guard; ++i) {
    if (i < off || i >= off + n) {
      REQUIRE_MESSAGE(same_bits(out[i], 7.5f), "sentinel " << i << " written, n " << n << " off " << off);
      continue;
    }
    const float s = a[i] + b[i];
    const float want = mi::exp_f(s) * 2.0f;
    REQUIRE_MESSAGE(same_bits(out[i], want), "i " << i - off << " n " << n << " x " << s << ": " << out[i]
                                                   << " vs scalar " << want);
    if (!std::isnan(s)) REQUIRE(near_f(out[i], std::exp(static_cast<double>(s)) * 2.0, 2.0));
  }
}

SINTER_SIMD_CASE("float exp(a + b) * 2: the scalar kernel's bits at every length and offset") {
  for (std::size_t off : {0, 1, 3})
    for (std::size_t n : lengths) check_exp_add<st::host>(off, n, static_cast<unsigned>(n + 17 * off));
}

SINTER_SIMD_CASE("float tanh chain: bits of the scalar loop, near the double reference") {
  for (std::size_t n : lengths) {
    const std::size_t off = n % 3;
    const std::vector<float> a = inputs(off + n, 3), b = inputs(off + n, 4);
    const std::vector<float> c = sinter_test::random_vector<float>(off + n, 5, -2.0f, 2.0f);
    std::vector<float> out(off + n + guard, -1.25f);
    const auto len = static_cast<st::index_t>(n);
    const st::view<const float, 1> x(a.data() + off, {len}), y(b.data() + off, {len}), z(c.data() + off, {len});
    st::view<float, 1>(out.data() + off, {len}) = st::tanh(x * 0.5f + y) * z - st::sqrt(st::abs(x));
    for (std::size_t i = off; i < off + n; ++i) {
      const float t = a[i] * 0.5f + b[i];
      const float want = mi::tanh_f(t) * c[i] - std::sqrt(std::fabs(a[i]));
      REQUIRE_MESSAGE(same_bits(out[i], want), "i " << i << " n " << n << ": " << out[i] << " vs " << want);
      const double ref = std::tanh(static_cast<double>(t)) * c[i] - std::sqrt(std::fabs(static_cast<double>(a[i])));
      if (std::isfinite(ref) && std::fabs(ref) > 1e-3) CHECK(std::fabs(out[i] - ref) <= 1e-6 * (1 + std::fabs(ref)) * 8);
    }
    for (std::size_t i = off + n; i < out.size(); ++i) REQUIRE(same_bits(out[i], -1.25f));
  }
}

// A shared subexpression (core/shared_nodes.hpp): computed into a tile
// buffer through a shifted cursor, then read from it by the trees, one
// output and a tie of two; on AVX-512 both loops step by pairs.
SINTER_SIMD_CASE("float tanh written twice, shared through the tile buffer: one output and a tie") {
  for (std::size_t n : lengths) {
    const std::size_t off = n % 3 + 1;
    const std::vector<float> a = inputs(off + n, 31), b = inputs(off + n, 32);
    const std::vector<float> c = sinter_test::random_vector<float>(off + n, 33, -2.0f, 2.0f);
    std::vector<float> out(off + n + guard, 2.5f), out2(off + n + guard, 2.5f);
    const auto len = static_cast<st::index_t>(n);
    const st::view<const float, 1> x(a.data() + off, {len}), y(b.data() + off, {len}), z(c.data() + off, {len});
    st::view<float, 1> o(out.data() + off, {len}), o2(out2.data() + off, {len});
    const auto t = st::tanh(x * 0.5f + y);
    o = t * z - t * 0.5f;
    for (std::size_t i = off; i < off + n; ++i) {
      const float ti = mi::tanh_f(a[i] * 0.5f + b[i]);
      REQUIRE_MESSAGE(same_bits(out[i], ti * c[i] - ti * 0.5f), "one output, i " << i << " n " << n);
    }
    st::tie(o, o2) = std::tuple(t * z - st::sqrt(st::abs(x)), st::exp(t) + t * y);
    for (std::size_t i = off; i < off + n; ++i) {
      const float ti = mi::tanh_f(a[i] * 0.5f + b[i]);
      REQUIRE_MESSAGE(same_bits(out[i], ti * c[i] - std::sqrt(std::fabs(a[i]))), "tie 1, i " << i << " n " << n);
      REQUIRE_MESSAGE(same_bits(out2[i], mi::exp_f(ti) + ti * b[i]), "tie 2, i " << i << " n " << n);
    }
    for (std::size_t i = 0; i < out.size(); ++i)
      if (i < off || i >= off + n) REQUIRE((same_bits(out[i], 2.5f) && same_bits(out2[i], 2.5f)));
  }
}

// The double maths functions' vector kernels (kernels_f64.hpp), and the
// float functions computed in double.
// Every kind of double: random bits, exp's whole range and beyond, tanh's
// two branches, and specials (overflow and underflow thresholds, the
// subnormal results, tanh's 0.625 and 22, NaN, infinities, zeros).
std::vector<double> inputs_d(std::size_t n, unsigned seed) {
  std::vector<double> v = sinter_test::random_vector<double>(n, seed, -3.0, 3.0);
  std::uint64_t s = 0x9e3779b97f4a7c15ull ^ seed;
  for (std::size_t i = 0; i < n; ++i) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    if (i % 5 == 1) std::memcpy(&v[i], &s, sizeof s);
    else if (i % 5 == 2) v[i] = -760.0 + 1480.0 * (static_cast<double>(s >> 11) * 0x1p-53);
    else if (i % 5 == 3) v[i] = -25.0 + 50.0 * (static_cast<double>(s >> 11) * 0x1p-53);
  }
  using L = std::numeric_limits<double>;
  const double sp[] = {0.0, -0.0, 709.782712893384, 709.7827128933841, -745.1332191019411, -745.1332191019412,
                       -708.5, 711.0, -746.0, L::infinity(), -L::infinity(), L::quiet_NaN(), L::denorm_min(),
                       0.625, 0x1.3ffffffffffffp-1, -0.625, 22.0, -22.5, 1e-300};
  for (std::size_t i = 0; i < sizeof sp / sizeof sp[0] && i * 3 < n; ++i) v[i * 3] = sp[i];
  return v;
}

// |got - want| within k ulps of double at want (NaN, infinities and
// results below the smallest normal, within k subnormal spacings, matched).
bool near_d(double got, long double want, double k) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want) || std::fabs(want) > std::numeric_limits<double>::max())
    return std::isinf(got) && (got > 0) == (want > 0);
  const int e = want == 0 ? -1074 : std::ilogb(static_cast<double>(want));
  const long double ulp = std::ldexp(1.0L, std::max(e, -1022) - 52);
  return std::fabs(static_cast<long double>(got) - want) <= k * ulp;
}

SINTER_SIMD_CASE("double exp(a + b) * 2 and the tanh chain: the scalar kernels' bits, near long double") {
  for (std::size_t off : {0, 1, 3})
    for (std::size_t n : lengths) {
      const auto seed = static_cast<unsigned>(n + 17 * off);
      const std::vector<double> a = inputs_d(off + n + guard, seed), b = inputs_d(off + n + guard, seed + 1);
      const std::vector<double> z = sinter_test::random_vector<double>(off + n + guard, seed + 2, -2.0, 2.0);
      std::vector<double> e(off + n + guard, 7.5), t(off + n + guard, -1.25);
      const auto len = static_cast<st::index_t>(n);
      const st::view<const double, 1> x(a.data() + off, {len}), y(b.data() + off, {len}), w(z.data() + off, {len});
      st::view<double, 1>(e.data() + off, {len}) = st::exp(x + y) * 2.0;
      st::view<double, 1>(t.data() + off, {len}) = st::tanh(x * 0.5 + y) * w - st::sqrt(st::abs(x));
      for (std::size_t i = 0; i < off + n + guard; ++i) {
        if (i < off || i >= off + n) {
          REQUIRE_MESSAGE(same_bits(e[i], 7.5), "exp: sentinel " << i << " written, n " << n << " off " << off);
          REQUIRE_MESSAGE(same_bits(t[i], -1.25), "tanh: sentinel " << i << " written, n " << n << " off " << off);
          continue;
        }
        const double s = a[i] + b[i], u = a[i] * 0.5 + b[i];
        const double we = mi::exp(s) * 2.0, wt = mi::tanh(u) * z[i] - std::sqrt(std::fabs(a[i]));
        REQUIRE_MESSAGE(same_bits(e[i], we), "exp: i " << i - off << " n " << n << " x " << s << ": " << e[i]
                                                      << " vs scalar " << we);
        REQUIRE_MESSAGE(same_bits(t[i], wt), "tanh: i " << i - off << " n " << n << " x " << u << ": " << t[i]
                                                       << " vs scalar " << wt);
        if (!std::isnan(s)) REQUIRE(near_d(mi::exp(s), std::exp(static_cast<long double>(s)), 1.0));
        if (!std::isnan(u)) REQUIRE(near_d(mi::tanh(u), std::tanh(static_cast<long double>(u)), 1.5));
      }
    }
}

SINTER_SIMD_CASE("double log, erf and erfc: the scalar kernels' bits, near long double") {
  for (std::size_t n : lengths) {
    const std::size_t off = n % 3;
    const std::vector<double> a = inputs_d(off + n + guard, static_cast<unsigned>(n) + 5);
    std::vector<double> l(off + n + guard, 0.5), e(off + n + guard, 0.5), ec(off + n + guard, 0.5);
    const auto len = static_cast<st::index_t>(n);
    const st::view<const double, 1> x(a.data() + off, {len});
    st::view<double, 1>(l.data() + off, {len}) = st::log(x);
    st::view<double, 1>(e.data() + off, {len}) = st::erf(x) * 3.0;
    st::view<double, 1>(ec.data() + off, {len}) = st::erfc(x * 0.25);
    for (std::size_t i = 0; i < off + n + guard; ++i) {
      if (i < off || i >= off + n) {
        REQUIRE_MESSAGE((same_bits(l[i], 0.5) && same_bits(e[i], 0.5) && same_bits(ec[i], 0.5)),
                        "sentinel " << i << " written, n " << n);
        continue;
      }
      const double v = a[i];
      REQUIRE_MESSAGE(same_bits(l[i], mi::log(v)), "log: n " << n << " x " << v << ": " << l[i] << " vs " << mi::log(v));
      REQUIRE_MESSAGE(same_bits(e[i], mi::erf(v) * 3.0), "erf: n " << n << " x " << v);
      REQUIRE_MESSAGE(same_bits(ec[i], mi::erfc(v * 0.25)), "erfc: n " << n << " x " << v * 0.25);
      if (std::isnan(v)) continue;
      REQUIRE(near_d(mi::log(v), std::log(static_cast<long double>(v)), 1.0));
      REQUIRE(near_d(mi::erf(v), std::erf(static_cast<long double>(v)), 1.0));
      REQUIRE(near_d(mi::erfc(v * 0.25), std::erfc(static_cast<long double>(v * 0.25)), 2.5));
    }
  }
}

// Each function alone, out = f(x) over every length: the scalar kernel's
// bits (its accuracy: tests/core/test_math_exp_log.cpp).
template <class T>
std::vector<T> inputs_of(std::size_t n, unsigned seed) {
  if constexpr (std::is_same_v<T, float>) return inputs(n, seed);
  else return inputs_d(n, seed);
}
template <class T, class F, class G>
void check_fn(const char* name, F&& pass, G&& scalar) {
  for (std::size_t n : lengths) {
    const std::size_t off = (n + 1) % 3;
    const std::vector<T> a = inputs_of<T>(off + n + guard, static_cast<unsigned>(n) + 9);
    std::vector<T> out(off + n + guard, T(0.75));
    const auto len = static_cast<st::index_t>(n);
    pass(st::view<T, 1>(out.data() + off, {len}), st::view<const T, 1>(a.data() + off, {len}));
    for (std::size_t i = 0; i < off + n + guard; ++i) {
      const bool in = i >= off && i < off + n;
      const T want = in ? scalar(a[i]) : T(0.75);
      REQUIRE_MESSAGE(same_bits(out[i], want), name << ": n " << n << " i " << i << " x " << a[i] << ": " << out[i]
                                                    << " vs " << want);
    }
  }
}
// Each function is run by store_range itself, the explicit loop's whole
// vectors and masked tail, without assign's other paths (which the cases
// above and below cover; through assign, the 13 float functions cost this
// file 20 s of compile time): that assign takes this loop for them is
// checked at compile time at the top of this file. The references call the
// impl functions, which are always inlined: an out-of-line
// sinter::detail::math function (or its SIMD clone) is a weak symbol, and
// the linker may take another test file's copy, compiled with FMA
// contraction (a 1-ulp difference seen in Black-Scholes).
template <class T, class E>
void store_simd(st::view<T, 1> o, const E& e) {
  const auto cursor = e.node().bind(e.shape()).linear();
  static_assert(sd::simd::applies_v<T, std::remove_const_t<decltype(cursor)>>);
  sd::simd::store_range<T>(o.data(), cursor, 0, o.shape()[0]);
}
#define SINTER_CHECK_FN(T, fn, ...)                                                                  \
  check_fn<T>(#fn, [](st::view<T, 1> o, st::view<const T, 1> x) { store_simd(o, st::fn(x)); }, \
              [](T v) { return __VA_ARGS__; })
#define SINTER_CHECK_FN_F64(fn) SINTER_CHECK_FN(double, fn, mi::fn(v))
#define SINTER_CHECK_FN_F32(fn, ...) SINTER_CHECK_FN(float, fn, __VA_ARGS__)

SINTER_SIMD_CASE("double exp2, expm1, log2, log10, log1p, sinh, cosh, asinh, acosh, atanh: the scalar kernels' bits") {
  SINTER_CHECK_FN_F64(exp2);
  SINTER_CHECK_FN_F64(expm1);
  SINTER_CHECK_FN_F64(log2);
  SINTER_CHECK_FN_F64(log10);
  SINTER_CHECK_FN_F64(log1p);
  SINTER_CHECK_FN_F64(sinh);
  SINTER_CHECK_FN_F64(cosh);
  SINTER_CHECK_FN_F64(asinh);
  SINTER_CHECK_FN_F64(acosh);
  SINTER_CHECK_FN_F64(atanh);
}

// float functions that compute in double (exp_log.hpp's double kernels,
// log_erf_f32.hpp's float ones): the explicit loop widens each half of
// the vector and rounds back, as the scalar function's casts do.
SINTER_SIMD_CASE("float exp2, expm1, log, log2, log10, log1p, sinh, cosh, asinh, acosh, atanh, erf, erfc: the scalar bits") {
  SINTER_CHECK_FN_F32(exp2, static_cast<float>(mi::exp2(static_cast<double>(v))));
  SINTER_CHECK_FN_F32(expm1, static_cast<float>(mi::expm1(static_cast<double>(v))));
  SINTER_CHECK_FN_F32(log, mi::log_f(v));
  SINTER_CHECK_FN_F32(log2, mi::log2_f(v));
  SINTER_CHECK_FN_F32(log10, mi::log10_f(v));
  SINTER_CHECK_FN_F32(log1p, static_cast<float>(mi::log1p(static_cast<double>(v))));
  SINTER_CHECK_FN_F32(sinh, static_cast<float>(mi::sinh(static_cast<double>(v))));
  SINTER_CHECK_FN_F32(cosh, static_cast<float>(mi::cosh(static_cast<double>(v))));
  SINTER_CHECK_FN_F32(asinh, static_cast<float>(mi::asinh(static_cast<double>(v))));
  SINTER_CHECK_FN_F32(acosh, static_cast<float>(mi::acosh(static_cast<double>(v))));
  SINTER_CHECK_FN_F32(atanh, static_cast<float>(mi::atanh(static_cast<double>(v))));
  SINTER_CHECK_FN_F32(erf, mi::erf_f(v));
  SINTER_CHECK_FN_F32(erfc, mi::erfc_f(v));
}
#undef SINTER_CHECK_FN
#undef SINTER_CHECK_FN_F64
#undef SINTER_CHECK_FN_F32

// The Black-Scholes prices of bench/bench_math.cpp, both outputs in one tie
// pass (d1 shared), against a scalar loop of the same operations.
template <class T>
T ref_log(T x) {
  if constexpr (std::is_same_v<T, float>) return mi::log_f(x);
  else return mi::log(x);
}
template <class T>
T ref_exp(T x) {
  if constexpr (std::is_same_v<T, float>) return mi::exp_f(x);
  else return mi::exp(x);
}
template <class T>
T ref_erfc(T x) {
  if constexpr (std::is_same_v<T, float>) return mi::erfc_f(x);
  else return mi::erfc(x);
}
template <class T, class P>
void check_black_scholes() {
  constexpr T r = T(0.02), v = T(0.3), c = T(0.70710678118654752440), hr = r + T(0.5) * v * v, h = T(0.5);
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(5), std::size_t(17), std::size_t(1031),
                        std::size_t(70001)}) {
    const std::vector<T> vs = sinter_test::random_vector<T>(n + 1, 61, T(5), T(30)),
                         vk = sinter_test::random_vector<T>(n + 1, 62, T(1), T(100)),
                         vt = sinter_test::random_vector<T>(n + 1, 63, T(0.25), T(10));
    std::vector<T> call(n + 1 + guard, T(2)), put(n + 1 + guard, T(2));
    const auto len = static_cast<st::index_t>(n);
    const st::view<const T, 1, P> s(vs.data() + 1, {len}), k(vk.data() + 1, {len}), t(vt.data() + 1, {len});
    const auto vol = st::sqrt(t) * v;
    const auto d1 = (st::log(s / k) + t * hr) / vol;
    const auto d2 = d1 - vol;
    const auto ke = k * st::exp(t * -r);
    st::view<T, 1, P> co(call.data() + 1, {len}), po(put.data() + 1, {len});
    st::tie(co, po) = std::tuple(s * h * st::erfc(d1 * -c) - ke * h * st::erfc(d2 * -c),
                                 ke * h * st::erfc(d2 * c) - s * h * st::erfc(d1 * c));
    for (std::size_t i = 1; i <= n; ++i) {
      const T S = vs[i], K = vk[i], Tm = vt[i];
      const T vol_i = std::sqrt(Tm) * v;
      const T d1_i = (ref_log(S / K) + Tm * hr) / vol_i, d2_i = d1_i - vol_i;
      const T ke_i = K * ref_exp(Tm * -r);
      const T wc = S * h * ref_erfc(d1_i * -c) - ke_i * h * ref_erfc(d2_i * -c);
      const T wp = ke_i * h * ref_erfc(d2_i * c) - S * h * ref_erfc(d1_i * c);
      REQUIRE_MESSAGE(same_bits(call[i], wc), "call (" << sizeof(T) * 8 << "-bit), n " << n << " i " << i << ": " << call[i] << " vs " << wc);
      REQUIRE_MESSAGE(same_bits(put[i], wp), "put (" << sizeof(T) * 8 << "-bit), n " << n << " i " << i << ": " << put[i] << " vs " << wp);
    }
    REQUIRE((same_bits(call[0], T(2)) && same_bits(put[0], T(2))));
    for (std::size_t i = n + 1; i < call.size(); ++i) REQUIRE((same_bits(call[i], T(2)) && same_bits(put[i], T(2))));
  }
}

// double on par (70001 elements split over its threads), float on host
// (par's chunks of float maths: the streamed/par case below; compile time).
SINTER_SIMD_CASE("Black-Scholes, one tie pass, double and float: the bits of a scalar loop") {
  check_black_scholes<double, st::par>();
  check_black_scholes<float, st::host>();
}

SINTER_SIMD_CASE("double exp and tanh: streamed, on par's chunks, in place") {
  const std::size_t n = (std::size_t(1) << 16) + 7;  // above 2 * par_grain in doubles: par splits it
  const std::vector<double> a = inputs_d(n + 1, 41);
  const auto len = static_cast<st::index_t>(n);
  for (bool stream : {false, true}) {
    const sinter_test::streaming_scope scope(stream);
    std::vector<double> out(n + 1 + guard, 9.0), in_place(a);
    st::view<double, 1, st::par>(out.data() + 1, {len}) =
        st::exp(st::view<const double, 1, st::par>(a.data() + 1, {len}));
    st::view<double, 1> ip(in_place.data() + 1, {len});
    ip = st::tanh(ip);
    for (std::size_t i = 1; i <= n; ++i) {
      REQUIRE_MESSAGE(same_bits(out[i], mi::exp(a[i])), "par exp, stream " << stream << ", i " << i);
      REQUIRE_MESSAGE(same_bits(in_place[i], mi::tanh(a[i])), "in-place tanh, stream " << stream << ", i " << i);
    }
    REQUIRE(same_bits(out[0], 9.0));
    for (std::size_t i = n + 1; i < out.size(); ++i) REQUIRE(same_bits(out[i], 9.0));
  }
}


SINTER_SIMD_CASE("double sqrt, minimum, maximum, divide, negative: exact against a scalar loop") {
  using L = std::numeric_limits<double>;
  for (std::size_t n : lengths) {
    std::vector<double> a = sinter_test::random_vector<double>(n + 1, 11, -3.0, 9.0);
    std::vector<double> b = sinter_test::random_vector<double>(n + 1, 12, -9.0, 3.0);
    if (n > 4) a[2] = L::quiet_NaN(), b[3] = L::quiet_NaN(), a[4] = -0.0, b[4] = 0.0;
    std::vector<double> out(n + 1 + guard, 3.5);
    const auto len = static_cast<st::index_t>(n);
    const st::view<const double, 1> x(a.data() + 1, {len}), y(b.data() + 1, {len});
    st::view<double, 1>(out.data() + 1, {len}) =
        st::maximum(st::sqrt(st::abs(x) * y * y), st::minimum(x, y)) / 3.0 - (-y);
    for (std::size_t i = 1; i <= n; ++i) {
      const double p = a[i], q = b[i];
      const double mn = (p != p) | (q != q) ? p + q : (p < q ? p : q);
      const double s = std::sqrt(std::fabs(p) * q * q);
      const double mx = (s != s) | (mn != mn) ? s + mn : (s > mn ? s : mn);
      const double want = mx / 3.0 - (-q);
      REQUIRE_MESSAGE(same_bits(out[i], want), "i " << i << " n " << n << ": " << out[i] << " vs " << want);
    }
    REQUIRE(same_bits(out[0], 3.5));
    for (std::size_t i = n + 1; i < out.size(); ++i) REQUIRE(same_bits(out[i], 3.5));
  }
}

SINTER_SIMD_CASE("in place, a repeated square (twin pair), an integer scalar") {
  for (std::size_t n : {std::size_t(0), std::size_t(5), std::size_t(16), std::size_t(1001)}) {
    const std::vector<float> a0 = inputs(n, 21), b = inputs(n, 22);
    std::vector<float> a = a0;
    const auto len = static_cast<st::index_t>(n);
    st::view<float, 1> x(a.data(), {len});
    const st::view<const float, 1> y(b.data(), {len});
    x = st::exp(x - y) * 3;  // in place; 3 is an int
    for (std::size_t i = 0; i < n; ++i) REQUIRE(same_bits(a[i], mi::exp_f(a0[i] - b[i]) * 3.0f));
    std::vector<float> out(n, 0.0f);
    st::view<float, 1>(out.data(), {len}) = st::sqrt((y - 1.0f) * (y - 1.0f));
    for (std::size_t i = 0; i < n; ++i) {
      const float d = b[i] - 1.0f;
      REQUIRE(same_bits(out[i], std::sqrt(d * d)));
    }
  }
}

SINTER_SIMD_CASE("streamed, on par's chunks, and row by row over a 2-D view") {
  const std::size_t n = (std::size_t(1) << 17) + 13;  // above 2 * par_grain: par splits it
  const std::vector<float> a = inputs(n + 1, 31), b = inputs(n + 1, 32);
  std::vector<float> want(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = mi::exp_f(a[i + 1] + b[i + 1]) * 2.0f;
  const auto len = static_cast<st::index_t>(n);
  for (bool stream : {false, true}) {
    const sinter_test::streaming_scope scope(stream);
    std::vector<float> out(n + 1 + guard, 9.0f);
    st::view<float, 1, st::par>(out.data() + 1, {len}) =
        st::exp(st::view<const float, 1, st::par>(a.data() + 1, {len}) +
                st::view<const float, 1, st::par>(b.data() + 1, {len})) *
        2.0f;
    std::vector<float> out_h(n + 1 + guard, 9.0f);
    st::view<float, 1>(out_h.data() + 1, {len}) =
        st::exp(st::view<const float, 1>(a.data() + 1, {len}) + st::view<const float, 1>(b.data() + 1, {len})) * 2.0f;
    for (std::size_t i = 0; i < n; ++i) {
      REQUIRE_MESSAGE(same_bits(out[i + 1], want[i]), "par, stream " << stream << ", i " << i);
      REQUIRE_MESSAGE(same_bits(out_h[i + 1], want[i]), "host, stream " << stream << ", i " << i);
    }
    REQUIRE(same_bits(out[0], 9.0f));
    for (std::size_t i = n + 1; i < out.size(); ++i) REQUIRE(same_bits(out[i], 9.0f));
  }
  // Rows of 37 of a 29 x 41 matrix (columns 3..39): each row a unit-stride
  // piece with a masked tail; the columns around them must stay.
  const st::index_t rows = 29, cols = 41;
  const std::vector<float> m = inputs(static_cast<std::size_t>(rows * cols), 33);
  std::vector<float> out(static_cast<std::size_t>(rows * cols), 4.0f);
  st::view<float, 2> o(out.data(), {rows, cols});
  const st::view<const float, 2> x(m.data(), {rows, cols});
  o(st::all, st::slice(3, 40)) = st::tanh(x(st::all, st::slice(2, 39))) + 1.0f;
  for (st::index_t r = 0; r < rows; ++r)
    for (st::index_t j = 0; j < cols; ++j) {
      const auto k = static_cast<std::size_t>(r * cols + j);
      const float w = j >= 3 && j < 40 ? mi::tanh_f(m[k - 1]) + 1.0f : 4.0f;
      REQUIRE_MESSAGE(same_bits(out[k], w), "row " << r << " col " << j);
    }
}

}  // namespace
