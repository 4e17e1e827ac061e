#pragma once
/// \file exp_log.hpp
/// Branch-free exp, exp2, expm1, log, log2, log10, log1p and the hyperbolic
/// functions (sinh, cosh, tanh, asinh, acosh, atanh) for float and double.
/// The host versions use only arithmetic, bit operations and lane blends (no
/// calls, no errno, no branches), so a loop calling them vectorises with
/// GCC at -O3 under the default -fmath-errno, without -ffast-math, at SSE2
/// and up. Under nvcc's device pass they call CUDA's own functions.
///
/// The double kernels follow fdlibm's published algorithms and coefficients
/// (Sun Microsystems, "Permission to use, copy, modify, and distribute this
/// software is freely granted"), rewritten with blends instead of branches.
/// Float functions evaluate the double kernels and round once, which gives
/// < 1 ulp without fma (glibc's expf/logf/powf do the same), except exp and
/// tanh, computed in float (exp_tanh_f32.hpp; exp with GCC on x86-64 through
/// the vector variants of hw_exp.hpp), and log, log2 and log10, computed in
/// double by a kernel of float's precision (log_f32.hpp). Measured errors:
/// docs/math.md. Results that underflow are rounded once from the computed
/// double (gradual underflow, within one subnormal spacing).
#include <limits>

#include "bits.hpp"
#include "exp_tanh_f32.hpp"
#include "kernels_f64.hpp"
#include "hw_exp.hpp"
#include "log_f32.hpp"
#include "sqrt_round.hpp"

