#pragma once
/// \file kernels_f64.hpp
/// The double exponentials, logarithms, hyperbolic functions and their
/// inverses, and erf/erfc: the kernels of exp_f64.hpp and log_erf_f64.hpp
/// (and float's log, log2, log10, erf and erfc, computed in double:
/// log_erf_f32.hpp) instantiated on each lane type. lane_f64 is one double (host
/// scalar code and the loops GCC vectorises from it; nvcc's device pass
/// calls CUDA's functions instead). lane_avx2_d is four doubles of AVX2 and
/// lane_avx512_d eight of AVX-512F, for the explicit vector loop of
/// policy/host/simd.hpp: GCC's vectoriser cannot give the scalar kernels'
/// clamps `vminpd`/`vmaxpd` (which let NaN through, as the clamps need, but
/// GCC emits them only under -ffinite-math-only), nor their blends and
/// masks `vblendvpd` (AVX-512: a comparison into a mask register and
/// `vblendmpd`) and a comparison (at SSE2 a double comparison cannot be a
/// mask, so bits.hpp's masks read sign bits), and its vectors of exp took a
/// third more instructions. The explicit lanes are faster for every double
/// function, and for float's functions computed in double
/// (docs/journal/code-notes.md#kernels-f64, docs/math.md). Every lane type
/// gives the same bits for the same input: the same IEEE operations in the same order, with
/// masks and blends that differ only for NaN lanes, which the kernels
/// replace last (tests/fma/host_simd_cases.hpp).
#include <cstdint>

#include "bits.hpp"
#include "exp_tanh_f32.hpp"  // SINTER_DETAIL_LANE_OP
#include "hw_sqrt.hpp"       // SINTER_HW_SQRT
#include "lane_pair.hpp"     // SINTER_DETAIL_LANE_PAIR
#include "log_erf_f32.hpp"   // the kernels
#include "sqrt_round.hpp"    // math::sqrt

namespace sinter::detail::math::impl {

/// round to nearest integer for |x| < 2^51 (the magic-constant trick).
SINTER_HD SINTER_FORCEINLINE double rint_small(double x) {
  return (x + 0x1.8p52) - 0x1.8p52;
}

/// min(max(x, lo), hi) by blends (NaN: unspecified; callers fix NaN last).
SINTER_HD SINTER_FORCEINLINE double clamp_d(double x, double lo, double hi) {
  return blend(lt_mask(x, lo), lo, blend(lt_mask(hi, x), hi, x));
}

/// The lane of one double, with bits.hpp's masks and blends (which
/// vectorise at SSE2). SINTER_FORCEINLINE, as the double kernels, not the
/// vector lanes' unconditional always_inline: an unoptimised build (-O0,
/// where SINTER_FORCEINLINE is plain inline, as in the sanitizer builds) or
/// one that overrides it (the dtype-matrix tests) then leaves the kernels
/// out of line instead of inlining them into every caller and SIMD clone
/// (test_ops_math.cpp at -Og compiled slower so;
/// docs/journal/code-notes.md#kernels-f64).
struct lane_f64_ops {
  using V = double;
  using U = std::uint64_t;
  using M = U;
  static SINTER_HD SINTER_FORCEINLINE V c(double x) { return x; }
  static SINTER_HD SINTER_FORCEINLINE U bits(V x) { return to_bits(x); }
  static SINTER_HD SINTER_FORCEINLINE V from(U u) { return from_bits<double>(u); }
  static SINTER_HD SINTER_FORCEINLINE U lt(V a, V b) { return lt_mask(a, b); }
  static SINTER_HD SINTER_FORCEINLINE V blend(U m, V a, V b) { return math::blend(m, a, b); }
  static SINTER_HD SINTER_FORCEINLINE V clamp(V x, double lo, double hi) { return clamp_d(x, lo, hi); }
  static SINTER_HD SINTER_FORCEINLINE U nan_mask(V x) { return math::nan_mask(x); }
  static SINTER_HD SINTER_FORCEINLINE U sign_mask(V x) { return math::sign_mask(x); }
  static SINTER_HD SINTER_FORCEINLINE V vsqrt(V x) { return math::sqrt(x); }
};
/// The double kernels (and float's computed in double) on one double.
using lane_f64 = log_erf_f32_kernels<lane_f64_ops>;

/// exp(hi - lo) for |hi - lo| <= 0.35 (fdlibm's rational form, < 1 ulp).
SINTER_HD SINTER_FORCEINLINE double exp_kernel(double hi, double lo) { return lane_f64::exp_d_kernel(hi, lo); }
/// exp(x) * 2^adj for a small integer adj; NaN is not handled here.
SINTER_HD SINTER_FORCEINLINE double exp_scaled(double x, double adj) { return lane_f64::exp_d_scaled(x, adj); }
/// x = 2^k (1 + f) with sqrt(2)/2 <= 1 + f < sqrt(2), for positive x.
SINTER_HD SINTER_FORCEINLINE void log_reduce(double x, double& f, double& k) { lane_f64::log_d_reduce(x, f, k); }
/// log(1 + f) - f + hfsq (fdlibm's k_log1p).
SINTER_HD SINTER_FORCEINLINE double log_kernel(double f, double hfsq) { return lane_f64::log_d_kernel(f, hfsq); }
/// The logarithms' special values: r for finite x > 0, else -inf, NaN or inf.
SINTER_HD SINTER_FORCEINLINE double log_specials(double x, double r) { return lane_f64::log_d_specials(x, r); }
/// erf and erfc of a double together (fdlibm's s_erf, ranges blended).
SINTER_HD SINTER_FORCEINLINE void erf_erfc(double x, double& erf_out, double& erfc_out) {
  lane_f64::erf_erfc_d(x, erf_out, erfc_out);
}

}  // namespace sinter::detail::math::impl

