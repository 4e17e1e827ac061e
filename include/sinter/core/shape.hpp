#pragma once
/// \file shape.hpp
/// Extents, row-major strides and numpy broadcasting. Pure functions on
/// small fixed-size arrays; nothing here allocates.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>

#include "../config.hpp"
#include "error.hpp"

namespace sinter {

/// Signed index type of every extent, stride and element count.
using index_t = std::int64_t;

namespace detail {
/// The integer types an extent may be given in (any but bool).
template <class I>
concept extent_integer = std::is_integral_v<I> && !std::is_same_v<I, bool>;

/// Whether integer i is representable as index_t (only wide unsigned types may not be).
template <class I>
SINTER_HD constexpr bool fits_index(I i) {
  if constexpr (std::is_unsigned_v<I> && sizeof(I) >= sizeof(index_t))
    return i <= static_cast<I>(INT64_MAX);
  else
    return true;
}

/// Throws the value_error of an extent that is negative or beyond index_t,
/// naming the axis (out of line: a cold path).
[[noreturn]] SINTER_NOINLINE void throw_bad_extent(const char* who, std::size_t axis, const std::string& value,
                                                   bool negative) {
  throw value_error(std::string(who) + ": axis " + std::to_string(axis) + " has extent " + value +
                    (negative ? "; extents must be 0 or more"
                              : ", beyond sinter::index_t (int64); extents must be below 2^63"));
}

/// Throws (on the host) if i, the extent of axis d, is beyond index_t.
template <class I>
SINTER_HD constexpr void check_fits_index(I i, std::size_t d) {
  if constexpr (std::is_unsigned_v<I> && sizeof(I) >= sizeof(index_t)) {
#if !SINTER_DEVICE_CODE()
    if (!fits_index(i)) throw_bad_extent("sinter::extents", d, std::to_string(static_cast<std::uint64_t>(i)), false);
#endif
  }
  (void)i, (void)d;
}
}  // namespace detail

/// The extents (or strides) of a rank-R array: `sinter::extents<2>{3, 4}`.
/// Like std::array<index_t, R>, but usable in CUDA device code (std::array's
/// members are host functions there).
template <std::size_t R>
struct extents {
  index_t v[R == 0 ? 1 : R];  // one unused slot for rank 0: C++ has no zero-size arrays

  /// All zeros as `extents<R>{}`; uninitialised as `extents<R> e;`.
  extents() = default;
  /// From R integers of any type, so `{n, 3}` with std::size_t n needs no
  /// cast; an unsigned value beyond index_t throws value_error naming its axis.
  template <class... I>
    requires(R > 0 && sizeof...(I) == R && (detail::extent_integer<I> && ...))
  SINTER_HD constexpr extents(I... i) : v{static_cast<index_t>(i)...} {
    std::size_t d = 0;
    (detail::check_fits_index(i, d++), ...);
  }
  /// From the array itself, element by element (`{{a, b}}`, the aggregate form).
  SINTER_HD constexpr extents(const index_t (&a)[R == 0 ? 1 : R]) : v{} {
    for (std::size_t d = 0; d != (R == 0 ? 1 : R); ++d) v[d] = a[d];
  }

