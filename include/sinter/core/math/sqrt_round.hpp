#pragma once
/// \file sqrt_round.hpp
/// Branch-free, exactly rounded sqrt, rsqrt, floor, ceil, trunc and round
/// (round half to even) for float and double. On the host these are plain
/// arithmetic and bit operations, so a loop calling them vectorises under
/// default flags (-fmath-errno, no -ffast-math, SSE2 only); under nvcc's
/// device pass they call CUDA's own functions. See docs/math.md.
#include <limits>

#include "bits.hpp"
#include "hw_sqrt.hpp"

#if SINTER_DEVICE_CODE()
#include <cuda_runtime.h>
#endif

namespace sinter::detail::math {
namespace impl {

/// round-to-nearest-even to an integer: |x| < 2^p is rounded by adding and
/// subtracting 2^p (exact in the default rounding mode, kept by the compiler
/// without -ffast-math); larger values, inf and NaN are already integers.
template <class F>
SINTER_HD SINTER_FORCEINLINE F rint(F x) {
  constexpr F big = fp_traits<F>::two_mant;
  const F ax = fabs_bits(x);
  const F r = copysign_bits((ax + big) - big, x);
  return blend(lt_mask(ax, big), r, x);
}

template <class F>
SINTER_HD SINTER_FORCEINLINE F round(F x) {
  return rint(x);
}

template <class F>
SINTER_HD SINTER_FORCEINLINE F floor(F x) {
  const F r = rint(x);
  // copysign keeps floor(-0) == -0 and gives floor(0.5) == +0.
  return copysign_bits(r - blend(lt_mask(x, r), F(1), F(0)), x);
}

template <class F>
SINTER_HD SINTER_FORCEINLINE F ceil(F x) {
  const F r = rint(x);
  return copysign_bits(r + blend(lt_mask(r, x), F(1), F(0)), x);
}

template <class F>
SINTER_HD SINTER_FORCEINLINE F trunc(F x) {
  const F ax = fabs_bits(x);
  const F r = rint(ax);
  return copysign_bits(r - blend(lt_mask(ax, r), F(1), F(0)), x);
}

/// y*y == hi + lo exactly: fma where the target has it (the Veltkamp split
/// below breaks if the compiler contracts split*y - y into an fma),
/// Dekker/Veltkamp otherwise.
template <class F>
SINTER_HD SINTER_FORCEINLINE void two_sqr(F y, F& hi, F& lo) {
#if defined(__GNUC__) && defined(__FP_FAST_FMA) && defined(__FP_FAST_FMAF)
  hi = y * y;
  if constexpr (sizeof(F) == 4) {
    lo = __builtin_fmaf(y, y, -hi);
  } else {
    lo = __builtin_fma(y, y, -hi);
  }
  return;
#endif
  constexpr F split = sizeof(F) == 4 ? F(4097) : F(134217729);  // 2^ceil(p/2) + 1
  const F c = split * y;
  const F yh = c - (c - y);
  const F yl = y - yh;
  hi = y * y;
  lo = ((yh * yh - hi) + F(2) * yh * yl) + yl * yl;
}

/// Correctly rounded sqrt of a positive finite x, by Newton iterations on
/// 1/sqrt, one residual correction and an exact test against the two
/// rounding midpoints (x - y^2 is exact here, as a double-word).
template <class F>
SINTER_HD SINTER_FORCEINLINE F sqrt_positive(F x) {
  constexpr bool is_f = sizeof(F) == 4;
  using U = uint_of_t<F>;
  // Scale tiny x so that ulp(y)^2 stays representable (the midpoint test is
  // exact), and huge x so that y*y cannot overflow.
  constexpr F tiny = static_cast<F>(is_f ? 0x1p-100 : 0x1p-960);
  constexpr F huge = static_cast<F>(is_f ? 0x1p100 : 0x1p960);
  constexpr F up = static_cast<F>(is_f ? 0x1p48 : 0x1p108);
  constexpr F down = static_cast<F>(is_f ? 0x1p-24 : 0x1p-54);
  const mask_of_t<F> small = lt_mask(x, tiny);
  const mask_of_t<F> large = lt_mask(huge, x);
  const F xs = x * blend(small, up, blend(large, F(1) / up, F(1)));
  // 1/sqrt estimate from the bits (relative error < 3.5%), then Newton.
  constexpr U magic = is_f ? U(0x5f375a86u) : U(0x5fe6eb50c7b537a9ull);
  F rs = from_bits<F>(static_cast<U>(magic - (to_bits(xs) >> 1)));
  const F hx = F(0.5) * xs;
  rs = rs * (F(1.5) - hx * rs * rs);
  rs = rs * (F(1.5) - hx * rs * rs);
  if constexpr (!is_f) rs = rs * (F(1.5) - hx * rs * rs);
  F y = xs * rs;
  F p, e;
  two_sqr(y, p, e);
  y = y + ((xs - p) - e) * (F(0.5) * rs);  // now within 0.5 ulp + tiny
  two_sqr(y, p, e);
  const F d = (xs - p) - e;  // xs - y^2, exact
  const F u = from_bits<F>(to_bits(y) & fp_traits<F>::exp_mask) *
              (is_f ? F(0x1p-23f) : F(0x1p-52));  // ulp(y)
  // ulp below y is half as big when y is a power of two.
  const F p2 = from_bits<F>(to_bits(y) & fp_traits<F>::exp_mask);
  const F ud = blend(lt_mask(p2, y), u, F(0.5) * u);
  // xs > (y + u/2)^2  <=>  d - y*u > 0 (all terms are multiples of u^2);
  // xs < (y - ud/2)^2  <=>  d + y*ud <= 0.
  const F dn = d + y * ud;
  y = blend(lt_mask(y * u, d), y + u, blend(lt_mask(F(0), dn), y, y - ud));
  return y * blend(small, down, blend(large, F(1) / down, F(1)));
}

template <class F>
SINTER_HD SINTER_FORCEINLINE F sqrt(F x) {
  const F r = sqrt_positive(x);
  // +-0, +inf and NaN map to themselves; negatives to NaN.
  constexpr F big = limits<F>::max;
  const F out = blend(lt_mask(F(0), x) & ~lt_mask(big, x) & ~nan_mask(x), r, x);
  // x < -0 is false for both zeros, also in the sign-of-difference form.
  constexpr F qnan = limits<F>::quiet_nan;
  return blend(lt_mask(x, F(-0.0)) & ~nan_mask(x), qnan, out);
}

SINTER_HD SINTER_FORCEINLINE float rsqrt(float x) {
  // In double: four Newton steps from the bit estimate, then one rounding.
  const double xd = static_cast<double>(x);
  double rs = from_bits<double>(0x5fe6eb50c7b537a9ull - (to_bits(xd) >> 1));
  const double hx = 0.5 * xd;
  rs = rs * (1.5 - hx * rs * rs);
  rs = rs * (1.5 - hx * rs * rs);
  rs = rs * (1.5 - hx * rs * rs);
  rs = rs * (1.5 - hx * rs * rs);
  const float r = static_cast<float>(rs);
  constexpr float inf = limits<float>::infinity;
  // 0 -> +-inf, inf -> 0, NaN -> NaN, negative -> NaN.
  const float out = blend(lt_mask(0.0f, x) & lt_mask(x, inf), r, 1.0f / x);
  constexpr float qnan = limits<float>::quiet_nan;
  return blend(lt_mask(x, 0.0f), qnan, out);
}

SINTER_HD SINTER_FORCEINLINE double rsqrt(double x) {
  const double out = 1.0 / sqrt(x);
  constexpr double qnan = limits<double>::quiet_nan;
  return blend(lt_mask(x, -0.0) & ~nan_mask(x), qnan, out);
}

}  // namespace impl

#if SINTER_DEVICE_CODE()
#define SINTER_DETAIL_SQRT_ROUND_UNARY(name, fcall, dcall)                                   \
  SINTER_HD SINTER_FORCEINLINE float name(float x) { return ::fcall(x); }       \
  SINTER_HD SINTER_FORCEINLINE double name(double x) { return ::dcall(x); }
#else
#define SINTER_DETAIL_SQRT_ROUND_UNARY(name, fcall, dcall)                                   \
  SINTER_HD SINTER_FORCEINLINE float name(float x) { return impl::name(x); }    \
  SINTER_HD SINTER_FORCEINLINE double name(double x) { return impl::name(x); }
#endif

/// Correctly rounded square root; sqrt(-0) == -0, sqrt(x<0) is NaN: `sqrt(2.0)`.
#if SINTER_HW_SQRT
// The instruction, through vector variants the vectoriser calls (hw_sqrt.hpp).
SINTER_HD SINTER_FORCEINLINE float sqrt(float x) { return ::sinter_detail_sqrtf(x); }
SINTER_HD SINTER_FORCEINLINE double sqrt(double x) { return ::sinter_detail_sqrt(x); }
#else
SINTER_DETAIL_SQRT_ROUND_UNARY(sqrt, sqrtf, sqrt)
#endif
/// 1/sqrt(x), computed (not the approximate instruction); float <= 0.5 ulp + 2^-28,
/// double <= 1 ulp (measured, docs/math.md); rsqrt(+-0) == +-inf: `rsqrt(4.0f)`.
SINTER_DETAIL_SQRT_ROUND_UNARY(rsqrt, rsqrtf, rsqrt)
/// Largest integer <= x, exact: `floor(-0.5) == -1.0`.
SINTER_DETAIL_SQRT_ROUND_UNARY(floor, floorf, floor)
/// Smallest integer >= x, exact: `ceil(-0.5) == -0.0`.
SINTER_DETAIL_SQRT_ROUND_UNARY(ceil, ceilf, ceil)
/// x rounded toward zero, exact: `trunc(-1.5) == -1.0`.
SINTER_DETAIL_SQRT_ROUND_UNARY(trunc, truncf, trunc)
/// x rounded to the nearest integer, halves to even (numpy's round, C's rint,
/// in the default rounding mode): `round(2.5) == 2.0`.
SINTER_DETAIL_SQRT_ROUND_UNARY(round, rintf, rint)

#undef SINTER_DETAIL_SQRT_ROUND_UNARY

}  // namespace sinter::detail::math
