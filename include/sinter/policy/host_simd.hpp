#pragma once
/// \file host_simd.hpp
/// An explicit vector loop for contiguous CPU passes that call exp, exp2,
/// expm1, log, log2, log10, log1p, the hyperbolic functions and their
/// inverses, erf, erfc or sqrt, of float or double, on x86-64 with AVX-512F
/// or AVX2 + FMA (GCC, host code).
///
/// store_range's ordinary loop is written in scalar code that GCC
/// vectorises. Each of those maths functions then becomes a call, per
/// vector, to its vector variant (hw_exp.hpp, hw_sqrt.hpp, GCC's SIMD
/// clones): the call keeps the kernel out of the loop, so its constants are
/// reloaded on every call and every live vector of the loop is spilled
/// around it (the vector ABI saves no vector register), which costs more
/// than the kernel's arithmetic (docs/journal/code-notes.md#explicit-vector-loop).
/// Those double functions are no calls there (GCC inlines and vectorises
/// them), but GCC's vectors of them take a third more
/// instructions than the kernels written on vectors (kernels_f64.hpp).
///
/// Here the cursor tree is evaluated on whole vectors instead, with GCC's
/// vector extensions: a memory leaf is one unaligned vector load, a scalar
/// a broadcast, a map node its functor's vector form (below), and the
/// maths functions the lane kernels of exp_f32.inl (float) and of
/// exp_f64.inl, log_erf_f64.inl and log_erf_f32.inl (double, and the float
/// functions computed in double, on each half of a float vector widened)
/// on the ISA's vectors, inlined.
/// The last partial vector is loaded and stored under a mask: no scalar
/// loop. On AVX-512 a tree whose every node runs on pairs of vectors
/// (arithmetic, abs, sqrt, minimum, maximum, exp, tanh) steps by two
/// vectors, each operation on both in turn (exp and tanh on the pair lanes
/// lane_avx512_f2 of hw_exp.hpp and lane_avx512_d2 of kernels_f64.hpp):
/// two independent dependency chains side by side, faster in float and
/// double (docs/journal/code-notes.md#explicit-vector-loop). Trees with
/// another function step by one vector (below, SINTER_DETAIL_SIMD_OP_PAIR).
/// The values are bitwise those of the scalar loop (the same IEEE
/// operations on every lane; the kernels' vector and scalar lane types give
/// the same bits, tests/core/test_math_hw_exp.cpp and
/// tests/fma/host_simd_cases.hpp).
///
/// It applies only where every node has a vector form: memory leaves of
/// float or double read contiguously, scalars of any arithmetic type
/// converted as the functor converts them, and the ops whose traits declare
/// a vector form (core/op_traits.hpp: add, subtract, multiply, divide,
/// negative, abs, square, minimum, maximum, sqrt and the lane-kernel rows of
/// core/ops.hpp), each with every operand of the result's type; and only
/// where the tree calls sqrt or a lane kernel (elsewhere GCC's loop has no
/// call and is as fast). Every other pass keeps the scalar loop.
#include <cstdint>
#include <cstring>
#include <type_traits>
#if defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

#include "../core/leaf.hpp"
#include "../core/map_node.hpp"
#include "../core/math/kernels_f64.hpp"
#include "../core/math/hw_exp.hpp"
#include "../core/ops.hpp"
#include "../core/twin_nodes.hpp"

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
namespace lanes_f = math::impl::lane_avx512;
#else
inline constexpr int vector_bytes = 32;
namespace lanes_f = math::impl::lane_avx;
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

#if defined(__AVX512F__)
/// The mask of the first n < width<T> lanes.
template <class T>
SINTER_FORCEINLINE auto first_lanes(index_t n) {
  if constexpr (std::is_same_v<T, float>) return static_cast<__mmask16>((1u << n) - 1u);
  else return static_cast<__mmask8>((1u << n) - 1u);
}
#else
template <class T>
SINTER_FORCEINLINE __m256i first_lanes(index_t n) {
  if constexpr (std::is_same_v<T, float>)
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  else return _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), _mm256_setr_epi64x(0, 1, 2, 3));
}
#endif

