#pragma once
/// \file view.hpp
/// sinter::view: a non-owning strided window on memory — a slice of an
/// array, or memory the user already has (pointer + shape, std::vector,
/// std::span). Assigning to a view writes into that memory.
#include <cstddef>
#include <iterator>
#include <span>
#include <type_traits>
#include <vector>

#include "evaluate.hpp"
#include "functions.hpp"
#include "policy/host.hpp"
#include "slice.hpp"

namespace sinter {

namespace detail {
/// Row-major iterator over the elements of a strided layout (host memory).
template <class T, std::size_t R>
class strided_iterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = std::remove_const_t<T>;
  using difference_type = std::ptrdiff_t;
  using pointer = T*;
  using reference = T&;

  strided_iterator() = default;
  strided_iterator(T* base, const extents<R>& shape, const extents<R>& strides, index_t pos)
      : base_(base), shape_(shape), strides_(strides), pos_(pos) {
    index_t r = pos;
    for (std::size_t d = R; d-- > 0;) {
      if (shape_[d] == 0) break;
      idx_[d] = r % shape_[d];
      r /= shape_[d];
    }
  }
  T& operator*() const {
    index_t off = 0;
    for (std::size_t d = 0; d != R; ++d) off += idx_[d] * strides_[d];
    return base_[off];
  }
  strided_iterator& operator++() {
    ++pos_;
    for (std::size_t d = R; d-- > 0;) {
      if (++idx_[d] < shape_[d]) break;
      idx_[d] = 0;
    }
    return *this;
  }
  strided_iterator operator++(int) {
    auto t = *this;
    ++*this;
    return t;
  }
  friend bool operator==(const strided_iterator& a, const strided_iterator& b) {
    return a.pos_ == b.pos_;
  }

 private:
  T* base_ = nullptr;
  extents<R> shape_{}, strides_{}, idx_{};
  index_t pos_ = 0;
};
}  // namespace detail

/// A non-owning strided view of T (possibly const) in the memory of policy P.
/// Example: `float buf[12]; sinter::view<float, 2> v(buf, {3, 4}); v = 0.f;`
template <class T, std::size_t R, class P = host>
class view {
  static_assert(element<std::remove_const_t<T>>,
                "sinter::view: element type must be bool, an integer, float, double, "
                "sinter::half or sinter::bfloat16");

 public:
  using value_type = std::remove_const_t<T>;
  using element_type = T;
  using policy_type = P;
  using shape_type = extents<R>;
  static constexpr std::size_t rank = R;

  /// A contiguous row-major view of `n = prod(shape)` elements at p.
  SINTER_FORCEINLINE view(T* p, const extents<R>& shape, P pol = {})
      : ptr_(p), shape_(shape), strides_(detail::row_major_strides(shape)), policy_(pol) {}
  /// A view with explicit strides (in elements, may be negative or zero).
  SINTER_FORCEINLINE view(T* p, const extents<R>& shape, const extents<R>& strides, P pol = {})
      : ptr_(p), shape_(shape), strides_(strides), policy_(pol) {}
  /// A const view of a non-const view.
  template <class U>
    requires(std::is_same_v<const U, T> && !std::is_same_v<U, T>)
  view(const view<U, R, P>& v) : view(v.data(), v.shape(), v.strides(), v.policy()) {}

  view(const view&) = default;
  /// Assigning a view to a view copies the elements (numpy `v[...] = w`).
  view& operator=(const view& other) {
    detail::assign(policy_, leaf(), other.as_expr());
    return *this;
  }
  /// Evaluate an expression (or fill with a scalar) into the viewed elements, broadcasting.
  template <operand E>
  SINTER_FORCEINLINE view& operator=(E&& e) {
    detail::assign(policy_, leaf(), detail::as_operand(std::forward<E>(e)));
    return *this;
  }

  /// Extents.
  const extents<R>& shape() const { return shape_; }
  /// Strides in elements.
  const extents<R>& strides() const { return strides_; }
  /// Number of elements.
  index_t size() const { return detail::shape_size(shape_); }
  /// Pointer to the first element (element [0, 0, ...]).
  T* data() const { return ptr_; }
  /// The policy (where the memory lives).
  const P& policy() const { return policy_; }
  /// Whether the view is contiguous in row-major order.
  bool is_contiguous() const { return detail::is_row_major(shape_, strides_); }

