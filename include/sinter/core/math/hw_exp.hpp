#pragma once
/// \file hw_exp.hpp
/// exp for float in GCC's vectorised host loops on x86-64, as vector
/// functions written for each ISA (the way hw_sqrt.hpp gives sqrt).
///
/// Written in scalar code, the float exp kernel (exp_f32.inl) vectorises,
/// but GCC cannot express two of its steps with the instructions made for
/// them: a clamp that lets NaN through is a compare and a blend (not
/// `vminps`/`vmaxps`, which GCC emits only under -ffinite-math-only), and
/// the scaling by 2^k with gradual underflow is two products and two blends
/// (not AVX-512's `vscalefps`). So, with GCC on x86-64, the public float exp
/// calls an extern "C" function declared `simd("notinbranch")` without a
/// body, and this header defines its vector variants under the x86-64 vector
/// function ABI names (_ZGV{b,c,d,e}N<lanes>v_<name>): the kernel of
/// exp_f32.inl, included once per ISA (SSE2, AVX, AVX-512; AVX2 takes
/// AVX's) inside a `#pragma GCC target` region, on a lane type whose
/// min/max/fma/scaling are those instructions. Each variant gives the bits
/// of the scalar kernel wherever the vectoriser can call it
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

/// Defines `name` under the assembler name `label` for ISA `isa`.
#define SINTER_DETAIL_HW_EXP(name, label, isa, type, body)                             \
  extern "C" inline __attribute__((used, target(isa))) type name(type x) asm(label); \
  extern "C" inline type name(type x) { return body; }

// Each ISA's lane type, in a region compiled for that ISA, so that every
// function taking or returning its vectors is built with it (no -Wpsabi
// warning about their calling convention) and may use its intrinsics.
// minps/maxps return their second operand when either is NaN, as vmax/vmin
// must. The AVX-512 intrinsics are the masked forms with every lane on
// (GCC 12's unmasked ones read an undefined vector and trip -Wuninitialized).
// SINTER_DETAIL_LANE_FMA says whether the kernels fuse (exp_f32.inl):
// as the scalar kernel does for SSE2 and AVX (FMA3, added to the region's
// target where the translation unit has FMA; every CPU with AVX-512F has
// FMA3 too), always for AVX-512, whose variant only code built for AVX-512
// calls, where the scalar kernel fuses as well.

/// The lane-type members every x86 vector shares: a constant (x - 0 keeps
/// -0), bits and back, and the mask of a < b (all ones or all zeros per
/// lane). blend under such a mask is each ISA's own.
#define SINTER_DETAIL_LANE_X86_COMMON                                                  \
  SINTER_DETAIL_LANE_FN V c(float x) { return x - V{}; }                               \
  SINTER_DETAIL_LANE_FN U bits(V x) { return reinterpret_cast<U>(x); }                 \
  SINTER_DETAIL_LANE_FN V from(U u) { return reinterpret_cast<V>(u); }                 \
  SINTER_DETAIL_LANE_FN U lt(V a, V b) { return reinterpret_cast<U>(a < b); }
/// The bitwise blend: and, andnot, or (SSE2 has no blend instruction).
#define SINTER_DETAIL_LANE_X86_BITWISE_BLEND \
  SINTER_DETAIL_LANE_FN V blend(U m, V a, V b) { return from((bits(a) & m) | (bits(b) & ~m)); }
