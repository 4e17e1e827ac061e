#pragma once
/// \file ops.hpp
/// The op table: one stateless SINTER_HD functor per operation. A functor
/// receives the raw element values of its operands, converts them to the
/// type the operation computes in, and returns the result type. Operators and
/// free functions (functions.hpp) are thin builders over these functors; the
/// backends never know which ops exist.
///
/// Each functor declares its traits next to its definition (op_traits.hpp):
/// its category, its cost class and, where it has one, its vector form in
/// the explicit vector loop. Categories (each a CRTP base in op_traits.hpp
/// that fixes the result type):
///  - arith:     result = promote_t of the operands, computed in compute_t
///               (half/bfloat16 compute in float). Integer overflow wraps, as
///               in NumPy; integer division by zero gives 0.
///  - floating:  result = floating_t (every integer type and bool gives
///               double; NumPy: float16/float32 below 32 bits), e.g. exp, sqrt.
///  - predicate: compared in the promoted type, result bool.
///  - logical:   operands converted to bool, result bool.
///  - bitwise:   integers and bool only.
///
/// The arithmetic rows are in ops_arith.hpp (included here); this file has
/// the floating-point functions, predicates, logical and bitwise ops,
/// where, cast and user functors.
#include <cstdint>
#include <limits>
#include <type_traits>

#include "dtype.hpp"
#include "math/bits.hpp"
#include "math/functions.hpp"
#include "op_traits.hpp"
#include "ops_arith.hpp"

