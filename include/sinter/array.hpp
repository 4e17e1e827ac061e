#pragma once
/// \file array.hpp
/// sinter::array: an owning, contiguous, row-major N-D array whose policy
/// type says where its data lives and where work on it runs. Value
/// semantics: a copy is a deep copy (one pass), a move steals the buffer.
#include <algorithm>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

#include "evaluate.hpp"
#include "policy/host.hpp"
#include "slice.hpp"
#include "view.hpp"

namespace sinter {

/// An owning N-D array of T in the memory of policy P (host, par, cuda).
/// Example: `sinter::array<float, 2> m({3, 4}); m = 1.f; m(0, 1) = 2.f;`
template <class T, std::size_t R, class P = host>
class array {
  static_assert(element<T>,
                "sinter::array: element type must be bool, an integer, float, double, "
                "sinter::half or sinter::bfloat16");
  static_assert(policy<P>, "sinter::array: P must be a policy (sinter::host, sinter::par, sinter::cuda)");

 public:
  using value_type = T;
  using policy_type = P;
  using shape_type = extents<R>;
  static constexpr std::size_t rank = R;

  /// An empty array (shape all zeros; for rank 0, one element).
  array() : array(extents<R>{}) {}
  /// An array of the given shape, of any integer types (`{n, 3}` with
  /// std::size_t n); elements are uninitialised (as numpy.empty).
  // A template, so that a bare integer never reaches it: else `{n}` could
  // also build a temporary array for the copy constructor (ambiguous in g++).
  template <class S = extents<R>>
    requires std::is_same_v<S, extents<R>>
  explicit array(const S& shape, P pol = {}) : shape_(shape), policy_(pol) {
    detail::check_extents(shape, "sinter::array");
    data_ = static_cast<T*>(detail::backend<P>::allocate(policy_, bytes()));
  }
  /// Evaluate an expression (or copy an array or view) into a new array of
  /// its shape. Implicit only when every value of the expression's element
  /// type is exactly a T (float -> double: yes; double -> float, int64 ->
  /// int32, float -> int: explicit, `sinter::array<float, 1>(x)` or `sinter::cast<float>(x)`).
  template <expression E>
    requires(!std::is_same_v<std::remove_cvref_t<E>, array>)
  explicit(!exact_conversion_v<typename std::remove_cvref_t<E>::value_type, T>) array(E&& e, P pol = {})
      : policy_(pol) {
    auto&& x = detail::as_operand(std::forward<E>(e));  // an expr by reference: no copy of its tree
    static_assert(std::remove_cvref_t<decltype(x)>::rank == R,
                  "sinter::array: the expression's rank differs from the array's");
    shape_ = x.shape();
    data_ = static_cast<T*>(detail::backend<P>::allocate(policy_, bytes()));
    detail::assign(policy_, leaf(), x);
  }
  /// Deep copy.
  array(const array& o) : array(o.shape_, o.policy_) { detail::assign(policy_, leaf(), o.as_expr()); }
  /// Steals the buffer; `o` is left empty.
  array(array&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), shape_(std::exchange(o.shape_, extents<R>{})),
        policy_(o.policy_) {}
  ~array() { release(); }

  /// Deep copy; takes o's shape.
  array& operator=(const array& o) {
    if (this != &o) *this = o.as_expr();
    return *this;
  }
  array& operator=(array&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      shape_ = std::exchange(o.shape_, extents<R>{});
      policy_ = o.policy_;
    }
    return *this;
  }
  /// `a = expr`: an expression of the same rank gives the array its shape
  /// (reallocating only if the shape changes); a lower-rank expression or a
  /// scalar broadcasts into the current shape.
  template <operand E>
    requires(!std::is_same_v<std::remove_cvref_t<E>, array>)
  SINTER_FORCEINLINE array& operator=(E&& e) {
    auto&& x = detail::as_operand(std::forward<E>(e));
    if constexpr (std::remove_cvref_t<decltype(x)>::rank == R) {
      if (x.shape() != shape_) [[unlikely]] {
        assign_reshaped(x);
        return *this;
      }
    }
    detail::assign(policy_, leaf(), x);
    return *this;
  }

#define SINTER_ARRAY_COMPOUND(op, fn)                                         \
  template <operand E>                                                        \
  SINTER_FORCEINLINE array& operator op(E&& e) {                              \
    detail::assign(policy_, leaf(), detail::make_map(fn::name, fn{}, as_expr(), std::forward<E>(e))); \
    return *this;                                                             \
  }
  SINTER_ARRAY_COMPOUND(+=, detail::ops::add)
  SINTER_ARRAY_COMPOUND(-=, detail::ops::sub)
  SINTER_ARRAY_COMPOUND(*=, detail::ops::mul)
  SINTER_ARRAY_COMPOUND(/=, detail::ops::div)
  SINTER_ARRAY_COMPOUND(%=, detail::ops::mod)
  SINTER_ARRAY_COMPOUND(&=, detail::ops::bit_and)
  SINTER_ARRAY_COMPOUND(|=, detail::ops::bit_or)
  SINTER_ARRAY_COMPOUND(^=, detail::ops::bit_xor)
#undef SINTER_ARRAY_COMPOUND