/// The n < width<T> first elements at p, the others zero (a masked load:
/// nothing past p + n is touched).
template <class T>
SINTER_FORCEINLINE vec<T> load_part(const T* p, index_t n) {
#if defined(__AVX512F__)
  if constexpr (std::is_same_v<T, float>) return _mm512_maskz_loadu_ps(first_lanes<T>(n), p);
  else return _mm512_maskz_loadu_pd(first_lanes<T>(n), p);
#else
  if constexpr (std::is_same_v<T, float>) return _mm256_maskload_ps(p, first_lanes<T>(n));
  else return _mm256_maskload_pd(p, first_lanes<T>(n));
#endif
}

/// Store the n < width<T> first elements of v at p (nothing past p + n).
template <class T>
SINTER_FORCEINLINE void store_part(T* p, vec<T> v, index_t n) {
#if defined(__AVX512F__)
  if constexpr (std::is_same_v<T, float>) _mm512_mask_storeu_ps(p, first_lanes<T>(n), v);
  else _mm512_mask_storeu_pd(p, first_lanes<T>(n), v);
#else
  if constexpr (std::is_same_v<T, float>) _mm256_maskstore_ps(p, first_lanes<T>(n), v);
  else _mm256_maskstore_pd(p, first_lanes<T>(n), v);
#endif
}

/// The first n < width<T> lanes of `yes`, the others of `no`.
template <class T>
SINTER_FORCEINLINE vec<T> select_first(vec<T> yes, vec<T> no, index_t n) {
#if defined(__AVX512F__)
  if constexpr (std::is_same_v<T, float>) return _mm512_mask_mov_ps(no, first_lanes<T>(n), yes);
  else return _mm512_mask_mov_pd(no, first_lanes<T>(n), yes);
#else
  if constexpr (std::is_same_v<T, float>) return _mm256_blendv_ps(no, yes, _mm256_castsi256_ps(first_lanes<T>(n)));
  else return _mm256_blendv_pd(no, yes, _mm256_castsi256_pd(first_lanes<T>(n)));
#endif
}

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

/// Float's own kernels (f32 rows: exp and tanh, exp_f32.inl, every product
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
namespace lanes_d = math::impl::lane_avx512_d;
#else
namespace lanes_d = math::impl::lane_avx2_d;
#endif
/// The exponentials, logarithms, hyperbolic functions and erf/erfc of
/// double: the lane kernels of exp_f64.inl and log_erf_f64.inl (every
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
/// and float's own kernels of log_erf_f32.inl (log, log2, log10, erf,
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

template <class T>
inline constexpr bool lane_type_v = std::is_same_v<T, float> || std::is_same_v<T, double>;

/// How a cursor evaluates on vectors of T: `ok`, `call` (some node is a
/// maths call of the scalar loop), `pairs` (every node runs on pairs), and
/// load(c, i) / load_part(c, i, n) / load2(c, i) (a pair, if `pairs`).
template <class C, class T>
struct eval {
  static constexpr bool ok = false;
  static constexpr bool call = false;
  static constexpr bool pairs = false;
};

/// Contiguous memory of T itself.
template <class U, class T>
  requires std::is_same_v<std::remove_const_t<U>, T>
struct eval<unit_cursor<U>, T> {
  static constexpr bool ok = true;
  static constexpr bool call = false;
  static constexpr bool pairs = true;
  static SINTER_FORCEINLINE vec<T> load(const unit_cursor<U>& c, index_t i) {
    vec<T> v;
    std::memcpy(&v, c.p + i, sizeof v);
    return v;
  }
  static SINTER_FORCEINLINE vec<T> load_part(const unit_cursor<U>& c, index_t i, index_t n) {
    return simd::load_part<T>(c.p + i, n);
  }
  static SINTER_FORCEINLINE pair<T> load2(const unit_cursor<U>& c, index_t i) {
    return {load(c, i), load(c, i + width<T>)};
  }
};

