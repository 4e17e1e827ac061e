#pragma once
/// \file exp_f64.hpp
/// The double exp, exp2, expm1, sinh, cosh and tanh kernels, written once
/// over a lane type L as the static members of exp_f64_kernels<L>, which
/// derives from L. L defines:
///   V, U                   the lane type (double, an x86 double vector, or a
///                          pair of them) and its bits;
///   M                      a mask of lanes (U, or AVX-512's mask register), with &;
///   c(double)              a V with every lane equal to the constant;
///   bits(V), from(U)       the bits of a V, the V of bits;
///   lt(a, b)               a mask of a < b (all ones or zeros per lane; any
///                          value for a NaN operand: the kernels blend NaN last);
///   blend(m, a, b)         a where m is all ones, else b;
///   clamp(x, lo, hi)       x limited to [lo, hi] (any value for a NaN x);
///   nan_mask(x)            the mask of "x is a NaN";
///   sign_mask(x)           the mask of "the sign bit of x is set";
///   vsqrt(x)               the correctly rounded square root.
/// kernels_f64.hpp instantiates it (through log_erf_f32_kernels) for one
/// double (host scalar code, and the bodies GCC vectorises) and for the
/// AVX2 and AVX-512 vectors of policy/host/simd.hpp's explicit loop. The
/// kernels are fdlibm's exp (Sun Microsystems, "Permission to use, copy,
/// modify, and distribute this software is freely granted") and sinter's
/// own double tanh; every operation is written out in the same order for
/// every lane type, so that the lane types give the same bits (their masks
/// and blends differ only where the results cannot).
#include <limits>

#include "bits.hpp"

// Run-time dispatch (policy/host/dispatch.hpp) instantiates these kernels on
// vectors wider than the build's ISA, inlined into functions of that ISA.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace sinter::detail::math::impl {

inline constexpr double ln2_hi = 6.93147180369123816490e-01;   // 0x3fe62e42fee00000
inline constexpr double ln2_lo = 1.90821492927058770002e-10;   // 0x3dea39ef35793c76
inline constexpr double inv_ln2 = 1.44269504088896338700e+00;
inline constexpr double ln2 = 6.93147180559945286227e-01;       // ln 2 rounded to double
inline constexpr double dinf = std::numeric_limits<double>::infinity();
inline constexpr double dnan = std::numeric_limits<double>::quiet_NaN();
inline constexpr double dmax = std::numeric_limits<double>::max();

/// The double exponentials and hyperbolic functions on the lanes of L.
template <class L>
struct exp_f64_kernels : L {
  using typename L::V;
  using typename L::U;
  using typename L::M;
  using L::c;
  using L::bits;
  using L::from;
  using L::lt;
  using L::blend;
  using L::clamp;
  using L::nan_mask;

  /// |x| (the sign bit cleared).
  static SINTER_HD SINTER_FORCEINLINE V fabs_d(V x) { return from(bits(x) & 0x7fffffffffffffffull); }

  /// |t| with the sign of s.
  static SINTER_HD SINTER_FORCEINLINE V copysign_d(V t, V s) {
    return from((bits(t) & 0x7fffffffffffffffull) | (bits(s) & 0x8000000000000000ull));
  }

  /// x with the low 32 bits of its significand cleared (an exact high part).
  static SINTER_HD SINTER_FORCEINLINE V clear_low_word_d(V x) { return from(bits(x) & 0xffffffff00000000ull); }

  /// 2^n for an integer-valued n in [1-1023, 1023], from bits (bits.hpp's exp2i).
  static SINTER_HD SINTER_FORCEINLINE V exp2i_d(V n) {
    return from(bits(n + c(0x1.8p52 + 1023.0)) << 52);
  }

  /// x 2^n for an integer-valued n in [-2098, 2046], rounded once (bits.hpp's
  /// scale_exp2): the two halves of n stay in the normal range.
  static SINTER_HD SINTER_FORCEINLINE V scale_exp2_d(V x, V n) {
    const V h = (n * c(0.5) + c(0x1.8p52)) - c(0x1.8p52);
    return (x * exp2i_d(h)) * exp2i_d(n - h);
  }

