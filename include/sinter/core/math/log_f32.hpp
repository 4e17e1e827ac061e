#pragma once
/// \file log_f32.hpp
/// log, log2 and log10 for float: impl::log_f, log2_f, log10_f. Computed in
/// double and rounded once, like the other float functions, but with a
/// kernel fitted for float's precision instead of fdlibm's double one, which
/// divides (s = f / (2 + f)) and splits its sums to keep double's last bits:
/// x = 2^k (1 + f), sqrt(2)/2 <= 1 + f < sqrt(2) (every float, subnormals
/// too, is a normal double), and log(1 + f) = f P(f), P a degree-11
/// weighted least-squares fit of log1p(f) / f made for sinter (relative
/// error 1.0e-10). So the float is correctly rounded except within about
/// 2^-9 ulp of a tie; log2 of a power of two is exact (f = 0). Measured
/// maxima in docs/math.md, from every float: tests/sweep/sweep_erf_log.cpp.
/// The fit: docs/math_fit.py (log_f).
/// Branch-free, no division: GCC vectorises callers at -O3 without
/// -ffast-math.
#include "bits.hpp"
#include "kernels_f64.hpp"  // the kernels (log_erf_f32.hpp)

namespace sinter::detail::math::impl {

// The kernels are log_erf_f32.hpp's, on one double (kernels_f64.hpp's
// lane_f64); on AVX2 and AVX-512 the explicit vector loop
// (policy/host/simd.hpp) runs the same kernels on four or eight doubles.

/// Natural logarithm of a float (see the file comment).
SINTER_HD SINTER_FORCEINLINE float log_f(float x) { return static_cast<float>(lane_f64::log_fd(x)); }

/// Base-2 logarithm of a float, exact at powers of two.
SINTER_HD SINTER_FORCEINLINE float log2_f(float x) { return static_cast<float>(lane_f64::log2_fd(x)); }

/// Base-10 logarithm of a float.
SINTER_HD SINTER_FORCEINLINE float log10_f(float x) { return static_cast<float>(lane_f64::log10_fd(x)); }

}  // namespace sinter::detail::math::impl