/// The members every x86 double vector lane shares: a constant (x - 0
/// keeps -0), and bits and back.
#define SINTER_DETAIL_LANE_X86_D_BITS                                          \
  static SINTER_DETAIL_LANE_OP V c(double x) { return x - V{}; }              \
  static SINTER_DETAIL_LANE_OP U bits(V x) { return reinterpret_cast<U>(x); } \
  static SINTER_DETAIL_LANE_OP V from(U u) { return reinterpret_cast<V>(u); }

/// SINTER_DETAIL_LANE_AVX2_D is 1 where lane_avx2_d exists: GCC on x86-64
/// host code (SINTER_HW_SQRT) built for AVX2 and FMA, not AVX-512 (whose
/// explicit loop runs 8 doubles per vector: lane_avx512_d below).
#if SINTER_HW_SQRT && defined(__AVX2__) && defined(__FMA__) && !defined(__AVX512F__)
#define SINTER_DETAIL_LANE_AVX2_D 1
#include <immintrin.h>

namespace sinter::detail::math::impl {
/// Four doubles of AVX2 (GCC's vector extension): masks by vector
/// comparison, `vblendvpd`, and a clamp by `vmaxpd`/`vminpd`.
struct lane_avx2_d_ops {
  using V = __v4df;
  using U = __v4du;
  using M = U;
  SINTER_DETAIL_LANE_X86_D_BITS
  static SINTER_DETAIL_LANE_OP U lt(V a, V b) { return reinterpret_cast<U>(a < b); }
  static SINTER_DETAIL_LANE_OP V blend(U m, V a, V b) { return _mm256_blendv_pd(b, a, reinterpret_cast<__m256d>(m)); }
  // maxpd/minpd return their second operand when either is NaN: x itself.
  static SINTER_DETAIL_LANE_OP V clamp(V x, double lo, double hi) { return _mm256_min_pd(c(hi), _mm256_max_pd(c(lo), x)); }
  static SINTER_DETAIL_LANE_OP U nan_mask(V x) { return reinterpret_cast<U>(_mm256_cmp_pd(x, x, _CMP_UNORD_Q)); }
  static SINTER_DETAIL_LANE_OP U sign_mask(V x) { return U{} - (bits(x) >> 63); }
  static SINTER_DETAIL_LANE_OP V vsqrt(V x) { return _mm256_sqrt_pd(x); }
};
/// The double kernels on four doubles of AVX2.
using lane_avx2_d = log_erf_f32_kernels<lane_avx2_d_ops>;
}  // namespace sinter::detail::math::impl
#else
#define SINTER_DETAIL_LANE_AVX2_D 0
#endif

