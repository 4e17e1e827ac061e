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

#if !defined(SINTER_FIELD_COPY_BYTES)
/// Node trees up to this many bytes are copied field by field (copy_node),
/// larger ones whole. A tree over 1 KiB never stays in registers, and
/// copied field by field its statements grow with the square of the
/// expression's depth (each operator copies the whole tree below it), as
/// did GCC's alias walks over them: the 20-step chain of
/// tests/support/chains.hpp (17 KiB, 801 operations) compiled many times
/// slower so (docs/journal/code-notes.md#field-copy-limit). Black-Scholes'
/// trees (640 bytes) keep their field copies.
#define SINTER_FIELD_COPY_BYTES 1024
#endif

/// A copy of an expression node built field by field, as a new value: a
/// node type with `copy_fields()` (map_node, the leaves) of up to
/// SINTER_FIELD_COPY_BYTES builds it there, any other is copied whole. An
/// operator copies its operands' trees into the new node; copied whole, a
/// tree left registers (store forwarding: docs/design.md#store-forwarding;
/// docs/journal/code-notes.md#field-copies). Built from its fields, the
/// tree stays in registers.
template <class N>
SINTER_HD SINTER_FORCEINLINE constexpr N copy_node(const N& n) {
  if constexpr (sizeof(N) <= SINTER_FIELD_COPY_BYTES && requires { n.copy_fields(); }) return n.copy_fields();
  else return n;
}
/// copy_node of every element of a pack, each built in its place.
template <class H>
SINTER_HD SINTER_FORCEINLINE constexpr pack<H> copy_pack(const pack<H>& p) {
  return {copy_node(p.head)};
}
template <class H, class H2, class... T>
SINTER_HD SINTER_FORCEINLINE constexpr pack<H, H2, T...> copy_pack(const pack<H, H2, T...>& p) {
  return {copy_node(p.head), copy_pack(p.tail)};
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
