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

/// The extents (or strides) of a rank-R array: `sinter::extents<2>{3, 4}`.
/// Like std::array<index_t, R>, but usable in CUDA device code (std::array's
/// members are host functions there).
template <std::size_t R>
struct extents {
  index_t v[R == 0 ? 1 : R];  // one unused slot for rank 0: C++ has no zero-size arrays

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
  for (std::size_t d = 0; d != RT; ++d) {
    if (d + RF < RT) {
      out[d] = 0;
    } else {
      const std::size_t k = d + RF - RT;
      out[d] = (s[k] == 1 && to[d] != 1) ? 0 : st[k];
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
