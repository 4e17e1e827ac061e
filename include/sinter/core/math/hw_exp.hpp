#pragma once
/// \file hw_exp.hpp
/// exp for float in GCC's vectorised host loops on x86-64, as vector
/// functions written for each ISA (the way hw_sqrt.hpp gives sqrt).
///
/// Written in scalar code, the float exp kernel (exp_f32.hpp) vectorises,
/// but GCC cannot express two of its steps with the instructions made for
/// them: a clamp that lets NaN through is a compare and a blend (not
/// `vminps`/`vmaxps`, which GCC emits only under -ffinite-math-only), and
/// the scaling by 2^k with gradual underflow is two products and two blends
/// (not AVX-512's `vscalefps`). So, with GCC on x86-64, the public float exp
/// calls an extern "C" function declared `simd("notinbranch")` without a
/// body, and this header defines its vector variants under the x86-64 vector
/// function ABI names (_ZGV{b,c,d,e}N<lanes>v_<name>): the kernel of
/// exp_f32.hpp on a lane type per ISA the translation unit is built for
/// (SSE2, AVX, AVX-512; AVX2 takes AVX's), whose min/max/fma/scaling are
/// those instructions; an ISA beyond the unit's gets the SSE2 kernel on
/// each four floats, in a function of its own ISA. Each variant gives the
/// bits of the scalar kernel wherever the vectoriser can call it
/// (tests/core/test_math_hw_exp.cpp).

#include "exp_tanh_f32.hpp"
#include "hw_sqrt.hpp"
#include "lane_pair.hpp"

/// SINTER_HW_EXP is 1 where the float exp goes through the vector variants
/// below: where SINTER_HW_SQRT is (GCC, x86-64, host code).
#define SINTER_HW_EXP SINTER_HW_SQRT

#if SINTER_HW_EXP
#include <immintrin.h>

extern "C" {
/// e^x for float (impl::exp_f); called by sinter::detail::math::exp, vector
/// variants defined below.
float sinter_detail_expf(float) __attribute__((simd("notinbranch"), const, nothrow));
}

/// Defines `name` under the assembler name `label` for ISA `isa` (one
/// copy per program, as hw_sqrt.hpp's).
#define SINTER_DETAIL_HW_EXP(name, label, isa, type, body)                             \
  extern "C" inline __attribute__((used, target(isa))) type name(type x) asm(label); \
  extern "C" inline type name(type x) { return body; }
/// The variant of an ISA the translation unit is not built for: the SSE2
/// kernel on each four floats (the same bits), in a function built for the
/// ISA. Local to the translation unit, so that the linker never picks it
/// for code built for the ISA, which defines the full-width one.
#define SINTER_DETAIL_HW_EXP_PARTS(name, label, isa, type)                       \
  extern "C" {                                                                   \
  static __attribute__((used, target(isa))) type name(type x) asm(label);       \
  static type name(type x) {                                                     \
    __v4sf part[sizeof(type) / sizeof(__v4sf)];                                  \
    __builtin_memcpy(part, &x, sizeof x);                                        \
    for (__v4sf& p : part) p = sinter::detail::math::impl::lane_sse2::exp_f(p); \
    __builtin_memcpy(&x, part, sizeof x);                                        \
    return x;                                                                    \
  }                                                                              \
  }

