#pragma once
/// \file mask.hpp
/// Boolean masks, as NumPy's: `compress(mask, x)` (NumPy's `x[mask]`),
/// `compress(condition, x, axis)`, `flatnonzero`, `nonzero` and
/// `put_mask` (numpy.putmask). Extraction evaluates the mask once, counts,
/// allocates the result at its exact size and reads x at the selected
/// positions only (mask_engine.hpp on host and par, mask_cuda.hpp with CUB
/// on cuda): `compress(x > 0, exp(x))` materialises neither expression. The
/// order is row-major, the same on every policy and thread count.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "array.hpp"
#include "expression.hpp"
#include "functions.hpp"
#include "join.hpp"
#include "mask_engine.hpp"
#include "policy/cuda.hpp"
#include "reduce.hpp"
#include "take.hpp"
#include "transfer.hpp"
#if SINTER_HAS_CUDA()
#include "mask_cuda.hpp"  // CUB's mask_selector<cuda>: only in files compiled as CUDA
#endif

namespace sinter {
namespace detail {

/// A position's own row-major flat index: the values flatnonzero selects.
struct flat_index_gen {
  using value_type = std::int64_t;
  static constexpr const char* name = "flat_index";
  SINTER_HD SINTER_FORCEINLINE std::int64_t operator()(index_t o) const { return o; }
};

/// The leaf of every flat index of `shape`.
template <std::size_t R>
gen_leaf<flat_index_gen, R> flat_index_leaf(const extents<R>& shape) {
  return {flat_index_gen{}, 0, shape, row_major_strides(shape)};
}

/// put_mask's values when their size differs from x's: element o of x's
/// flat order reads values[o % size] (contiguous), as numpy.putmask repeats them.
template <class T>
struct cyclic_gen {
  using value_type = T;
  static constexpr const char* name = "cyclic";
  const T* ptr;
  index_t size;
  SINTER_HD SINTER_FORCEINLINE T operator()(index_t o) const { return ptr[o % size]; }
  /// Whether it reads a byte of [lo, hi) (evaluate.hpp's alias check).
  SINTER_HD bool touches(std::uintptr_t lo, std::uintptr_t hi) const {
    const auto b = reinterpret_cast<std::uintptr_t>(ptr);
    return b < hi && lo < b + static_cast<std::uintptr_t>(size) * sizeof(T);
  }
};

/// How a policy extracts the values of bound node x where bound mask m is
/// true: host and par here (mask_engine.hpp); cuda specialises it (mask_cuda.hpp).
template <class P>
struct mask_selector {
  template <class V, std::size_t R, class MNode, class XNode>
  static array<V, 1, P> select(const P& pol, const MNode& m, const XNode& x, const extents<R>& shape) {
    return mask_host::select<V>(pol, m, x, shape);
  }
};

#if !SINTER_HAS_CUDA()
/// mask_selector<cuda> in a file not compiled as CUDA: refused at compile time.
template <>
struct mask_selector<cuda> {
  template <class V, std::size_t R, class MNode, class XNode>
  static array<V, 1, cuda> select(const cuda&, const MNode&, const XNode&, const extents<R>&) {
    static_assert(compiled_as_cuda_v<MNode>,
                  "sinter::cuda: compile this file as CUDA (nvcc, or LANGUAGE CUDA in CMake) to use cuda arrays");
    return array<V, 1, cuda>(extents<1>{0});
  }
};
#endif

/// The policy value an extraction from e runs on (its operand's own, else the expression's).
template <class P, class E>
P mask_policy(const std::optional<P>& own, const E& e) {
  if constexpr (std::is_same_v<P, any_policy>) return host{};
  else return reduction_policy<P>(own, e);
}

template <class M, class X>
using mask_policy_t =
    placed_policy_t<common_policy_t<typename expr_of_t<M>::policy_type, typename expr_of_t<X>::policy_type>>;

template <class E>
inline constexpr bool bool_mask_v = std::is_same_v<typename expr_of_t<E>::value_type, bool>;

/// flatnonzero of a bound mask node of `shape`, on policy value pol.
template <class P, std::size_t R, class MNode>
array<std::int64_t, 1, P> flat_positions(const P& pol, const MNode& m, const extents<R>& shape) {
  return mask_selector<P>::template select<std::int64_t>(pol, m, flat_index_leaf(shape), shape);
}

}  // namespace detail

/// NumPy's `x[mask]`: the elements of x where mask (bool) is true, in
/// row-major order, as a new 1-D array of x's element type and policy. The
/// two broadcast against each other (NumPy requires equal shapes; a
/// lower-rank NumPy mask selecting whole rows is `compress(cond, x, axis)`
/// here); else shape_error naming both. Either may be a lazy expression:
/// `auto y = sinter::compress(x > 0, sinter::exp(x));` computes exp at the selected elements' blocks only.
template <class M, class X>
  requires(expression<M> && expression<X>)
auto compress(M&& mask, X&& x) {
  static_assert(detail::bool_mask_v<M>,
                "sinter::compress: the mask must be bool; write `m != 0` for truthiness, or use "
                "sinter::take for integer indices");
  using P = detail::mask_policy_t<M, X>;
  const std::optional<P> own = detail::own_policy<P>(x);
  auto me = detail::as_expr(std::forward<M>(mask));
  auto xe = detail::as_expr(std::forward<X>(x));
  using V = typename decltype(xe)::value_type;
  const auto shape = detail::broadcast_shapes(me.shape(), xe.shape(), "sinter::compress");
  const P pol = detail::mask_policy<P>(own, xe);
  return detail::mask_selector<P>::template select<V>(pol, me.node().bind(shape), xe.node().bind(shape), shape);
}

/// numpy.flatnonzero: the row-major flat indices (int64) of the non-zero
/// elements of any expression (NaN counts as non-zero), as a 1-D array of its policy.
template <class M>
  requires expression<M>
auto flatnonzero(M&& mask) {
  using P = detail::placed_policy_t<typename detail::expr_of_t<M>::policy_type>;
  const std::optional<P> own = detail::own_policy<P>(mask);
  auto me = detail::as_expr(std::forward<M>(mask));
  return detail::flat_positions(detail::mask_policy<P>(own, me), me.node().bind(me.shape()), me.shape());
}

/// numpy.nonzero: for each axis, the int64 indices of the non-zero elements
/// along it (row-major order), as a std::array of R 1-D arrays of the
/// mask's policy: `auto [i, j] = sinter::nonzero(m);`. Rank 0 is refused (as NumPy 2).
template <class M>
  requires expression<M>
auto nonzero(M&& mask) {
  using P = detail::placed_policy_t<typename detail::expr_of_t<M>::policy_type>;
  constexpr std::size_t R = detail::expr_of_t<M>::rank;
  static_assert(R >= 1, "sinter::nonzero: a rank-0 mask has no axes; use flatnonzero or reshape it");
  const std::optional<P> own = detail::own_policy<P>(mask);
  auto me = detail::as_expr(std::forward<M>(mask));
  const extents<R> shape = me.shape();
  const P pol = detail::mask_policy<P>(own, me);
  auto flat = detail::flat_positions(pol, me.node().bind(shape), shape);
  using A = array<std::int64_t, 1, P>;
  if constexpr (R == 1) {
    return std::array<A, 1>{std::move(flat)};
  } else {
    const extents<R> st = detail::row_major_strides(shape);
    // axis d's index from the flat one: (f / stride) % extent, one pass per axis
    return [&]<std::size_t... D>(std::index_sequence<D...>) {
      return std::array<A, R>{A((flat / std::int64_t{st[D]}) % std::int64_t{shape[D]}, pol)...};
    }(std::make_index_sequence<R>{});
  }
}

/// numpy.compress(condition, x, axis): the slices of x along `axis` where
/// the 1-D bool condition is true, as a new array of x's rank, type and
/// policy. A condition shorter than the axis selects among its first
/// elements; one longer may only be false past the axis (else index_error, as NumPy).
template <class C, class X>
  requires(expression<C> && expression<X>)
auto compress(C&& condition, X&& x, index_t axis) {
  static_assert(detail::bool_mask_v<C>, "sinter::compress: the condition must be bool; write `c != 0`");
  static_assert(detail::expr_of_t<C>::rank == 1, "sinter::compress: the condition along an axis must be 1-D");
  using P = detail::mask_policy_t<C, X>;
  const std::optional<P> own = detail::own_policy<P>(x);
  auto ce = detail::as_expr(std::forward<C>(condition));
  auto xe = detail::as_expr(std::forward<X>(x));
  using V = typename decltype(xe)::value_type;
  constexpr std::size_t RX = decltype(xe)::rank;
  static_assert(RX >= 1, "sinter::compress: x must have at least one axis");
  const std::size_t ax = detail::join_axis("sinter::compress", axis, RX);
  const P pol = detail::mask_policy<P>(own, xe);
  const auto idx = detail::flat_positions(pol, ce.node().bind(ce.shape()), ce.shape());
  const index_t n = idx.size();
  if (n > 0) {
    std::int64_t last = 0;
    if constexpr (detail::backend<P>::host_accessible) last = idx.data()[n - 1];
    else last = to<host>(idx(slice(n - 1, n))).data()[0];
    const index_t extent = xe.shape()[ax];
    if (last >= extent)
      throw index_error("sinter::compress: the condition is true at index " + std::to_string(last) +
                        ", out of bounds for axis " + std::to_string(ax) + " with size " + std::to_string(extent) +
                        "; the condition may be longer than the axis only where it is false");
  }
  return array<V, RX, P>(take(std::move(xe), idx, static_cast<index_t>(ax)), pol);
}

namespace detail {
template <std::size_t RA, std::size_t RB>
bool same_shape(const extents<RA>& a, const extents<RB>& b) {
  if constexpr (RA != RB) return false;
  else {
    for (std::size_t d = 0; d != RA; ++d)
      if (a[d] != b[d]) return false;
    return true;
  }
}

/// values as element type T (a cast node only where the types differ).
template <class T, class E>
auto as_type(E&& e) {
  if constexpr (std::is_same_v<typename std::remove_cvref_t<E>::value_type, T>) return std::forward<E>(e);
  else return cast<T>(std::forward<E>(e));
}
}  // namespace detail

/// numpy.putmask(x, mask, values): x[i] = values[i] where mask[i], i the
/// row-major flat position, in one fused pass over x (an array or view).
/// values of x's shape are read elementwise (any expression); of another
/// size, repeated cyclically over x's flat order (NumPy's rule; empty:
/// nothing changes); a scalar fills. Values convert to x's type. mask is
/// bool and broadcasts to x's shape (NumPy wants equal sizes), else
/// shape_error naming both, before anything is written. values overlapping
/// x read their old elements, as NumPy.
template <class X, class M, class Vs>
  requires(expression<M> && operand<Vs> && requires(X& v) { v.leaf(); })
void put_mask(X&& x, M&& mask, Vs&& values) {
  static_assert(detail::bool_mask_v<M>, "sinter::put_mask: the mask must be bool; write `m != 0`");
  using XD = std::remove_cvref_t<X>;
  using T = typename XD::value_type;
  using P = typename XD::policy_type;
  constexpr std::size_t R = XD::rank;
  auto me = detail::as_expr(std::forward<M>(mask));
  const extents<R> xs = x.shape();
  if (!detail::same_shape(detail::broadcast_shapes(me.shape(), xs, "sinter::put_mask"), xs))
    throw shape_error("sinter::put_mask: mask of shape " + detail::shape_string(me.shape()) +
                      " does not broadcast to x's shape " + detail::shape_string(xs) +
                      "; the mask must broadcast to x");
  if constexpr (element<std::remove_cvref_t<Vs>>) {
    x = where(std::move(me), static_cast<T>(values), x);
  } else {
    auto ve = detail::as_expr(std::forward<Vs>(values));
    using VT = typename decltype(ve)::value_type;
    constexpr std::size_t RV = decltype(ve)::rank;
    if (detail::same_shape(ve.shape(), xs)) {
      x = where(std::move(me), detail::as_type<T>(std::move(ve)), x);
      return;
    }
    if (ve.size() == 0) return;
    auto m = detail::join_operand<P>(std::move(ve));
    if (!detail::is_row_major(m.shape, m.strides)) {  // cyclic reads want one contiguous run
      auto a = std::make_shared<array<VT, RV, P>>(view<const VT, RV, P>(m.ptr, m.shape, m.strides, x.policy()));
      m = detail::join_mem<VT, RV>{a->data(), a->shape(), a->strides(), std::shared_ptr<const void>(std::move(a))};
    }
    using G = detail::cyclic_gen<VT>;
    const G g{m.ptr, detail::shape_size(m.shape)};
    expr<detail::gen_leaf<G, R>, P, 1> cyc(detail::gen_leaf<G, R>{g, 0, xs, detail::row_major_strides(xs)}, {m.keep});
    x = where(std::move(me), detail::as_type<T>(std::move(cyc)), x);
  }
}

}  // namespace sinter
