#pragma once
/// \file log_erf_f64.hpp
/// The double log, log2, log10, log1p, asinh, acosh, atanh and erf/erfc
/// kernels, written once over a lane type L (exp_f64.hpp lists what L
/// defines) as the static members of log_erf_f64_kernels<L>, which derives
/// from exp_f64_kernels<L> (whose exp_d_kernel and scale_exp2_d they use).
/// They are fdlibm's e_log and s_erf (Sun Microsystems, "Permission to use,
/// copy, modify, and distribute this software is freely granted"),
/// rewritten with blends instead of branches; every operation is written
/// out in the same order for every lane type, so that the lane types give
/// the same bits.
#include "exp_f64.hpp"

// Run-time dispatch (policy/host/dispatch.hpp) instantiates these kernels on
// vectors wider than the build's ISA, inlined into functions of that ISA.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace sinter::detail::math::impl {

/// The double logarithms, inverse hyperbolic functions and erf/erfc on the
/// lanes of L.
template <class L>
struct log_erf_f64_kernels : exp_f64_kernels<L> {
  using B = exp_f64_kernels<L>;
  using typename B::V;
  using typename B::U;
  using typename B::M;
  using B::c;
  using B::bits;
  using B::from;
  using B::lt;
  using B::blend;
  using B::clamp;
  using B::nan_mask;
  using B::sign_mask;
  using B::vsqrt;
  using B::fabs_d;
  using B::copysign_d;
  using B::clear_low_word_d;
  using B::scale_exp2_d;
  using B::exp_d_kernel;

  /// x = 2^k (1 + f) with sqrt(2)/2 <= 1 + f < sqrt(2), for positive x
  /// (subnormals included); garbage for other x, which callers blend away.
  static SINTER_HD SINTER_FORCEINLINE void log_d_reduce(V x, V& f, V& k) {
    const M sub = lt(x, c(0x1p-1022));
    const V xs = x * blend(sub, c(0x1p54), c(1.0));
    const U b = bits(xs);
    // The significand in [1, 2), and the exponent field or-ed under the bits
    // of 2^52 (bits.hpp's frexp_bits).
    V m = from((b & 0x000fffffffffffffull) | 0x3ff0000000000000ull);
    const V e = (from((b >> 52) | 0x4330000000000000ull) - c(0x1p52 + 1023.0)) - blend(sub, c(54.0), c(0.0));
    const M big = lt(c(0x1.6a09e667f3bcdp0), m);
    m = blend(big, c(0.5) * m, m);
    k = e + blend(big, c(1.0), c(0.0));
    f = m - c(1.0);
  }

  /// log(1 + f) - f + hfsq (fdlibm's k_log1p: s*(hfsq + R(s^2)), s = f/(2+f)).
  static SINTER_HD SINTER_FORCEINLINE V log_d_kernel(V f, V hfsq) {
    constexpr double lg1 = 6.666666666666735130e-01, lg2 = 3.999999999940941908e-01,
                     lg3 = 2.857142874366239149e-01, lg4 = 2.222219843214978396e-01,
                     lg5 = 1.818357216161805012e-01, lg6 = 1.531383769920937332e-01,
                     lg7 = 1.479819860511658591e-01;
    const V s = f / (c(2.0) + f);
    const V z = s * s;
    const V w = z * z;
    const V t1 = w * (c(lg2) + w * (c(lg4) + w * c(lg6)));
    const V t2 = z * (c(lg1) + w * (c(lg3) + w * (c(lg5) + w * c(lg7))));
    return s * (hfsq + (t2 + t1));
  }

  /// The special values shared by the logarithms (float and double): r for
  /// finite x > 0, else log(+-0) = -inf, log(x < 0) = NaN, log(inf) = inf,
  /// log(NaN) = NaN.
  static SINTER_HD SINTER_FORCEINLINE V log_d_specials(V x, V r) {
    r = blend(lt(fabs_d(x), c(0x1p-1074)), c(-limits<double>::infinity), r);
    r = blend(lt(c(limits<double>::max), x), c(limits<double>::infinity), r);
    r = blend(lt(x, c(-0.0)), c(limits<double>::quiet_nan), r);
    return blend(nan_mask(x), x + x, r);
  }

