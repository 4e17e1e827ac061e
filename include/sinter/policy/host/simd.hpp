#pragma once
/// \file policy/host/simd.hpp
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
/// a broadcast, a map node its functor's vector form (host_simd_ops.hpp), and the
/// maths functions the lane kernels of exp_f32.hpp (float) and of
/// exp_f64.hpp, log_erf_f64.hpp and log_erf_f32.hpp (double, and the float
/// functions computed in double, on each half of a float vector widened)
/// on the ISA's vectors, inlined.
/// The last partial vector is loaded and stored under a mask: no scalar
/// loop. On AVX-512 a tree whose every node runs on pairs of vectors
/// (arithmetic, abs, sqrt, minimum, maximum, exp, tanh) steps by two
/// vectors, each operation on both in turn (exp and tanh on the pair lanes
/// lane_avx512_f2 of hw_exp.hpp and lane_avx512_d2 of kernels_f64.hpp):
/// two independent dependency chains side by side, faster in float and
/// double (docs/journal/code-notes.md#explicit-vector-loop). Trees with
/// another function step by one vector (host_simd_ops.hpp, SINTER_DETAIL_SIMD_OP_PAIR).
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
/// call and is as fast). Every other pass keeps the scalar loop. The
/// vectors and the ops' vector forms are in host_simd_ops.hpp.
#include <cstdint>
#include <cstring>
#include <type_traits>
#if defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

#include "../../core/leaf.hpp"
#include "../../core/map_node.hpp"
#include "simd_ops.hpp"

namespace sinter::detail::simd {

#if SINTER_HOST_SIMD
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
