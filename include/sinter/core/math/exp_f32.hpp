#pragma once
/// \file exp_f32.hpp
/// The float exp and tanh kernels, written once over a lane type L (one
/// float, an x86 float vector, or a pair of vectors) as the static members
/// of exp_f32_kernels<L>, which derives from L. L defines:
///   V, U                    the lane type and its bits;
///   c(float)                a V with every lane equal to the constant;
///   fused                   true if the kernels fuse (then fma must be fused);
///   fma(a, b, c)            a * b + c;
///   vmax(lo, x), vmin(hi, x)  the larger/smaller, x itself if x is NaN;
///   bits(V), from(U)        the bits of a V, the V of bits;
///   lt(a, b), blend(m, a, b)  a mask of a < b; a where m is all ones, else b;
///   select_lt(a, b, x, y)   x where a < b, else y;
///   exp_scale(p, kt, xc)    optional: p 2^k in one instruction, rounded as
///                           exp_f_scale rounds it.
/// exp_tanh_f32.hpp instantiates it for one float, hw_exp.hpp for the x86
/// vectors of the translation unit's ISA (the vector exp variants, and the
/// explicit vector loop of policy/host/simd.hpp, which also calls tanh).
#include "bits.hpp"

// Run-time dispatch (policy/host/dispatch.hpp) instantiates these kernels on
// vectors wider than the build's ISA, inlined into functions of that ISA.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

/// The kernels are always inlined, also at -O0 (GCC, host): the vector
/// variants of hw_exp.hpp run them inside functions built for one ISA.
#if defined(__GNUC__) && !defined(__CUDA_ARCH__)
#define SINTER_DETAIL_LANE_INLINE inline __attribute__((always_inline))
#else
#define SINTER_DETAIL_LANE_INLINE SINTER_FORCEINLINE
#endif
/// The specifiers of the lanes' operations and of the float kernels.
#define SINTER_DETAIL_LANE_OP SINTER_HD SINTER_DETAIL_LANE_INLINE

namespace sinter::detail::math::impl {

/// exp_f and tanh_f (and their helpers) on the lanes of L.
template <class L>
struct exp_f32_kernels : L {
  using typename L::V;
  using typename L::U;
  using L::c;
  using L::fma;
  using L::vmax;
  using L::vmin;
  using L::bits;
  using L::from;
  using L::lt;
  using L::blend;
  using L::select_lt;

  /// p 2^k for the float exp, k = kt - 1.5 * 2^23 (the low bits of kt), xc
  /// in [-104, 89], p in [0.7, 1.42], in one rounding: p 2^(k-1) 2, which
  /// overflows to inf by itself, or p 2^(k+64) 2^-64 for subnormal results
  /// (xc < -80, so k <= -115); each first product is exact. NaN flows through p.
  static SINTER_DETAIL_LANE_OP V exp_f_scale(V p, V kt, V xc) {
    const U kb = bits(kt) << 23;  // k << 23, two's complement mod 2^32
    const U low = lt(xc, c(-80.0f));
    const U bias = (low & ((127u + 64u) << 23)) | (~low & ((127u - 1u) << 23));
    return (p * from(kb + bias)) * blend(low, c(0x1p-64f), c(2.0f));
  }

  /// q(r) of exp_f_reduced: a degree-4 minimax fit made for sinter.
  static SINTER_DETAIL_LANE_OP V exp_f_q(V r) {
    V q = fma(c(0x1.6a1cb4p-10f), r, c(0x1.123a2ep-7f));
    q = fma(q, r, c(0x1.5558dap-5f));
    q = fma(q, r, c(0x1.555492p-3f));
    return fma(q, r, c(0x1.fffffcp-2f));
  }

  /// The reduced part of float exp, for x in [-104, 89] (NaN passes): returns
  /// p = e^r in [0.7, 1.42] and sets kt, whose low bits hold k = round(x/ln2),
  /// so that e^x = p 2^k. r = x - k ln2 by a two-part ln2 (the first product
  /// exact); e^r = 1 + r + r^2 q(r), q a degree-4 minimax fit made for sinter
  /// (relative error 3.3e-9 with its float coefficients); 1 + r kept exact by
  /// Fast2Sum, and the rounding error of r carried along without FMA (with
  /// FMA, r is rounded once and q r^2 + l is one fused operation).
  static SINTER_DETAIL_LANE_OP V exp_f_reduced(V xc, V& kt) {
    kt = fma(xc, c(0x1.715476p+0f), c(0x1.8p23f));  // 1.5 * 2^23 + k
    const V k = kt - 0x1.8p23f;
    const V rh = fma(k, c(-0x1.63p-1f), xc);  // exact: |k| <= 151, 9-bit ln2_hi
    if constexpr (L::fused) {
      const V r = fma(k, c(0x1.bd0106p-13f), rh);  // one rounding
      const V r2 = r * r;
      const V q = exp_f_q(r);
      const V h = 1.0f + r;
      const V l = (1.0f - h) + r;  // h + l == 1 + r exactly
      return h + fma(q, r2, l);
    } else {
      const V t = k * -0x1.bd0106p-13f;
      const V r = rh - t;
      const V rl = (rh - r) - t;  // what r lost (Fast2Sum, |rh| >= |t|)
      const V r2 = r * r;
      const V q = exp_f_q(r);
      const V h = 1.0f + r;
      const V l = (1.0f - h) + r;
      return h + (l + fma(q, r2, rl));
    }
  }

