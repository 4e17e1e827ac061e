#pragma once
/// \file policy/host/simd_ops.hpp
/// The explicit vector loop's vectors (policy/host/simd.hpp) and each op's
/// vector form on them, as the op's traits declare it (core/op_traits.hpp):
/// its own apply, the sign bit cleared, the square-root instruction, or the
/// lane kernel named in its row of SINTER_DETAIL_LANE_KERNEL_OPS
/// (core/ops.hpp). Every form gives the scalar functor's bits on each lane.
#include <cstdint>
#include <type_traits>
#if defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

#include "../../core/math/kernels_f64.hpp"
#include "../../core/math/hw_exp.hpp"
#include "../../core/op_traits.hpp"
#include "../../core/ops.hpp"
#include "../../core/twin_nodes.hpp"

/// SINTER_HOST_SIMD is 1 where host passes may take the explicit vector
/// loop: GCC on x86-64 host code (SINTER_HW_EXP) built for AVX-512F, or for
/// AVX2 with FMA. Define it to 0 before including sinter to keep GCC's loop
/// everywhere.
#ifndef SINTER_HOST_SIMD
#if SINTER_HW_EXP && (defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__)))
#define SINTER_HOST_SIMD 1
#else
#define SINTER_HOST_SIMD 0
#endif
#endif

