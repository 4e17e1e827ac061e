#pragma once
/// \file host_vec_lanes.hpp
/// vec_pairwise (GCC, host code: SINTER_DETAIL_VEC_LANES): a pairwise leaf
/// fold of float and double sums and products of plain arithmetic with its
/// lanes in GCC vector values of the target's width, not arrays; and the
/// test of which cursors are plain (plain_cursor_v). Same lanes, order and
/// bits as host_leaf.hpp's fold_leaf.
#include <type_traits>
#include <utility>

#include "../core/tree_fold.hpp"
#include "../policy/host/loop.hpp"
#include "host_leaf.hpp"
#include "ops.hpp"

namespace sinter::detail::reduce_host {

/// SINTER_DETAIL_VEC_LANES is 1 where float and double sums and products
/// keep their lanes in GCC vector values (vec_pairwise): GCC, host code.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__INTEL_LLVM_COMPILER) && !defined(__CUDA_ARCH__)
#define SINTER_DETAIL_VEC_LANES 1
#else
#define SINTER_DETAIL_VEC_LANES 0
#endif

#if SINTER_DETAIL_VEC_LANES
/// Bytes of the vector values that hold a pairwise fold's lanes: the
/// target's vector registers (64 with AVX-512, 32 with AVX, else 16). GCC
/// splits a vector value wider than the ISA's into halves that it moved
/// through general registers: with 64-byte values on an AVX2 build, a float
/// dot product ran at a fraction of Eigen's speed
/// (docs/journal/code-notes.md#reduce-fold-registers).
#if defined(__AVX512F__)
inline constexpr int vec_lane_bytes = 64;
#elif defined(__AVX__)
inline constexpr int vec_lane_bytes = 32;
#else
inline constexpr int vec_lane_bytes = 16;
#endif
/// vec_lane_bytes of A as one GCC vector value.
template <class A>
struct vec_of {};
template <>
struct vec_of<float> {
  typedef float type __attribute__((vector_size(vec_lane_bytes)));
};
template <>
struct vec_of<double> {
  typedef double type __attribute__((vector_size(vec_lane_bytes)));
};
/// a = Op::combine(a, b) on vector values, by reference (a vector passed by
/// value changes the calling convention where it is wider than the ISA's).
template <class Op, class T>
SINTER_FORCEINLINE void vec_combine(T& a, const T& b) {
  if constexpr (std::is_same_v<Op, reduce_ops::sum>) a = a + b;
  else a = a * b;
}
/// a[j] = Op::combine(a[j], b[j]) for each vector of lanes j (written out,
/// not a loop: a loop kept the vectors in memory).
template <class Op, class T, int... j>
SINTER_FORCEINLINE void vec_combine_all(T* a, const T* b, std::integer_sequence<int, j...>) {
  (vec_combine<Op>(a[j], b[j]), ...);
}
/// a[j] = b[j] for each vector of lanes j (written out, as vec_combine_all).
template <class T, int... j>
SINTER_FORCEINLINE void vec_copy_all(T* a, const T* b, std::integer_sequence<int, j...>) {
  ((a[j] = b[j]), ...);
}
/// a[j] = v for each vector of lanes j.
template <class T, int... j>
SINTER_FORCEINLINE void vec_fill(T* a, const T& v, std::integer_sequence<int, j...>) {
  ((a[j] = v), ...);
}
/// The vector levels of fold_lanes: a[k] = Op::combine(a[k], a[k + H]) for
/// k < H, then H / 2, down to one vector.
template <class Op, int H, class T, int... k>
SINTER_FORCEINLINE void vec_tree(T* a, std::integer_sequence<int, k...>) {
  (vec_combine<Op>(a[k], a[k + H]), ...);
  if constexpr (H > 1) vec_tree<Op, H / 2>(a, std::make_integer_sequence<int, H / 2>{});
}
/// acc = Op::combine(acc, (lift(x(o + t)), t = 0 .. W-1)): W consecutive
/// values as one vector value, written without a loop (a loop over its
/// elements made GCC build the vector in memory).
template <class Op, class V, class T, class X, int... t>
SINTER_FORCEINLINE void vec_fold(T& acc, const X& x, index_t o, index_t b, std::integer_sequence<int, t...>) {
  const T v = {Op::template lift<V>(x(o + t), b + t)...};
  vec_combine<Op>(acc, v);
}
/// vec_fold into each vector of lanes j: cur[j] takes the W values at
/// o + j * W.
template <class Op, class V, int W, class T, class X, int... j>
SINTER_FORCEINLINE void vec_fold_all(T* cur, const X& x, index_t o, index_t b, std::integer_sequence<int, j...>) {
  (vec_fold<Op, V>(cur[j], x, o + j * W, b + j * W, std::make_integer_sequence<int, W>{}), ...);
}
#if SINTER_HOST_SIMD
/// Whether vec_pairwise's last, partial row of lanes is read as vectors
/// (vec_fold_rest): the lanes' vectors are the explicit loop's
/// (policy/host/simd.hpp) and it evaluates the cursor C of A.
template <class A, class C>
inline constexpr bool vec_rest_v = simd::vector_bytes == vec_lane_bytes && simd::evaluates_v<A, C>;
/// acc = Op::combine(acc, c at o .. o + n) on the first n lanes, for any n:
/// a whole vector, or a masked load and a select (the other lanes keep acc,
/// as fold_leaf leaves them), or nothing.
template <class Op, class A, class T, class C>
SINTER_FORCEINLINE void vec_fold_part(T& acc, const C& c, index_t o, index_t n) {
  constexpr int W = static_cast<int>(sizeof(T) / sizeof(A));
  if (n >= W) {
    vec_combine<Op>(acc, simd::eval<C, A>::load(c, o));
  } else if (n > 0) {
    T merged = acc;
    vec_combine<Op>(merged, simd::eval<C, A>::load_part(c, o, n));
    acc = simd::select_first<A>(merged, acc, n);
  }
}
/// vec_fold_part into each vector of lanes j: the r < L values at o fold
/// into lanes 0 .. r - 1, in registers. Through the lane array (scalar
/// stores, then vector loads of them) the loads waited on the stores
/// (store forwarding: docs/design.md#store-forwarding;
/// docs/journal/code-notes.md#reduce-fold-registers).
template <class Op, class A, int W, class T, class C, int... j>
SINTER_FORCEINLINE void vec_fold_rest(T* cur, const C& c, index_t o, index_t r, std::integer_sequence<int, j...>) {
  (vec_fold_part<Op, A>(cur[j], c, o + j * W, r - j * W), ...);
}
#else
template <class A, class C>
inline constexpr bool vec_rest_v = false;
#endif
/// Whether a contiguous cursor computes its elements with plain arithmetic
/// only (loads, scalars, and ops of cost class plain, op_traits.hpp: + - *
/// negation, abs, square, fma, and a merged twin pair of them), which GCC
/// vectorises when vec_fold gathers W of them into one vector. With a
/// maths function (exp, tanh...) it would not: its SIMD clones serve
/// loops, not straight-line code, so every element would be a scalar call.
template <class F>
inline constexpr bool plain_fn_v = op_traits<F>::cost == op_cost::plain;
/// Whether a leaf cursor is plain: memory or a scalar.
template <class C>
struct plain_leaf : std::false_type {};
template <class U>
struct plain_leaf<unit_cursor<U>> : std::true_type {};
template <class S>
struct plain_leaf<scalar_leaf<S>> : std::true_type {};
/// Visitor (core/tree_fold.hpp): whether a cursor tree is plain.
struct plain_fold {
  template <class L>
  using leaf = plain_leaf<L>;
  template <class N, class F, class... R>
  using node = std::bool_constant<plain_fn_v<F> && (true && ... && R::value)>;
};
/// Whether cursor C computes with plain arithmetic only (above).
template <class C>
inline constexpr bool plain_cursor_v = fold_tree_v<plain_fold, C>;

/// Whether pairwise's x reads a plain cursor (plain_cursor_v).
template <class X>
inline constexpr bool plain_load_v = false;
template <class V, class C>
inline constexpr bool plain_load_v<load_as<V, C>> = plain_cursor_v<std::remove_const_t<C>>;

/// Whether pairwise runs as vec_pairwise: float and double sums and
/// products of plain arithmetic read straight from memory (the others keep
/// the lane arrays, whose loop GCC vectorises with its SIMD clones).
template <class Op, class A, class X>
inline constexpr bool vec_lanes_v = (std::is_same_v<Op, reduce_ops::sum> || std::is_same_v<Op, reduce_ops::prod>) &&
                                    (std::is_same_v<A, float> || std::is_same_v<A, double>) && plain_load_v<X>;

/// pairwise with its leaf_lanes<A> lanes held as vector values of the
/// target's width (vec_lane_bytes: four AVX-512 vectors, eight AVX ones),
/// not arrays: the same lanes, order and bits. GCC kept the arrays on the
/// stack, stored and reloaded between the leaf loop, its remainder, the
/// leaves' combination and the final tree, a store-to-load round trip each
/// on the critical path (docs/journal/code-notes.md#reduce-fold-registers).
/// The remainder of a leaf (fewer than
/// L elements) is read with masked vector loads where the explicit vector
/// loop evaluates the cursor (vec_fold_rest: float and double with AVX2 and
/// FMA or AVX-512), else it goes through an array, as in fold_leaf.
template <class Op, class V, class X>
SINTER_FORCEINLINE auto vec_pairwise(const X& x, index_t off, index_t n, index_t base) {
  using A = typename Op::template acc_t<V>;
  using T = typename vec_of<A>::type;
  constexpr int L = leaf_lanes<A>;
  constexpr int W = vec_lane_bytes / static_cast<int>(sizeof(A));
  constexpr int NV = L / W;
  static_assert(NV * W == L && NV >= 2, "whole vectors of lanes");
  using vectors = std::make_integer_sequence<int, NV>;
  constexpr index_t B = leaf_block<A>;
  const T id = T{} + Op::template identity<V>();
  T acc[NV] = {}, pair[NV] = {};
  const index_t leaves = n > B ? (n + B - 1) / B : 1;
  for (index_t l = 0; l < leaves; ++l) {
    const index_t o = off + l * B, b = base + l * B, m = n - l * B < B ? n - l * B : B;
    T cur[NV];
    vec_fill(cur, id, vectors{});
    index_t i = 0;
    for (; i + L <= m; i += L) vec_fold_all<Op, V, W>(cur, x, o + i, b + i, vectors{});
    if (i < m) {
      if constexpr (vec_rest_v<A, std::remove_const_t<std::remove_reference_t<decltype(x.c)>>>) {
        vec_fold_rest<Op, A, W>(cur, x.c, o + i, m - i, vectors{});
      } else {
        A lane[L];
        __builtin_memcpy(lane, cur, sizeof lane);
        for (index_t k = 0; i + k < m; ++k) lane[k] = Op::combine(lane[k], Op::template lift<V>(x(o + i + k), b + i + k));
        __builtin_memcpy(cur, lane, sizeof lane);
      }
    }
    // ((L0 + L1) + (L2 + L3)), per vector.
    if (l == 0) vec_copy_all(acc, cur, vectors{});
    else if (l == 1) vec_combine_all<Op>(acc, cur, vectors{});
    else if (l == 2) vec_copy_all(pair, cur, vectors{});
    else vec_combine_all<Op>(pair, cur, vectors{});
  }
  if (leaves > 2) vec_combine_all<Op>(acc, pair, vectors{});
  // fold_lanes' levels down to one vector (lane k with k + L/2, then k +
  // L/4, ...: vector j with j + NV/2, ...), then the lanes of that vector.
  vec_tree<Op, NV / 2>(acc, std::make_integer_sequence<int, NV / 2>{});
  A lane[W];
  __builtin_memcpy(lane, &acc[0], sizeof lane);
  return fold_lanes<Op, W / 2>(lane);
}
#else
template <class Op, class A, class X>
inline constexpr bool vec_lanes_v = false;
#endif

}  // namespace sinter::detail::reduce_host