  /// e^x for float: the clamp to [-104, 89], exp_f_reduced, then the lane's scaling
  /// (exp_f_scale, or one instruction that rounds the same). Max error 0.81
  /// ulp over every float with FMA, 0.78 without (docs/math.md); inf above
  /// 88.72283, 0 below -103.97208, NaN kept.
  static SINTER_DETAIL_LANE_OP V exp_f(V x) {
    const V xc = vmin(c(89.0f), vmax(c(-104.0f), x));
    V kt;
    const V p = exp_f_reduced(xc, kt);
    if constexpr (requires { L::exp_scale(p, kt, xc); }) {
      return L::exp_scale(p, kt, xc);  // the lane's own instruction
    } else {
      return exp_f_scale(p, kt, xc);
    }
  }

  /// tanh for float, from the half-argument identity tanh x = 4d / (4 + d^2)
  /// with d = 2 tanh(x/2). With a = |x| clamped to 9.02 (tanh rounds to 1
  /// from 9.011) and u = a^2, d = a + a u S(u), S = P/Q of degrees 2 and 2, a
  /// fit of (2 tanh(a/2)/a - 1)/u made for sinter on [0, 9.02] (docs/math_fit.py
  /// tanh_f: it minimises the error that S passes on to tanh, four times more
  /// tightly on [0.6, 3], where the roundings below peak, and 100 times at the
  /// clamp, where tanh must round to 1). An error in d reaches tanh scaled by
  /// (4 - d^2)/(4 + d^2), which vanishes where tanh nears 1, so no exponential
  /// is needed. With d = a n / q, n = q + u p, both forms of tanh share one
  /// denominator D = 4 q^2 + u n^2, so a lane costs one division: below a = 1,
  /// tanh = a - a u (n^2 - 4 p q) / D, where the quotient enters only a
  /// correction; from a = 1, tanh = 1 - e^2 / D with e = 2 q - a n = q (2 - a)
  /// - a u p (2 - a exact there). n^2 is computed once, for D and for
  /// n^2 - 4pq: 16 multiplies and FMAs (18 with a degree-3 P and n^2 inside
  /// each FMA: 1.43 ulp, and slower; docs/journal/code-notes.md#tanh-f32).
  /// Max error 1.46 ulp over every float with FMA, 1.76 without
  /// (docs/math.md); NaN and -0 kept, 1 from 9.02 up.
  static SINTER_DETAIL_LANE_OP V tanh_f(V x) {
    const U sign = bits(x) & 0x80000000u;
    const V a = vmin(c(9.02f), from(bits(x) & 0x7fffffffu));  // NaN passes
    const V u = a * a;
    V p = fma(c(-0x1.260fd6p-24f), u, c(-0x1.feafeep-11f));
    p = fma(p, u, c(-0x1.55554cp-4f));
    V q = fma(c(0x1.1374a6p-10f), u, c(0x1.c97988p-4f));
    q = fma(q, u, c(1.0f));
    const V n = fma(u, p, q);
    const V au = a * u;
    const V q2 = q + q;
    const V nn = n * n;
    const V den = fma(q2, q2, u * nn);
    const V e = fma(q, 2.0f - a, -(au * p));
    // Each lane's numerator is selected first: one division serves both forms
    // (the divider, not the multiplies, bounds two divisions). The base, a
    // below 1 and 1 from there, is min(1, a): u < 1 exactly when a < 1, and a
    // NaN lane's quotient is NaN. One instruction for a blend, the same bits
    // (docs/journal/code-notes.md#tanh-f32).
    const V num = select_lt(u, c(1.0f), au * fma(c(-4.0f) * p, q, nn), e * e);
    const V t = vmin(c(1.0f), a) - num / den;
    return from(bits(t) | sign);  // copysign(t, x): t >= 0 or NaN
  }
};

}  // namespace sinter::detail::math::impl

#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#pragma GCC diagnostic pop
#endif
