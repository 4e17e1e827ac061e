#pragma once
/// \file ops_arith.hpp
/// The op table's arithmetic rows (core/ops.hpp is the include point and
/// describes the table): add, subtract, multiply, divide, remainder, fmod,
/// negative, abs, square, sign, minimum, maximum, clip, fma, pow and the
/// roundings (floor, ceil, trunc, round). Category arith (op_traits.hpp).
#include <cstdint>
#include <limits>
#include <type_traits>

#include "dtype.hpp"
#include "math/bits.hpp"
#include "math/functions.hpp"
#include "op_traits.hpp"

namespace sinter::detail::ops {

// ---- arithmetic ---------------------------------------------------------------

// A new op: declare its traits (op_traits.hpp) and add it to the list in
// tests/core/test_op_traits.cpp, which checks them against the passes.
#define SINTER_OP_NAME(n) static constexpr const char* name = #n

/// On bool values, logical or (as NumPy).
struct add : arith<add> {
  SINTER_OP_NAME(add);
  static constexpr op_cost cost = op_cost::plain;
  static constexpr vector_form vector = vector_form::apply;
  static constexpr bool bool_ok = true;
  template <class T> SINTER_HD static T apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(wrap_t<T>(a) + wrap_t<T>(b));
    else return a + b;
  }
};
struct sub : arith<sub> {
  SINTER_OP_NAME(subtract);
  static constexpr op_cost cost = op_cost::plain;
  static constexpr vector_form vector = vector_form::apply;
  template <class T> SINTER_HD static T apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(wrap_t<T>(a) - wrap_t<T>(b));
    else return a - b;
  }
};
/// On bool values, logical and (as NumPy).
struct mul : arith<mul> {
  SINTER_OP_NAME(multiply);
  static constexpr op_cost cost = op_cost::plain;
  static constexpr vector_form vector = vector_form::apply;
  static constexpr bool twin_pair = true;
  static constexpr bool bool_ok = true;
  template <class T> SINTER_HD static T apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(wrap_t<T>(a) * wrap_t<T>(b));
    else return a * b;
  }
};
/// Division: for integers truncating, as C++ (x / 0 gives 0, INT_MIN / -1 wraps).
struct div : arith<div> {
  SINTER_OP_NAME(divide);
  static constexpr vector_form vector = vector_form::apply;
  template <class T> SINTER_HD static T apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
      bool wrap = false;
      if constexpr (std::is_signed_v<T>) {
        constexpr T lowest = math::limits<T>::min;
        wrap = (a == lowest) & (b == T(-1));
      }
      const T bs = ((b == T(0)) | wrap) ? T(1) : b;
      const T q = static_cast<T>(a / bs);
      return b == T(0) ? T(0) : q;
    } else {
      return a / b;
    }
  }
};
/// Remainder with the sign of the dividend, as C++ (x % 0 gives 0); fmod for floats.
struct mod : arith<mod> {
  SINTER_OP_NAME(remainder);
  template <class T> SINTER_HD static T apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
      bool wrap = false;
      if constexpr (std::is_signed_v<T>) {
        constexpr T lowest = math::limits<T>::min;
        wrap = (a == lowest) & (b == T(-1));
      }
      const T bs = ((b == T(0)) | wrap) ? T(1) : b;
      const T r = static_cast<T>(a % bs);
      return b == T(0) ? T(0) : r;
    } else {
      return math::fmod(a, b);
    }
  }
};
struct fmod : arith<fmod> {
  SINTER_OP_NAME(fmod);
  template <class T> SINTER_HD static T apply(T a, T b) { return mod::apply(a, b); }
};
struct neg : arith<neg> {
  SINTER_OP_NAME(negative);
  static constexpr op_cost cost = op_cost::plain;
  static constexpr vector_form vector = vector_form::apply;
  template <class T> SINTER_HD static T apply(T a) {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(wrap_t<T>(0) - wrap_t<T>(a));
    else return -a;
  }
};
struct abs : arith<abs> {
  SINTER_OP_NAME(abs);
  static constexpr op_cost cost = op_cost::plain;
  static constexpr vector_form vector = vector_form::clear_sign;
  static constexpr bool bool_ok = true;
  template <class T> SINTER_HD static T apply(T a) {
    if constexpr (std::is_same_v<T, bool> || std::is_unsigned_v<T>) return a;
    else if constexpr (std::is_integral_v<T>) return a < T(0) ? neg::apply(a) : a;
    else return math::from_bits<T>(math::to_bits(a) & ~(math::uint_of_t<T>(1) << (sizeof(T) * 8 - 1)));
  }
};
struct square : arith<square> {
  SINTER_OP_NAME(square);
  static constexpr op_cost cost = op_cost::plain;
  static constexpr vector_form vector = vector_form::apply;
  template <class T> SINTER_HD static T apply(T a) { return mul::apply(a, a); }
};
/// -1, 0 or 1 (NaN for NaN), as numpy.sign.
struct sign : arith<sign> {
  SINTER_OP_NAME(sign);
  template <class T> SINTER_HD static T apply(T a) {
    if constexpr (std::is_unsigned_v<T>) return a > T(0) ? T(1) : T(0);
    else if constexpr (std::is_integral_v<T>) return static_cast<T>((a > T(0)) - (a < T(0)));
    else return a > T(0) ? T(1) : (a < T(0) ? T(-1) : (a == T(0) ? T(0) : a));
  }
};
/// Element-wise minimum; NaN propagates and ties give b, as numpy.minimum
/// (minimum(0.0, -0.0) is -0.0; x86's minps does the same). The floating
/// branch is taken by anything not integral, so that it also serves GCC's
/// float vectors (policy/host/simd.hpp applies these functors to them).
struct minimum : arith<minimum> {
  SINTER_OP_NAME(minimum);
  static constexpr vector_form vector = vector_form::apply;
  static constexpr bool bool_ok = true;
  template <class T> SINTER_HD static T apply(T a, T b) {
    if constexpr (!std::is_integral_v<T>) return ((a != a) | (b != b)) ? a + b : (a < b ? a : b);
    else return a < b ? a : b;
  }
};
/// Element-wise maximum; NaN propagates and ties give b, as numpy.maximum
/// (maximum(0.0, -0.0) is -0.0).
struct maximum : arith<maximum> {
  SINTER_OP_NAME(maximum);
  static constexpr vector_form vector = vector_form::apply;
  static constexpr bool bool_ok = true;
  template <class T> SINTER_HD static T apply(T a, T b) {
    if constexpr (!std::is_integral_v<T>) return ((a != a) | (b != b)) ? a + b : (a > b ? a : b);
    else return a > b ? a : b;
  }
};
/// clip(x, lo, hi) = minimum(maximum(x, lo), hi), as numpy.clip.
struct clip : arith<clip> {
  SINTER_OP_NAME(clip);
  static constexpr bool bool_ok = true;
  template <class T> SINTER_HD static T apply(T x, T lo, T hi) {
    return minimum::apply(maximum::apply(x, lo), hi);
  }
};
/// a * b + c (fused, one rounding, for floating types).
struct fma : arith<fma> {
  SINTER_OP_NAME(fma);
  static constexpr op_cost cost = op_cost::plain;
  template <class T> SINTER_HD static T apply(T a, T b, T c) {
    if constexpr (std::is_integral_v<T>) return add::apply(mul::apply(a, b), c);
    else return math::fma(a, b, c);
  }
};
/// Power. Integers: exact, wrapping; a negative exponent gives 0 unless the
/// base is 1 or -1 (NumPy raises instead; a kernel cannot).
struct pow : arith<pow> {
  SINTER_OP_NAME(power);
  static constexpr op_cost cost = op_cost::maths;
  template <class T> SINTER_HD static T apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
      if constexpr (std::is_signed_v<T>) {
        if (b < T(0)) return a == T(1) ? T(1) : (a == T(-1) ? ((b & T(1)) ? T(-1) : T(1)) : T(0));
      }
      T r = T(1);
      T base = a;
      auto e = static_cast<std::make_unsigned_t<T>>(b);
      while (e) {
        if (e & 1u) r = mul::apply(r, base);
        base = mul::apply(base, base);
        e = static_cast<decltype(e)>(e >> 1);
      }
      return r;
    } else {
      return math::pow(a, b);
    }
  }
};

#define SINTER_ROUNDING_OP(op, npname)                                         \
  struct op : arith<op> {                                                      \
    SINTER_OP_NAME(npname);                                                    \
    template <class T> SINTER_HD static T apply(T a) {                         \
      if constexpr (std::is_integral_v<T>) return a;                           \
      else return math::op(a);                                                 \
    }                                                                          \
  };
SINTER_ROUNDING_OP(floor, floor)
SINTER_ROUNDING_OP(ceil, ceil)
SINTER_ROUNDING_OP(trunc, trunc)
/// Round half to even, as numpy.round.
SINTER_ROUNDING_OP(round, round)
#undef SINTER_ROUNDING_OP

#undef SINTER_OP_NAME

}  // namespace sinter::detail::ops