  SINTER_HD constexpr index_t& operator[](std::size_t i) { return v[i]; }
  SINTER_HD constexpr const index_t& operator[](std::size_t i) const { return v[i]; }
  SINTER_HD static constexpr std::size_t size() { return R; }
  SINTER_HD constexpr index_t* data() { return v; }
  SINTER_HD constexpr const index_t* data() const { return v; }
  SINTER_HD constexpr index_t* begin() { return v; }
  SINTER_HD constexpr index_t* end() { return v + R; }
  SINTER_HD constexpr const index_t* begin() const { return v; }
  SINTER_HD constexpr const index_t* end() const { return v + R; }
  SINTER_HD friend constexpr bool operator==(const extents& a, const extents& b) {
    for (std::size_t i = 0; i != R; ++i)
      if (a.v[i] != b.v[i]) return false;
    return true;
  }
};

namespace detail {

/// One extent (or axis) of a braced list as a caller writes it, of any
/// integer type: the parameter `const extent_arg (&)[R]` deduces R from
/// `{n, 3}` whatever the types of n and 3 (std::size_t, int...).
struct extent_arg {
  index_t value;    // the value, or the low bits of one beyond index_t
  bool too_large;   // an unsigned value beyond index_t
  template <class I>
    requires extent_integer<I>
  constexpr extent_arg(I i) : value(static_cast<index_t>(i)), too_large(!fits_index(i)) {}
};

/// The extents of a braced list: value_error naming the axis of a value
/// beyond index_t, or (unless negatives are allowed: reshape's -1, axes) of a negative one.
template <std::size_t R>
extents<R> extents_of(const extent_arg (&s)[R], const char* who, bool allow_negative = false) {
  extents<R> e{};
  for (std::size_t d = 0; d != R; ++d) {
    if (s[d].too_large) throw_bad_extent(who, d, std::to_string(static_cast<std::uint64_t>(s[d].value)), false);
    if (s[d].value < 0 && !allow_negative) throw_bad_extent(who, d, std::to_string(s[d].value), true);
    e[d] = s[d].value;
  }
  return e;
}

/// Throws value_error naming the first axis of `shape` with a negative extent.
template <std::size_t R>
void check_extents(const extents<R>& shape, const char* who) {
  for (std::size_t d = 0; d != R; ++d)
    if (shape[d] < 0) throw_bad_extent(who, d, std::to_string(shape[d]), true);
}

/// Number of elements of a shape (1 for rank 0).
template <std::size_t R>
SINTER_HD constexpr index_t shape_size(const extents<R>& s) {
  index_t n = 1;
  for (std::size_t d = 0; d != R; ++d) n *= s[d];
  return n;
}

/// Row-major (C order) strides, in elements.
template <std::size_t R>
SINTER_HD constexpr extents<R> row_major_strides(const extents<R>& s) {
  extents<R> st{};
  index_t acc = 1;
  for (std::size_t d = R; d-- > 0;) {
    st[d] = acc;
    acc *= s[d];
  }
  return st;
}

/// "(3, 4)" — the way NumPy prints a shape.
template <std::size_t R>
std::string shape_string(const extents<R>& s) {
  std::string out = "(";
  for (std::size_t d = 0; d != R; ++d) {
    if (d) out += ", ";
    out += std::to_string(s[d]);
  }
  if (R == 1) out += ",";
  return out + ")";
}

/// Whether `from` broadcasts to `to` (trailing dimensions aligned; each
/// extent equal or 1; `from` may have lower rank).
template <std::size_t RF, std::size_t RT>
constexpr bool broadcasts_to(const extents<RF>& from, const extents<RT>& to) {
  if constexpr (RF > RT) {
    return false;
  } else {
    for (std::size_t d = 0; d != RF; ++d) {
      const index_t f = from[d], t = to[RT - RF + d];
      if (f != t && f != 1) return false;
    }
    return true;
  }
}

/// Throws the shape_error of broadcast_shapes (out of line: the check stays small).
template <std::size_t RA, std::size_t RB>
[[noreturn]] SINTER_NOINLINE void throw_no_broadcast(const extents<RA>& a, const extents<RB>& b,
                                                     const char* what) {
  throw shape_error(std::string(what) + ": shapes " + shape_string(a) + " and " + shape_string(b) +
                    " do not broadcast");
}

/// Broadcast two shapes (numpy rules) or throw shape_error naming both and the operation.
template <std::size_t RA, std::size_t RB>
SINTER_FORCEINLINE extents<(RA > RB ? RA : RB)> broadcast_shapes(const extents<RA>& a, const extents<RB>& b,
                                                                  const char* what) {
  constexpr std::size_t R = RA > RB ? RA : RB;
  extents<R> out{};
  for (std::size_t d = 0; d != R; ++d) {
    const index_t ea = d + RA >= R ? a[d + RA - R] : 1;
    const index_t eb = d + RB >= R ? b[d + RB - R] : 1;
    if (ea != eb && ea != 1 && eb != 1) [[unlikely]]
      throw_no_broadcast(a, b, what);
    out[d] = ea == 1 ? eb : ea;
  }
  return out;
}

/// Strides of `s` (with strides `st`) seen through the broadcast to shape `to`:
/// leading new dimensions and stretched extents get stride 0.
template <std::size_t RF, std::size_t RT>
SINTER_HD constexpr extents<RT> broadcast_strides(const extents<RF>& s, const extents<RF>& st,
                                                  const extents<RT>& to) {
  extents<RT> out{};
  if constexpr (RT > 0) {  // at rank 0 nvcc warns of a pointless unsigned comparison
    for (std::size_t d = 0; d != RT; ++d) {
      if (d + RF < RT) {
        out[d] = 0;
      } else {
        const std::size_t k = d + RF - RT;
        out[d] = (s[k] == 1 && to[d] != 1) ? 0 : st[k];
      }
    }
  }
  return out;
}

}  // namespace detail
}  // namespace sinter

template <std::size_t R>
struct std::tuple_size<sinter::extents<R>> : std::integral_constant<std::size_t, R> {};
template <std::size_t I, std::size_t R>
struct std::tuple_element<I, sinter::extents<R>> {
  using type = sinter::index_t;
};
