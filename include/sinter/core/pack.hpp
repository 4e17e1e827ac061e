#pragma once
/// \file pack.hpp
/// A minimal aggregate tuple for expression nodes. std::tuple is not
/// trivially copyable, and nodes must be, so that a whole expression tree can
/// be passed by value as a CUDA kernel parameter.
#include <cstddef>
#include <type_traits>
#include <utility>

#include "../config.hpp"

namespace sinter::detail {

/// pack<A, B, C>: an aggregate holding one A, one B and one C.
template <class... T>
struct pack;

template <>
struct pack<> {};

/// The last element has no (empty) tail: an empty member takes a byte,
/// padded to the next member's alignment, so every node of an expression
/// tree grew by 8 bytes (GCC keeps a tree in registers only up to a size;
/// see map_node.hpp, fn_slot).
template <class H>
struct pack<H> {
  H head;
};

template <class H, class H2, class... T>
struct pack<H, H2, T...> {
  H head;
  pack<H2, T...> tail;
};

/// The number of elements of a pack type.
template <class P>
inline constexpr std::size_t pack_size_v = 0;
template <class... T>
inline constexpr std::size_t pack_size_v<pack<T...>> = sizeof...(T);

/// The I-th element of a pack.
template <std::size_t I, class H, class... T>
SINTER_HD SINTER_FORCEINLINE constexpr const auto& get(const pack<H, T...>& p) {
  if constexpr (I == 0) return p.head;
  else return get<I - 1>(p.tail);
}

/// Build a pack from values, each copied (or moved) once, straight into its
/// place: by-value parameters copied every element again at each level of
/// the recursion, and an expression's node tree with it.
SINTER_HD constexpr pack<> make_pack() { return {}; }
template <class H, class... T>
SINTER_HD SINTER_FORCEINLINE constexpr pack<std::decay_t<H>, std::decay_t<T>...> make_pack(H&& h,
                                                                                         T&&... t) {
  if constexpr (sizeof...(T) == 0) return {std::forward<H>(h)};
  else return {std::forward<H>(h), make_pack(std::forward<T>(t)...)};
}

/// Apply f to every element of a pack, in order.
template <class F, class... T>
SINTER_FORCEINLINE void for_each(const pack<T...>& p, F&& f) {
  if constexpr (sizeof...(T) > 0) {
    f(p.head);
    if constexpr (sizeof...(T) > 1) for_each(p.tail, f);
  }
}

}  // namespace sinter::detail
