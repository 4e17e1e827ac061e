// Accuracy and special-value tests for core/math (exp_log, pow_erf,
// sqrt_round): max ulp error against libm in higher precision.
// float: a sweep over every STRIDE-th bit pattern plus dense ranges; double:
// random values over wide ranges, against long double libm.
#include <doctest/doctest.h>

#include "support/scale.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <sinter/core/math/exp_log.hpp>
#include <sinter/core/math/pow_erf.hpp>
#include <sinter/core/math/sqrt_round.hpp>

namespace {

namespace m = sinter::detail::math;
using ld = long double;

// ulp error of r against the exact-ish value ref, in units of r's type at ref.
template <class F>
double ulp_error(F r, ld ref) {
  if (std::isnan(ref)) return std::isnan(r) ? 0.0 : 1e30;
  if (std::isnan(r)) return 1e30;
  if (std::isinf(ref) || std::isinf(r)) {
    if (static_cast<ld>(r) == ref) return 0.0;
    // ref beyond the largest finite F counts as inf.
    const ld big = static_cast<ld>(std::numeric_limits<F>::max());
    if (std::isinf(r) && std::fabs(ref) > big && (r > 0) == (ref > 0)) {
      // within half an ulp of max rounds to max; beyond, inf is right
      return std::fabs(ref) >= big * (1 + std::numeric_limits<F>::epsilon() / 2) ? 0.0 : 1.0;
    }
    return 1e30;
  }
  const ld a = std::fabs(ref);
  int e = 0;
  std::frexp(static_cast<double>(a == 0 ? std::numeric_limits<F>::min() : a), &e);
  constexpr int digits = std::numeric_limits<F>::digits;
  const int min_e = std::numeric_limits<F>::min_exponent;
  const ld ulp = std::ldexp(ld(1), (e < min_e ? min_e : e) - digits);
  return static_cast<double>(std::fabs(static_cast<ld>(r) - ref) / ulp);
}

float float_of(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

struct worst {
  double err = 0;
  double at = 0;
  void add(double e, double x) {
    if (e > err) {
      err = e;
      at = x;
    }
  }
};

constexpr std::uint32_t stride = 4099 * sinter_test::scale;  // about 1 million float patterns

// Every stride-th float pattern, plus dense runs at both ends of [lo, hi].
template <class Ours, class Ref>
worst sweep_float(Ours ours, Ref ref, float lo = 0, float hi = 0) {
  worst w;
  auto one = [&](float x) { w.add(ulp_error(ours(x), ref(static_cast<double>(x))), x); };
  for (std::uint64_t u = 0; u < 0x100000000ull; u += stride) one(float_of(static_cast<std::uint32_t>(u)));
  // dense: 2^17 consecutive floats from lo, then 2^17 more from hi
  float up = lo, down = hi;
  for (int i = 0; i < (1 << 17); ++i, up = std::nextafter(up, hi), down = std::nextafter(down, lo)) {
    one(up);
    one(down);
  }
  const float specials[] = {0.0f, -0.0f, std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::denorm_min(), -std::numeric_limits<float>::denorm_min(),
                            std::numeric_limits<float>::min(), std::numeric_limits<float>::max(),
                            -std::numeric_limits<float>::max(), 1.0f, -1.0f, 0.5f, 88.72283f, 88.72284f,
                            -87.33655f, -103.97208f, -103.97209f, -149.0f, -150.0f, 128.0f, -126.0f};
  for (float x : specials) one(x);
  return w;
}

struct rng {
  std::uint64_t s = 0x9e3779b97f4a7c15ull;
  std::uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
  double uniform(double lo, double hi) { return lo + (hi - lo) * static_cast<double>(next() >> 11) * 0x1p-53; }
  double any() {  // any finite double, log-uniform in magnitude
    std::uint64_t u = next();
    double d;
    std::memcpy(&d, &u, sizeof d);
    return std::isfinite(d) ? d : 1.0;
  }
};

constexpr int n_double = 100000;

// Random doubles: n in [lo, hi] uniform, n over all bit patterns, plus specials.
template <class Ours, class Ref>
worst sweep_double(Ours ours, Ref ref, double lo, double hi) {
  worst w;
  rng g;
  auto one = [&](double x) { w.add(ulp_error(ours(x), ref(static_cast<ld>(x))), x); };
  for (int i = 0; i < n_double; ++i) one(g.uniform(lo, hi));
  for (int i = 0; i < n_double / 3; ++i) one(g.any());
  for (int i = 0; i < n_double / 3; ++i) one(g.uniform(-1, 1) * std::ldexp(1.0, -static_cast<int>(g.next() % 60)));
  const double specials[] = {0.0, -0.0, std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN(),
                             std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::min(),
                             std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(), 1.0, -1.0,
                             709.782712893384, 709.79, -745.1332191019411, -745.2, -708.4, 1024.0, -1074.0,
                             -1075.0, 0.5, 2.0, 1e-300, -1e-300};
  for (double x : specials) one(x);
  return w;
}

#define SINTER_TEST_UNARY(name, ref_f, ref_l, fbound, dbound, dlo, dhi, flo, fhi)                      \
  TEST_CASE("math: " #name " float and double within bounds") {                                        \
    const worst wf = sweep_float([](float x) { return m::name(x); },                                   \
                                 [](double x) { return static_cast<ld>(ref_f(x)); }, flo, fhi);        \
    INFO("float max ulp " << wf.err << " at " << wf.at);                                               \
    CHECK(wf.err <= fbound);                                                                           \
    const worst wd = sweep_double([](double x) { return m::name(x); }, [](ld x) { return ref_l(x); },  \
                                  dlo, dhi);                                                           \
    INFO("double max ulp " << wd.err << " at " << wd.at);                                              \
    CHECK(wd.err <= dbound);                                                                           \
    MESSAGE(#name ": float " << wf.err << " ulp (at " << wf.at << "), double " << wd.err << " ulp (at " \
                             << wd.at << ")");                                                         \
  }

// name, double ref, long double ref, float bound, double bound, double range, dense float range
SINTER_TEST_UNARY(exp, std::exp, expl, 1.0, 2.0, -750.0, 750.0, -1.0f, 1.0f)
SINTER_TEST_UNARY(exp2, std::exp2, exp2l, 1.0, 2.0, -1080.0, 1030.0, -1.0f, 1.0f)
SINTER_TEST_UNARY(expm1, std::expm1, expm1l, 2.0, 2.0, -50.0, 710.0, -1.0f, 1.0f)
SINTER_TEST_UNARY(log, std::log, logl, 0.51, 2.0, 0.0, 10.0, 0.5f, 2.0f)
SINTER_TEST_UNARY(log2, std::log2, log2l, 0.51, 2.0, 0.0, 10.0, 0.5f, 2.0f)
SINTER_TEST_UNARY(log10, std::log10, log10l, 0.51, 2.0, 0.0, 10.0, 0.5f, 2.0f)
SINTER_TEST_UNARY(log1p, std::log1p, log1pl, 2.0, 2.0, -1.0, 10.0, -0.5f, 0.5f)
SINTER_TEST_UNARY(sinh, std::sinh, sinhl, 2.0, 4.0, -720.0, 720.0, -1.0f, 1.0f)
SINTER_TEST_UNARY(cosh, std::cosh, coshl, 2.0, 4.0, -720.0, 720.0, -1.0f, 1.0f)
SINTER_TEST_UNARY(tanh, std::tanh, tanhl, 2.0, 4.0, -30.0, 30.0, -1.0f, 1.0f)
SINTER_TEST_UNARY(asinh, std::asinh, asinhl, 2.0, 4.0, -1e6, 1e6, -1.0f, 1.0f)
SINTER_TEST_UNARY(acosh, std::acosh, acoshl, 2.0, 4.0, 1.0, 1e6, 1.0f, 2.0f)
SINTER_TEST_UNARY(atanh, std::atanh, atanhl, 2.0, 4.0, -1.0, 1.0, -1.0f, 1.0f)
SINTER_TEST_UNARY(cbrt, std::cbrt, cbrtl, 2.0, 4.0, -1e6, 1e6, 1.0f, 8.0f)
SINTER_TEST_UNARY(erf, std::erf, erfl, 0.51, 4.0, -7.0, 7.0, -1.0f, 1.0f)
SINTER_TEST_UNARY(erfc, std::erfc, erfcl, 0.51, 4.0, -7.0, 28.0, 0.5f, 10.5f)
SINTER_TEST_UNARY(sqrt, std::sqrt, sqrtl, 0.5, 0.5, 0.0, 1e6, 1.0f, 4.0f)
SINTER_TEST_UNARY(rsqrt, 1.0 / std::sqrt, 1.0L / sqrtl, 1.0, 2.0, 0.0, 1e6, 1.0f, 4.0f)

// Rounding must be exact, bit for bit (signs of zero included).
template <class F, class Ours, class Ref>
void check_exact(Ours ours, Ref ref, F x, long& bad) {
  const F a = ours(x), b = ref(x);
  if (std::memcmp(&a, &b, sizeof a) != 0 && !(std::isnan(a) && std::isnan(b))) {
    if (bad++ < 3) INFO("x = " << x << " ours " << a << " ref " << b);
  }
}

#define SINTER_TEST_EXACT(name, ref)                                                                   \
  TEST_CASE("math: " #name " is exact") {                                                              \
    long bad = 0;                                                                                      \
    auto of = [](float x) { return m::name(x); };                                                      \
    auto rf = [](float x) { return ref(x); };                                                          \
    for (std::uint64_t u = 0; u < 0x100000000ull; u += 4093)                                           \
      check_exact(of, rf, float_of(static_cast<std::uint32_t>(u)), bad);                               \
    for (float x = -20.0f; x < 20.0f; x += 0.25f) check_exact(of, rf, x, bad);                         \
    auto od = [](double x) { return m::name(x); };                                                     \
    auto rd = [](double x) { return ref(x); };                                                         \
    rng g;                                                                                             \
    for (int i = 0; i < 200000 / sinter_test::scale; ++i) check_exact(od, rd, g.any(), bad);                                \
    for (int i = 0; i < 200000 / sinter_test::scale; ++i) check_exact(od, rd, g.uniform(-1e17, 1e17) * 1e-6, bad);         \
    const double sp[] = {0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 0x1p52, 0x1p52 + 1, -0x1p53 + 1,        \
                         std::numeric_limits<double>::infinity(), 0x1p-1074, -0x1p-1074,               \
                         std::numeric_limits<double>::quiet_NaN(), 0.49999999999999994};              \
    for (double x : sp) check_exact(od, rd, x, bad);                                                   \
    CHECK(bad == 0);                                                                                   \
  }

SINTER_TEST_EXACT(floor, std::floor)
SINTER_TEST_EXACT(ceil, std::ceil)
SINTER_TEST_EXACT(trunc, std::trunc)
SINTER_TEST_EXACT(round, std::rint)
SINTER_TEST_EXACT(sqrt, std::sqrt)
// The arithmetic sqrt: the public one off GCC/x86-64 (else the instruction,
// hw_sqrt.hpp); also used inside other functions and reductions.
SINTER_TEST_EXACT(impl::sqrt, std::sqrt)

TEST_CASE("math: pow float and double within bounds") {
  rng g;
  worst wf, wd;
  // Fewer samples where the build is unoptimised (support/scale.hpp): 22 s
  // of the sanitizer stage at full count.
  for (int i = 0; i < 1000000 / sinter_test::scale; ++i) {
    const float x = static_cast<float>(g.uniform(0, 4)), y = static_cast<float>(g.uniform(-60, 60));
    wf.add(ulp_error(m::pow(x, y), static_cast<ld>(std::pow(static_cast<double>(x), static_cast<double>(y)))), x);
    const float xn = -static_cast<float>(std::ldexp(g.uniform(1, 2), static_cast<int>(g.next() % 60) - 30));
    const float yi = static_cast<float>(static_cast<int>(g.next() % 21) - 10);
    wf.add(ulp_error(m::pow(xn, yi), static_cast<ld>(std::pow(static_cast<double>(xn), static_cast<double>(yi)))), xn);
  }
  for (int i = 0; i < 300000 / sinter_test::scale; ++i) {
    const double x = g.uniform(0, 4), y = g.uniform(-500, 500);
    wd.add(ulp_error(m::pow(x, y), powl(x, y)), x);
    const double x2 = std::ldexp(g.uniform(0.5, 1), static_cast<int>(g.next() % 2000) - 1000);
    const double y2 = g.uniform(-2, 2);
    wd.add(ulp_error(m::pow(x2, y2), powl(x2, y2)), x2);
    const double x3 = 1.0 + g.uniform(-1, 1) * 0x1p-30, y3 = g.uniform(-1, 1) * 0x1p40;
    wd.add(ulp_error(m::pow(x3, y3), powl(x3, y3)), x3);
    const double xn = -g.uniform(0.1, 10), yn = static_cast<double>(static_cast<int>(g.next() % 201) - 100);
    wd.add(ulp_error(m::pow(xn, yn), powl(xn, yn)), xn);
  }
  MESSAGE("pow: float " << wf.err << " ulp, double " << wd.err << " ulp (at x = " << wd.at << ")");
  CHECK(wf.err <= 2.0);
  CHECK(wd.err <= 4.0);
}

TEST_CASE("math: pow special cases (C99 Annex F)") {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const double xs[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, inf, -inf, nan, 0x1p-1074, -3.0};
  const double ys[] = {0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 3.0, -3.0, 0.5, -0.5, inf, -inf, nan, 1e300, -1e300, 0x1p53 + 2};
  long bad = 0;
  for (double x : xs)
    for (double y : ys) {
      // bit-exact for special results (0, inf, NaN, exact 1 ...), else within 1 ulp
      const double a = m::pow(x, y), b = std::pow(x, y);
      const bool same = (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0 ||
                        (std::isfinite(b) && b != 0 && ulp_error(a, static_cast<ld>(b)) <= 1.0);
      if (!same) {
        ++bad;
        MESSAGE("pow(" << x << ", " << y << ") = " << a << ", expected " << b);
      }
      const float af = m::pow(static_cast<float>(x), static_cast<float>(y));
      const float bf = std::pow(static_cast<float>(x), static_cast<float>(y));
      const bool same_f = (std::isnan(af) && std::isnan(bf)) || std::memcmp(&af, &bf, sizeof af) == 0 ||
                          (std::isfinite(bf) && bf != 0 && ulp_error(af, static_cast<ld>(bf)) <= 1.0);
      if (!same_f) {
        ++bad;
        MESSAGE("powf(" << x << ", " << y << ") = " << af << ", expected " << bf);
      }
    }
  CHECK(bad == 0);
}

TEST_CASE("math: special values") {
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(m::exp(inf) == inf);
  CHECK(m::exp(-inf) == 0.0);
  CHECK(m::exp(1000.0) == inf);
  CHECK(m::exp(-1000.0) == 0.0);
  CHECK(m::exp(-745.0) == 0x1p-1074);
  CHECK(m::exp2(-1074.0) == 0x1p-1074);
  CHECK(m::exp2(-149.0f) == 0x1p-149f);
  CHECK(m::exp(89.0f) == std::numeric_limits<float>::infinity());
  CHECK(m::expm1(-inf) == -1.0);
  CHECK(m::log(0.0) == -inf);
  CHECK(m::log(-0.0) == -inf);
  CHECK(std::isnan(m::log(-1.0)));
  CHECK(m::log(inf) == inf);
  CHECK(m::log(0x1p-1074) == doctest::Approx(-744.4400719213812));
  CHECK(m::log2(0x1p-1074) == -1074.0);
  CHECK(m::log2(0x1p-149f) == -149.0f);
  CHECK(m::log10(1000.0) == 3.0);
  CHECK(m::log1p(-1.0) == -inf);
  CHECK(std::isnan(m::log1p(-2.0)));
  CHECK(std::signbit(m::log1p(-0.0)));
  CHECK(m::tanh(inf) == 1.0);
  CHECK(m::tanh(-30.0f) == -1.0f);
  CHECK(m::erf(inf) == 1.0);
  CHECK(m::erf(-inf) == -1.0);
  CHECK(m::erfc(inf) == 0.0);
  CHECK(m::erfc(-inf) == 2.0);
  CHECK(m::erfc(30.0) == 0.0);
  CHECK(m::cbrt(-27.0) == -3.0);
  CHECK(m::cbrt(-8.0f) == -2.0f);
  CHECK(std::signbit(m::cbrt(-0.0)));
  CHECK(m::cbrt(-inf) == -inf);
  CHECK(std::signbit(m::sqrt(-0.0)));
  CHECK(std::signbit(m::sqrt(-0.0f)));
  CHECK(std::isnan(m::sqrt(-1.0)));
  CHECK(std::isnan(m::sqrt(-1e-300)));
  CHECK(m::rsqrt(0.0) == inf);
  CHECK(m::rsqrt(-0.0f) == -std::numeric_limits<float>::infinity());
  CHECK(m::atanh(1.0) == inf);
  CHECK(std::isnan(m::acosh(0.5)));
  CHECK(m::cosh(-inf) == inf);
  CHECK(m::sinh(-inf) == -inf);
  CHECK(std::signbit(m::sinh(-0.0)));
  CHECK(std::signbit(m::tanh(-0.0f)));
  CHECK(std::signbit(m::asinh(-0.0)));
  CHECK(std::signbit(m::expm1(-0.0)));
  CHECK(std::signbit(m::atanh(-0.0)));
  CHECK(std::signbit(m::erf(-0.0)));
  // The float kernels of log_f32.hpp and erf_f32.hpp.
  const float finf = std::numeric_limits<float>::infinity();
  CHECK(m::log(0.0f) == -finf);
  CHECK(m::log(-0.0f) == -finf);
  CHECK(std::isnan(m::log(-1.0f)));
  CHECK(std::isnan(m::log(-finf)));
  CHECK(m::log(finf) == finf);
  CHECK(m::log(1.0f) == 0.0f);
  CHECK(!std::signbit(m::log(1.0f)));
  CHECK(m::log(0x1p-149f) == static_cast<float>(-149 * 0.69314718055994530942));
  CHECK(m::log(std::numeric_limits<float>::max()) == 88.72283935546875f);
  CHECK(m::log2(8.0f) == 3.0f);
  CHECK(m::log2(0x1p127f) == 127.0f);
  CHECK(m::log10(1000.0f) == 3.0f);
  CHECK(m::log10(1e-10f) == -10.0f);
  CHECK(m::erf(finf) == 1.0f);
  CHECK(m::erf(-finf) == -1.0f);
  CHECK(m::erf(4.0f) == 1.0f);
  CHECK(m::erf(0x1p-149f) == 0x1p-149f);  // 2/sqrt(pi) 2^-149 rounds to 2^-149
  CHECK(std::signbit(m::erf(-0.0f)));
  CHECK(m::erfc(finf) == 0.0f);
  CHECK(m::erfc(-finf) == 2.0f);
  CHECK(m::erfc(-4.0f) == 2.0f);
  CHECK(m::erfc(0.0f) == 1.0f);
  CHECK(m::erfc(10.0f) == 0x1p-149f);  // 2.09e-45 is nearest the smallest subnormal
  CHECK(m::erfc(10.1f) == 0.0f);
  const float fnan = std::numeric_limits<float>::quiet_NaN();
  for (float r : {m::log(fnan), m::log2(fnan), m::log10(fnan), m::erf(fnan), m::erfc(fnan)}) CHECK(std::isnan(r));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (double r : {m::exp(nan), m::exp2(nan), m::expm1(nan), m::log(nan), m::log2(nan), m::log10(nan),
                   m::log1p(nan), m::sinh(nan), m::cosh(nan), m::tanh(nan), m::asinh(nan), m::acosh(nan),
                   m::atanh(nan), m::cbrt(nan), m::erf(nan), m::erfc(nan), m::sqrt(nan), m::rsqrt(nan)})
    CHECK(std::isnan(r));
}

}  // namespace
