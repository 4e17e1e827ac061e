#pragma once
/// \file dtype.hpp
/// Element types: which types an array may hold, their names, and the
/// result type of mixing two of them (numpy-like promotion).
#include <concepts>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "half.hpp"

namespace sinter {

namespace detail {
template <class T>
inline constexpr bool is_char_v =
    std::is_same_v<T, char> || std::is_same_v<T, wchar_t> || std::is_same_v<T, char8_t> ||
    std::is_same_v<T, char16_t> || std::is_same_v<T, char32_t>;

/// Convert an expression value to the destination element type (the store
/// of every backend: the host loops and the CUDA kernel body).
template <class T, class V>
SINTER_HD SINTER_FORCEINLINE T convert(V v) {
  if constexpr (std::is_same_v<T, V>) return v;
  else if constexpr (is_half_like_v<V> && !std::is_same_v<T, float>) return static_cast<T>(static_cast<float>(v));
  else return static_cast<T>(v);
}
}  // namespace detail

/// An element type sinter computes with: bool, a fixed-width integer, float,
/// double, sinter::half or sinter::bfloat16 (not char types, not long double).
template <class T>
concept element =
    std::same_as<T, std::remove_cv_t<T>> &&
    ((std::is_arithmetic_v<T> && !detail::is_char_v<T> && !std::is_same_v<T, long double>) ||
     is_half_like_v<T>);

/// Floating-point element types, 16-bit storage types included.
template <class T>
concept floating_element = element<T> && (std::is_floating_point_v<T> || is_half_like_v<T>);

/// Integer element types (bool excluded).
template <class T>
concept integral_element = element<T> && std::is_integral_v<T> && !std::is_same_v<T, bool>;

namespace detail {

/// 0 for bool, 1 for integers, 2 for floating point: the order of numpy's kinds.
template <class T>
inline constexpr int kind_v = std::is_same_v<T, bool> ? 0 : (std::is_integral_v<T> ? 1 : 2);

template <std::size_t Bytes, bool Signed>
struct int_of_size;
template <> struct int_of_size<1, true> { using type = std::int8_t; };
template <> struct int_of_size<2, true> { using type = std::int16_t; };
template <> struct int_of_size<4, true> { using type = std::int32_t; };
template <> struct int_of_size<8, true> { using type = std::int64_t; };
template <> struct int_of_size<1, false> { using type = std::uint8_t; };
template <> struct int_of_size<2, false> { using type = std::uint16_t; };
template <> struct int_of_size<4, false> { using type = std::uint32_t; };
template <> struct int_of_size<8, false> { using type = std::uint64_t; };

template <class A, class B>
struct promote_int {
  static constexpr bool sa = std::is_signed_v<A>, sb = std::is_signed_v<B>;
  static constexpr std::size_t za = sizeof(A), zb = sizeof(B);
  static constexpr std::size_t zmax = za > zb ? za : zb;
  using S = std::conditional_t<sa, A, B>;  // the signed one, when mixed
  using U = std::conditional_t<sa, B, A>;
  // Mixed signedness: a signed type wider than the unsigned one holds both;
  // otherwise the next wider signed type; past 64 bits, double (as numpy).
  using mixed = std::conditional_t<
      (sizeof(S) > sizeof(U)), typename int_of_size<sizeof(S), true>::type,
      std::conditional_t<(sizeof(U) < 8), typename int_of_size<(sizeof(U) < 8 ? 2 * sizeof(U) : 8),
                                                               true>::type,
                         double>>;
  using type = std::conditional_t<sa == sb, typename int_of_size<zmax, sa>::type, mixed>;
};

template <class A, class B>
struct promote_float {
  // half + bfloat16 → float (neither holds the other); otherwise the wider one.
  using type = std::conditional_t<
      std::is_same_v<A, B>, A,
      std::conditional_t<(is_half_like_v<A> && is_half_like_v<B>), float,
                         std::conditional_t<(sizeof(A) >= sizeof(B)), A, B>>>;
};

template <class A, class B>
struct promote2 {
  static constexpr int ka = kind_v<A>, kb = kind_v<B>;
  using type = std::conditional_t<
      std::is_same_v<A, B>, A,
      std::conditional_t<
          (ka != kb), std::conditional_t<(ka > kb), A, B>,
          std::conditional_t<ka == 1, typename promote_int<A, B>::type,
                             typename promote_float<A, B>::type>>>;
};
// promote_int<bool,..> is never instantiated: same-kind bools are the same type.

template <class... T>
struct promote;
template <class A>
struct promote<A> { using type = A; };
template <class A, class B, class... R>
struct promote<A, B, R...> {
  using type = typename promote<typename promote2<A, B>::type, R...>::type;
};

}  // namespace detail

/// The result type of mixing arrays of these element types, as numpy does,
/// except that an integer with a float gives that float (int32 + float → float)
/// and half + bfloat16 gives float.
template <class... T>
using promote_t = typename detail::promote<T...>::type;

/// The type a scalar of type X becomes when combined with arrays of type S:
/// a C++ scalar never widens an array of the same or a higher kind
/// (float array * 2.0 stays float; int array * 2.5 becomes double), as NumPy 2
/// treats Python scalars.
template <class S, class X>
using weak_promote_t = std::conditional_t<(detail::kind_v<X> <= detail::kind_v<S>), S, X>;

namespace detail {
template <class From, class To>
constexpr bool exact_conversion() {
  if constexpr (std::is_same_v<From, To> || std::is_same_v<From, bool>) return true;
  else if constexpr (std::is_same_v<To, bool>) return false;
  else if constexpr (std::is_integral_v<From> && std::is_integral_v<To>)
    return std::is_signed_v<From> == std::is_signed_v<To> ? sizeof(To) >= sizeof(From)
                                                          : std::is_signed_v<To> && sizeof(To) > sizeof(From);
  else if constexpr (std::is_integral_v<From>)  // into a float: its significand must hold every value
    return std::numeric_limits<From>::digits <= std::numeric_limits<To>::digits;
  else
    return !std::is_integral_v<To> && sizeof(To) > sizeof(From);  // half/bfloat16 -> float -> double
}
}  // namespace detail

/// Whether every value of From is exactly a value of To (int16 -> float,
/// float -> double: yes; int32 -> float, int64 -> double, double -> float:
/// no). sinter::array converts implicitly only then; else cast explicitly.
template <class From, class To>
inline constexpr bool exact_conversion_v = detail::exact_conversion<From, To>();

/// The type arithmetic on T is carried out in: float for half and bfloat16.
template <class T>
using compute_t = std::conditional_t<is_half_like_v<T>, float, T>;

/// The result type of a floating-point function (exp, sqrt...) of T:
/// T itself for floating types, double for every integer type and bool.
/// NumPy gives double only from 32 and 64 bits: float16 for bool, int8 and
/// uint8, float32 for int16 and uint16 (sinter gives double there too).
template <class T>
using floating_t = std::conditional_t<floating_element<T>, T, double>;

/// The numpy name of an element type: "float32", "int64", "bfloat16"...
template <element T>
constexpr const char* dtype_name() {
  if constexpr (std::is_same_v<T, bool>) return "bool";
  else if constexpr (std::is_same_v<T, half>) return "float16";
  else if constexpr (std::is_same_v<T, bfloat16>) return "bfloat16";
  else if constexpr (std::is_same_v<T, float>) return "float32";
  else if constexpr (std::is_same_v<T, double>) return "float64";
  else if constexpr (std::is_signed_v<T>) {
    if constexpr (sizeof(T) == 1) return "int8";
    else if constexpr (sizeof(T) == 2) return "int16";
    else if constexpr (sizeof(T) == 4) return "int32";
    else return "int64";
  } else {
    if constexpr (sizeof(T) == 1) return "uint8";
    else if constexpr (sizeof(T) == 2) return "uint16";
    else if constexpr (sizeof(T) == 4) return "uint32";
    else return "uint64";
  }
}

}  // namespace sinter