  /// Natural logarithm of a double, < 1 ulp (fdlibm's e_log).
  static SINTER_HD SINTER_FORCEINLINE V log_d(V x) {
    V f, k;
    log_d_reduce(x, f, k);
    const V hfsq = c(0.5) * f * f;
    const V r = k * c(ln2_hi) - ((hfsq - (log_d_kernel(f, hfsq) + k * c(ln2_lo))) - f);
    return log_d_specials(x, r);
  }

  /// log2 and log10 as fdlibm's e_log2/e_log10: f - hfsq split into an exact
  /// high part so the multiplication by 1/ln(b) keeps extra bits.
  static SINTER_HD SINTER_FORCEINLINE V log_d_base(V x, double ivhi, double ivlo, double khi, double klo) {
    V f, k;
    log_d_reduce(x, f, k);
    const V hfsq = c(0.5) * f * f;
    const V r = log_d_kernel(f, hfsq);
    const V hi = clear_low_word_d(f - hfsq);
    const V lo = (f - hi) - hfsq + r;
    V val_hi = hi * c(ivhi);
    const V y = k * c(khi);
    V val_lo = k * c(klo) + (lo + hi) * c(ivlo) + lo * c(ivhi);
    const V w = y + val_hi;
    val_lo += (y - w) + val_hi;
    val_hi = w;
    return log_d_specials(x, val_lo + val_hi);
  }

  /// Base-2 logarithm of a double, exact at powers of two.
  static SINTER_HD SINTER_FORCEINLINE V log2_d(V x) {
    return log_d_base(x, 1.44269504072144627571e+00, 1.67517131648865118353e-10, 1.0, 0.0);
  }

  /// Base-10 logarithm of a double.
  static SINTER_HD SINTER_FORCEINLINE V log10_d(V x) {
    return log_d_base(x, 4.34294481878168880939e-01, 2.50829467116452752298e-11, 3.01029995663611771306e-01,
                      3.69423907715893078616e-13);
  }

  /// log(1 + x) for double: the log kernel on u = 1 + x, with the rounding
  /// error of 1 + x carried (fdlibm's s_log1p).
  static SINTER_HD SINTER_FORCEINLINE V log1p_d(V x) {
    const V u = c(1.0) + x;
    // The rounding error of 1 + x (Fast2Sum, larger operand first).
    const V cu = blend(lt(fabs_d(x), c(1.0)), x - (u - c(1.0)), c(1.0) - (u - x));
    V f, k;
    log_d_reduce(u, f, k);
    const V hfsq = c(0.5) * f * f;
    V r = k * c(ln2_hi) + (f - (hfsq - (log_d_kernel(f, hfsq) + (k * c(ln2_lo) + cu / u))));
    r = blend(lt(fabs_d(x), c(0x1p-54)), x, r);
    r = blend(lt(x, c(-1.0)), c(dnan), r);
    r = blend(lt(fabs_d(x + c(1.0)), c(0x1p-1074)), c(-dinf), r);
    r = blend(lt(c(dmax), x), c(dinf), r);
    return blend(nan_mask(x), x + x, r);
  }

  /// asinh for double: log1p(a + (sqrt(1 + a^2) - 1)), a = |x|; beyond 2^28,
  /// log(2a) = log1p(a - 1) + ln2.
  static SINTER_HD SINTER_FORCEINLINE V asinh_d(V x) {
    const V a = fabs_d(x);
    const V a2 = a * a;
    const M big = lt(c(0x1p28), a);
    const V y = blend(big, a - c(1.0), a + a2 / (c(1.0) + vsqrt(c(1.0) + a2)));
    const V r = log1p_d(y) + blend(big, c(ln2), c(0.0));
    return blend(nan_mask(x), x + x, copysign_d(r, x));
  }

  /// acosh for double: log1p(t + sqrt(2t + t^2)), t = x - 1; NaN below 1.
  static SINTER_HD SINTER_FORCEINLINE V acosh_d(V x) {
    const V t = x - c(1.0);
    const M big = lt(c(0x1p28), x);
    const V y = blend(big, t, t + vsqrt(c(2.0) * t + t * t));
    V r = log1p_d(y) + blend(big, c(ln2), c(0.0));
    r = blend(lt(x, c(1.0)), c(dnan), r);
    return blend(nan_mask(x), x + x, r);
  }

