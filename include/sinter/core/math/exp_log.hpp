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

// The double functions are kernels_f64.hpp's lane kernels on one double
// (exp_f64.hpp, log_erf_f64.hpp); on AVX2 the explicit vector loop
// (policy/host/simd.hpp) runs the same kernels on four.
#define SINTER_DETAIL_EXP_LOG_F64(name)                                       \
  SINTER_HD SINTER_FORCEINLINE double name(double x) { return lane_f64::name##_d(x); }
SINTER_DETAIL_EXP_LOG_F64(exp)
SINTER_DETAIL_EXP_LOG_F64(exp2)
SINTER_DETAIL_EXP_LOG_F64(expm1)
SINTER_DETAIL_EXP_LOG_F64(log)
SINTER_DETAIL_EXP_LOG_F64(log2)
SINTER_DETAIL_EXP_LOG_F64(log10)
SINTER_DETAIL_EXP_LOG_F64(log1p)
SINTER_DETAIL_EXP_LOG_F64(cosh)
SINTER_DETAIL_EXP_LOG_F64(sinh)
SINTER_DETAIL_EXP_LOG_F64(tanh)
SINTER_DETAIL_EXP_LOG_F64(asinh)
SINTER_DETAIL_EXP_LOG_F64(acosh)
SINTER_DETAIL_EXP_LOG_F64(atanh)
#undef SINTER_DETAIL_EXP_LOG_F64

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