  /// Extents.
  const extents<R>& shape() const { return shape_; }
  /// Extent of one axis.
  index_t shape(std::size_t axis) const { return shape_[axis]; }
  /// Row-major strides in elements.
  extents<R> strides() const { return detail::row_major_strides(shape_); }
  /// Number of elements.
  index_t size() const { return detail::shape_size(shape_); }
  /// Pointer to the contiguous elements (device memory for device policies).
  T* data() { return data_; }
  const T* data() const { return data_; }
  /// The policy (where the data lives).
  const P& policy() const { return policy_; }
  /// Swap contents with another array.
  void swap(array& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(shape_, o.shape_);
    std::swap(policy_, o.policy_);
  }

  /// Index with integers (an element reference when all R are given), slices, all, newaxis.
  template <detail::index_arg... A>
  SINTER_FORCEINLINE decltype(auto) operator()(const A&... a) & {
    return view<T, R, P>(*this)(a...);
  }
  template <detail::index_arg... A>
  SINTER_FORCEINLINE decltype(auto) operator()(const A&... a) const& {
    return view<const T, R, P>(*this)(a...);
  }
  // Poison overload: a view of a temporary would dangle.
  template <detail::index_arg... A>
  void operator()(const A&...) && {
    static_assert(sizeof...(A) < 0,
                  "sinter: indexing a temporary array would dangle; name the array first");
  }

  /// An implicit conversion to an element type that does not hold every
  /// value of T is an error with a remedy (Eigen's rule; the explicit
  /// constructor above converts). A conversion, so that g++ and clang++ show this text.
  template <class U>
    requires(!exact_conversion_v<T, U>)
  operator array<U, R, P>() const {
    static_assert(sizeof(U) == 0,
                  "sinter::array: implicit conversion to an element type that does not hold every value "
                  "(double to float, int64 to int32, float to int); convert explicitly: "
                  "sinter::array<float, 1>(x) or sinter::cast<float>(x)");
    return {};
  }

  /// A view of the whole array.
  operator view<T, R, P>() { return view<T, R, P>(data_, shape_, strides(), policy_); }
  operator view<const T, R, P>() const { return view<const T, R, P>(data_, shape_, strides(), policy_); }

  /// Contiguous iteration (host policies only).
  T* begin() { return host_ptr(); }
  T* end() { return host_ptr() + size(); }
  const T* begin() const { return host_ptr(); }
  const T* end() const { return host_ptr() + size(); }

  /// The expression leaf reading this array.
  SINTER_FORCEINLINE auto as_expr() const& {
    return expr<detail::memory_leaf<const T, R, true>, P, 0>({data_, shape_, strides()});
  }
  /// Moving an array into an expression keeps its buffer alive in the expression.
  auto as_owning_expr() && {
    auto keep = std::make_shared<array>(std::move(*this));
    const T* p = keep->data_;
    const auto s = keep->shape_;
    return expr<detail::memory_leaf<const T, R, true>, P, 1>({p, s, detail::row_major_strides(s)},
                                                       {std::shared_ptr<const void>(std::move(keep))});
  }
  /// The leaf writing this array.
  SINTER_FORCEINLINE detail::memory_leaf<T, R> leaf() { return {data_, shape_, strides()}; }

 private:
  /// operator='s path for an expression of another shape: evaluate into a
  /// new buffer of that shape, then take it (out of line: a cold path).
  /// The new buffer overlaps no operand, so the pass goes straight to the
  /// general path (run_pass), without assign's alias check and inline path
  /// (one copy fewer of the expression's loop).
  template <class X>
  SINTER_NOINLINE void assign_reshaped(const X& x) {
    array fresh(x.shape(), policy_);
    if constexpr (requires { assign_product(policy_, fresh.leaf(), x); }) {  // a pending matrix product: linalg_fused.hpp
      if (!assign_product(policy_, fresh.leaf(), x)) detail::run_pass(policy_, fresh.leaf(), x.node());
    } else {
      detail::run_pass(policy_, fresh.leaf(), x.node());
    }
    swap(fresh);
  }
  std::size_t bytes() const { return static_cast<std::size_t>(size()) * sizeof(T); }
  void release() noexcept {
    if (data_) detail::backend<P>::deallocate(policy_, data_, bytes());
    data_ = nullptr;
  }
  T* host_ptr() const {
    static_assert(detail::backend<P>::host_accessible,
                  "sinter: iterating device memory; copy to the host with sinter::to<sinter::host>(x)");
    return data_;
  }

  T* data_ = nullptr;
  extents<R> shape_{};
  [[no_unique_address]] P policy_{};
};

/// Evaluate an expression into a new array of its policy (host for
/// policy-neutral expressions such as arange): `auto c = sinter::eval(a + b);`
template <expression E>
auto eval(E&& e) {
  auto x = detail::as_expr(std::forward<E>(e));
  using X = decltype(x);
  using P0 = typename X::policy_type;
  using P = std::conditional_t<std::is_same_v<P0, detail::any_policy>, host, P0>;
  return array<typename X::value_type, X::rank, P>(std::move(x));
}

}  // namespace sinter
