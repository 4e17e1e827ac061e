#pragma once
/// \file pack.hpp
/// A minimal aggregate tuple for expression nodes. std::tuple is not
/// trivially copyable, and nodes must be, so that a whole expression tree can
/// be passed by value as a CUDA kernel parameter.
#include <cstddef>
#include <utility>

#include "../config.hpp"

namespace sinter::detail {

/// pack<A, B, C>: an aggregate holding one A, one B and one C.
template <class... T>
struct pack;

template <>
struct pack<> {};

template <class H, class... T>
struct pack<H, T...> {
  H head;
  pack<T...> tail;
};

/// The I-th element of a pack.
template <std::size_t I, class H, class... T>
SINTER_HD SINTER_FORCEINLINE constexpr const auto& get(const pack<H, T...>& p) {
  if constexpr (I == 0) return p.head;
  else return get<I - 1>(p.tail);
}

/// Build a pack from values.
SINTER_HD constexpr pack<> make_pack() { return {}; }
template <class H, class... T>
SINTER_HD constexpr pack<H, T...> make_pack(H h, T... t) {
  return pack<H, T...>{h, make_pack(t...)};
}

/// Apply f to every element of a pack, in order.
template <class F, class... T>
void for_each(const pack<T...>& p, F&& f) {
  if constexpr (sizeof...(T) > 0) {
    f(p.head);
    for_each(p.tail, f);
  }
}

}  // namespace sinter::detail
