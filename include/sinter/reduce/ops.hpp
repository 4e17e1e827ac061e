#pragma once
/// \file ops.hpp
/// Reduction operators: what a reduction accumulates (acc_t), its identity,
/// how an element enters it (lift), how two partial results combine, and the
/// final value (finish). Stateless SINTER_HD functors, like the op table, so
/// the same definitions serve the host engine and the CUDA one.
///
/// Accumulation types follow NumPy: integer and bool sums and products in 64
/// bits; floats in their own type (half/bfloat16 in float), made accurate by
/// pairwise summation in the engine; mean/var/std of integers in double.
#include <cstdint>
#include <type_traits>

#include "../core/dtype.hpp"
#include "../core/math/functions.hpp"
#include "../core/ops.hpp"
#include "../core/shape.hpp"

namespace sinter::detail::reduce_ops {

/// 64-bit for integers and bool (unsigned stays unsigned), float for 16-bit floats.
template <class V>
using sum_acc_t = std::conditional_t<
    std::is_same_v<V, bool>, std::int64_t,
    std::conditional_t<std::is_integral_v<V>,
                       std::conditional_t<std::is_signed_v<V>, std::int64_t, std::uint64_t>,
                       compute_t<V>>>;

template <class A>
SINTER_HD SINTER_FORCEINLINE bool nan_of(A a) {
  if constexpr (std::is_floating_point_v<A>) return a != a;
  else return false;
}

/// sum: result is the accumulator, except 16-bit floats, which round back (numpy).
struct sum {
  static constexpr const char* name = "sum";
  template <class V> using acc_t = sum_acc_t<V>;
  template <class V> using result_t = std::conditional_t<is_half_like_v<V>, V, acc_t<V>>;
  template <class V> SINTER_HD static acc_t<V> identity() { return acc_t<V>(0); }
  template <class V> SINTER_HD static acc_t<V> lift(V v, index_t) { return static_cast<acc_t<V>>(static_cast<compute_t<V>>(v)); }
  template <class A> SINTER_HD static A combine(A a, A b) { return ops::add::apply(a, b); }
  template <class V, class A> SINTER_HD static result_t<V> finish(A a, index_t) { return static_cast<result_t<V>>(a); }
};

/// prod: wraps for integers, as numpy.
struct prod {
  static constexpr const char* name = "prod";
  template <class V> using acc_t = sum_acc_t<V>;
  template <class V> using result_t = std::conditional_t<is_half_like_v<V>, V, acc_t<V>>;
  template <class V> SINTER_HD static acc_t<V> identity() { return acc_t<V>(1); }
  template <class V> SINTER_HD static acc_t<V> lift(V v, index_t) { return static_cast<acc_t<V>>(static_cast<compute_t<V>>(v)); }
  template <class A> SINTER_HD static A combine(A a, A b) { return ops::mul::apply(a, b); }
  template <class V, class A> SINTER_HD static result_t<V> finish(A a, index_t) { return static_cast<result_t<V>>(a); }
};

/// min and max: NaN propagates (numpy.min); empty inputs are rejected by the caller.
template <bool Max>
struct extremum {
  static constexpr const char* name = Max ? "max" : "min";
  static constexpr bool needs_elements = true;
  template <class V> using acc_t = compute_t<V>;
  template <class V> using result_t = V;
  template <class V> SINTER_HD static acc_t<V> identity() {
    using A = acc_t<V>;
    if constexpr (std::is_floating_point_v<A>) return Max ? -math::limits<A>::infinity : math::limits<A>::infinity;
    else return Max ? math::limits<A>::lowest : math::limits<A>::max;
  }
  template <class V> SINTER_HD static acc_t<V> lift(V v, index_t) { return static_cast<acc_t<V>>(v); }
  template <class A> SINTER_HD static A combine(A a, A b) {
    if (nan_of(a)) return a;
    if (nan_of(b)) return b;
    return Max ? (b > a ? b : a) : (b < a ? b : a);
  }
  template <class V, class A> SINTER_HD static result_t<V> finish(A a, index_t) { return static_cast<V>(a); }
};
using min = extremum<false>;
using max = extremum<true>;

/// A value with the flat index it came from.
template <class A>
struct located {
  A value;
  index_t index;
};

/// argmin and argmax: the first occurrence; a NaN wins (the first NaN), as numpy.
/// combine is symmetric (ties broken by index), so any grouping gives the same answer.
template <bool Max>
struct arg_extremum {
  static constexpr const char* name = Max ? "argmax" : "argmin";
  static constexpr bool needs_elements = true;
  template <class V> using acc_t = located<compute_t<V>>;
  template <class V> using result_t = index_t;
  template <class V> SINTER_HD static acc_t<V> identity() {
    return {extremum<Max>::template identity<V>(), math::limits<index_t>::max};
  }
  template <class V> SINTER_HD static acc_t<V> lift(V v, index_t i) { return {static_cast<compute_t<V>>(v), i}; }
  template <class A> SINTER_HD static located<A> combine(located<A> a, located<A> b) {
    const bool na = nan_of(a.value), nb = nan_of(b.value);
    if (na || nb) {
      if (na && nb) return b.index < a.index ? b : a;
      return na ? a : b;
    }
    if (a.value == b.value) return b.index < a.index ? b : a;
    return (Max ? b.value > a.value : b.value < a.value) ? b : a;
  }
  template <class V, class A> SINTER_HD static index_t finish(A a, index_t) { return a.index; }
};
using argmin = arg_extremum<false>;
using argmax = arg_extremum<true>;

/// any / all: logical or / and of the elements' truth, accumulated as 0/1 in
/// 32-bit lanes combined with & or |: bool lanes and && / || kept the fold
/// from vectorising as count_nonzero's does (docs/journal/2026-12-05-tidy.md).
template <bool All>
struct logical_fold {
  static constexpr const char* name = All ? "all" : "any";
  template <class V> using acc_t = std::uint32_t;
  template <class V> using result_t = bool;
  template <class V> SINTER_HD static std::uint32_t identity() { return All ? 1u : 0u; }
  template <class V> SINTER_HD static std::uint32_t lift(V v, index_t) {
    return static_cast<compute_t<V>>(v) != compute_t<V>(0) ? 1u : 0u;
  }
  template <class A> SINTER_HD static A combine(A a, A b) { return All ? (a & b) : (a | b); }
  template <class V, class A> SINTER_HD static bool finish(A a, index_t) { return a != 0; }
};
using any = logical_fold<false>;
using all = logical_fold<true>;

/// count_nonzero: a 64-bit count of elements that are not zero (NaN counts).
struct count_nonzero {
  static constexpr const char* name = "count_nonzero";
  template <class V> using acc_t = std::int64_t;
  template <class V> using result_t = std::int64_t;
  template <class V> SINTER_HD static std::int64_t identity() { return 0; }
  template <class V> SINTER_HD static std::int64_t lift(V v, index_t) {
    return static_cast<compute_t<V>>(v) != compute_t<V>(0) ? 1 : 0;
  }
  template <class A> SINTER_HD static A combine(A a, A b) { return a + b; }
  template <class V, class A> SINTER_HD static std::int64_t finish(A a, index_t) { return a; }
};

/// mean: the sum (pairwise, in floating_t) divided by the count.
struct mean {
  static constexpr const char* name = "mean";
  template <class V> using acc_t = compute_t<floating_t<V>>;
  template <class V> using result_t = floating_t<V>;
  template <class V> SINTER_HD static acc_t<V> identity() { return acc_t<V>(0); }
  template <class V> SINTER_HD static acc_t<V> lift(V v, index_t) { return static_cast<acc_t<V>>(static_cast<compute_t<V>>(v)); }
  template <class A> SINTER_HD static A combine(A a, A b) { return a + b; }
  template <class V, class A> SINTER_HD static result_t<V> finish(A a, index_t n) {
    return static_cast<result_t<V>>(a / static_cast<A>(n));
  }
};

/// Count, mean and sum of squared deviations of a group (Chan et al.'s
/// parallel form of Welford's update): one pass, stable, order-independent
/// up to rounding.
template <class A>
struct moments {
  A count, mean, m2;
};

/// var and std (ddof = 0 as numpy's default, or a given ddof).
template <bool Sqrt>
struct variance {
  static constexpr const char* name = Sqrt ? "std" : "var";
  template <class V> using acc_t = moments<compute_t<floating_t<V>>>;
  template <class V> using result_t = floating_t<V>;
  template <class V> SINTER_HD static acc_t<V> identity() { return {0, 0, 0}; }
  template <class V> SINTER_HD static acc_t<V> lift(V v, index_t) {
    using A = compute_t<floating_t<V>>;
    return {A(1), static_cast<A>(static_cast<compute_t<V>>(v)), A(0)};
  }
  template <class A> SINTER_HD static moments<A> combine(moments<A> a, moments<A> b) {
    const A n = a.count + b.count;
    if (n == A(0)) return a;
    const A delta = b.mean - a.mean;
    const A wb = b.count / n;
    return {n, a.mean + delta * wb, a.m2 + b.m2 + delta * delta * a.count * wb};
  }
};

}  // namespace sinter::detail::reduce_ops