/// SINTER_DETAIL_LANE_AVX512_D is 1 where lane_avx512_d exists: GCC on
/// x86-64 host code built for AVX-512F.
#if SINTER_HW_SQRT && defined(__AVX512F__)
#define SINTER_DETAIL_LANE_AVX512_D 1
#include <immintrin.h>

namespace sinter::detail::math::impl {
/// Eight doubles of AVX-512F (GCC's vector extension): masks in mask
/// registers (`vcmppd` into k, `vptestmq` of the sign bit, `kandb`),
/// `vblendmpd`, and a clamp by `vmaxpd`/`vminpd` (the masked forms with
/// every lane on: GCC 12's unmasked ones read an undefined vector and trip
/// -Wmaybe-uninitialized).
struct lane_avx512_d_ops {
  using V = __v8df;
  using U = __v8du;
  using M = __mmask8;
  SINTER_DETAIL_LANE_X86_D_BITS
  static SINTER_DETAIL_LANE_OP M lt(V a, V b) { return _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ); }
  static SINTER_DETAIL_LANE_OP V blend(M m, V a, V b) { return _mm512_mask_blend_pd(m, b, a); }
  // maxpd/minpd return their second operand when either is NaN: x itself.
  static SINTER_DETAIL_LANE_OP V clamp(V x, double lo, double hi) {
    const __mmask8 all = 0xff;
    return _mm512_mask_min_pd(c(hi), all, c(hi), _mm512_mask_max_pd(c(lo), all, c(lo), x));
  }
  static SINTER_DETAIL_LANE_OP M nan_mask(V x) { return _mm512_cmp_pd_mask(x, x, _CMP_UNORD_Q); }
  static SINTER_DETAIL_LANE_OP M sign_mask(V x) {
    return _mm512_test_epi64_mask(reinterpret_cast<__m512i>(x), reinterpret_cast<__m512i>(U{} + (1ull << 63)));
  }
  static SINTER_DETAIL_LANE_OP V vsqrt(V x) { return _mm512_mask_sqrt_pd(x, static_cast<__mmask8>(0xff), x); }
};
/// The double kernels on eight doubles of AVX-512F.
using lane_avx512_d = log_erf_f32_kernels<lane_avx512_d_ops>;

/// Sixteen doubles as a pair of AVX-512F vectors, for the float functions
/// computed in double (one float vector widened): every operation runs on
/// both halves in turn, so the instruction stream holds two independent
/// dependency chains side by side, faster than the two halves one after
/// the other (the kernels are chains of dependent multiplies, divisions and
/// square roots; the core's schedulers fill with one half's waiting
/// operations before the other half's reach them;
/// docs/journal/code-notes.md#lane-pairs).
struct lane_avx512_d2_ops {
  using one = lane_avx512_d_ops;
  SINTER_DETAIL_LANE_PAIR(double, __v8df, __v8du)
  struct M {
    __mmask8 a, b;
    friend SINTER_DETAIL_LANE_OP M operator&(M x, M y) {
      return {static_cast<__mmask8>(x.a & y.a), static_cast<__mmask8>(x.b & y.b)};
    }
  };
  static SINTER_DETAIL_LANE_OP M lt(V x, V y) { return {one::lt(x.a, y.a), one::lt(x.b, y.b)}; }
  static SINTER_DETAIL_LANE_OP V blend(M m, V x, V y) { return {one::blend(m.a, x.a, y.a), one::blend(m.b, x.b, y.b)}; }
  static SINTER_DETAIL_LANE_OP V clamp(V x, double lo, double hi) { return {one::clamp(x.a, lo, hi), one::clamp(x.b, lo, hi)}; }
  static SINTER_DETAIL_LANE_OP M nan_mask(V x) { return {one::nan_mask(x.a), one::nan_mask(x.b)}; }
  static SINTER_DETAIL_LANE_OP M sign_mask(V x) { return {one::sign_mask(x.a), one::sign_mask(x.b)}; }
  static SINTER_DETAIL_LANE_OP V vsqrt(V x) { return {one::vsqrt(x.a), one::vsqrt(x.b)}; }
};
/// The double kernels on pairs of AVX-512F vectors.
using lane_avx512_d2 = log_erf_f32_kernels<lane_avx512_d2_ops>;
}  // namespace sinter::detail::math::impl
#else
#define SINTER_DETAIL_LANE_AVX512_D 0
#endif
#undef SINTER_DETAIL_LANE_X86_D_BITS