// The float kernels (exp_f32.hpp) on the x86 vectors of the ISAs the
// translation unit is built for: the kernels are templates, and GCC builds
// a template's instances for the target of its definition, not of their
// caller, so a vector wider than the unit's ISA cannot be one of their lanes.
// minps/maxps return their second operand when either is NaN, as vmax/vmin
// must. The AVX-512 intrinsics are the masked forms with every lane on
// (GCC 12's unmasked ones read an undefined vector and trip -Wuninitialized).
// `fused` says whether the kernels fuse: as the scalar kernel does for SSE2
// and AVX (SINTER_DETAIL_HOST_FMA), always for AVX-512, whose units have FMA.
namespace sinter::detail::math::impl {

/// The lane-type members every x86 vector shares: a constant (x - 0 keeps
/// -0), bits and back, and the mask of a < b (all ones or all zeros per
/// lane). blend under such a mask is each ISA's own.
#define SINTER_DETAIL_LANE_X86_COMMON                                                     \
  static SINTER_DETAIL_LANE_OP V c(float x) { return x - V{}; }                           \
  static SINTER_DETAIL_LANE_OP U bits(V x) { return reinterpret_cast<U>(x); }             \
  static SINTER_DETAIL_LANE_OP V from(U u) { return reinterpret_cast<V>(u); }             \
  static SINTER_DETAIL_LANE_OP U lt(V a, V b) { return reinterpret_cast<U>(a < b); }
/// The bitwise blend: and, andnot, or (SSE2 has no blend instruction).
#define SINTER_DETAIL_LANE_X86_BITWISE_BLEND \
  static SINTER_DETAIL_LANE_OP V blend(U m, V a, V b) { return from((bits(a) & m) | (bits(b) & ~m)); }
/// fma of the SSE and AVX vectors (`pfx` is _mm or _mm256), fusing where
/// the scalar kernel does (SINTER_DETAIL_HOST_FMA; AVX-512F without FMA3
/// has no fused 4- or 8-float form: one fused scalar per lane).
#if defined(__FMA__)
#define SINTER_DETAIL_LANE_X86_FMA(pfx) return pfx##_fmadd_ps(a, b, x);
#elif SINTER_DETAIL_HOST_FMA
#define SINTER_DETAIL_LANE_X86_FMA(pfx)                                   \
  for (int i = 0; i < int(sizeof(V) / sizeof(float)); ++i) a[i] = __builtin_fmaf(a[i], b[i], x[i]); \
  return a;
#else
#define SINTER_DETAIL_LANE_X86_FMA(pfx) return a * b + x;
#endif
/// min, max and fma of the SSE and AVX vectors.
#define SINTER_DETAIL_LANE_X86_SSE_AVX(pfx)                                                 \
  static constexpr bool fused = SINTER_DETAIL_HOST_FMA;                                     \
  static SINTER_DETAIL_LANE_OP V vmax(V lo, V x) { return pfx##_max_ps(lo, x); }            \
  static SINTER_DETAIL_LANE_OP V vmin(V hi, V x) { return pfx##_min_ps(hi, x); }            \
  static SINTER_DETAIL_LANE_OP V fma(V a, V b, V x) { SINTER_DETAIL_LANE_X86_FMA(pfx) }

/// Four floats of SSE2.
struct lane_sse2_ops {
  using V = __v4sf;
  using U = __v4su;
  SINTER_DETAIL_LANE_X86_COMMON
  SINTER_DETAIL_LANE_X86_SSE_AVX(_mm)
  SINTER_DETAIL_LANE_X86_BITWISE_BLEND
  static SINTER_DETAIL_LANE_OP V select_lt(V a, V b, V x, V y) { return blend(lt(a, b), x, y); }
};
/// The float kernels on four floats of SSE2.
using lane_sse2 = exp_f32_kernels<lane_sse2_ops>;

#if defined(__AVX__)
/// Eight floats of AVX (AVX2 adds nothing these kernels use).
struct lane_avx_ops {
  using V = __v8sf;
  using U = __v8su;
  SINTER_DETAIL_LANE_X86_COMMON
  SINTER_DETAIL_LANE_X86_SSE_AVX(_mm256)
  // vblendvps, which reads each lane's sign bit (the mask's), for exp's
  // scaling and tanh's select alike.
  static SINTER_DETAIL_LANE_OP V blend(U m, V a, V b) { return _mm256_blendv_ps(b, a, reinterpret_cast<__m256>(m)); }
  static SINTER_DETAIL_LANE_OP V select_lt(V a, V b, V x, V y) { return blend(lt(a, b), x, y); }
};
/// The float kernels on eight floats of AVX.
using lane_avx = exp_f32_kernels<lane_avx_ops>;
#endif

#if defined(__AVX512F__)
/// Sixteen floats of AVX-512F.
struct lane_avx512_ops {
  using V = __v16sf;
  using U = __v16su;
  static constexpr bool fused = true;
  SINTER_DETAIL_LANE_X86_COMMON
  static SINTER_DETAIL_LANE_OP V vmax(V lo, V x) { return _mm512_mask_max_ps(lo, __mmask16(0xffff), lo, x); }
  static SINTER_DETAIL_LANE_OP V vmin(V hi, V x) { return _mm512_mask_min_ps(hi, __mmask16(0xffff), hi, x); }
  static SINTER_DETAIL_LANE_OP V fma(V a, V b, V x) { return _mm512_fmadd_ps(a, b, x); }
  SINTER_DETAIL_LANE_X86_BITWISE_BLEND
  // One compare into a mask register and a masked blend. blend(lt(a, b), ...)
  // with blend a masked blend under a test of the mask vector cost one more
  // instruction here: GCC 12 does not fold the vector back into the compare.
  static SINTER_DETAIL_LANE_OP V select_lt(V a, V b, V x, V y) {
    return _mm512_mask_blend_ps(_mm512_mask_cmp_ps_mask(__mmask16(0xffff), a, b, _CMP_LT_OQ), y, x);
  }
  // p 2^k in one rounding with gradual underflow, as exp_f_scale rounds it.
  static SINTER_DETAIL_LANE_OP V exp_scale(V p, V kt, V xc) {
    static_cast<void>(xc);
    return _mm512_mask_scalef_ps(p, __mmask16(0xffff), p, kt - 0x1.8p23f);
  }
};
/// The float kernels on sixteen floats of AVX-512F.
using lane_avx512 = exp_f32_kernels<lane_avx512_ops>;

/// 32 floats as a pair of AVX-512F vectors, for policy/host/simd.hpp's
/// loop, which steps by two vectors through trees of float exp, tanh and
/// arithmetic: every operation runs on both vectors in turn, so two
/// independent dependency chains sit side by side in the instruction
/// stream (as kernels_f64.hpp's lane_avx512_d2).
struct lane_avx512_f2_ops {
  using one = lane_avx512_ops;
  static constexpr bool fused = true;
  SINTER_DETAIL_LANE_PAIR(float, __v16sf, __v16su)
  static SINTER_DETAIL_LANE_OP U lt(V x, V y) { return {one::lt(x.a, y.a), one::lt(x.b, y.b)}; }
  static SINTER_DETAIL_LANE_OP V blend(U m, V x, V y) { return {one::blend(m.a, x.a, y.a), one::blend(m.b, x.b, y.b)}; }
  static SINTER_DETAIL_LANE_OP V vmax(V lo, V x) { return {one::vmax(lo.a, x.a), one::vmax(lo.b, x.b)}; }
  static SINTER_DETAIL_LANE_OP V vmin(V hi, V x) { return {one::vmin(hi.a, x.a), one::vmin(hi.b, x.b)}; }
  static SINTER_DETAIL_LANE_OP V fma(V x, V y, V z) { return {one::fma(x.a, y.a, z.a), one::fma(x.b, y.b, z.b)}; }
  static SINTER_DETAIL_LANE_OP V select_lt(V p, V q, V x, V y) {
    return {one::select_lt(p.a, q.a, x.a, y.a), one::select_lt(p.b, q.b, x.b, y.b)};
  }
  static SINTER_DETAIL_LANE_OP V exp_scale(V p, V kt, V xc) {
    return {one::exp_scale(p.a, kt.a, xc.a), one::exp_scale(p.b, kt.b, xc.b)};
  }
};
/// The float kernels on pairs of AVX-512F vectors.
using lane_avx512_f2 = exp_f32_kernels<lane_avx512_f2_ops>;
#endif
#undef SINTER_DETAIL_LANE_X86_SSE_AVX
#undef SINTER_DETAIL_LANE_X86_FMA
#undef SINTER_DETAIL_LANE_X86_COMMON
#undef SINTER_DETAIL_LANE_X86_BITWISE_BLEND

}  // namespace sinter::detail::math::impl

// b = SSE2, c = AVX, d = AVX2, e = AVX-512; lanes = vector bytes / element bytes.
SINTER_DETAIL_HW_EXP(sinter_detail_expf_b, "_ZGVbN4v_sinter_detail_expf", "sse2", __m128,
                     sinter::detail::math::impl::lane_sse2::exp_f(x))
#if defined(__AVX__)
SINTER_DETAIL_HW_EXP(sinter_detail_expf_c, "_ZGVcN8v_sinter_detail_expf", "avx", __m256,
                     sinter::detail::math::impl::lane_avx::exp_f(x))
#else
SINTER_DETAIL_HW_EXP_PARTS(sinter_detail_expf_c, "_ZGVcN8v_sinter_detail_expf", "avx", __m256)
#endif
#if defined(__AVX2__)
SINTER_DETAIL_HW_EXP(sinter_detail_expf_d, "_ZGVdN8v_sinter_detail_expf", "avx2", __m256,
                     sinter::detail::math::impl::lane_avx::exp_f(x))
#else
SINTER_DETAIL_HW_EXP_PARTS(sinter_detail_expf_d, "_ZGVdN8v_sinter_detail_expf", "avx2", __m256)
#endif
#if defined(__AVX512F__)
SINTER_DETAIL_HW_EXP(sinter_detail_expf_e, "_ZGVeN16v_sinter_detail_expf", "avx512f", __m512,
                     sinter::detail::math::impl::lane_avx512::exp_f(x))
#else
SINTER_DETAIL_HW_EXP_PARTS(sinter_detail_expf_e, "_ZGVeN16v_sinter_detail_expf", "avx512f", __m512)
#endif
// The scalar function: the kernel on one float.
SINTER_DETAIL_HW_EXP(sinter_detail_expf_1, "sinter_detail_expf", "sse2", float,
                     sinter::detail::math::impl::lane_f32::exp_f(x))
#undef SINTER_DETAIL_HW_EXP_PARTS
#undef SINTER_DETAIL_HW_EXP

#endif  // SINTER_HW_EXP