namespace sinter::detail::simd {

#if SINTER_HOST_SIMD
#if defined(__AVX512F__)
/// Bytes per vector of the explicit loop.
inline constexpr int vector_bytes = 64;
using lanes_f = math::impl::lane_avx512;
#else
inline constexpr int vector_bytes = 32;
using lanes_f = math::impl::lane_avx;
#endif

/// Elements of T per vector.
template <class T>
inline constexpr index_t width = vector_bytes / static_cast<index_t>(sizeof(T));

/// A vector of T (float, double, or their bits), GCC's vector extension
/// (the attribute needs a non-dependent type: one specialisation each).
template <class T>
struct vec_of;
template <>
struct vec_of<float> {
  typedef float type __attribute__((vector_size(vector_bytes)));
};
template <>
struct vec_of<double> {
  typedef double type __attribute__((vector_size(vector_bytes)));
};
template <>
struct vec_of<std::uint32_t> {
  typedef std::uint32_t type __attribute__((vector_size(vector_bytes)));
};
template <>
struct vec_of<std::uint64_t> {
  typedef std::uint64_t type __attribute__((vector_size(vector_bytes)));
};
template <class T>
using vec = typename vec_of<T>::type;

/// Two vectors of T, elements i .. i + 2 width<T> - 1: the loop's step
/// where every node of the tree takes pairs (`pairs` below).
template <class T>
struct pair {
  vec<T> a, b;
};

/// Whether the loop steps by pairs of vectors: on AVX-512, where float and
/// double exp and tanh have pair lanes (hw_exp.hpp's lane_avx512_f2,
/// kernels_f64.hpp's lane_avx512_d2).
inline constexpr bool pair_steps = vector_bytes == 64;

/// The vector form of a functor F on operands of type T, as its traits
/// declare it (core/op_traits.hpp): `ok`, and `apply` on vectors, giving the
/// scalar functor's bits on every lane. `call` says whether the scalar loop
/// calls a vector variant for it (what the explicit loop is for); `pairs`
/// whether it runs on pairs (apply2: its own `apply_pair`, else `apply` on
/// each vector of the pair). Form none, and a lane kernel that has no lanes
/// in this build: no vector form.
template <class F, class T, vector_form Form = op_traits<F>::vector>
struct op_form {
  static_assert(Form != vector_form::lane_kernel || ops::lane_kernel_row_v<F>,
                "sinter: an op declares a lane-kernel vector form without a row; "
                "add its row to SINTER_DETAIL_LANE_KERNEL_OPS (core/ops.hpp)");
  static constexpr bool ok = false;
  static constexpr bool call = false;
  static constexpr bool pairs = false;
};
template <class F, class T>
struct op : op_form<F, T> {};

/// F on pairs of vectors.
template <class F, class T, class... P>
SINTER_FORCEINLINE pair<T> apply2(P... p) {
  if constexpr (requires { op<F, T>::apply_pair(p...); }) return op<F, T>::apply_pair(p...);
  else return {op<F, T>::apply(p.a...), op<F, T>::apply(p.b...)};
}

/// The op table's own `apply`, on vectors: written with operators (and, for
/// minimum and maximum, a select) that GCC's vectors have too.
template <class F, class T>
struct op_form<F, T, vector_form::apply> {
  static constexpr bool ok = true;
  static constexpr bool call = false;
  static constexpr bool pairs = op_traits<F>::vector_pairs;
  template <class... V>
  static SINTER_FORCEINLINE vec<T> apply(V... v) {
    return F::apply(v...);
  }
};

/// abs clears the sign bit, as ops::abs does.
template <class F, class T>
struct op_form<F, T, vector_form::clear_sign> {
  static constexpr bool ok = true;
  static constexpr bool call = false;
  static constexpr bool pairs = op_traits<F>::vector_pairs;
  using bits_t = math::uint_of_t<T>;
  using ivec = vec<bits_t>;
  static SINTER_FORCEINLINE vec<T> apply(vec<T> a) {
    return reinterpret_cast<vec<T>>(reinterpret_cast<ivec>(a) & ~(bits_t(1) << (sizeof(T) * 8 - 1)));
  }
};

/// sqrt: the correctly rounded instruction, as the scalar sqrt.
template <class F, class T>
struct op_form<F, T, vector_form::sqrt_instruction> {
  static constexpr bool ok = true;
  static constexpr bool call = true;
  static constexpr bool pairs = op_traits<F>::vector_pairs;
  static SINTER_FORCEINLINE vec<T> apply(vec<T> a) {
#if defined(__AVX512F__)
    // The masked forms with every lane on (GCC 12's unmasked ones read an
    // undefined vector and trip -Wmaybe-uninitialized).
    if constexpr (std::is_same_v<T, float>) return _mm512_mask_sqrt_ps(a, static_cast<__mmask16>(0xffff), a);
    else return _mm512_mask_sqrt_pd(a, static_cast<__mmask8>(0xff), a);
#else
    if constexpr (std::is_same_v<T, float>) return _mm256_sqrt_ps(a);
    else return _mm256_sqrt_pd(a);
#endif
  }
};

/// A maths function F of T whose vector form is the expression `...` of
/// the operand vector `a` (a lane kernel, inlined).
#define SINTER_DETAIL_SIMD_OP_KERNEL(F, T, ...)                              \
  template <>                                                               \
  struct op<ops::F, T> {                                                    \
    static constexpr bool ok = true;                                        \
    static constexpr bool call = true;                                      \
    static constexpr bool pairs = false;                                    \
    static SINTER_FORCEINLINE vec<T> apply(vec<T> a) { return __VA_ARGS__; } \
  };

/// On AVX-512, a maths function F of T that also runs on pairs of vectors:
/// `one::kernel` on a vector, `two::kernel` (a pair lane) on a pair. Only
/// kernels none of whose sums adds two products pair: GCC contracts
/// `a * b + c` into an fma by default, and where a sum has two products it
/// may fuse either, and not the same one in the pair's code as in the
/// scalar loop's (a pair loop through the double log, acosh and erf
/// differed from the scalar functions in the last bit so).
#if defined(__AVX512F__)
#define SINTER_DETAIL_SIMD_OP_PAIR(F, T, one, two, kernel)                      \
  template <>                                                                   \
  struct op<ops::F, T> {                                                        \
    static constexpr bool ok = true;                                            \
    static constexpr bool call = true;                                          \
    static constexpr bool pairs = true;                                         \
    static SINTER_FORCEINLINE vec<T> apply(vec<T> a) { return one::kernel(a); } \
    static SINTER_FORCEINLINE pair<T> apply_pair(pair<T> p) {                   \
      const auto r = math::impl::two::kernel({p.a, p.b});                       \
      return {r.a, r.b};                                                        \
    }                                                                           \
  };
#else
#define SINTER_DETAIL_SIMD_OP_PAIR(F, T, one, two, kernel) SINTER_DETAIL_SIMD_OP_KERNEL(F, T, one::kernel(a))
#endif

/// The lane kernels, from the rows of the op table
/// (SINTER_DETAIL_LANE_KERNEL_OPS, core/ops.hpp): X(op, float kernel, float
/// lanes, double kernel, pairs). A row's `pairs` or `single` picks the
/// macro above or the one-vector form.
#define SINTER_DETAIL_SIMD_OP_pairs SINTER_DETAIL_SIMD_OP_PAIR
#define SINTER_DETAIL_SIMD_OP_single(F, T, one, two, kernel) SINTER_DETAIL_SIMD_OP_KERNEL(F, T, one::kernel(a))

/// Float's own kernels (f32 rows: exp and tanh, exp_f32.hpp, every product
/// that may fuse an explicit fma), on pairs too.
#define SINTER_DETAIL_SIMD_F32_ROW_f32(F, kernel, pairs) \
  SINTER_DETAIL_SIMD_OP_##pairs(F, float, lanes_f, lane_avx512_f2, kernel)
#define SINTER_DETAIL_SIMD_F32_ROW_f64(F, kernel, pairs)
#define SINTER_DETAIL_SIMD_F32_ROW(F, fk, fl, dk, pairs) SINTER_DETAIL_SIMD_F32_ROW_##fl(F, fk, pairs)
SINTER_DETAIL_LANE_KERNEL_OPS(SINTER_DETAIL_SIMD_F32_ROW)
#undef SINTER_DETAIL_SIMD_F32_ROW
#undef SINTER_DETAIL_SIMD_F32_ROW_f64
#undef SINTER_DETAIL_SIMD_F32_ROW_f32

#if SINTER_DETAIL_LANE_AVX512_D || SINTER_DETAIL_LANE_AVX2_D
#if SINTER_DETAIL_LANE_AVX512_D
using lanes_d = math::impl::lane_avx512_d;
#else
using lanes_d = math::impl::lane_avx2_d;
#endif
/// The exponentials, logarithms, hyperbolic functions and erf/erfc of
/// double: the lane kernels of exp_f64.hpp and log_erf_f64.hpp (every
/// double function of exp_log.hpp and erf/erfc). Not calls in the scalar
/// loop (GCC inlines the double kernels and vectorises them), but a third
/// more instructions there (kernels_f64.hpp).
/// The `pairs` rows (exp and tanh) run on pairs too (lane_avx512_d2): no
/// sum of two products in their kernels.
#define SINTER_DETAIL_SIMD_F64_ROW(F, fk, fl, dk, pairs) \
  SINTER_DETAIL_SIMD_OP_##pairs(F, double, lanes_d, lane_avx512_d2, dk)
SINTER_DETAIL_LANE_KERNEL_OPS(SINTER_DETAIL_SIMD_F64_ROW)
#undef SINTER_DETAIL_SIMD_F64_ROW

/// A float function that computes in double and rounds once, on a float
/// vector: each half widened to a double vector (exactly), the double lane
/// kernel on both, and each result rounded to float as the scalar
/// function's static_cast rounds it (`vcvtpd2ps`, the current rounding
/// mode). The low and the high half as doubles, and the two rounded back:
#if SINTER_DETAIL_LANE_AVX512_D
// Conversions by the masked forms with every lane on (GCC 12's unmasked
// ones read an undefined vector and trip -Wmaybe-uninitialized), halves by
// vector shuffles.
SINTER_FORCEINLINE __m512d widen_f64(__v8sf h) {
  return _mm512_mask_cvtps_pd(_mm512_setzero_pd(), static_cast<__mmask8>(0xff), h);
}
SINTER_FORCEINLINE __v8sf narrow_f32(__m512d d) {
  return _mm512_mask_cvtpd_ps(_mm256_setzero_ps(), static_cast<__mmask8>(0xff), d);
}
SINTER_FORCEINLINE __m512d low_f64(vec<float> a) {
  return widen_f64(__builtin_shufflevector(a, a, 0, 1, 2, 3, 4, 5, 6, 7));
}
SINTER_FORCEINLINE __m512d high_f64(vec<float> a) {
  return widen_f64(__builtin_shufflevector(a, a, 8, 9, 10, 11, 12, 13, 14, 15));
}
SINTER_FORCEINLINE vec<float> join_f32(__m512d lo, __m512d hi) {
  return __builtin_shufflevector(narrow_f32(lo), narrow_f32(hi), 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}
// Both halves as one pair of vectors (lane_avx512_d2: the two halves'
// operations interleaved; docs/journal/code-notes.md#lane-pairs).
SINTER_FORCEINLINE math::impl::lane_avx512_d2::V pair_f64(vec<float> a) { return {low_f64(a), high_f64(a)}; }
SINTER_FORCEINLINE vec<float> join_f32(math::impl::lane_avx512_d2::V r) { return join_f32(r.a, r.b); }
#define SINTER_DETAIL_SIMD_F32_VIA_F64(kernel, a) join_f32(math::impl::lane_avx512_d2::kernel(pair_f64(a)))
#else
SINTER_FORCEINLINE __m256d low_f64(vec<float> a) { return _mm256_cvtps_pd(_mm256_castps256_ps128(a)); }
SINTER_FORCEINLINE __m256d high_f64(vec<float> a) { return _mm256_cvtps_pd(_mm256_extractf128_ps(a, 1)); }
SINTER_FORCEINLINE vec<float> join_f32(__m256d lo, __m256d hi) {
  return _mm256_set_m128(_mm256_cvtpd_ps(hi), _mm256_cvtpd_ps(lo));
}
#define SINTER_DETAIL_SIMD_F32_VIA_F64(kernel, a) join_f32(lanes_d::kernel(low_f64(a)), lanes_d::kernel(high_f64(a)))
#endif

/// The float functions that compute in double: the double kernels of
/// exp_log.hpp (exp2, expm1, log1p and the hyperbolic functions but tanh)
/// and float's own kernels of log_erf_f32.hpp (log, log2, log10, erf,
/// erfc). Same bits as the scalar functions, which GCC vectorises with the
/// double kernel's masks read from sign bits (kernels_f64.hpp).
/// (the f64 rows; a widened row runs on one vector at a time: `single`).
#define SINTER_DETAIL_SIMD_WIDE_ROW_f32(F, kernel, pairs)
#define SINTER_DETAIL_SIMD_WIDE_ROW_f64(F, kernel, pairs)                            \
  static_assert(!SINTER_DETAIL_SIMD_PAIRS_##pairs, "sinter: a widened float kernel pairs"); \
  SINTER_DETAIL_SIMD_OP_KERNEL(F, float, SINTER_DETAIL_SIMD_F32_VIA_F64(kernel, a))
#define SINTER_DETAIL_SIMD_PAIRS_pairs true
#define SINTER_DETAIL_SIMD_PAIRS_single false
#define SINTER_DETAIL_SIMD_WIDE_ROW(F, fk, fl, dk, pairs) SINTER_DETAIL_SIMD_WIDE_ROW_##fl(F, fk, pairs)
SINTER_DETAIL_LANE_KERNEL_OPS(SINTER_DETAIL_SIMD_WIDE_ROW)
#undef SINTER_DETAIL_SIMD_WIDE_ROW
#undef SINTER_DETAIL_SIMD_PAIRS_single
#undef SINTER_DETAIL_SIMD_PAIRS_pairs
#undef SINTER_DETAIL_SIMD_WIDE_ROW_f64
#undef SINTER_DETAIL_SIMD_WIDE_ROW_f32
#undef SINTER_DETAIL_SIMD_F32_VIA_F64
#endif
#undef SINTER_DETAIL_SIMD_OP_single
#undef SINTER_DETAIL_SIMD_OP_pairs
#undef SINTER_DETAIL_SIMD_OP_PAIR
#undef SINTER_DETAIL_SIMD_OP_KERNEL

/// A merged twin pair f(x, x) (twin_nodes.hpp).
template <class F, class T>
struct op<twin_fn<F>, T> {
  static constexpr bool ok = op<F, T>::ok;
  static constexpr bool call = op<F, T>::call;
  static constexpr bool pairs = op<F, T>::pairs;
  static SINTER_FORCEINLINE vec<T> apply(vec<T> a) { return op<F, T>::apply(a, a); }
  static SINTER_FORCEINLINE pair<T> apply_pair(pair<T> p) { return apply2<F, T>(p, p); }
};

#endif

}  // namespace sinter::detail::simd