  /// Index with integers (an element reference when all R are given), slices, all, newaxis.
  template <detail::index_arg... A>
  SINTER_FORCEINLINE decltype(auto) operator()(const A&... a) const {
    auto l = detail::apply_indices(shape_, strides_, a...);
    constexpr std::size_t RO = detail::indexed_rank_v<R, A...>;
    if constexpr (RO == 0 && sizeof...(A) == R && detail::added_v<A...> == 0) {
      static_assert(detail::backend<P>::host_accessible,
                    "sinter: element access to device memory; copy to the host with sinter::to<sinter::host>(x)");
      return static_cast<T&>(ptr_[l.offset]);
    } else {
      return view<T, RO, P>(ptr_ + l.offset, l.shape, l.strides, policy_);
    }
  }

  /// Row-major iteration (host memory only).
  auto begin() const { return detail::strided_iterator<T, R>(ptr_, shape_, strides_, 0); }
  auto end() const { return detail::strided_iterator<T, R>(ptr_, shape_, strides_, size()); }

  /// The expression leaf reading this view.
  SINTER_FORCEINLINE auto as_expr() const {
    return expr<detail::memory_leaf<const value_type, R>, P, 0>({ptr_, shape_, strides_});
  }
  /// The leaf writing this view.
  SINTER_FORCEINLINE detail::memory_leaf<T, R> leaf() const { return {ptr_, shape_, strides_}; }

#define SINTER_VIEW_COMPOUND(op, fn)                                          \
  template <operand E>                                                        \
  SINTER_FORCEINLINE view& operator op(E&& e) {                               \
    detail::assign(policy_, leaf(), detail::make_map(fn::name, fn{}, as_expr(), std::forward<E>(e))); \
    return *this;                                                             \
  }
  SINTER_VIEW_COMPOUND(+=, detail::ops::add)
  SINTER_VIEW_COMPOUND(-=, detail::ops::sub)
  SINTER_VIEW_COMPOUND(*=, detail::ops::mul)
  SINTER_VIEW_COMPOUND(/=, detail::ops::div)
#undef SINTER_VIEW_COMPOUND

 private:
  T* ptr_;
  extents<R> shape_;
  extents<R> strides_;
  [[no_unique_address]] P policy_;
};

namespace detail {
/// as_view of a std::vector or std::span: their memory is the CPU's.
template <class P>
constexpr void check_host_view_policy() {
  static_assert(backend<P>::host_accessible,
                "sinter::as_view: a std::vector or std::span holds host memory; view it as host or par");
}
}  // namespace detail

/// A 1-D view of a std::vector's elements (no copy); `as_view(v, sinter::par{})`
/// gives a par view of them (host and par mix in expressions).
template <class T, class A, policy P = host>
view<T, 1, P> as_view(std::vector<T, A>& v, P pol = {}) {
  detail::check_host_view_policy<P>();
  return view<T, 1, P>(v.data(), {static_cast<index_t>(v.size())}, pol);
}
/// A 1-D const view of a std::vector's elements.
template <class T, class A, policy P = host>
view<const T, 1, P> as_view(const std::vector<T, A>& v, P pol = {}) {
  detail::check_host_view_policy<P>();
  return view<const T, 1, P>(v.data(), {static_cast<index_t>(v.size())}, pol);
}
/// A 1-D view of a std::span (host, or par with `as_view(s, sinter::par{})`).
template <class T, std::size_t N, policy P = host>
view<T, 1, P> as_view(std::span<T, N> s, P pol = {}) {
  detail::check_host_view_policy<P>();
  return view<T, 1, P>(s.data(), {static_cast<index_t>(s.size())}, pol);
}
/// An N-D row-major view of user memory: `sinter::as_view(ptr, {rows, cols})`;
/// with a policy, memory of that policy: `sinter::as_view(ptr, {n}, sinter::par{})`.
template <class T, std::size_t R, policy P = host>
view<T, R, P> as_view(T* p, const detail::extent_arg (&shape)[R], P pol = {}) {
  return view<T, R, P>(p, detail::extents_of(shape, "sinter::as_view"), pol);
}

}  // namespace sinter