namespace sinter::detail::ops {

// As in ops_arith.hpp, which undefines its own: each file defines and
// undefines the name macro of its rows.
#define SINTER_OP_NAME(n) static constexpr const char* name = #n

// ---- floating-point functions (integers compute in double) ----------------

#define SINTER_FLOATING_OP1(op)                                                \
  struct op : floating<op> {                                                   \
    SINTER_OP_NAME(op);                                                        \
    template <class T> SINTER_HD SINTER_FORCEINLINE static T apply(T a) { return math::op(a); } \
  };
SINTER_FLOATING_OP1(cbrt) SINTER_FLOATING_OP1(rsqrt) SINTER_FLOATING_OP1(sin) SINTER_FLOATING_OP1(cos)
SINTER_FLOATING_OP1(tan) SINTER_FLOATING_OP1(asin) SINTER_FLOATING_OP1(acos) SINTER_FLOATING_OP1(atan)
#undef SINTER_FLOATING_OP1

struct sqrt : floating<sqrt> {
  SINTER_OP_NAME(sqrt);
  static constexpr vector_form vector = vector_form::sqrt_instruction;
  template <class T> SINTER_HD SINTER_FORCEINLINE static T apply(T a) { return math::sqrt(a); }
};

/// The maths functions whose vector form is a lane kernel of core/math, one
/// row each: X(op, float kernel, float lanes, double kernel, pairs). Float
/// runs its kernel on float vectors (f32) or on each half of the vector
/// widened to doubles (f64); `pairs` where the kernels also run on pairs of
/// vectors on AVX-512 (none of their sums adds two products), else
/// `single`. policy/host/simd.hpp expands the rows into its vector forms.
#define SINTER_DETAIL_LANE_KERNEL_OPS(X)                                              \
  X(exp, exp_f, f32, exp_d, pairs) X(tanh, tanh_f, f32, tanh_d, pairs)                 \
  X(exp2, exp2_d, f64, exp2_d, single) X(expm1, expm1_d, f64, expm1_d, single)         \
  X(log, log_fd, f64, log_d, single) X(log2, log2_fd, f64, log2_d, single)             \
  X(log10, log10_fd, f64, log10_d, single) X(log1p, log1p_d, f64, log1p_d, single)     \
  X(sinh, sinh_d, f64, sinh_d, single) X(cosh, cosh_d, f64, cosh_d, single)            \
  X(asinh, asinh_d, f64, asinh_d, single) X(acosh, acosh_d, f64, acosh_d, single)      \
  X(atanh, atanh_d, f64, atanh_d, single) X(erf, erf_fd, f64, erf_d, single)           \
  X(erfc, erfc_fd, f64, erfc_d, single)
#define SINTER_DETAIL_PAIRS_pairs true
#define SINTER_DETAIL_PAIRS_single false
#define SINTER_DETAIL_LANE_KERNEL_OP(op, fk, fl, dk, pairs)                                           \
  struct op : floating<op> {                                                                          \
    SINTER_OP_NAME(op);                                                                               \
    static constexpr vector_form vector = vector_form::lane_kernel;                                   \
    static constexpr bool vector_pairs = SINTER_DETAIL_PAIRS_##pairs;                                 \
    template <class T> SINTER_HD SINTER_FORCEINLINE static T apply(T a) { return math::op(a); }       \
  };
SINTER_DETAIL_LANE_KERNEL_OPS(SINTER_DETAIL_LANE_KERNEL_OP)
#undef SINTER_DETAIL_LANE_KERNEL_OP
#define SINTER_DETAIL_LANE_KERNEL_ROW(op, fk, fl, dk, pairs) || std::is_same_v<F, op>
/// Whether op F has a row above (a lane kernel declared without one is a
/// compile error in the explicit vector loop, not a silent scalar loop).
template <class F>
inline constexpr bool lane_kernel_row_v = false SINTER_DETAIL_LANE_KERNEL_OPS(SINTER_DETAIL_LANE_KERNEL_ROW);
#undef SINTER_DETAIL_LANE_KERNEL_ROW
#undef SINTER_DETAIL_PAIRS_pairs
#undef SINTER_DETAIL_PAIRS_single

struct atan2 : floating<atan2> {
  SINTER_OP_NAME(arctan2);
  template <class T> SINTER_HD SINTER_FORCEINLINE static T apply(T y, T x) { return math::atan2(y, x); }
};
struct hypot : floating<hypot> {
  SINTER_OP_NAME(hypot);
  template <class T> SINTER_HD SINTER_FORCEINLINE static T apply(T x, T y) { return math::hypot(x, y); }
};

// ---- predicates -----------------------------------------------------------

#define SINTER_COMPARE_OP(op, npname, expr)                                    \
  struct op : predicate<op> {                                                  \
    SINTER_OP_NAME(npname);                                                    \
    template <class T> SINTER_HD static bool apply(T a, T b) { return expr; }  \
  };
SINTER_COMPARE_OP(eq, equal, a == b)
SINTER_COMPARE_OP(ne, not_equal, a != b)
SINTER_COMPARE_OP(lt, less, a < b)
SINTER_COMPARE_OP(le, less_equal, a <= b)
SINTER_COMPARE_OP(gt, greater, a > b)
SINTER_COMPARE_OP(ge, greater_equal, a >= b)
#undef SINTER_COMPARE_OP

struct isnan : predicate<isnan> {
  SINTER_OP_NAME(isnan);
  template <class T> SINTER_HD static bool apply(T a) { return is_nan(a); }
};
struct isinf : predicate<isinf> {
  SINTER_OP_NAME(isinf);
  template <class T> SINTER_HD static bool apply(T a) {
    constexpr T inf = math::limits<T>::infinity;
    if constexpr (std::is_floating_point_v<T>) return abs::apply(a) == inf;
    else return false;
  }
};
struct isfinite : predicate<isfinite> {
  SINTER_OP_NAME(isfinite);
  template <class T> SINTER_HD static bool apply(T a) {
    constexpr T largest = math::limits<T>::max;
    if constexpr (std::is_floating_point_v<T>) return abs::apply(a) <= largest;
    else return true;
  }
};

// ---- logical and bitwise ----------------------------------------------------

struct logical_and : logical<logical_and> {
  SINTER_OP_NAME(logical_and);
  SINTER_HD static bool apply(bool a, bool b) { return a & b; }
};
struct logical_or : logical<logical_or> {
  SINTER_OP_NAME(logical_or);
  SINTER_HD static bool apply(bool a, bool b) { return a | b; }
};
struct logical_not : logical<logical_not> {
  SINTER_OP_NAME(logical_not);
  SINTER_HD static bool apply(bool a) { return !a; }
};
struct bit_and : bitwise<bit_and> {
  SINTER_OP_NAME(bitwise_and);
  template <class T> SINTER_HD static T apply(T a, T b) { return static_cast<T>(a & b); }
};
struct bit_or : bitwise<bit_or> {
  SINTER_OP_NAME(bitwise_or);
  template <class T> SINTER_HD static T apply(T a, T b) { return static_cast<T>(a | b); }
};
struct bit_xor : bitwise<bit_xor> {
  SINTER_OP_NAME(bitwise_xor);
  template <class T> SINTER_HD static T apply(T a, T b) { return static_cast<T>(a ^ b); }
};
/// ~x for integers; logical not for bool (as numpy.invert).
struct bit_not : bitwise<bit_not> {
  SINTER_OP_NAME(invert);
  template <class T> SINTER_HD static T apply(T a) {
    if constexpr (std::is_same_v<T, bool>) return !a;
    else return static_cast<T>(~a);
  }
};
/// a << b; a shift by a negative amount or by the width or more gives 0.
struct shl : bitwise<shl> {
  SINTER_OP_NAME(left_shift);
  template <class T> SINTER_HD static T apply(T a, T b) {
    static_assert(!std::is_same_v<T, bool>, "sinter: shift of bool values; cast to an integer first");
    constexpr T bits = static_cast<T>(sizeof(T) * 8);
    const bool out = (b < T(0)) | (b >= bits);
    const auto s = out ? 0u : static_cast<unsigned>(b);
    return out ? T(0) : static_cast<T>(wrap_t<T>(a) << s);
  }
};
/// a >> b (arithmetic for signed); out-of-range shifts give 0 or -1 by sign.
struct shr : bitwise<shr> {
  SINTER_OP_NAME(right_shift);
  template <class T> SINTER_HD static T apply(T a, T b) {
    static_assert(!std::is_same_v<T, bool>, "sinter: shift of bool values; cast to an integer first");
    constexpr T bits = static_cast<T>(sizeof(T) * 8);
    const bool out = (b < T(0)) | (b >= bits);
    const auto s = out ? 0u : static_cast<unsigned>(b);
    return out ? (a < T(0) ? T(-1) : T(0)) : static_cast<T>(a >> s);
  }
};

// ---- selection and conversion ---------------------------------------------

/// where(c, a, b): a where c is true, else b; result promote_t<A, B>.
struct where {
  SINTER_OP_NAME(where);
  static constexpr op_category category = op_category::select;
  template <class C, class A, class B>
  SINTER_HD SINTER_FORCEINLINE promote_t<A, B> operator()(C c, A a, B b) const {
    using R = promote_t<A, B>;
    return static_cast<bool>(c) ? static_cast<R>(a) : static_cast<R>(b);
  }
};

/// cast<T>(x): conversion to T as static_cast (float to integer truncates).
template <class T>
struct cast_to {
  SINTER_OP_NAME(cast);
  static constexpr op_category category = op_category::cast;
  template <class V>
  SINTER_HD SINTER_FORCEINLINE T operator()(V v) const {
    if constexpr (is_half_like_v<V> && !std::is_same_v<T, V>) return static_cast<T>(static_cast<float>(v));
    else return static_cast<T>(v);
  }
};

/// A user functor applied by sinter::map (named "map" in traces).
template <class F>
struct user_fn {
  SINTER_OP_NAME(map);
  F f;
  // A plain host lambda is a valid F for host and par: nvcc must not warn
  // that this __host__ __device__ call wraps a host-only function.
#if defined(__CUDACC__) && !defined(__clang__)
#pragma nv_exec_check_disable
#endif
  template <class... V>
  SINTER_HD SINTER_FORCEINLINE auto operator()(V... v) const { return f(v...); }
};

#undef SINTER_OP_NAME

}  // namespace sinter::detail::ops
