#pragma once
/// \file pow_erf.hpp
/// Branch-free pow, cbrt, erf and erfc for float and double (see
/// exp_log.hpp for the approach). pow's double kernel is fdlibm's e_pow
/// (log2 in extra precision, then 2^(y log2 x)); erf/erfc use fdlibm's
/// rational approximations on every range and blend the results; float
/// erf/erfc have kernels of their own (erf_f32.hpp). Under nvcc's device
/// pass they call CUDA's own functions.
#include <limits>

#include "bits.hpp"
#include "erf_f32.hpp"
#include "exp_log.hpp"
#include "sqrt_round.hpp"

namespace sinter::detail::math {
namespace impl {

/// log2(ax) = t1 + t2 to about 2^-64 relative, for positive finite ax
/// (fdlibm's e_pow; the splits into high parts use cleared low words).
SINTER_HD SINTER_FORCEINLINE void log2_extended(double ax, double& t1, double& t2) {
  constexpr double l1 = 5.99999999999994648725e-01, l2 = 4.28571428578550184252e-01,
                   l3 = 3.33333329818377432918e-01, l4 = 2.72728123808534006489e-01,
                   l5 = 2.30660745775561754067e-01, l6 = 2.06975017800338417784e-01;
  constexpr double cp = 9.61796693925975554329e-01, cp_h = 9.61796700954437255859e-01,
                   cp_l = -7.02846165095275826516e-09;
  const std::uint64_t sub = lt_mask(ax, 0x1p-1022);
  double m;
  double n = frexp_bits(ax * blend(sub, 0x1p53, 1.0), m) - blend(sub, 53.0, 0.0);
  // m in [1, sqrt(1.5)): around 1; [sqrt(1.5), sqrt(3)): around 1.5; else m/2 around 1.
  const std::uint64_t high = ~lt_mask(m, 1.7320508075688772);
  m = blend(high, 0.5 * m, m);
  n = n + blend(high, 1.0, 0.0);
  const std::uint64_t mid = ~lt_mask(m, 1.2247448713915889) & ~high;
  const double bp = blend(mid, 1.5, 1.0);
  const double dp_h = blend(mid, 5.84962487220764160156e-01, 0.0);
  const double dp_l = blend(mid, 1.35003920212974897128e-08, 0.0);
  // ss = s_h + s_l = (m - bp) / (m + bp)
  double u = m - bp;
  double v = 1.0 / (m + bp);
  const double ss = u * v;
  const double s_h = clear_low_word(ss);
  double t_h = clear_low_word(m + bp);
  double t_l = m - (t_h - bp);
  const double s_l = v * ((u - s_h * t_h) - s_h * t_l);
  double s2 = ss * ss;
  double r = s2 * s2 * (l1 + s2 * (l2 + s2 * (l3 + s2 * (l4 + s2 * (l5 + s2 * l6)))));
  r += s_l * (s_h + ss);
  s2 = s_h * s_h;
  t_h = clear_low_word(3.0 + s2 + r);
  t_l = r - ((t_h - 3.0) - s2);
  u = s_h * t_h;
  v = s_l * t_h + t_l * ss;
  const double p_h = clear_low_word(u + v);
  const double p_l = v - (p_h - u);
  const double z_h = cp_h * p_h;
  const double z_l = cp_l * p_h + p_l * cp + dp_l;
  t1 = clear_low_word(((z_h + z_l) + dp_h) + n);
  t2 = z_l - (((t1 - n) - dp_h) - z_h);
}

/// 2^(p_h + p_l) for |p_h + p_l| up to ~1100 (over/underflow to inf/0).
SINTER_HD SINTER_FORCEINLINE double exp2_extended(double p_h, double p_l) {
  constexpr double p1 = 1.66666666666666019037e-01, p2 = -2.77777777770155933842e-03,
                   p3 = 6.61375632143793436117e-05, p4 = -1.65339022054652515390e-06,
                   p5 = 4.13813679705723846039e-08;
  constexpr double lg2 = 6.93147180559945286227e-01, lg2_h = 6.93147182464599609375e-01,
                   lg2_l = -1.90465429995776804525e-09;
  const double p = p_h + p_l;
  const double n = rint_small(clamp_d(p, -1200.0, 1200.0));
  p_h -= n;
  double t = clear_low_word(p_l + p_h);
  const double u = t * lg2_h;
  const double v = (p_l - (t - p_h)) * lg2 + t * lg2_l;
  double z = u + v;
  const double w = v - (z - u);
  t = z * z;
  const double t1 = z - t * (p1 + t * (p2 + t * (p3 + t * (p4 + t * p5))));
  const double r = (z * t1) / (t1 - 2.0) - (w + z * w);
  z = 1.0 - (r - z);
  z = scale_exp2(z, n);
  return blend(lt_mask(p, -1100.0), 0.0, blend(lt_mask(1100.0, p), dinf, z));
}

/// Mask of "y is an integer" for finite y.
SINTER_HD SINTER_FORCEINLINE std::uint64_t int_mask(double y) {
  return lt_mask(fabs_bits(impl::trunc(y) - y), 0x1p-1074);
}

/// C99 Annex F special cases of pow around a computed |x|^y `r`.
SINTER_HD SINTER_FORCEINLINE double pow_finish(double x, double y, double r) {
  const double ax = fabs_bits(x);
  const double ay = fabs_bits(y);
  const std::uint64_t y_inf = lt_mask(dmax, ay);
  const std::uint64_t y_int = int_mask(y) | y_inf;
  const std::uint64_t y_odd = y_int & ~int_mask(0.5 * y) & ~y_inf;
  const std::uint64_t x_neg = sign_mask(x);
  const std::uint64_t y_neg = sign_mask(y);
  // Negative finite base: sign from odd y, NaN for non-integer y.
  r = blend(x_neg & y_odd, -r, r);
  r = blend(x_neg & ~y_int, dnan, r);
  // x = +-0 or +-inf: magnitude 0 or inf, sign of x for odd y.
  const std::uint64_t x_zero = lt_mask(ax, 0x1p-1074);
  const std::uint64_t x_inf = lt_mask(dmax, ax);
  const double mag = blend(x_zero ^ y_neg, 0.0, dinf);  // 0^(y>0) = 0, inf^(y<0) = 0
  r = blend(x_zero | x_inf, blend(x_neg & y_odd, -mag, mag), r);
  // y = +-inf: 1 for |x| = 1, else 0 or inf.
  const std::uint64_t ax_one = lt_mask(fabs_bits(ax - 1.0), 0x1p-1074);
  const std::uint64_t ax_lt1 = lt_mask(ax, 1.0);
  r = blend(y_inf, blend(ax_one, 1.0, blend(ax_lt1 ^ y_neg, 0.0, dinf)), r);
  r = blend(nan_mask(x) | nan_mask(y), x + y, r);
  // pow(1, y) = 1 and pow(x, +-0) = 1, even for NaN.
  r = blend(lt_mask(fabs_bits(x - 1.0), 0x1p-1074) & ~nan_mask(x), 1.0, r);
  return blend(lt_mask(ay, 0x1p-1074) & ~nan_mask(y), 1.0, r);
}

SINTER_HD SINTER_FORCEINLINE double pow(double x, double y) {
  const double ax = fabs_bits(x);
  double t1, t2;
  log2_extended(ax, t1, t2);
  // y * (t1 + t2) = p_h + p_l with p_h exact (21-bit by 21-bit product).
  const double yc = clamp_d(y, -0x1p62, 0x1p62);
  const double y1 = clear_low_word(yc);
  const double p_l = (yc - y1) * t1 + yc * t2;
  const double p_h = y1 * t1;
  double r = exp2_extended(p_h, p_l);
  // |y| beyond 2^62: over/underflow unless |x| == 1 (handled in pow_finish).
  const std::uint64_t huge_y =
      lt_mask(0x1p62, fabs_bits(y)) & ~lt_mask(fabs_bits(ax - 1.0), 0x1p-1074);
  r = blend(huge_y, blend(lt_mask(ax, 1.0) ^ sign_mask(y), 0.0, dinf), r);
  return pow_finish(x, y, r);
}

SINTER_HD SINTER_FORCEINLINE float pow(float x, float y) {
  const double xd = static_cast<double>(x);
  const double yd = static_cast<double>(y);
  // In double: |y log2 x| < 2^8 for finite results, so log2's 1 ulp error costs < 2^-44.
  const double p = clamp_d(yd * impl::log2(fabs_bits(xd)), -1100.0, 1100.0);
  const double r = impl::exp2(p);
  return static_cast<float>(pow_finish(xd, yd, r));
}

SINTER_HD SINTER_FORCEINLINE double cbrt(double x) {
  const double a0 = fabs_bits(x);
  const std::uint64_t sub = lt_mask(a0, 0x1p-1022);
  double m;
  const double e = frexp_bits(a0 * blend(sub, 0x1p54, 1.0), m) - blend(sub, 54.0, 0.0);
  const double q = impl::floor(e * (1.0 / 3.0));
  const double rem = e - 3.0 * q;  // 0, 1 or 2
  const double c = m * blend(lt_mask(0.5, rem), blend(lt_mask(1.5, rem), 4.0, 2.0), 1.0);
  // cbrt(c) for c in [1, 8): linear start (< 11% off), three Halley steps.
  double y = 1.0 + (c - 1.0) * (1.0 / 7.0);
  for (int i = 0; i < 3; ++i) {
    const double y3 = y * y * y;
    y = y * (y3 + 2.0 * c) / (2.0 * y3 + c);
  }
  // A last Newton step on the residual, computed with an exact y^2.
  double p, lo;
  two_sqr(y, p, lo);
  const double res = (p * y - c) + lo * y;
  y = y - res / (3.0 * p);
  const double r = copysign_bits(y * exp2i(q), x);
  // +-0, +-inf and NaN are their own cube roots.
  const std::uint64_t keep = lt_mask(a0, 0x1p-1074) | lt_mask(dmax, a0) | nan_mask(x);
  return blend(keep, x + x, r);
}

/// erf and erfc of double: kernels_f64.hpp's erf_erfc (fdlibm's s_erf,
/// its ranges blended before one division, also behind the explicit AVX2
/// loop).
SINTER_HD SINTER_FORCEINLINE double erf(double x) {
  double e, c;
  erf_erfc(x, e, c);
  return e;
}

SINTER_HD SINTER_FORCEINLINE double erfc(double x) {
  double e, c;
  erf_erfc(x, e, c);
  return c;
}

}  // namespace impl

#if SINTER_DEVICE_CODE()
#define SINTER_DETAIL_POW_ERF_UNARY(name)                                         \
  SINTER_HD SINTER_MATH_FN float name(float x) { return ::name##f(x); }      \
  SINTER_HD SINTER_MATH_FN double name(double x) { return ::name(x); }
#else
#define SINTER_DETAIL_POW_ERF_UNARY(name)                                         \
  SINTER_HD SINTER_MATH_FN float name(float x) {                             \
    return static_cast<float>(impl::name(static_cast<double>(x)));               \
  }                                                                              \
  SINTER_HD SINTER_MATH_FN double name(double x) { return impl::name(x); }
#endif

#if SINTER_DEVICE_CODE()
#define SINTER_DETAIL_ERF_UNARY(name) SINTER_DETAIL_POW_ERF_UNARY(name)
#else
/// As SINTER_DETAIL_POW_ERF_UNARY, with float's own kernel (erf_f32.hpp).
#define SINTER_DETAIL_ERF_UNARY(name)                                            \
  SINTER_HD SINTER_MATH_FN float name(float x) { return impl::name##_f(x); } \
  SINTER_HD SINTER_MATH_FN double name(double x) { return impl::name(x); }
#endif

/// Real cube root, odd: `cbrt(-27.0) == -3.0`.
SINTER_DETAIL_POW_ERF_UNARY(cbrt)
/// Error function, erf(+-inf) = +-1: `erf(0.5)`.
SINTER_DETAIL_ERF_UNARY(erf)
/// Complementary error function 1 - erf(x), accurate for large x: `erfc(10.0)`.
SINTER_DETAIL_ERF_UNARY(erfc)

#undef SINTER_DETAIL_ERF_UNARY
#undef SINTER_DETAIL_POW_ERF_UNARY

/// x^y with C99 Annex F special cases (pow(x, 0) = 1, pow(1, y) = 1, even
/// for NaN; negative x with integer y; pow(0, y<0) = inf): `pow(2.0, 0.5)`.
SINTER_HD SINTER_MATH_FN double pow(double x, double y) {
#if SINTER_DEVICE_CODE()
  return ::pow(x, y);
#else
  return impl::pow(x, y);
#endif
}

/// x^y for float (computed in double, rounded once): `pow(2.0f, 10.0f)`.
SINTER_HD SINTER_MATH_FN float pow(float x, float y) {
#if SINTER_DEVICE_CODE()
  return ::powf(x, y);
#else
  return impl::pow(x, y);
#endif
}

}  // namespace sinter::detail::math
