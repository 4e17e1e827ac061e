#pragma once
/// \file hw_sqrt.hpp
/// The hardware square root in GCC's vectorised host loops on x86-64.
///
/// Under default flags (-fmath-errno) GCC keeps an errno path around every
/// `sqrt` call and will not vectorise a loop that contains one; the
/// arithmetic, correctly rounded sqrt in sqrt_round.hpp vectorises but costs
/// ~65 instructions per vector (4x Eigen's `vsqrtps`, docs/math.md). So,
/// with GCC on x86-64, sqrt goes through two extern "C" functions declared
/// `simd("notinbranch")` without a body: the vectoriser then calls their
/// vector variants by the x86-64 vector function ABI names
/// (_ZGV{b,c,d,e}N<lanes>v_<name>, as for glibc's libmvec), and this header
/// defines each of them (and the scalar one) under that name with the
/// instruction of its ISA. `sqrtps`/`sqrtpd` are correctly rounded (IEEE 754),
/// set no errno, give sqrt(-0) == -0 and NaN for x < 0: the same results as
/// the arithmetic version. The definitions are inline (one copy per program)
/// and marked `used`, since the vectoriser's calls appear after GCC has
/// decided which inline functions to emit.
///
/// SINTER_HW_SQRT is 1 where this applies: GCC (not Clang, whose vectoriser
/// does not use `simd` declarations) targeting x86-64, host code (also the
/// host pass of nvcc; device code calls CUDA's sqrtf/sqrt).

#if defined(__GNUC__) && !defined(__clang__) && !defined(__INTEL_LLVM_COMPILER) && \
    defined(__x86_64__) && !defined(__CUDA_ARCH__)
#define SINTER_HW_SQRT 1
#else
#define SINTER_HW_SQRT 0
#endif

#if SINTER_HW_SQRT
#include <immintrin.h>

extern "C" {
/// sqrt(x), correctly rounded, by the hardware instruction; called by
/// sinter::detail::math::sqrt, vector variants defined below.
float sinter_detail_sqrtf(float) __attribute__((simd("notinbranch"), const, nothrow));
/// sqrt(x) for double; see sinter_detail_sqrtf.
double sinter_detail_sqrt(double) __attribute__((simd("notinbranch"), const, nothrow));
}

/// Defines `name` under the assembler name `label` for ISA `isa`.
#define SINTER_DETAIL_HW_SQRT(name, label, isa, type, body)                            \
  extern "C" inline __attribute__((used, target(isa))) type name(type x) asm(label); \
  extern "C" inline type name(type x) { return body; }

// b = SSE2, c = AVX, d = AVX2, e = AVX-512; lanes = vector bytes / element bytes.
SINTER_DETAIL_HW_SQRT(sinter_detail_sqrtf_1, "sinter_detail_sqrtf", "sse2", float,
                      _mm_cvtss_f32(_mm_sqrt_ss(_mm_set_ss(x))))
SINTER_DETAIL_HW_SQRT(sinter_detail_sqrtf_b, "_ZGVbN4v_sinter_detail_sqrtf", "sse2", __m128,
                      _mm_sqrt_ps(x))
SINTER_DETAIL_HW_SQRT(sinter_detail_sqrtf_c, "_ZGVcN8v_sinter_detail_sqrtf", "avx", __m256,
                      _mm256_sqrt_ps(x))
SINTER_DETAIL_HW_SQRT(sinter_detail_sqrtf_d, "_ZGVdN8v_sinter_detail_sqrtf", "avx2", __m256,
                      _mm256_sqrt_ps(x))
// The masked form: GCC 12's _mm512_sqrt_ps trips -Wuninitialized.
SINTER_DETAIL_HW_SQRT(sinter_detail_sqrtf_e, "_ZGVeN16v_sinter_detail_sqrtf", "avx512f", __m512,
                      _mm512_mask_sqrt_ps(x, __mmask16(0xffff), x))
SINTER_DETAIL_HW_SQRT(sinter_detail_sqrt_1, "sinter_detail_sqrt", "sse2", double,
                      _mm_cvtsd_f64(_mm_sqrt_sd(_mm_set_sd(x), _mm_set_sd(x))))
SINTER_DETAIL_HW_SQRT(sinter_detail_sqrt_b, "_ZGVbN2v_sinter_detail_sqrt", "sse2", __m128d,
                      _mm_sqrt_pd(x))
SINTER_DETAIL_HW_SQRT(sinter_detail_sqrt_c, "_ZGVcN4v_sinter_detail_sqrt", "avx", __m256d,
                      _mm256_sqrt_pd(x))
SINTER_DETAIL_HW_SQRT(sinter_detail_sqrt_d, "_ZGVdN4v_sinter_detail_sqrt", "avx2", __m256d,
                      _mm256_sqrt_pd(x))
SINTER_DETAIL_HW_SQRT(sinter_detail_sqrt_e, "_ZGVeN8v_sinter_detail_sqrt", "avx512f", __m512d,
                      _mm512_mask_sqrt_pd(x, __mmask8(0xff), x))

#undef SINTER_DETAIL_HW_SQRT
#endif  // SINTER_HW_SQRT