  /// atanh for double: log1p(2a + 2a^2/(1 - a)) / 2 below a = 0.5, else
  /// log1p(2a/(1 - a)) / 2, a = |x|; +-inf at +-1, NaN beyond.
  static SINTER_HD SINTER_FORCEINLINE V atanh_d(V x) {
    const V a = fabs_d(x);
    const V y = blend(lt(a, c(0.5)), c(2.0) * a + c(2.0) * a * a / (c(1.0) - a), c(2.0) * a / (c(1.0) - a));
    V r = c(0.5) * log1p_d(y);
    r = blend(lt(c(1.0), a), c(dnan), r);
    r = blend(lt(a, c(0x1p-54)), a, r);
    return blend(nan_mask(x), x + x, copysign_d(r, x));
  }

  /// a where m is all ones, else b, as constants.
  static SINTER_HD SINTER_FORCEINLINE V pick(M m, double a, double b) { return blend(m, c(a), c(b)); }

  /// erf and erfc together (fdlibm s_erf.c coefficients, all ranges blended).
  /// A lane needs the quotient of its own range only, so the three ranges'
  /// numerators and denominators are blended first and divided once (the same
  /// quotient, bit for bit, for a third of the divisions), and the tail's two
  /// exps, fdlibm's e^(-z^2 - 0.5625) e^((z - a)(z + a) + R/S), are one
  /// (below). The divisions and exps had made erfc 88% of the double
  /// Black-Scholes benchmark's time.
  static SINTER_HD SINTER_FORCEINLINE void erf_erfc_d(V x, V& erf_out, V& erfc_out) {
    constexpr double erx = 8.45062911510467529297e-01, efx8 = 1.02703333676410069053e+00;
    constexpr double pp0 = 1.28379167095512558561e-01, pp1 = -3.25042107247001499370e-01,
                     pp2 = -2.84817495755985104766e-02, pp3 = -5.77027029648944159157e-03,
                     pp4 = -2.37630166566501626084e-05, qq1 = 3.97917223959155352819e-01,
                     qq2 = 6.50222499887672944485e-02, qq3 = 5.08130628187576562776e-03,
                     qq4 = 1.32494738004321644526e-04, qq5 = -3.96022827877536812320e-06;
    constexpr double pa0 = -2.36211856075265944077e-03, pa1 = 4.14856118683748331666e-01,
                     pa2 = -3.72207876035701323847e-01, pa3 = 3.18346619901161753674e-01,
                     pa4 = -1.10894694282396677476e-01, pa5 = 3.54783043256182359371e-02,
                     pa6 = -2.16637559486879084300e-03, qa1 = 1.06420880400844228286e-01,
                     qa2 = 5.40397917702171048937e-01, qa3 = 7.18286544141962662868e-02,
                     qa4 = 1.26171219808761642112e-01, qa5 = 1.36370839120290507362e-02,
                     qa6 = 1.19844998467991074170e-02;
    const V a = fabs_d(x);
    const M in1 = lt(a, c(0.84375));
    const M in2 = lt(a, c(1.25));
    // |x| < 0.84375: erf = x + x R1/S1
    const V z = x * x;
    const V r1 = c(pp0) + z * (c(pp1) + z * (c(pp2) + z * (c(pp3) + z * c(pp4))));
    const V s1 = c(1.0) + z * (c(qq1) + z * (c(qq2) + z * (c(qq3) + z * (c(qq4) + z * c(qq5)))));
    // 0.84375 <= |x| < 1.25: erf = erx + P/Q
    const V s = a - c(1.0);
    const V p2 = c(pa0) + s * (c(pa1) + s * (c(pa2) + s * (c(pa3) + s * (c(pa4) + s * (c(pa5) + s * c(pa6))))));
    const V q2 = c(1.0) + s * (c(qa1) + s * (c(qa2) + s * (c(qa3) + s * (c(qa4) + s * (c(qa5) + s * c(qa6))))));
    // 1.25 <= |x| (< 28 for erfc): erfc = exp(-x^2 - 0.5625 + R/S) / x
    const V ac = clamp(a, 1.25, 28.0);
    const M near = lt(ac, c(1.0 / 0.35));
    const V w = c(1.0) / (ac * ac);
    const V rr =
        pick(near, -9.86494403484714822705e-03, -9.86494292470009928597e-03) +
        w * (pick(near, -6.93858572707181764372e-01, -7.99283237680523006574e-01) +
        w * (pick(near, -1.05586262253232909814e+01, -1.77579549177547519889e+01) +
        w * (pick(near, -6.23753324503260060396e+01, -1.60636384855821916062e+02) +
        w * (pick(near, -1.62396669462573470355e+02, -6.37566443368389627722e+02) +
        w * (pick(near, -1.84605092906711035994e+02, -1.02509513161107724954e+03) +
        w * (pick(near, -8.12874355063065934246e+01, -4.83519191608651397019e+02) +
        w * pick(near, -9.81432934416914548592e+00, 0.0)))))));
    const V ss =
        c(1.0) + w * (pick(near, 1.96512716674392571292e+01, 3.03380607434824582924e+01) +
        w * (pick(near, 1.37657754143519042600e+02, 3.25792512996573918826e+02) +
        w * (pick(near, 4.34565877475229228821e+02, 1.53672958608443695994e+03) +
        w * (pick(near, 6.45387271733267880336e+02, 3.19985821950859553908e+03) +
        w * (pick(near, 4.29008140027567833386e+02, 2.55305040643316442583e+03) +
        w * (pick(near, 1.08635005541779435134e+02, 4.74528541206955367215e+02) +
        w * (pick(near, 6.57024977031928170135e+00, -2.24409524465858183362e+01) +
        w * pick(near, -6.04244152148580987438e-02, 0.0))))))));
    // The one division: R1/S1, P/Q or R/S, whichever this lane's range uses.
    const V qt = blend(in1, r1, blend(in2, p2, rr)) / blend(in1, s1, blend(in2, q2, ss));
    V erf1 = x + x * qt;
    erf1 = blend(lt(a, c(0x1p-28)), (c(8.0) * x + c(efx8) * x) * c(0.125), erf1);
    const V erfc1 = blend(lt(x, c(0.25)), c(1.0) - (x + x * qt), c(0.5) - (x * qt + (x - c(0.5))));
    const V erf2 = copysign_d(c(erx) + qt, x);
    const M neg = sign_mask(x);
    const V erfc2 = blend(neg, c(1.0) + (c(erx) + qt), c(1.0 - erx) - qt);
    // e^(big + small), big = -zh^2 - 0.5625 exact (zh has 21 bits), small =
    // (zh - ac)(zh + ac) + R/S: k from their rounded sum, and big - k ln2_hi
    // exact (both multiples of 2^-40, the difference below 2 in magnitude),
    // so the reduced argument rounds once, as fdlibm's second exp does. Below
    // -745.2 (ac > 27.3) the result is 0, as fdlibm's first exp gives.
    const V zh = clear_low_word_d(ac);
    const V big = -zh * zh - c(0.5625);
    const V small = (zh - ac) * (zh + ac) + qt;
    const V arg = big + small;
    const V k = (clamp(arg, -746.0, 0.0) * c(inv_ln2) + c(0x1.8p52)) - c(0x1.8p52);
    const V hi = (big - k * c(ln2_hi)) + small;
    const V e = blend(lt(arg, c(-745.2)), c(0.0), scale_exp2_d(exp_d_kernel(hi, k * c(ln2_lo)), k));
    const V tail = blend(lt(c(27.9), a), c(0.0), e / ac);  // erfc(|x|), 0 beyond 28
    const V erf3 = copysign_d(c(1.0) - tail, x);
    const V erfc3 = blend(neg, c(2.0) - tail, tail);
    erf_out = blend(in1, erf1, blend(in2, erf2, erf3));
    erfc_out = blend(in1, erfc1, blend(in2, erfc2, erfc3));
    erf_out = blend(nan_mask(x), x + x, erf_out);
    erfc_out = blend(nan_mask(x), x + x, erfc_out);
  }

  /// erf of a double (fdlibm's s_erf, < 1 ulp).
  static SINTER_HD SINTER_FORCEINLINE V erf_d(V x) {
    V e, ec;
    erf_erfc_d(x, e, ec);
    return e;
  }

  /// erfc of a double (fdlibm's s_erf; its tail's two exps as one).
  static SINTER_HD SINTER_FORCEINLINE V erfc_d(V x) {
    V e, ec;
    erf_erfc_d(x, e, ec);
    return ec;
  }
};

}  // namespace sinter::detail::math::impl

#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#pragma GCC diagnostic pop
#endif
