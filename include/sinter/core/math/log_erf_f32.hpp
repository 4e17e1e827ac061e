#pragma once
/// \file log_erf_f32.hpp
/// The float log, log2, log10, erf and erfc kernels, which compute in
/// double and round once (log_f32.hpp and erf_f32.hpp describe them and
/// their fits), written once over a double lane type L (exp_f64.hpp lists
/// what L defines) as the static members of log_erf_f32_kernels<L>, which
/// derives from log_erf_f64_kernels<L> (whose exp2i_d, fabs_d, copysign_d
/// and log_d_specials they use): the whole double kernel set of a lane.
/// Each takes a float widened to double (exactly: every float, subnormals
/// too, is a normal double) and returns the double result that the caller
/// rounds to float. kernels_f64.hpp instantiates it for one double
/// (log_f32.hpp's and erf_f32.hpp's scalar functions, which GCC
/// vectorises) and for AVX2's four doubles and AVX-512's eight
/// (policy/host/simd.hpp's explicit loop, two double vectors per float
/// vector); every operation is written out in the same order for all, so
/// they give the same bits.
#include "log_erf_f64.hpp"

// Run-time dispatch (policy/host/dispatch.hpp) instantiates these kernels on
// vectors wider than the build's ISA, inlined into functions of that ISA.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace sinter::detail::math::impl {

/// Every double kernel, and float's computed in double, on the lanes of L.
template <class L>
struct log_erf_f32_kernels : log_erf_f64_kernels<L> {
  using B = log_erf_f64_kernels<L>;
  using typename B::V;
  using typename B::U;
  using typename B::M;
  using B::c;
  using B::bits;
  using B::from;
  using B::lt;
  using B::blend;
  using B::nan_mask;
  using B::sign_mask;
  using B::fabs_d;
  using B::copysign_d;
  using B::exp2i_d;
  using B::log_d_specials;

  /// c0 + z (c1 + z (c2 + ...)), lowest degree first (bits.hpp's horner).
  static SINTER_HD SINTER_FORCEINLINE V poly_d(V, double c0) { return c(c0); }
  template <class... C>
  static SINTER_HD SINTER_FORCEINLINE V poly_d(V z, double c0, C... cs) {
    return c(c0) + z * poly_d(z, cs...);
  }

  /// log(1 + f) and k for a float x = 2^k (1 + f) > 0 widened to double,
  /// sqrt(2)/2 <= 1 + f < sqrt(2) (garbage for other x: callers blend the
  /// special values). The exponent is read as bits.hpp's frexp_bits reads it.
  static SINTER_HD SINTER_FORCEINLINE V log_f_reduced_d(V x, V& k) {
    const U b = bits(x);
    const V m = from((b & 0x000fffffffffffffull) | 0x3ff0000000000000ull);
    const V e = from((b >> 52) | 0x4330000000000000ull) - c(0x1p52 + 1023.0);
    const M big = lt(c(0x1.6a09e667f3bcdp0), m);
    const V f = blend(big, c(0.5) * m, m) - c(1.0);
    k = e + blend(big, c(1.0), c(0.0));
    const V p = poly_d(f, 0x1.0000000026678p+0, -0x1.0000001c649c3p-1, 0x1.5555541ce62c3p-2,
                       -0x1.ffffa6b84742ep-3, 0x1.999a31c4f0ff3p-3, -0x1.5569522928316p-3,
                       0x1.24912e04c344ep-3, -0x1.fc5675138e593p-4, 0x1.c36d244ecf1bdp-4,
                       -0x1.bdb1850d458bcp-4, 0x1.b7a8d8c08beedp-4, -0x1.ea4a9e4559fccp-5);
    return f * p;  // log(1 + f)
  }

  /// Natural logarithm of a float (widened), before its rounding to float.
  static SINTER_HD SINTER_FORCEINLINE V log_fd(V x) {
    V k;
    const V l = log_f_reduced_d(x, k);
    return log_d_specials(x, k * c(6.93147180559945286227e-01) + l);
  }

