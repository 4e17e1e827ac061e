// One loop per function and type; check.sh requires GCC to report each
// loop vectorised (-fopt-info-vec-optimized). The loop for NAME_T is the
// one on the line that names it.
#include <sinter/core/math/exp_log.hpp>
#include <sinter/core/math/pow_erf.hpp>
#include <sinter/core/math/sqrt_round.hpp>

namespace m = sinter::detail::math;

// clang-format off
void exp_float(float* __restrict o, const float* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::exp(a[i]); }
void exp_double(double* __restrict o, const double* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::exp(a[i]); }
void exp2_float(float* __restrict o, const float* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::exp2(a[i]); }
void exp2_double(double* __restrict o, const double* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::exp2(a[i]); }
void expm1_float(float* __restrict o, const float* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::expm1(a[i]); }
void expm1_double(double* __restrict o, const double* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::expm1(a[i]); }
void log_float(float* __restrict o, const float* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::log(a[i]); }
void log_double(double* __restrict o, const double* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::log(a[i]); }
void log2_float(float* __restrict o, const float* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::log2(a[i]); }
void log2_double(double* __restrict o, const double* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::log2(a[i]); }
void log10_float(float* __restrict o, const float* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::log10(a[i]); }
void log10_double(double* __restrict o, const double* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::log10(a[i]); }
void log1p_float(float* __restrict o, const float* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::log1p(a[i]); }
void log1p_double(double* __restrict o, const double* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::log1p(a[i]); }
void sinh_float(float* __restrict o, const float* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::sinh(a[i]); }
void sinh_double(double* __restrict o, const double* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::sinh(a[i]); }
void cosh_float(float* __restrict o, const float* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::cosh(a[i]); }
void cosh_double(double* __restrict o, const double* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::cosh(a[i]); }
void tanh_float(float* __restrict o, const float* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::tanh(a[i]); }
void tanh_double(double* __restrict o, const double* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::tanh(a[i]); }
void asinh_float(float* __restrict o, const float* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::asinh(a[i]); }
void asinh_double(double* __restrict o, const double* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::asinh(a[i]); }
void acosh_float(float* __restrict o, const float* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::acosh(a[i]); }
void acosh_double(double* __restrict o, const double* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::acosh(a[i]); }
void atanh_float(float* __restrict o, const float* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::atanh(a[i]); }
void atanh_double(double* __restrict o, const double* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::atanh(a[i]); }
void cbrt_float(float* __restrict o, const float* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::cbrt(a[i]); }
void cbrt_double(double* __restrict o, const double* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::cbrt(a[i]); }
void erf_float(float* __restrict o, const float* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::erf(a[i]); }
void erf_double(double* __restrict o, const double* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::erf(a[i]); }
void erfc_float(float* __restrict o, const float* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::erfc(a[i]); }
void erfc_double(double* __restrict o, const double* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::erfc(a[i]); }
void sqrt_float(float* __restrict o, const float* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::sqrt(a[i]); }
void sqrt_double(double* __restrict o, const double* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::sqrt(a[i]); }
void rsqrt_float(float* __restrict o, const float* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::rsqrt(a[i]); }
void rsqrt_double(double* __restrict o, const double* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::rsqrt(a[i]); }
void floor_float(float* __restrict o, const float* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::floor(a[i]); }
void floor_double(double* __restrict o, const double* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::floor(a[i]); }
void ceil_float(float* __restrict o, const float* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::ceil(a[i]); }
void ceil_double(double* __restrict o, const double* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::ceil(a[i]); }
void trunc_float(float* __restrict o, const float* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::trunc(a[i]); }
void trunc_double(double* __restrict o, const double* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::trunc(a[i]); }
void round_float(float* __restrict o, const float* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::round(a[i]); }
void round_double(double* __restrict o, const double* __restrict a, int n) { for (int i = 0; i < n; ++i) o[i] = m::round(a[i]); }
void pow_float(float* __restrict o, const float* __restrict a, const float* __restrict b, int n) { for (int i = 0; i < n; ++i) o[i] = m::pow(a[i], b[i]); }
void pow_double(double* __restrict o, const double* __restrict a, const double* __restrict b, int n) { for (int i = 0; i < n; ++i) o[i] = m::pow(a[i], b[i]); }
// fused: a typical expression, all inlined into one loop
void fused_float(float* __restrict o, const float* __restrict a, const float* __restrict b, int n) { for (int i = 0; i < n; ++i) o[i] = m::exp(a[i]) * m::log1p(m::sqrt(b[i])) + m::tanh(a[i] - b[i]); }
// clang-format on
