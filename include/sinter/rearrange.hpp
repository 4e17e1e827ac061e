#pragma once
/// \file rearrange.hpp
/// Rearranging elements as numpy does, without copying: flip (a view with
/// negative strides), roll and pad (lazy: a generator leaf that reads the
/// source in place, so `exp(roll(a, 1, 0))` is one pass over a). diff, tile
/// and repeat, which build new arrays, are in rearrange_copy.hpp.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "array.hpp"
#include "core/error.hpp"
#include "core/leaf.hpp"
#include "core/shape.hpp"
#include "expression.hpp"
#include "view.hpp"
#include "view_ops.hpp"

namespace sinter {

/// Widths of padding before and after one axis: `sinter::pad(x, {{1, 2}, {0, 3}})`.
struct pad_width {
  index_t before, after;
  /// `{before, after}`.
  constexpr pad_width(index_t b, index_t a) : before(b), after(a) {}
};

namespace detail {

/// A layout whose first element moves by `offset` elements (flip).
template <std::size_t R>
struct offset_layout {
  extents<R> shape, strides;
  index_t offset;
};

/// restride (view_ops.hpp) for a layout that also moves the first element.
template <bool ReadOnly, class X, class F>
auto restride_at(X&& x, F&& f) {
  using D = std::remove_cvref_t<X>;
  if constexpr (is_array<D>::value) {
    if constexpr (std::is_lvalue_reference_v<X&&>) {
      using T = std::conditional_t<std::is_const_v<std::remove_reference_t<X>>, const typename D::value_type,
                                   typename D::value_type>;
      return restride_at<ReadOnly>(view<T, D::rank, typename D::policy_type>(x), f);
    } else {
      return restride_at<ReadOnly>(std::move(x).as_owning_expr(), f);
    }
  } else if constexpr (is_view<D>::value) {
    const auto l = f(x.shape(), x.strides());
    using T = std::conditional_t<ReadOnly, const typename D::element_type, typename D::element_type>;
    return view<T, D::rank, typename D::policy_type>(x.data() + l.offset, l.shape, l.strides, x.policy());
  } else {
    const auto& n = x.node();
    const auto l = f(n.shape, n.strides);
    using P = typename D::policy_type;
    constexpr std::size_t K = D::keep_count();
    if constexpr (is_memory_leaf<typename D::node_type>::value) {
      using T = std::remove_pointer_t<decltype(n.ptr)>;
      return expr<memory_leaf<T, D::rank>, P, K>({n.ptr + l.offset, l.shape, l.strides}, x.keep());
    } else {
      return expr<gen_leaf<decltype(n.gen), D::rank>, P, K>({n.gen, n.base + l.offset, l.shape, l.strides},
                                                            x.keep());
    }
  }
}

/// Axis `a` of a rank-R operand (negative counts from the end), or
/// value_error naming the function and the argument.
inline std::size_t checked_axis(index_t a, std::size_t R, const char* who, const char* arg = "axis") {
  const auto r = static_cast<index_t>(R);
  if (a < -r || a >= r)
    throw value_error(std::string(who) + ": " + arg + " " + std::to_string(a) +
                      " is out of bounds for an array of rank " + std::to_string(R) + "; use -" +
                      std::to_string(R) + " .. " + std::to_string(R - 1));
  return static_cast<std::size_t>(a < 0 ? a + r : a);
}

/// The policy a new array built from x lives on: x's own (arrays and views
/// carry one), else the expression's, host for policy-neutral generators.
template <class X>
using result_policy_t = std::conditional_t<std::is_same_v<typename expr_of_t<X>::policy_type, any_policy>, host,
                                           typename expr_of_t<X>::policy_type>;
template <class P, class X>
P policy_value(const X& x) {
  if constexpr (requires { P(x.policy()); }) return P(x.policy());
  else return P{};
}

/// x as an expression over one memory leaf: arrays and views are read in
/// place (an rvalue array is kept alive), a memory expression passes as it
/// is, anything else (a computed expression, a generator) is evaluated.
template <class X>
auto stored_source(X&& x) {
  using D = std::remove_cvref_t<X>;
  if constexpr (is_array<D>::value || is_view<D>::value) {
    return as_expr(std::forward<X>(x));
  } else if constexpr (is_expr_v<D> && is_memory_leaf<typename D::node_type>::value) {
    return D(x);
  } else {
    return eval(std::forward<X>(x)).as_owning_expr();
  }
}

/// How remap_gen maps an output coordinate to a source one: roll wraps it,
/// pad clamps it (and, unless `edge`, reads `fill` outside the source).
enum class remap_kind { roll, pad };

/// A generator reading memory at remapped coordinates (roll, pad). Its
/// offset carries the output coordinates in bit fields, axis d's at bit
/// shift[d], so each coordinate costs a shift and a mask, no division; every
/// view of the leaf (slices, transposes, broadcasting) stays linear in them.
template <class T, std::size_t R, remap_kind K>
struct remap_gen {
  using value_type = T;
  static constexpr const char* name = K == remap_kind::roll ? "roll" : "pad";
  const T* ptr;
  extents<R> n, strides;  // the source's extents and strides
  extents<R> lo;          // roll: the shift in [0, n); pad: the width before
  extents<R> shift, mask;
  T fill;
  bool edge;
  SINTER_HD SINTER_FORCEINLINE T operator()(index_t off) const {
    return at(off, std::make_index_sequence<R>{});
  }
  /// Source offset of axis d's coordinate in `off`; clears `inside` outside the source.
  SINTER_HD SINTER_FORCEINLINE index_t axis_offset(index_t off, std::size_t d, bool& inside) const {
    index_t j = ((off >> shift[d]) & mask[d]) - lo[d];
    if constexpr (K == remap_kind::roll) {
      j += j < 0 ? n[d] : 0;
    } else {
      inside = inside && j >= 0 && j < n[d];
      j = j < 0 ? 0 : j >= n[d] ? n[d] - 1 : j;
    }
    return j * strides[d];
  }
  // The axes as a fold, not a loop: clang at -O1 does not unroll a loop over
  // R, and a loop inside the pass's loop failed its vectorize(assume_safety).
  template <std::size_t... D>
  SINTER_HD SINTER_FORCEINLINE T at(index_t off, std::index_sequence<D...>) const {
    bool inside = true;
    const index_t src = (index_t{0} + ... + axis_offset(off, D, inside));
    if constexpr (K == remap_kind::pad) return inside || edge ? ptr[src] : fill;
    else return ptr[src];
  }
  /// Whether the source's bytes meet [blo, bhi) (evaluate.hpp's alias check).
  SINTER_HD bool touches(std::uintptr_t blo, std::uintptr_t bhi) const {
    index_t lo_off = 0, hi_off = 0;
    for (std::size_t d = 0; d != R; ++d) {
      if (n[d] == 0) return false;
      const index_t span = (n[d] - 1) * strides[d];
      (span < 0 ? lo_off : hi_off) += span;
    }
    const auto base = reinterpret_cast<std::uintptr_t>(ptr);
    const auto size = static_cast<index_t>(sizeof(T));
    return base + static_cast<std::uintptr_t>(lo_off * size) < bhi &&
           blo < base + static_cast<std::uintptr_t>((hi_off + 1) * size);
  }
};

/// The lazy leaf of remap_gen over source leaf `src` (shape `out`): bit fields
/// of bit_width(out[d] - 1) bits each, the innermost axis lowest.
template <remap_kind K, class Src, std::size_t R, class P, std::size_t KK>
auto remap_expr(const expr<Src, P, KK>& src, const extents<R>& out, const extents<R>& lo,
                typename Src::value_type fill, const char* who, bool edge = false) {
  using T = typename Src::value_type;
  const auto& s = src.node();
  remap_gen<T, R, K> g{s.ptr, s.shape, s.strides, lo, {}, {}, fill, edge};
  extents<R> enc{};
  index_t bits = 0;
  for (std::size_t d = R; d-- > 0;) {
    const auto w = static_cast<index_t>(out[d] > 1 ? std::bit_width(static_cast<std::uint64_t>(out[d] - 1)) : 0);
    g.shift[d] = bits;
    g.mask[d] = (index_t{1} << w) - 1;
    enc[d] = out[d] > 1 ? index_t{1} << bits : 0;
    bits += w;
  }
  if (bits > 62)
    throw value_error(std::string(who) + ": the result's shape " + shape_string(out) +
                      " is too large for a lazy remap; split the array along an axis");
  return expr<gen_leaf<remap_gen<T, R, K>, R>, P, KK>({g, 0, out, enc}, src.keep());
}

/// x's elements in row-major order as one contiguous memory leaf of rank 1
/// (a copy when x is not contiguous); one kept buffer either way.
template <class X>
auto flat_source(X&& x) {
  auto s = stored_source(std::forward<X>(x));
  using S = decltype(s);
  using T = typename S::value_type;
  using P = typename S::policy_type;
  const auto& n = s.node();
  std::array<std::shared_ptr<const void>, 1> keep{};
  const T* p = n.ptr;
  if constexpr (S::keep_count() == 1) keep = s.keep();
  if (!contiguous_layout(n.shape, n.strides)) {
    auto copy = std::make_shared<array<T, S::rank, P>>(s);
    p = copy->data();
    keep = {std::shared_ptr<const void>(std::move(copy))};
  }
  return expr<memory_leaf<const T, 1>, P, 1>({p, {{shape_size(n.shape)}}, {{1}}}, keep);
}

/// roll's shift normalised into [0, n) (numpy: a shift beyond the extent wraps).
inline index_t wrap_shift(index_t s, index_t n) {
  if (n == 0) return 0;
  s %= n;
  return s < 0 ? s + n : s;
}

}  // namespace detail

/// A view reversing the order along `axis` (negative counts from the end),
/// numpy's flip: `auto r = sinter::flip(x, 0);` (no copy; negative stride).
template <detail::restridable X>
auto flip(X&& x, index_t axis) {
  constexpr std::size_t R = std::remove_cvref_t<X>::rank;
  const std::size_t a = detail::checked_axis(axis, R, "sinter::flip");
  return detail::restride_at<false>(std::forward<X>(x), [a](const auto& s, const auto& st) {
    detail::offset_layout<R> l{s, st, 0};
    if (detail::shape_size(s) != 0) l.offset = (s[a] - 1) * st[a];
    l.strides[a] = -st[a];
    return l;
  });
}
/// flip along every axis (numpy's flip(x) with no axis).
template <detail::restridable X>
auto flip(X&& x) {
  constexpr std::size_t R = std::remove_cvref_t<X>::rank;
  return detail::restride_at<false>(std::forward<X>(x), [](const auto& s, const auto& st) {
    detail::offset_layout<R> l{s, st, 0};
    for (std::size_t d = 0; d != R; ++d) {
      if (detail::shape_size(s) != 0) l.offset += (s[d] - 1) * st[d];
      l.strides[d] = -st[d];
    }
    return l;
  });
}

/// Lazy roll along `axis`: element i comes from i - shift, wrapping (numpy's
/// roll; a shift beyond the extent or negative wraps): `a = sinter::roll(a, 1, 0);`
template <expression X>
auto roll(X&& x, index_t shift, index_t axis) {
  auto s = detail::stored_source(std::forward<X>(x));
  constexpr std::size_t R = decltype(s)::rank;
  const std::size_t a = detail::checked_axis(axis, R, "sinter::roll");
  extents<R> lo{};
  lo[a] = detail::wrap_shift(shift, s.shape()[a]);
  return detail::remap_expr<detail::remap_kind::roll>(s, s.shape(), lo, {}, "sinter::roll");
}
/// Lazy roll along several axes, shifts[i] along axes[i] (an axis named twice
/// adds its shifts, as numpy): `sinter::roll(m, {1, -2}, {0, 1})`.
template <expression X, std::size_t N>
auto roll(X&& x, const index_t (&shifts)[N], const index_t (&axes)[N]) {
  auto s = detail::stored_source(std::forward<X>(x));
  constexpr std::size_t R = decltype(s)::rank;
  extents<R> lo{};
  for (std::size_t i = 0; i != N; ++i) {
    const std::size_t a = detail::checked_axis(axes[i], R, "sinter::roll");
    lo[a] = detail::wrap_shift(lo[a] + detail::wrap_shift(shifts[i], s.shape()[a]), s.shape()[a]);
  }
  return detail::remap_expr<detail::remap_kind::roll>(s, s.shape(), lo, {}, "sinter::roll");
}
/// Lazy roll of the flattened elements, keeping x's shape (numpy's roll
/// without an axis); a non-contiguous x is copied once.
template <expression X>
auto roll(X&& x, index_t shift) {
  constexpr std::size_t R = std::remove_cvref_t<detail::expr_of_t<X>>::rank;
  const auto shape = detail::as_operand(x).shape();
  auto f = detail::flat_source(std::forward<X>(x));
  const auto n = f.shape()[0];
  const extents<1> lo{{detail::wrap_shift(shift, n)}};
  const auto flat = detail::remap_expr<detail::remap_kind::roll>(f, f.shape(), lo, {}, "sinter::roll");
  const auto& g = flat.node();
  using G = std::remove_cvref_t<decltype(g.gen)>;
  // One bit field holding the flat index: row-major strides address it.
  return expr<detail::gen_leaf<G, R>, typename decltype(flat)::policy_type, 1>(
      {g.gen, 0, shape, detail::row_major_strides(shape)}, flat.keep());
}

/// Lazy padding, numpy's pad: widths[d] before and after axis d (one pair for
/// every axis when one is given); mode "constant" (the value `value`) or
/// "edge" (the nearest element): `sinter::pad(grid, {{1, 1}}, "edge")`.
template <expression X, std::size_t N>
auto pad(X&& x, const pad_width (&widths)[N], std::string_view mode = "constant",
         typename detail::expr_of_t<X>::value_type value = {}) {
  auto s = detail::stored_source(std::forward<X>(x));
  constexpr std::size_t R = decltype(s)::rank;
  static_assert(N == R || N == 1, "sinter::pad: give one (before, after) pair per axis, or one for all");
  const bool edge = mode == "edge";
  if (!edge && mode != "constant")
    throw value_error("sinter::pad: mode \"" + std::string(mode) + "\" is not supported; use \"constant\" or \"edge\"");
  extents<R> out = s.shape(), lo{};
  for (std::size_t d = 0; d != R; ++d) {
    const pad_width w = widths[N == 1 ? 0 : d];
    if (w.before < 0 || w.after < 0)
      throw value_error("sinter::pad: widths must be non-negative; axis " + std::to_string(d) + " has (" +
                        std::to_string(w.before) + ", " + std::to_string(w.after) + ")");
    if (edge && s.shape()[d] == 0 && w.before + w.after > 0)
      throw value_error("sinter::pad: cannot extend the empty axis " + std::to_string(d) +
                        " in \"edge\" mode; use \"constant\"");
    lo[d] = w.before;
    out[d] += w.before + w.after;
  }
  return detail::remap_expr<detail::remap_kind::pad>(s, out, lo, value, "sinter::pad", edge);
}

/// pad with the same width before and after every axis: `sinter::pad(x, 1, "edge")`.
template <expression X>
auto pad(X&& x, index_t width, std::string_view mode = "constant",
         typename detail::expr_of_t<X>::value_type value = {}) {
  return pad(std::forward<X>(x), {pad_width{width, width}}, mode, value);
}

}  // namespace sinter
