#pragma once
/// \file erf_f32.hpp
/// erf and erfc for float: impl::erf_f and impl::erfc_f. Like the other
/// float functions they compute in double and round once, but with kernels
/// fitted for float's precision instead of fdlibm's double ones (which
/// blend three rational ranges, each with a division, and two double exps:
/// 78% of the Black-Scholes benchmark's time went there). Relative error of
/// the double result below 1e-10, so the float is correctly rounded except
/// within about 2^-9 ulp of a tie (measured maxima in docs/math.md, from
/// every float: tests/sweep/sweep_erf.cpp).
///
/// With a = |x| (clamped to 10.2, where erfc's float is already 0):
///   erfc(a) = e^(-a^2) Q(t),  t = 1 / (1 + 0.4 a),
/// Q a degree-12 polynomial in t - tc (tc the middle of t's range
/// [0.197, 1]), a weighted least-squares fit of erfc(a) e^(a^2) made for
/// sinter (relative error 2.9e-11 in exact arithmetic); a^2 is exact in
/// double and e^(-a^2) = 2^k e^r with a degree-7 fit of e^r on
/// |r| <= ln2/2 (4.4e-11). erfc(-a) = 2 - erfc(a). erf(x) for |x| < 1 is
/// x P(x^2), P of degree 7 (3.3e-11); above, 1 - erfc(|x|) with x's sign.
/// The fits: docs/math_fit.py (erfc_f, exp_r, erf_f).
/// Branch-free (every lane computes both ranges and blends), so GCC
/// vectorises callers at -O3 without -ffast-math.
#include "bits.hpp"
#include "kernels_f64.hpp"  // the kernels (log_erf_f32.hpp)

namespace sinter::detail::math::impl {

// The kernels are log_erf_f32.hpp's, on one double (kernels_f64.hpp's
// lane_f64); on AVX2 and AVX-512 the explicit vector loop
// (policy/host/simd.hpp) runs the same kernels on four or eight doubles.

/// erfc for float: erfc(-inf) = 2, erfc(inf) = 0, NaN kept; correctly
/// rounded but for near-ties (docs/math.md).
SINTER_HD SINTER_FORCEINLINE float erfc_f(float x) { return static_cast<float>(lane_f64::erfc_fd(x)); }

/// erf for float: odd, erf(+-inf) = +-1, NaN kept; correctly rounded but
/// for near-ties (docs/math.md).
SINTER_HD SINTER_FORCEINLINE float erf_f(float x) { return static_cast<float>(lane_f64::erf_fd(x)); }

}  // namespace sinter::detail::math::impl
