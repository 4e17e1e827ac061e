// Accuracy and special-value tests for sinter/core/math/trig.hpp.
// Reference: glibc's long double functions (64-bit mantissa).
#include <doctest/doctest.h>

#include "support/scale.hpp"

#include <sinter/core/math/trig.hpp>

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <random>

namespace {

namespace sm = sinter::detail::math;

// Stated bounds (docs/math_trig.md); the tests fail above them.
constexpr double bound_f = 1.0;     // every float function
constexpr double bound_d = 2.0;     // sin cos tan asin acos atan (double)
constexpr double bound_d_2 = 2.0;   // atan2 hypot (double)

/// Error of `got` against `ref` in units in the last place of T at `ref`.
template <class T>
double ulp_error(T got, long double ref) {
  if (std::isnan(ref)) return std::isnan(got) ? 0.0 : 1e30;
  if (std::isnan(got)) return 1e30;
  // A finite reference beyond T's range rounds to +-inf.
  if (std::isinf(static_cast<T>(ref)) || std::isinf(got)) return got == static_cast<T>(ref) ? 0.0 : 1e30;
  constexpr int digits = std::numeric_limits<T>::digits;        // 24 / 53
  constexpr int min_exp = std::numeric_limits<T>::min_exponent;  // -125 / -1021
  int e = ref == 0 ? min_exp - 1 : std::ilogb(ref);
  if (e < min_exp - 1) e = min_exp - 1;
  long double ulp = std::ldexp(1.0L, e - (digits - 1));
  return static_cast<double>(std::fabs(static_cast<long double>(got) - ref) / ulp);
}

struct worst {
  double err = 0;
  double x = 0, y = 0;
  void add(double e, double xx, double yy = 0) {
    if (e > err) err = e, x = xx, y = yy;
  }
};

float float_of_bits(std::uint32_t u) { return sm::from_bits<float>(u); }

/// Every `stride`-th float bit pattern (both signs), finite only.
template <class F, class R>
worst sweep_f(F f, R ref, std::uint64_t stride, float lo = -std::numeric_limits<float>::max(),
              float hi = std::numeric_limits<float>::max()) {
  worst w;
  for (std::uint64_t i = 0; i < (std::uint64_t{1} << 32); i += stride) {
    float x = float_of_bits(static_cast<std::uint32_t>(i));
    if (!std::isfinite(x) || x < lo || x > hi) continue;
    w.add(ulp_error(f(x), ref(static_cast<long double>(x))), x);
  }
  return w;
}

/// Random doubles with log-uniform magnitude in [2^elo, 2^ehi), both signs.
template <class F, class R>
worst random_d(F f, R ref, int n, double elo, double ehi, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> ue(elo, ehi), um(1.0, 2.0);
  worst w;
  for (int i = 0; i < n; ++i) {
    double x = std::ldexp(um(g), static_cast<int>(std::floor(ue(g))));
    if (g() & 1) x = -x;
    w.add(ulp_error(f(x), ref(static_cast<long double>(x))), x);
  }
  return w;
}

/// Random doubles uniform in [lo, hi).
template <class F, class R>
worst uniform_d(F f, R ref, int n, double lo, double hi, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  worst w;
  for (int i = 0; i < n; ++i) {
    double x = u(g);
    w.add(ulp_error(f(x), ref(static_cast<long double>(x))), x);
  }
  return w;
}

#define SINTER_TEST_REPORT(name, w, bound)                                               \
  do {                                                                                    \
    MESSAGE(name << ": max " << (w).err << " ULP at x = " << (w).x << ", y = " << (w).y); \
    CHECK((w).err <= (bound));                                                            \
  } while (0)

// Nearest doubles/floats to multiples of pi/2 (hardest reduction cases).
template <class T>
worst near_multiples(T (*f)(T), long double (*ref)(long double)) {
  worst w;
  const long double pio2 = 1.570796326794896619231321691639751442L;
  for (long double k = 1; k < 1e30L; k *= 1.37L) {
    T x = static_cast<T>(std::nearbyint(k) * pio2);
    for (int d = -2; d <= 2; ++d) {
      T y = std::nextafter(x, d < 0 ? T(0) : std::numeric_limits<T>::infinity());
      if (d == 0) y = x;
      w.add(ulp_error(f(y), ref(static_cast<long double>(y))), static_cast<double>(y));
      w.add(ulp_error(f(-y), ref(-static_cast<long double>(y))), -static_cast<double>(y));
    }
  }
  return w;
}

const float nan_f = std::numeric_limits<float>::quiet_NaN();
const float inf_f = std::numeric_limits<float>::infinity();
const double nan_d = std::numeric_limits<double>::quiet_NaN();
const double inf_d = std::numeric_limits<double>::infinity();

template <class T>
bool same(T a, T b) {  // bitwise-equal up to NaN payloads
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

float f_sin(float x) { return sm::sin(x); }
float f_cos(float x) { return sm::cos(x); }
float f_tan(float x) { return sm::tan(x); }
double d_sin(double x) { return sm::sin(x); }
double d_cos(double x) { return sm::cos(x); }
double d_tan(double x) { return sm::tan(x); }
long double l_sin(long double x) { return sinl(x); }
long double l_cos(long double x) { return cosl(x); }
long double l_tan(long double x) { return tanl(x); }

constexpr std::uint64_t stride = 2039 * sinter_test::scale;  // ~2.1M float patterns per function

}  // namespace

TEST_CASE("trig: sin cos tan float, whole range") {
  SINTER_TEST_REPORT("sinf sweep", sweep_f(f_sin, l_sin, stride), bound_f);
  SINTER_TEST_REPORT("cosf sweep", sweep_f(f_cos, l_cos, stride), bound_f);
  SINTER_TEST_REPORT("tanf sweep", sweep_f(f_tan, l_tan, stride), bound_f);
  SINTER_TEST_REPORT("sinf near k*pi/2", near_multiples<float>(f_sin, l_sin), bound_f);
  SINTER_TEST_REPORT("cosf near k*pi/2", near_multiples<float>(f_cos, l_cos), bound_f);
  SINTER_TEST_REPORT("tanf near k*pi/2", near_multiples<float>(f_tan, l_tan), bound_f);
  // Known hard case for float reduction and a few big values.
  for (float x : {1e30f, -1e30f, 0x1.fffffep127f, 16367173.0f * 0x1p72f, 1.0e22f, 3.0e38f}) {
    CHECK(ulp_error(sm::sin(x), sinl(x)) <= bound_f);
    CHECK(ulp_error(sm::cos(x), cosl(x)) <= bound_f);
    CHECK(ulp_error(sm::tan(x), tanl(x)) <= bound_f);
  }
}

TEST_CASE("trig: sin cos tan double") {
  const int n = 200000 / sinter_test::scale;
  SINTER_TEST_REPORT("sin |x| < 1", random_d(d_sin, l_sin, n, -30, 0, 1), bound_d);
  SINTER_TEST_REPORT("sin moderate", random_d(d_sin, l_sin, n, 0, 27, 2), bound_d);
  SINTER_TEST_REPORT("sin huge", random_d(d_sin, l_sin, n, 27, 1024, 3), bound_d);
  SINTER_TEST_REPORT("sin uniform", uniform_d(d_sin, l_sin, n, -100, 100, 4), bound_d);
  SINTER_TEST_REPORT("cos |x| < 1", random_d(d_cos, l_cos, n, -30, 0, 5), bound_d);
  SINTER_TEST_REPORT("cos moderate", random_d(d_cos, l_cos, n, 0, 27, 6), bound_d);
  SINTER_TEST_REPORT("cos huge", random_d(d_cos, l_cos, n, 27, 1024, 7), bound_d);
  SINTER_TEST_REPORT("cos uniform", uniform_d(d_cos, l_cos, n, -100, 100, 8), bound_d);
  SINTER_TEST_REPORT("tan |x| < 1", random_d(d_tan, l_tan, n, -30, 0, 9), bound_d);
  SINTER_TEST_REPORT("tan moderate", random_d(d_tan, l_tan, n, 0, 27, 10), bound_d);
  SINTER_TEST_REPORT("tan huge", random_d(d_tan, l_tan, n, 27, 1024, 11), bound_d);
  SINTER_TEST_REPORT("tan uniform", uniform_d(d_tan, l_tan, n, -100, 100, 12), bound_d);
  SINTER_TEST_REPORT("sin near k*pi/2", near_multiples<double>(d_sin, l_sin), bound_d);
  SINTER_TEST_REPORT("cos near k*pi/2", near_multiples<double>(d_cos, l_cos), bound_d);
  SINTER_TEST_REPORT("tan near k*pi/2", near_multiples<double>(d_tan, l_tan), bound_d);
  // The worst case for double reduction (x close to a multiple of pi/2 to 2^-61).
  for (double x : {0x1.6ac5b262ca1ffp+849, 6381956970095103.0 * 0x1p797, 1e300, 0x1.fffffffffffffp1023,
                   0x1p27, 0x1.fffffffffffffp26, 1e22}) {
    CHECK(ulp_error(sm::sin(x), sinl(x)) <= bound_d);
    CHECK(ulp_error(sm::cos(x), cosl(x)) <= bound_d);
    CHECK(ulp_error(sm::tan(x), tanl(x)) <= bound_d);
  }
}

TEST_CASE("trig: sin cos tan special values") {
  for (float x : {nan_f, inf_f, -inf_f}) {
    CHECK(std::isnan(sm::sin(x)));
    CHECK(std::isnan(sm::cos(x)));
    CHECK(std::isnan(sm::tan(x)));
  }
  for (double x : {nan_d, inf_d, -inf_d}) {
    CHECK(std::isnan(sm::sin(x)));
    CHECK(std::isnan(sm::cos(x)));
    CHECK(std::isnan(sm::tan(x)));
  }
  CHECK(same(sm::sin(-0.0f), -0.0f));
  CHECK(same(sm::sin(0.0f), 0.0f));
  CHECK(same(sm::tan(-0.0f), -0.0f));
  CHECK(same(sm::cos(-0.0f), 1.0f));
  CHECK(same(sm::sin(-0.0), -0.0));
  CHECK(same(sm::tan(-0.0), -0.0));
  CHECK(same(sm::cos(-0.0), 1.0));
  // Subnormals: sin x == tan x == x.
  for (float x : {0x1p-149f, -0x1p-149f, 0x1.fffffcp-127f, 1e-30f}) {
    CHECK(same(sm::sin(x), x));
    CHECK(same(sm::tan(x), x));
    CHECK(same(sm::cos(x), 1.0f));
  }
  for (double x : {0x1p-1074, -0x1p-1074, 0x1.ffffffffffffep-1023, 1e-300}) {
    CHECK(same(sm::sin(x), x));
    CHECK(same(sm::tan(x), x));
    CHECK(same(sm::cos(x), 1.0));
  }
}

namespace {
float f_asin(float x) { return sm::asin(x); }
float f_acos(float x) { return sm::acos(x); }
float f_atan(float x) { return sm::atan(x); }
double d_asin(double x) { return sm::asin(x); }
double d_acos(double x) { return sm::acos(x); }
double d_atan(double x) { return sm::atan(x); }
long double l_asin(long double x) { return asinl(x); }
long double l_acos(long double x) { return acosl(x); }
long double l_atan(long double x) { return atanl(x); }
}  // namespace

TEST_CASE("trig: asin acos atan") {
  // Every 401st float bit pattern, restricted to [-1, 1] (~5M inputs each).
  SINTER_TEST_REPORT("asinf sweep", sweep_f(f_asin, l_asin, 401 * sinter_test::scale, -1.0f, 1.0f), bound_f);
  SINTER_TEST_REPORT("acosf sweep", sweep_f(f_acos, l_acos, 401 * sinter_test::scale, -1.0f, 1.0f), bound_f);
  SINTER_TEST_REPORT("atanf sweep", sweep_f(f_atan, l_atan, stride), bound_f);
  const int n = 250000 / sinter_test::scale;
  SINTER_TEST_REPORT("asin [-1,1]", uniform_d(d_asin, l_asin, n, -1, 1, 21), bound_d);
  SINTER_TEST_REPORT("asin small", random_d(d_asin, l_asin, n, -60, 0, 22), bound_d);
  SINTER_TEST_REPORT("asin near 1", uniform_d(d_asin, l_asin, n, 0.97, 1, 23), bound_d);
  SINTER_TEST_REPORT("acos [-1,1]", uniform_d(d_acos, l_acos, n, -1, 1, 24), bound_d);
  SINTER_TEST_REPORT("acos small", random_d(d_acos, l_acos, n, -60, 0, 25), bound_d);
  SINTER_TEST_REPORT("acos near 1", uniform_d(d_acos, l_acos, n, 0.97, 1, 26), bound_d);
  SINTER_TEST_REPORT("acos near -1", uniform_d(d_acos, l_acos, n, -1, -0.97, 27), bound_d);
  SINTER_TEST_REPORT("atan [-4,4]", uniform_d(d_atan, l_atan, n, -4, 4, 28), bound_d);
  SINTER_TEST_REPORT("atan all", random_d(d_atan, l_atan, n, -1074, 1024, 29), bound_d);

  // Special values.
  for (float x : {nan_f, 1.0000001f, -1.0000001f, 2.0f, inf_f, -inf_f}) {
    CHECK(std::isnan(sm::asin(x)));
    CHECK(std::isnan(sm::acos(x)));
  }
  for (double x : {nan_d, 1.0000000000000002, -1.0000000000000002, 2.0, inf_d, -inf_d}) {
    CHECK(std::isnan(sm::asin(x)));
    CHECK(std::isnan(sm::acos(x)));
  }
  CHECK(std::isnan(sm::atan(nan_f)));
  CHECK(std::isnan(sm::atan(nan_d)));
  CHECK(same(sm::asin(-0.0f), -0.0f));
  CHECK(same(sm::asin(-0.0), -0.0));
  CHECK(same(sm::atan(-0.0f), -0.0f));
  CHECK(same(sm::atan(-0.0), -0.0));
  CHECK(same(sm::acos(1.0f), 0.0f));
  CHECK(same(sm::acos(1.0), 0.0));
  CHECK(same(sm::acos(-1.0), 0x1.921fb54442d18p+1));
  CHECK(same(sm::asin(1.0), 0x1.921fb54442d18p+0));
  CHECK(same(sm::asin(-1.0f), -0x1.921fb6p+0f));
  CHECK(same(sm::atan(inf_d), 0x1.921fb54442d18p+0));
  CHECK(same(sm::atan(-inf_f), -0x1.921fb6p+0f));
  CHECK(same(sm::asin(0x1p-1074), 0x1p-1074));
  CHECK(same(sm::atan(-0x1p-149f), -0x1p-149f));
}

namespace {
/// atan2 and hypot on random pairs: magnitudes log-uniform in [2^elo, 2^ehi).
template <class T, class F, class R>
worst pairs(F f, R ref, int n, double elo, double ehi, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> ue(elo, ehi), um(1.0, 2.0);
  worst w;
  for (int i = 0; i < n; ++i) {
    T x = static_cast<T>(std::ldexp(um(g), static_cast<int>(std::floor(ue(g)))));
    T y = static_cast<T>(std::ldexp(um(g), static_cast<int>(std::floor(ue(g)))));
    if (g() & 1) x = -x;
    if (g() & 1) y = -y;
    w.add(ulp_error(f(y, x), ref(static_cast<long double>(y), static_cast<long double>(x))),
          static_cast<double>(x), static_cast<double>(y));
  }
  return w;
}
float f_atan2(float y, float x) { return sm::atan2(y, x); }
double d_atan2(double y, double x) { return sm::atan2(y, x); }
float f_hypot(float y, float x) { return sm::hypot(y, x); }
double d_hypot(double y, double x) { return sm::hypot(y, x); }
long double l_atan2(long double y, long double x) { return atan2l(y, x); }
long double l_hypot(long double y, long double x) { return hypotl(y, x); }
}  // namespace

TEST_CASE("trig: atan2 hypot") {
  const int n = 250000 / sinter_test::scale;
  SINTER_TEST_REPORT("atan2f close", pairs<float>(f_atan2, l_atan2, n, -4, 4, 31), bound_f);
  SINTER_TEST_REPORT("atan2f all", pairs<float>(f_atan2, l_atan2, n, -149, 128, 32), bound_f);
  SINTER_TEST_REPORT("hypotf close", pairs<float>(f_hypot, l_hypot, n, -4, 4, 33), bound_f);
  SINTER_TEST_REPORT("hypotf all", pairs<float>(f_hypot, l_hypot, n, -149, 128, 34), bound_f);
  SINTER_TEST_REPORT("atan2 close", pairs<double>(d_atan2, l_atan2, n, -4, 4, 35), bound_d_2);
  SINTER_TEST_REPORT("atan2 all", pairs<double>(d_atan2, l_atan2, n, -1074, 1024, 36), bound_d_2);
  SINTER_TEST_REPORT("hypot close", pairs<double>(d_hypot, l_hypot, n, -4, 4, 37), bound_d_2);
  SINTER_TEST_REPORT("hypot all", pairs<double>(d_hypot, l_hypot, n, -1074, 1024, 38), bound_d_2);
  SINTER_TEST_REPORT("hypot big", pairs<double>(d_hypot, l_hypot, n, 1000, 1024, 39), bound_d_2);
  SINTER_TEST_REPORT("hypot tiny", pairs<double>(d_hypot, l_hypot, n, -1074, -1000, 40), bound_d_2);

  // C99 Annex F atan2 table, double and float.
  const double pi = 0x1.921fb54442d18p+1, pio2 = 0x1.921fb54442d18p+0, pio4 = 0x1.921fb54442d18p-1;
  struct row {
    double y, x, want;
  };
  const row rows[] = {
      {0.0, 0.0, 0.0},      {-0.0, 0.0, -0.0},     {0.0, -0.0, pi},        {-0.0, -0.0, -pi},
      {0.0, -1.0, pi},      {-0.0, -1.0, -pi},     {0.0, 1.0, 0.0},        {-0.0, 1.0, -0.0},
      {1.0, 0.0, pio2},     {1.0, -0.0, pio2},     {-1.0, 0.0, -pio2},     {-1.0, -0.0, -pio2},
      {1.0, -inf_d, pi},    {-1.0, -inf_d, -pi},   {1.0, inf_d, 0.0},      {-1.0, inf_d, -0.0},
      {inf_d, 1.0, pio2},   {-inf_d, -1.0, -pio2}, {inf_d, -inf_d, 3 * pio4}, {-inf_d, -inf_d, -3 * pio4},
      {inf_d, inf_d, pio4}, {-inf_d, inf_d, -pio4}, {0.0, inf_d, 0.0},     {-0.0, -inf_d, -pi},
  };
  for (const row& r : rows) {
    CAPTURE(r.y);
    CAPTURE(r.x);
    CHECK(same(sm::atan2(r.y, r.x), r.want));
    CHECK(same(sm::atan2(static_cast<float>(r.y), static_cast<float>(r.x)), static_cast<float>(r.want)));
  }
  CHECK(std::isnan(sm::atan2(nan_d, 1.0)));
  CHECK(std::isnan(sm::atan2(1.0, nan_d)));
  CHECK(std::isnan(sm::atan2(inf_d, nan_d)));
  CHECK(std::isnan(sm::atan2(nan_f, 0.0f)));

  // hypot: infinities win over NaN; no overflow / underflow; exactness on easy cases.
  CHECK(same(sm::hypot(inf_d, nan_d), inf_d));
  CHECK(same(sm::hypot(nan_d, -inf_d), inf_d));
  CHECK(same(sm::hypot(-inf_f, nan_f), inf_f));
  CHECK(same(sm::hypot(nan_f, inf_f), inf_f));
  CHECK(std::isnan(sm::hypot(nan_d, 1.0)));
  CHECK(std::isnan(sm::hypot(0.0f, nan_f)));
  CHECK(same(sm::hypot(3.0, -4.0), 5.0));
  CHECK(same(sm::hypot(-3.0f, 4.0f), 5.0f));
  CHECK(same(sm::hypot(0.0, -0.0), 0.0));
  CHECK(same(sm::hypot(-0.0f, 0.0f), 0.0f));
  CHECK(same(sm::hypot(3e300, 4e300), 5e300));
  CHECK(same(sm::hypot(0x1.fffffffffffffp1023, 0.0), 0x1.fffffffffffffp1023));
  CHECK(same(sm::hypot(3e-320, 4e-320), 5e-320));
  CHECK(same(sm::hypot(0x1p-1074, 0.0), 0x1p-1074));
  CHECK(same(sm::hypot(0x1.fffffep127f, 0x1.fffffep127f), inf_f));  // true result overflows
  CHECK(same(sm::hypot(3e38f, 1e38f), static_cast<float>(hypotl(static_cast<long double>(3e38f), static_cast<long double>(1e38f)))));
  CHECK(same(sm::hypot(0x1p-149f, 0x1p-149f), 0x1p-149f));
}