/// A scalar, converted to T as the parent's functor converts its operands
/// (arith and floating compute float and double in their own type).
template <class S, class T>
  requires std::is_arithmetic_v<S>
struct eval<scalar_leaf<S>, T> {
  static constexpr bool ok = true;
  static constexpr bool call = false;
  static constexpr bool pairs = true;
  static SINTER_FORCEINLINE vec<T> load(const scalar_leaf<S>& c, index_t) {
    return vec<T>{} + static_cast<T>(c.value);
  }
  static SINTER_FORCEINLINE vec<T> load_part(const scalar_leaf<S>& c, index_t i, index_t) { return load(c, i); }
  static SINTER_FORCEINLINE pair<T> load2(const scalar_leaf<S>& c, index_t i) { return {load(c, i), load(c, i)}; }
};

/// A map node of result T whose operands all evaluate as T (or are scalars).
template <class F, class... C, class T>
  requires std::is_same_v<decltype(std::declval<const F&>()(std::declval<decltype(std::declval<const C&>().load(0))>()...)), T>
struct eval<map_cursor<F, C...>, T> {
  static constexpr bool ok = op<F, T>::ok && (true && ... && eval<C, T>::ok);
  static constexpr bool call = op<F, T>::call || (false || ... || eval<C, T>::call);
  static constexpr bool pairs = op<F, T>::pairs && (true && ... && eval<C, T>::pairs);
  template <std::size_t... I>
  static SINTER_FORCEINLINE vec<T> load_impl(const map_cursor<F, C...>& c, index_t i, std::index_sequence<I...>) {
    return op<F, T>::apply(eval<C, T>::load(get<I>(c.c), i)...);
  }
  static SINTER_FORCEINLINE vec<T> load(const map_cursor<F, C...>& c, index_t i) {
    return load_impl(c, i, std::index_sequence_for<C...>{});
  }
  template <std::size_t... I>
  static SINTER_FORCEINLINE vec<T> part_impl(const map_cursor<F, C...>& c, index_t i, index_t n,
                                             std::index_sequence<I...>) {
    return op<F, T>::apply(eval<C, T>::load_part(get<I>(c.c), i, n)...);
  }
  static SINTER_FORCEINLINE vec<T> load_part(const map_cursor<F, C...>& c, index_t i, index_t n) {
    return part_impl(c, i, n, std::index_sequence_for<C...>{});
  }
  template <std::size_t... I>
  static SINTER_FORCEINLINE pair<T> load2_impl(const map_cursor<F, C...>& c, index_t i, std::index_sequence<I...>) {
    return apply2<F, T>(eval<C, T>::load2(get<I>(c.c), i)...);
  }
  static SINTER_FORCEINLINE pair<T> load2(const map_cursor<F, C...>& c, index_t i) {
    return load2_impl(c, i, std::index_sequence_for<C...>{});
  }
};

/// Whether cursor C evaluates on vectors of T (eval<C, T>::ok, T float or
/// double).
template <class T, class C>
inline constexpr bool evaluates_v = [] {
  if constexpr (lane_type_v<T>) return eval<C, T>::ok;
  else return false;
}();

/// Whether store_range of T from cursor C takes the explicit vector loop:
/// it evaluates C, and some node of C is a maths call of the scalar loop.
template <class T, class C>
inline constexpr bool applies_v = [] {
  if constexpr (evaluates_v<T, C>) return eval<C, T>::call;
  else return false;
}();

/// One vector stored to `p` (aligned to vector_bytes) with a non-temporal
/// store.
template <class T>
SINTER_FORCEINLINE void stream_vec(T* p, const vec<T>& v) {
#if defined(__AVX512F__)
  _mm512_stream_si512(reinterpret_cast<__m512i*>(p), reinterpret_cast<const __m512i&>(v));
#else
  _mm256_stream_si256(reinterpret_cast<__m256i*>(p), reinterpret_cast<const __m256i&>(v));
#endif
}