  /// exp(hi - lo) for |hi - lo| <= 0.35 (fdlibm's rational form, < 1 ulp).
  static SINTER_HD SINTER_FORCEINLINE V exp_d_kernel(V hi, V lo) {
    const V r = hi - lo;
    const V t = r * r;
    const V p = r - t * (c(1.66666666666666019037e-01) +
                         t * (c(-2.77777777770155933842e-03) +
                              t * (c(6.61375632143793436117e-05) +
                                   t * (c(-1.65339022054652515390e-06) + t * c(4.13813679705723846039e-08)))));
    return c(1.0) - ((lo - (r * p) / (c(2.0) - p)) - hi);
  }

  /// The reduction of exp(x): returns e^r for r = x - k ln2 and sets k =
  /// round(x / ln2) (by the magic constant), after clamping x to [-746, 711]
  /// (where e^x is 0 and inf). x - k ln2 is split in two: k ln2_hi is exact
  /// (ln2_hi has 32 significant bits). NaN is not handled here.
  static SINTER_HD SINTER_FORCEINLINE V exp_d_reduced(V x, V& k) {
    const V xc = clamp(x, -746.0, 711.0);
    k = (xc * c(1.44269504088896338700e+00) + c(0x1.8p52)) - c(0x1.8p52);
    const V hi = xc - k * c(6.93147180369123816490e-01);  // ln2_hi, 0x3fe62e42fee00000
    const V lo = k * c(1.90821492927058770002e-10);       // ln2_lo, 0x3dea39ef35793c76
    return exp_d_kernel(hi, lo);
  }

  /// exp(x) 2^adj for a small integer-valued adj (adj = -1 gives exp(x)/2
  /// without overflowing early); NaN is not handled here.
  static SINTER_HD SINTER_FORCEINLINE V exp_d_scaled(V x, V adj) {
    V k;
    const V p = exp_d_reduced(x, k);
    return scale_exp2_d(p, k + adj);
  }

  /// e^x for double: < 1 ulp (docs/math.md); inf above 709.78, gradual
  /// underflow to 0 below -745.13, NaN kept.
  static SINTER_HD SINTER_FORCEINLINE V exp_d(V x) {
    V k;
    const V p = exp_d_reduced(x, k);
    return blend(nan_mask(x), x + x, scale_exp2_d(p, k));
  }

  /// 2^x for double: fdlibm's exp kernel on r ln2, r = x - round(x), with
  /// r ln2 split so that its high part is exact; NaN kept.
  static SINTER_HD SINTER_FORCEINLINE V exp2_d(V x) {
    const V xc = clamp(x, -1100.0, 1100.0);
    const V k = (xc + c(0x1.8p52)) - c(0x1.8p52);
    const V r = xc - k;  // exact, |r| <= 1/2
    // r*ln2 as hi - lo with hi exact: rh has 21 bits, ln2_hi 32.
    const V rh = clear_low_word_d(r);
    const V rl = r - rh;
    const V hi = rh * c(ln2_hi);
    const V lo = -(rl * c(ln2) + rh * c(ln2_lo));
    return blend(nan_mask(x), x + x, scale_exp2_d(exp_d_kernel(hi, lo), k));
  }