/// min, max and fma of the SSE and AVX vectors (`pfx` is _mm or _mm256),
/// fusing where the scalar kernel does (SINTER_DETAIL_HOST_FMA).
#if SINTER_DETAIL_HOST_FMA
#define SINTER_DETAIL_LANE_X86_FMA(pfx) pfx##_fmadd_ps(a, b, x)
#else
#define SINTER_DETAIL_LANE_X86_FMA(pfx) a * b + x
#endif
#define SINTER_DETAIL_LANE_X86_SSE_AVX(pfx)                                          \
  SINTER_DETAIL_LANE_FN V vmax(V lo, V x) { return pfx##_max_ps(lo, x); }            \
  SINTER_DETAIL_LANE_FN V vmin(V hi, V x) { return pfx##_min_ps(hi, x); }            \
  SINTER_DETAIL_LANE_FN V fma(V a, V b, V x) { return SINTER_DETAIL_LANE_X86_FMA(pfx); } \
  SINTER_DETAIL_LANE_FN V exp_scale(V p, V kt, V xc);
#define SINTER_DETAIL_LANE_FN SINTER_DETAIL_LANE_INLINE
#define SINTER_DETAIL_LANE_FMA SINTER_DETAIL_HOST_FMA

#pragma GCC push_options
#pragma GCC target("sse2")
#if SINTER_DETAIL_HOST_FMA
#pragma GCC target("fma")
#endif
namespace sinter::detail::math::impl::lane_sse2 {
using V = __v4sf;
using U = __v4su;
SINTER_DETAIL_LANE_X86_COMMON
SINTER_DETAIL_LANE_X86_SSE_AVX(_mm)
SINTER_DETAIL_LANE_X86_BITWISE_BLEND
SINTER_DETAIL_LANE_FN V select_lt(V a, V b, V x, V y) { return blend(lt(a, b), x, y); }
#include "exp_f32.inl"
SINTER_DETAIL_LANE_FN V exp_scale(V p, V kt, V xc) { return exp_f_scale(p, kt, xc); }
}  // namespace sinter::detail::math::impl::lane_sse2
SINTER_DETAIL_HW_EXP(sinter_detail_expf_b, "_ZGVbN4v_sinter_detail_expf", "sse2", __m128,
                     sinter::detail::math::impl::lane_sse2::exp_f(x))
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx")
#if SINTER_DETAIL_HOST_FMA
#pragma GCC target("fma")
#endif
namespace sinter::detail::math::impl::lane_avx {
using V = __v8sf;
using U = __v8su;
SINTER_DETAIL_LANE_X86_COMMON
SINTER_DETAIL_LANE_X86_SSE_AVX(_mm256)
// vblendvps, which reads each lane's sign bit (the mask's), for exp's
// scaling and tanh's select alike.
SINTER_DETAIL_LANE_FN V blend(U m, V a, V b) { return _mm256_blendv_ps(b, a, reinterpret_cast<__m256>(m)); }
SINTER_DETAIL_LANE_FN V select_lt(V a, V b, V x, V y) { return blend(lt(a, b), x, y); }
#include "exp_f32.inl"
SINTER_DETAIL_LANE_FN V exp_scale(V p, V kt, V xc) { return exp_f_scale(p, kt, xc); }
}  // namespace sinter::detail::math::impl::lane_avx
// AVX2 adds nothing these kernels use: its variants are AVX's.
SINTER_DETAIL_HW_EXP(sinter_detail_expf_c, "_ZGVcN8v_sinter_detail_expf", "avx", __m256,
                     sinter::detail::math::impl::lane_avx::exp_f(x))
SINTER_DETAIL_HW_EXP(sinter_detail_expf_d, "_ZGVdN8v_sinter_detail_expf", "avx2", __m256,
                     sinter::detail::math::impl::lane_avx::exp_f(x))
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f")
namespace sinter::detail::math::impl::lane_avx512 {
using V = __v16sf;
using U = __v16su;
SINTER_DETAIL_LANE_X86_COMMON
SINTER_DETAIL_LANE_FN V vmax(V lo, V x) { return _mm512_mask_max_ps(lo, __mmask16(0xffff), lo, x); }
SINTER_DETAIL_LANE_FN V vmin(V hi, V x) { return _mm512_mask_min_ps(hi, __mmask16(0xffff), hi, x); }
#undef SINTER_DETAIL_LANE_FMA
#define SINTER_DETAIL_LANE_FMA 1
SINTER_DETAIL_LANE_FN V fma(V a, V b, V x) { return _mm512_fmadd_ps(a, b, x); }
SINTER_DETAIL_LANE_X86_BITWISE_BLEND
// One compare into a mask register and a masked blend. blend(lt(a, b), ...)
// with blend a masked blend under a test of the mask vector cost one more
// instruction here: GCC 12 does not fold the vector back into the compare.
SINTER_DETAIL_LANE_FN V select_lt(V a, V b, V x, V y) {
  return _mm512_mask_blend_ps(_mm512_mask_cmp_ps_mask(__mmask16(0xffff), a, b, _CMP_LT_OQ), y, x);
}
SINTER_DETAIL_LANE_FN V exp_scale(V p, V kt, V xc);
#include "exp_f32.inl"
// p 2^k in one rounding with gradual underflow, as exp_f_scale rounds it.
SINTER_DETAIL_LANE_FN V exp_scale(V p, V kt, V xc) {
  static_cast<void>(xc);
  return _mm512_mask_scalef_ps(p, __mmask16(0xffff), p, kt - 0x1.8p23f);
}
}  // namespace sinter::detail::math::impl::lane_avx512
SINTER_DETAIL_HW_EXP(sinter_detail_expf_e, "_ZGVeN16v_sinter_detail_expf", "avx512f", __m512,
                     sinter::detail::math::impl::lane_avx512::exp_f(x))
#pragma GCC pop_options

#if defined(__AVX512F__)
/// The float kernels on 32 floats as a pair of AVX-512F vectors, for
/// policy/host/simd.hpp's loop, which steps by two vectors through trees of
/// float exp, tanh and arithmetic: every operation runs on both vectors in
/// turn, so two independent dependency chains sit side by side in the
/// instruction stream (as kernels_f64.hpp's lane_avx512_d2). Defined only
/// where the translation unit is built for AVX-512F (the loop's ISA).
namespace sinter::detail::math::impl::lane_avx512_f2 {
namespace one = lane_avx512;
#define SINTER_DETAIL_LANE_FN SINTER_DETAIL_LANE_INLINE
SINTER_DETAIL_LANE_PAIR(float, __v16sf, __v16su)
SINTER_DETAIL_LANE_FN U lt(V x, V y) { return {one::lt(x.a, y.a), one::lt(x.b, y.b)}; }
SINTER_DETAIL_LANE_FN V blend(U m, V x, V y) { return {one::blend(m.a, x.a, y.a), one::blend(m.b, x.b, y.b)}; }
SINTER_DETAIL_LANE_FN V vmax(V lo, V x) { return {one::vmax(lo.a, x.a), one::vmax(lo.b, x.b)}; }
SINTER_DETAIL_LANE_FN V vmin(V hi, V x) { return {one::vmin(hi.a, x.a), one::vmin(hi.b, x.b)}; }
SINTER_DETAIL_LANE_FN V fma(V x, V y, V z) { return {one::fma(x.a, y.a, z.a), one::fma(x.b, y.b, z.b)}; }
SINTER_DETAIL_LANE_FN V select_lt(V p, V q, V x, V y) {
  return {one::select_lt(p.a, q.a, x.a, y.a), one::select_lt(p.b, q.b, x.b, y.b)};
}
SINTER_DETAIL_LANE_FN V exp_scale(V p, V kt, V xc) {
  return {one::exp_scale(p.a, kt.a, xc.a), one::exp_scale(p.b, kt.b, xc.b)};
}
#define SINTER_DETAIL_LANE_FMA 1
#include "exp_f32.inl"
#undef SINTER_DETAIL_LANE_FMA
#undef SINTER_DETAIL_LANE_FN
}  // namespace sinter::detail::math::impl::lane_avx512_f2
#endif
#undef SINTER_DETAIL_LANE_FMA
#undef SINTER_DETAIL_LANE_FN
#undef SINTER_DETAIL_LANE_X86_SSE_AVX
#undef SINTER_DETAIL_LANE_X86_FMA
#undef SINTER_DETAIL_LANE_X86_COMMON
#undef SINTER_DETAIL_LANE_X86_BITWISE_BLEND

// The scalar function: the kernel on one float.
SINTER_DETAIL_HW_EXP(sinter_detail_expf_1, "sinter_detail_expf", "sse2", float,
                     sinter::detail::math::impl::lane_f32::exp_f(x))
#undef SINTER_DETAIL_HW_EXP

#endif  // SINTER_HW_EXP