/// How put_vectors stores a vector: an ordinary store at any alignment.
struct plain_store {
  template <class T>
  static SINTER_FORCEINLINE void put(T* p, const vec<T>& v) { std::memcpy(p, &v, sizeof v); }
};

/// How put_vectors stores a vector: non-temporal, `p` aligned to
/// vector_bytes.
struct streaming_store {
  template <class T>
  static SINTER_FORCEINLINE void put(T* p, const vec<T>& v) { stream_vec<T>(p, v); }
};

/// dst[k] = c.load(from + k) for k in [0, n), n a multiple of width<T>, each
/// vector stored by Store::put straight from the registers: pairs of
/// vectors where the cursor has them, then single vectors.
template <class Store, class T, class C>
SINTER_FORCEINLINE void put_vectors(T* dst, const C& cursor, index_t from, index_t n) {
  // A local copy: the stores through dst cannot alias it, so its pointers
  // and scalars stay in registers (read through the reference, GCC
  // reloaded them after every store).
  const C c = cursor;
  index_t k = 0;
  if constexpr (pair_steps && eval<C, T>::pairs) {
    for (; k + 2 * width<T> <= n; k += 2 * width<T>) {
      const pair<T> v = eval<C, T>::load2(c, from + k);
      Store::put(dst + k, v.a);
      Store::put(dst + k + width<T>, v.b);
    }
  }
  for (; k < n; k += width<T>) Store::put(dst + k, eval<C, T>::load(c, from + k));
}

/// put_vectors with ordinary stores: store_range's whole vectors, and a
/// streamed pass's blocks.
template <class T, class C>
SINTER_FORCEINLINE void store_vectors(T* dst, const C& cursor, index_t from, index_t n) {
  put_vectors<plain_store>(dst, cursor, from, n);
}

/// put_vectors with non-temporal stores, dst aligned to vector_bytes: the
/// streaming pass of a cursor with an explicit vector loop (stream_range,
/// host_stream.hpp).
template <class T, class C>
SINTER_FORCEINLINE void stream_vectors(T* dst, const C& cursor, index_t from, index_t n) {
  put_vectors<streaming_store>(dst, cursor, from, n);
}

/// o[i] = c.load(i) for i in [lo, hi), hi - lo < width<T>: one masked load
/// of each operand and one masked store. store_range's last partial
/// vector, and store_rows' remainder after a row's whole lines where a
/// vector is a line (line_tail_v), which a scalar loop of up to 15
/// iterations stored before.
template <class T, class C>
SINTER_FORCEINLINE void store_line_tail(T* o, const C& c, index_t lo, index_t hi) {
  store_part<T>(o + lo, eval<C, T>::load_part(c, lo, hi - lo), hi - lo);
}

/// Whether a remainder of fewer elements than a 64-byte line, from cursor
/// C, is one masked vector (store_line_tail): C evaluates on vectors of T
/// and a vector is a line (AVX-512).
template <class T, class C>
inline constexpr bool line_tail_v = vector_bytes == 64 && evaluates_v<T, C>;

/// o[i] = c.load(i) for i in [lo, hi), whole vectors, then one masked.
template <class T, class C>
SINTER_FORCEINLINE void store_range(T* o, const C& c, index_t lo, index_t hi) {
  const index_t whole = (hi - lo) - (hi - lo) % width<T>;
  store_vectors(o + lo, c, lo, whole);
  const index_t i = lo + whole;
  if (i < hi) store_line_tail(o, c, i, hi);
}

#else
template <class T, class C>
inline constexpr bool line_tail_v = false;
template <class T, class C>
void store_line_tail(T*, const C&, index_t, index_t) {}
template <class T, class C>
inline constexpr bool applies_v = false;
template <class T, class C>
inline constexpr bool evaluates_v = false;
template <class T, class C>
void store_vectors(T*, const C&, index_t, index_t) {}
template <class T, class C>
void stream_vectors(T*, const C&, index_t, index_t) {}
template <class T, class C>
void store_range(T*, const C&, index_t, index_t) {}
#endif

}  // namespace sinter::detail::simd