  /// e^x - 1 for double: fdlibm's expm1, its ranges of k computed and blended.
  static SINTER_HD SINTER_FORCEINLINE V expm1_d(V x) {
    // Scaled coefficients of fdlibm's expm1 (R1 on |r| <= 0.5 ln2).
    constexpr double q1 = -3.33333333333331316428e-02, q2 = 1.58730158725481460165e-03,
                     q3 = -7.93650757867487942473e-05, q4 = 4.00821782732936239552e-06,
                     q5 = -2.01099218183624371326e-07;
    const V xc = clamp(x, -60.0, 711.0);
    const V k = (xc * c(inv_ln2) + c(0x1.8p52)) - c(0x1.8p52);
    const V hi = xc - k * c(ln2_hi);
    const V lo = k * c(ln2_lo);
    const V r = hi - lo;
    const V cr = (hi - r) - lo;
    const V hfx = c(0.5) * r;
    const V hxs = r * hfx;
    const V r1 = c(1.0) + hxs * (c(q1) + hxs * (c(q2) + hxs * (c(q3) + hxs * (c(q4) + hxs * c(q5)))));
    const V t = c(3.0) - r1 * hfx;
    V e = hxs * ((r1 - t) / (c(6.0) - r * t));
    e = (r * (e - cr) - cr) - hxs;
    // expm1(x) = 2^k (expm1(r) + 1) - 1, arranged per range of k as fdlibm does.
    const V y_k0 = r - e;
    const V y_km1 = c(0.5) * (r - e) - c(0.5);
    const V y_k1 = blend(lt(r, c(-0.25)), c(-2.0) * (e - (r + c(0.5))), c(1.0) + c(2.0) * (r - e));
    const V y_far = scale_exp2_d(c(1.0) - (e - r), k) - c(1.0);
    const V twopk = exp2i_d(clamp(k, -60.0, 60.0));
    const V twomk = exp2i_d(clamp(-k, -60.0, 60.0));
    const V y_mid = ((c(1.0) - twomk) - (e - r)) * twopk;  // 2 <= k < 20
    const V y_hi = ((r - (e + twomk)) + c(1.0)) * twopk;   // 20 <= k <= 56
    V y = y_far;
    y = blend(lt(c(19.5), k) & lt(k, c(56.5)), y_hi, y);
    y = blend(lt(c(1.5), k) & lt(k, c(19.5)), y_mid, y);
    y = blend(lt(c(0.5), k) & lt(k, c(1.5)), y_k1, y);
    y = blend(lt(c(-1.5), k) & lt(k, c(-0.5)), y_km1, y);
    y = blend(lt(fabs_d(k), c(0.5)), y_k0, y);
    // |x| < 2^-54: x itself (keeps -0 and subnormals exact).
    y = blend(lt(fabs_d(x), c(0x1p-54)), x, y);
    return blend(nan_mask(x), x + x, y);
  }

  /// cosh for double: e^|x|/2 (no early overflow) + 1/(4 (e^|x|/2)).
  static SINTER_HD SINTER_FORCEINLINE V cosh_d(V x) {
    const V h = exp_d_scaled(fabs_d(x), c(-1.0));  // exp(|x|)/2
    return blend(nan_mask(x), x + x, h + c(0.25) / h);
  }

  /// sinh for double: from expm1 below |x| = 22, e^|x|/2 above.
  static SINTER_HD SINTER_FORCEINLINE V sinh_d(V x) {
    const V a = fabs_d(x);
    const V t = expm1_d(a);
    const V small = c(0.5) * (t + t / (t + c(1.0)));  // e^a - e^-a over 2
    const V r = blend(lt(c(22.0), a), exp_d_scaled(a, c(-1.0)), small);
    return blend(nan_mask(x), x + x, copysign_d(r, x));
  }

  /// tanh for double: with a = |x|, below 0.625 a + a^3 P(a^2)/Q(a^2) (degrees
  /// 2 and 3, a weighted least-squares fit of (tanh a - a)/a^3 made for sinter
  /// with mpmath, relative error 1.7e-17; docs/math_fit.py tanh_d), above it
  /// 1 - 2/(e^2a + 1); the two quotients are blended before one division.
  /// 1 from 22 up; NaN and -0 kept.
  static SINTER_HD SINTER_FORCEINLINE V tanh_d(V x) {
    const U sign = bits(x) & 0x8000000000000000ull;
    const V a = from(bits(x) & 0x7fffffffffffffffull);
    const V z = a * a;
    const M small = lt(a, c(0.625));
    const V p = c(-0x1.5555555555555p-2) + z * (c(-0x1.4fdaadfddf311p-6) + z * c(-0x1.a1b7a16a3f239p-13));
    const V q = c(1.0) + z * (c(0x1.d8929a39336f2p-2) + z * (c(0x1.7d9b91a6c185ep-6) + z * c(0x1.b124e1f0f5a55p-13)));
    V k;
    const V p2a = exp_d_reduced(c(2.0) * blend(small, c(0.0), a), k);
    const V e = scale_exp2_d(p2a, k);  // e^2a, 1 for small lanes
    const V quot = blend(small, p, c(2.0)) / blend(small, q, e + c(1.0));
    V t = blend(small, a + (a * z) * quot, c(1.0) - quot);
    t = blend(lt(c(22.0), a), c(1.0), t);
    return blend(nan_mask(x), x + x, from(bits(t) | sign));  // t >= 0: copysign(t, x)
  }
};

}  // namespace sinter::detail::math::impl

#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#pragma GCC diagnostic pop
#endif