namespace sinter::detail::math {
namespace impl {

/// e^x for double (kernels_f64.hpp's kernel, also behind the explicit AVX2 loop).
SINTER_HD SINTER_FORCEINLINE double exp(double x) { return exp_d(x); }

SINTER_HD SINTER_FORCEINLINE double exp2(double x) {
  const double xc = clamp_d(x, -1100.0, 1100.0);
  const double k = rint_small(xc);
  const double r = xc - k;  // exact, |r| <= 1/2
  // r*ln2 as hi - lo with hi exact: rh has 21 bits, ln2_hi 32.
  const double rh = clear_low_word(r);
  const double rl = r - rh;
  const double hi = rh * ln2_hi;
  const double lo = -(rl * ln2 + rh * ln2_lo);
  return blend(nan_mask(x), x + x, scale_exp2(exp_kernel(hi, lo), k));
}

SINTER_HD SINTER_FORCEINLINE double expm1(double x) {
  // Scaled coefficients of fdlibm's expm1 (R1 on |r| <= 0.5 ln2).
  constexpr double q1 = -3.33333333333331316428e-02, q2 = 1.58730158725481460165e-03,
                   q3 = -7.93650757867487942473e-05, q4 = 4.00821782732936239552e-06,
                   q5 = -2.01099218183624371326e-07;
  const double xc = clamp_d(x, -60.0, 711.0);
  const double k = rint_small(xc * inv_ln2);
  const double hi = xc - k * ln2_hi;
  const double lo = k * ln2_lo;
  const double r = hi - lo;
  const double c = (hi - r) - lo;
  const double hfx = 0.5 * r;
  const double hxs = r * hfx;
  const double r1 = 1.0 + hxs * (q1 + hxs * (q2 + hxs * (q3 + hxs * (q4 + hxs * q5))));
  const double t = 3.0 - r1 * hfx;
  double e = hxs * ((r1 - t) / (6.0 - r * t));
  e = (r * (e - c) - c) - hxs;
  // expm1(x) = 2^k (expm1(r) + 1) - 1, arranged per range of k as fdlibm does.
  const double y_k0 = r - e;
  const double y_km1 = 0.5 * (r - e) - 0.5;
  const double y_k1 = blend(lt_mask(r, -0.25), -2.0 * (e - (r + 0.5)), 1.0 + 2.0 * (r - e));
  const double y_far = scale_exp2(1.0 - (e - r), k) - 1.0;
  const double twopk = exp2i(clamp_d(k, -60.0, 60.0));
  const double twomk = exp2i(clamp_d(-k, -60.0, 60.0));
  const double y_mid = ((1.0 - twomk) - (e - r)) * twopk;  // 2 <= k < 20
  const double y_hi = ((r - (e + twomk)) + 1.0) * twopk;   // 20 <= k <= 56
  double y = y_far;
  y = blend(lt_mask(19.5, k) & lt_mask(k, 56.5), y_hi, y);
  y = blend(lt_mask(1.5, k) & lt_mask(k, 19.5), y_mid, y);
  y = blend(lt_mask(0.5, k) & lt_mask(k, 1.5), y_k1, y);
  y = blend(lt_mask(-1.5, k) & lt_mask(k, -0.5), y_km1, y);
  y = blend(lt_mask(fabs_bits(k), 0.5), y_k0, y);
  // |x| < 2^-54: x itself (keeps -0 and subnormals exact).
  y = blend(lt_mask(fabs_bits(x), 0x1p-54), x, y);
  return blend(nan_mask(x), x + x, y);
}

/// Natural logarithm of a double (kernels_f64.hpp's kernel, also behind the
/// explicit AVX2 loop).
SINTER_HD SINTER_FORCEINLINE double log(double x) { return log_d(x); }

/// log2 and log10 as fdlibm's e_log2/e_log10: f - hfsq split into an exact
/// high part so the multiplication by 1/ln(b) keeps extra bits.
SINTER_HD SINTER_FORCEINLINE double log_base(double x, double ivhi, double ivlo, double khi,
                                             double klo) {
  double f, k;
  log_reduce(x, f, k);
  const double hfsq = 0.5 * f * f;
  const double r = log_kernel(f, hfsq);
  const double hi = clear_low_word(f - hfsq);
  const double lo = (f - hi) - hfsq + r;
  double val_hi = hi * ivhi;
  const double y = k * khi;
  double val_lo = k * klo + (lo + hi) * ivlo + lo * ivhi;
  const double w = y + val_hi;
  val_lo += (y - w) + val_hi;
  val_hi = w;
  return log_specials(x, val_lo + val_hi);
}

SINTER_HD SINTER_FORCEINLINE double log2(double x) {
  return log_base(x, 1.44269504072144627571e+00, 1.67517131648865118353e-10, 1.0, 0.0);
}

SINTER_HD SINTER_FORCEINLINE double log10(double x) {
  return log_base(x, 4.34294481878168880939e-01, 2.50829467116452752298e-11,
                  3.01029995663611771306e-01, 3.69423907715893078616e-13);
}

SINTER_HD SINTER_FORCEINLINE double log1p(double x) {
  const double u = 1.0 + x;
  // The rounding error of 1 + x (Fast2Sum, larger operand first).
  const double c = blend(lt_mask(fabs_bits(x), 1.0), x - (u - 1.0), 1.0 - (u - x));
  double f, k;
  log_reduce(u, f, k);
  const double hfsq = 0.5 * f * f;
  double r = k * ln2_hi + (f - (hfsq - (log_kernel(f, hfsq) + (k * ln2_lo + c / u))));
  r = blend(lt_mask(fabs_bits(x), 0x1p-54), x, r);
  r = blend(lt_mask(x, -1.0), dnan, r);
  r = blend(lt_mask(fabs_bits(x + 1.0), 0x1p-1074), -dinf, r);
  r = blend(lt_mask(dmax, x), dinf, r);
  return blend(nan_mask(x), x + x, r);
}

SINTER_HD SINTER_FORCEINLINE double cosh(double x) {
  const double h = exp_scaled(fabs_bits(x), -1.0);  // exp(|x|)/2
  return blend(nan_mask(x), x + x, h + 0.25 / h);
}

SINTER_HD SINTER_FORCEINLINE double sinh(double x) {
  const double a = fabs_bits(x);
  const double t = expm1(a);
  const double small = 0.5 * (t + t / (t + 1.0));  // e^a - e^-a over 2
  const double r = blend(lt_mask(22.0, a), exp_scaled(a, -1.0), small);
  return blend(nan_mask(x), x + x, copysign_bits(r, x));
}

/// tanh for double (kernels_f64.hpp's kernel, also behind the explicit
/// AVX2 loop). (It was fdlibm's, from expm1, whose blends and divisions
/// made the double tanh_chain benchmark half as fast as xtensor's.)
SINTER_HD SINTER_FORCEINLINE double tanh(double x) { return tanh_d(x); }

SINTER_HD SINTER_FORCEINLINE double asinh(double x) {
  const double a = fabs_bits(x);
  const double a2 = a * a;
  // asinh(a) = log1p(a + (sqrt(1 + a^2) - 1)); beyond 2^28, log(2a) = log1p(a - 1) + ln2.
  const std::uint64_t big = lt_mask(0x1p28, a);
  const double y = blend(big, a - 1.0, a + a2 / (1.0 + math::sqrt(1.0 + a2)));
  const double r = log1p(y) + blend(big, ln2, 0.0);
  return blend(nan_mask(x), x + x, copysign_bits(r, x));
}

SINTER_HD SINTER_FORCEINLINE double acosh(double x) {
  const double t = x - 1.0;
  const std::uint64_t big = lt_mask(0x1p28, x);
  const double y = blend(big, t, t + math::sqrt(2.0 * t + t * t));
  double r = log1p(y) + blend(big, ln2, 0.0);
  r = blend(lt_mask(x, 1.0), dnan, r);
  return blend(nan_mask(x), x + x, r);
}

SINTER_HD SINTER_FORCEINLINE double atanh(double x) {
  const double a = fabs_bits(x);
  const double y = blend(lt_mask(a, 0.5), 2.0 * a + 2.0 * a * a / (1.0 - a), 2.0 * a / (1.0 - a));
  double r = 0.5 * log1p(y);
  r = blend(lt_mask(1.0, a), dnan, r);
  r = blend(lt_mask(a, 0x1p-54), a, r);
  return blend(nan_mask(x), x + x, copysign_bits(r, x));
}

}  // namespace impl

#if SINTER_DEVICE_CODE()
#define SINTER_DETAIL_EXP_LOG_UNARY(name)                                         \
  SINTER_HD SINTER_MATH_FN float name(float x) { return ::name##f(x); }      \
  SINTER_HD SINTER_MATH_FN double name(double x) { return ::name(x); }
#else
#define SINTER_DETAIL_EXP_LOG_UNARY(name)                                         \
  SINTER_HD SINTER_MATH_FN float name(float x) {                             \
    return static_cast<float>(impl::name(static_cast<double>(x)));               \
  }                                                                              \
  SINTER_HD SINTER_MATH_FN double name(double x) { return impl::name(x); }
#endif
#if SINTER_DEVICE_CODE()
#define SINTER_DETAIL_EXP_LOG_UNARY_F(name) SINTER_DETAIL_EXP_LOG_UNARY(name)
#define SINTER_DETAIL_EXP_LOG_UNARY_HW(name) SINTER_DETAIL_EXP_LOG_UNARY(name)
#else
/// As SINTER_DETAIL_EXP_LOG_UNARY, with the float kernel (impl::name##_f) of
/// exp_tanh_f32.hpp or log_f32.hpp.
#define SINTER_DETAIL_EXP_LOG_UNARY_F(name)                                       \
  SINTER_HD SINTER_MATH_FN float name(float x) { return impl::name##_f(x); } \
  SINTER_HD SINTER_MATH_FN double name(double x) { return impl::name(x); }
#if SINTER_HW_EXP
/// As SINTER_DETAIL_EXP_LOG_UNARY_F, through the float kernel's vector
/// variants (hw_exp.hpp).
#define SINTER_DETAIL_EXP_LOG_UNARY_HW(name)                                                  \
  SINTER_HD SINTER_FORCEINLINE float name(float x) { return ::sinter_detail_##name##f(x); } \
  SINTER_HD SINTER_MATH_FN double name(double x) { return impl::name(x); }
#else
#define SINTER_DETAIL_EXP_LOG_UNARY_HW(name) SINTER_DETAIL_EXP_LOG_UNARY_F(name)
#endif
#endif

/// e^x; overflow gives inf, underflow is gradual: `exp(1.0)`.
SINTER_DETAIL_EXP_LOG_UNARY_HW(exp)
/// 2^x: `exp2(-1074.0) == 0x1p-1074`.
SINTER_DETAIL_EXP_LOG_UNARY(exp2)
/// e^x - 1, accurate near 0: `expm1(1e-10)`.
SINTER_DETAIL_EXP_LOG_UNARY(expm1)
/// Natural logarithm; log(0) = -inf, log(x<0) = NaN: `log(2.0)`.
SINTER_DETAIL_EXP_LOG_UNARY_F(log)
/// Base-2 logarithm, exact at powers of two: `log2(8.0) == 3.0`.
SINTER_DETAIL_EXP_LOG_UNARY_F(log2)
/// Base-10 logarithm: `log10(1000.0)`.
SINTER_DETAIL_EXP_LOG_UNARY_F(log10)
/// log(1 + x), accurate near 0: `log1p(1e-10)`.
SINTER_DETAIL_EXP_LOG_UNARY(log1p)
/// Hyperbolic sine: `sinh(1.0)`.
SINTER_DETAIL_EXP_LOG_UNARY(sinh)
/// Hyperbolic cosine: `cosh(1.0)`.
SINTER_DETAIL_EXP_LOG_UNARY(cosh)
/// Hyperbolic tangent, saturating to +-1: `tanh(30.0) == 1.0`.
SINTER_DETAIL_EXP_LOG_UNARY_F(tanh)
/// Inverse hyperbolic sine: `asinh(1.0)`.
SINTER_DETAIL_EXP_LOG_UNARY(asinh)
/// Inverse hyperbolic cosine, NaN below 1: `acosh(2.0)`.
SINTER_DETAIL_EXP_LOG_UNARY(acosh)
/// Inverse hyperbolic tangent, +-inf at +-1: `atanh(0.5)`.
SINTER_DETAIL_EXP_LOG_UNARY(atanh)

#undef SINTER_DETAIL_EXP_LOG_UNARY
#undef SINTER_DETAIL_EXP_LOG_UNARY_F
#undef SINTER_DETAIL_EXP_LOG_UNARY_HW

}  // namespace sinter::detail::math
