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
#include "exp_log.hpp"

namespace sinter::detail::math::impl {

/// erfc(a) for a in [0, 10.2] in double, relative error < 1e-10 (NaN: any).
SINTER_HD SINTER_FORCEINLINE double erfc_tail_f(double a) {
  const double u = 1.0 / (1.0 + 0.4 * a) - 0x1.3264c993264cap-1;  // t - tc
  const double q = horner(u, 0x1.2dd3569971344p-2, 0x1.f24b19ee9bd85p-1, 0x1.571d91191d688p+0,
                          0x1.42b486004be3dp+0, 0x1.58fb253d76b25p-1, 0x1.24a35e8d2a18dp-7,
                          -0x1.ceeb788055980p-3, -0x1.89dff01ef1ce9p-5, 0x1.8dea985ce8ff2p-4,
                          0x1.3beb303c0ff22p-6, -0x1.b15dadbb308f5p-5, -0x1.1a376c68256f1p-9,
                          0x1.95f071fb25ae2p-6);
  // e^(-a^2): -a^2 is exact (a has 24 bits) and >= -104.04, so 2^k with
  // k in [-151, 0] is a normal double.
  const double m = -(a * a);
  const double k = rint_small(m * inv_ln2);
  const double r = (m - k * ln2_hi) - k * ln2_lo;
  const double e = horner(r, 0x1.ffffffffa4eeap-1, 0x1.00000001211acp+0, 0x1.0000005f34098p-1,
                          0x1.55555323e2fe0p-3, 0x1.55545f00c425ep-5, 0x1.11130dc9c332cp-7,
                          0x1.6dac8aab996a4p-10, 0x1.9eb013173b1a8p-13);
  return (e * exp2i(k)) * q;
}

/// |x| clamped to 10.2, in double (NaN: any value; callers blend NaN back).
SINTER_HD SINTER_FORCEINLINE double erf_abs_f(double x) {
  const double a = fabs_bits(x);
  return blend(lt_mask(10.2, a), 10.2, a);
}

/// erfc for float: erfc(-inf) = 2, erfc(inf) = 0, NaN kept; correctly
/// rounded but for near-ties (docs/math.md).
SINTER_HD SINTER_FORCEINLINE float erfc_f(float x) {
  const double xd = x;
  const double tail = erfc_tail_f(erf_abs_f(xd));
  const double r = blend(sign_mask(xd), 2.0 - tail, tail);
  return static_cast<float>(blend(nan_mask(xd), xd + xd, r));
}

/// erf for float: odd, erf(+-inf) = +-1, NaN kept; correctly rounded but
/// for near-ties (docs/math.md).
SINTER_HD SINTER_FORCEINLINE float erf_f(float x) {
  const double xd = x;
  const double a = erf_abs_f(xd);
  const double z = xd * xd;
  const double p = horner(z, 0x1.20dd7504007e3p+0, -0x1.8127465fb9496p-2, 0x1.ce2f07989fc6cp-4,
                          -0x1.b829a7a47e348p-6, 0x1.5628eddfc0840p-8, -0x1.bcbe99cd72f80p-11,
                          0x1.d8268dc280800p-14, -0x1.4383fba006000p-17);
  const double big = copysign_bits(1.0 - erfc_tail_f(a), xd);
  const double r = blend(lt_mask(a, 1.0), xd * p, big);
  return static_cast<float>(blend(nan_mask(xd), xd + xd, r));
}

}  // namespace sinter::detail::math::impl