  /// Base-2 logarithm of a float (widened), exact at powers of two.
  static SINTER_HD SINTER_FORCEINLINE V log2_fd(V x) {
    V k;
    const V l = log_f_reduced_d(x, k);
    return log_d_specials(x, k + l * c(1.44269504088896338700e+00));
  }

  /// Base-10 logarithm of a float (widened).
  static SINTER_HD SINTER_FORCEINLINE V log10_fd(V x) {
    V k;
    const V l = log_f_reduced_d(x, k);
    return log_d_specials(x, (k * c(6.93147180559945286227e-01) + l) * c(4.34294481903251816668e-01));
  }

  /// erfc(a) for a in [0, 10.2] (a float's magnitude), relative error < 1e-10
  /// (NaN: any): e^(-a^2) Q(t), t = 1 / (1 + 0.4 a) (erf_f32.hpp).
  static SINTER_HD SINTER_FORCEINLINE V erfc_tail_fd(V a) {
    const V u = c(1.0) / (c(1.0) + c(0.4) * a) - c(0x1.3264c993264cap-1);  // t - tc
    const V q = poly_d(u, 0x1.2dd3569971344p-2, 0x1.f24b19ee9bd85p-1, 0x1.571d91191d688p+0,
                       0x1.42b486004be3dp+0, 0x1.58fb253d76b25p-1, 0x1.24a35e8d2a18dp-7,
                       -0x1.ceeb788055980p-3, -0x1.89dff01ef1ce9p-5, 0x1.8dea985ce8ff2p-4,
                       0x1.3beb303c0ff22p-6, -0x1.b15dadbb308f5p-5, -0x1.1a376c68256f1p-9,
                       0x1.95f071fb25ae2p-6);
    // e^(-a^2): -a^2 is exact (a has 24 bits) and >= -104.04, so 2^k with
    // k in [-151, 0] is a normal double.
    const V m = -(a * a);
    const V k = (m * c(inv_ln2) + c(0x1.8p52)) - c(0x1.8p52);  // rint_small
    const V r = (m - k * c(ln2_hi)) - k * c(ln2_lo);
    const V e = poly_d(r, 0x1.ffffffffa4eeap-1, 0x1.00000001211acp+0, 0x1.0000005f34098p-1,
                       0x1.55555323e2fe0p-3, 0x1.55545f00c425ep-5, 0x1.11130dc9c332cp-7,
                       0x1.6dac8aab996a4p-10, 0x1.9eb013173b1a8p-13);
    return (e * exp2i_d(k)) * q;
  }

  /// |x| limited to 10.2 (NaN: any value; callers blend NaN back).
  static SINTER_HD SINTER_FORCEINLINE V erf_abs_fd(V x) {
    const V a = fabs_d(x);
    return blend(lt(c(10.2), a), c(10.2), a);
  }

  /// erfc of a float (widened): erfc(-inf) = 2, erfc(inf) = 0, NaN kept.
  static SINTER_HD SINTER_FORCEINLINE V erfc_fd(V x) {
    const V tail = erfc_tail_fd(erf_abs_fd(x));
    const V r = blend(sign_mask(x), c(2.0) - tail, tail);
    return blend(nan_mask(x), x + x, r);
  }

  /// erf of a float (widened): odd, erf(+-inf) = +-1, NaN kept; x P(x^2)
  /// below |x| = 1, 1 - erfc(|x|) with x's sign above.
  static SINTER_HD SINTER_FORCEINLINE V erf_fd(V x) {
    const V a = erf_abs_fd(x);
    const V z = x * x;
    const V p = poly_d(z, 0x1.20dd7504007e3p+0, -0x1.8127465fb9496p-2, 0x1.ce2f07989fc6cp-4,
                       -0x1.b829a7a47e348p-6, 0x1.5628eddfc0840p-8, -0x1.bcbe99cd72f80p-11,
                       0x1.d8268dc280800p-14, -0x1.4383fba006000p-17);
    const V big = copysign_d(c(1.0) - erfc_tail_fd(a), x);
    const V r = blend(lt(a, c(1.0)), x * p, big);
    return blend(nan_mask(x), x + x, r);
  }
};

}  // namespace sinter::detail::math::impl

#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#pragma GCC diagnostic pop
#endif
