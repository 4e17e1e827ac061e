#pragma once
/// \file op_traits.hpp
/// What each op of the op table (ops.hpp) is, declared on the op itself (as
/// Eigen's functor_traits): its category, its cost class and its vector form.
/// The passes read these traits through op_traits<F>, never a list of ops:
///  - policy/host/simd.hpp: the explicit vector loop takes a tree whose every
///    op has a vector form (`vector`, `vector_pairs`);
///  - reduce/host_engine.hpp: a full reduction keeps its lanes in vector
///    registers over ops of cost `plain`;
///  - core/shared_nodes.hpp: a repeat is computed once if it calls an op of
///    cost `maths`;
///  - core/twin_nodes.hpp: `twin_pair` ops of two equal children evaluate
///    the child once.
/// Also here: the category bases (CRTP) the ops derive from, which fix the
/// result type and declare the category's defaults.
#include <cstdint>
#include <type_traits>

#include "dtype.hpp"

namespace sinter::detail {

/// What fixes an op's result type (its base in ops.hpp).
enum class op_category { arith, floating, predicate, logical, bitwise, select, cast, user };

/// What an op costs per element, for the passes that decide by it.
enum class op_cost {
  plain,  ///< a few instructions GCC packs into vectors even in straight-line code
  cheap,  ///< branch-free, no maths function (the default)
  maths,  ///< a maths function (sqrt, exp, log, pow...): worth computing once
};

/// An op's form in the explicit vector loop (policy/host/simd.hpp).
enum class vector_form {
  none,              ///< none: a tree with it keeps GCC's loop (the default)
  apply,             ///< the op's own apply on GCC's vectors (operators, selects)
  clear_sign,        ///< the sign bit cleared (abs)
  sqrt_instruction,  ///< the correctly rounded square-root instruction
  lane_kernel,       ///< a lane kernel of core/math, named in the op's row of SINTER_DETAIL_LANE_KERNEL_OPS
};

/// The traits of op F, from its static members `category`, `cost`,
/// `vector`, `vector_pairs` and `twin_pair`, with defaults where it declares
/// none (user_fn<F>, cast_to<T>: user-like, cheap, no vector form).
template <class F>
struct op_traits {
  static constexpr op_category category = [] {
    if constexpr (requires { F::category; }) return F::category;
    else return op_category::user;
  }();
  static constexpr op_cost cost = [] {
    if constexpr (requires { F::cost; }) return F::cost;
    else return op_cost::cheap;
  }();
  static constexpr vector_form vector = [] {
    if constexpr (requires { F::vector; }) return F::vector;
    else return vector_form::none;
  }();
  /// Whether the vector form runs on pairs of vectors on AVX-512: every form
  /// but the lane kernels, which say so in their rows.
  static constexpr bool vector_pairs = [] {
    if constexpr (requires { F::vector_pairs; }) return F::vector_pairs;
    else return vector != vector_form::none && vector != vector_form::lane_kernel;
  }();
  /// Whether f(x, x) of two equal interior children is a square written out,
  /// evaluated with x once (core/twin_nodes.hpp).
  static constexpr bool twin_pair = [] {
    if constexpr (requires { F::twin_pair; }) return F::twin_pair;
    else return false;
  }();
};

namespace ops {

/// An unsigned type of at least 32 bits and of T's width: integer arithmetic
/// in it wraps instead of overflowing (no undefined behaviour, as NumPy wraps).
template <class T>
using wrap_t = std::conditional_t<(sizeof(T) <= 4), std::uint32_t, std::uint64_t>;

template <class T>
SINTER_HD SINTER_FORCEINLINE constexpr bool is_nan(T x) {
  if constexpr (std::is_floating_point_v<T>) return x != x;
  else return false;
}

/// Arithmetic: result promote_t of the operands, computed in compute_t.
template <class Op>
struct arith {
  template <class... V>
  SINTER_HD SINTER_FORCEINLINE auto operator()(V... v) const {
    using R = promote_t<V...>;
    static_assert(!std::is_same_v<R, bool> || Op::bool_ok,
                  "sinter: this arithmetic is not defined on bool values (NumPy rejects bool - bool too); "
                  "use ^ or logical_xor for a difference, or cast first: sinter::cast<int>(x)");
    using C = compute_t<R>;
    return static_cast<R>(Op::apply(static_cast<C>(v)...));
  }
  static constexpr bool bool_ok = false;
  static constexpr op_category category = op_category::arith;
  static constexpr op_cost cost = op_cost::cheap;
};

/// A maths function: result floating_t (integers and bool compute in double).
template <class Op>
struct floating {
  template <class... V>
  SINTER_HD SINTER_FORCEINLINE auto operator()(V... v) const {
    using R = floating_t<promote_t<V...>>;
    using C = compute_t<R>;
    return static_cast<R>(Op::apply(static_cast<C>(v)...));
  }
  static constexpr op_category category = op_category::floating;
  static constexpr op_cost cost = op_cost::maths;
};

/// a OP b for a uint64 against a signed integer (their promote_t is double,
/// which is inexact past 2^53): a negative value compares as below any
/// unsigned one, others as uint64, so the result is exact (as NumPy 2).
template <class Op, class A, class B>
SINTER_HD SINTER_FORCEINLINE bool compare_mixed_sign(A a, B b) {
  using U = std::uint64_t;
  if constexpr (std::is_signed_v<A>) return Op::apply(a < A(0) ? U(0) : static_cast<U>(a), a < A(0) ? U(1) : U(b));
  else return Op::apply(b < B(0) ? U(1) : U(a), b < B(0) ? U(0) : static_cast<U>(b));
}

/// A comparison or test: compared in the promoted type, result bool.
template <class Op>
struct predicate {
  template <class... V>
  SINTER_HD SINTER_FORCEINLINE bool operator()(V... v) const {
    using P = promote_t<V...>;
    if constexpr (sizeof...(V) == 2 && (std::is_integral_v<V> && ...) && !std::is_integral_v<P>) {
      return compare_mixed_sign<Op>(v...);
    } else {
      using C = compute_t<P>;
      return Op::apply(static_cast<C>(v)...);
    }
  }
  static constexpr op_category category = op_category::predicate;
};

/// Logical: operands converted to bool, result bool.
template <class Op>
struct logical {
  template <class... V>
  SINTER_HD SINTER_FORCEINLINE bool operator()(V... v) const {
    return Op::apply(static_cast<bool>(v)...);
  }
  static constexpr op_category category = op_category::logical;
};

/// Bitwise: integers and bool only.
template <class Op>
struct bitwise {
  template <class... V>
  SINTER_HD SINTER_FORCEINLINE auto operator()(V... v) const {
    using R = promote_t<V...>;
    static_assert(std::is_integral_v<R>,
                  "sinter: bitwise operation on floating-point values; only integers and bool");
    return static_cast<R>(Op::apply(static_cast<R>(v)...));
  }
  static constexpr op_category category = op_category::bitwise;
};

}  // namespace ops
}  // namespace sinter::detail
