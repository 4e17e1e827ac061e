#pragma once
/// \file gather_gen.hpp
/// Generators that read memory: a concatenation (pieces side by side along
/// an axis) and a gather (take, take_along_axis). Each is the `G` of a
/// gen_leaf, so an expression reads it in place, on the host loops and in
/// the CUDA kernel body, and views of it work as of arange.
///
/// A generator sees one integer, the offset of a position. These leaves lay
/// the offset out as bit fields, one per axis (`coord_fields`): axis d's
/// index sits at bits [shift[d], shift[d] + width), so a position's indices
/// come back with shifts and masks, never a division.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "dtype.hpp"
#include "leaf.hpp"
#include "pack.hpp"
#include "shape.hpp"

namespace sinter::detail {

/// The bit fields of a position's offset, one per axis (see the file comment).
template <std::size_t R>
struct coord_fields {
  extents<R> shift;
  extents<R> mask;
  /// Axis d's index at offset o.
  SINTER_HD SINTER_FORCEINLINE index_t at(index_t o, std::size_t d) const { return (o >> shift[d]) & mask[d]; }
  /// Every axis's index at offset o. Folds, not loops over the axes: clang
  /// at -O1 did not vectorise the host loop around a loop it left rolled.
  SINTER_HD SINTER_FORCEINLINE extents<R> coords(index_t o) const {
    return coords(o, std::make_index_sequence<R>{});
  }
  template <std::size_t... D>
  SINTER_HD SINTER_FORCEINLINE extents<R> coords(index_t o, std::index_sequence<D...>) const {
    if constexpr (R == 0) return extents<R>{};
    else return extents<R>{{at(o, D)...}};
  }
};

/// The fields for `shape` and the gen_leaf strides that address them;
/// false when they need more than 62 bits (extents near 2^62 in all).
template <std::size_t R>
bool make_fields(const extents<R>& shape, coord_fields<R>& f, extents<R>& strides) {
  index_t bits = 0;
  for (std::size_t d = R; d-- > 0;) {
    index_t w = 0;
    while (w < 63 && (index_t{1} << w) < shape[d]) ++w;
    f.shift[d] = bits;
    f.mask[d] = d == 0 ? ~index_t{0} : (index_t{1} << w) - 1;
    strides[d] = index_t{1} << bits;
    bits += w;
    if (bits > 62) return false;
  }
  return true;
}

/// Lowest and one-past-highest byte of a strided layout (0, 0 when empty).
template <class T, std::size_t R>
SINTER_HD std::uintptr_t layout_bytes(const T* p, const extents<R>& shape, const extents<R>& strides,
                                      std::uintptr_t& hi_out) {
  index_t lo = 0, hi = 0;
  for (std::size_t d = 0; d != R; ++d) {
    if (shape[d] == 0) {
      hi_out = 0;
      return 0;
    }
    const index_t span = (shape[d] - 1) * strides[d];
    (span < 0 ? lo : hi) += span;
  }
  const auto base = reinterpret_cast<std::uintptr_t>(p);
  hi_out = base + static_cast<std::uintptr_t>(hi + 1) * sizeof(T);
  return base - static_cast<std::uintptr_t>(-lo) * sizeof(T);
}

/// sum(c[d] * s[d]) over the axes, as a fold (see coord_fields::coords).
template <std::size_t R, std::size_t... D>
SINTER_HD SINTER_FORCEINLINE index_t dot_axes(const extents<R>& c, const extents<R>& s, std::index_sequence<D...>) {
  return (index_t{0} + ... + (c[D] * s[D]));
}
template <std::size_t R>
SINTER_HD SINTER_FORCEINLINE index_t dot_axes(const extents<R>& c, const extents<R>& s) {
  return dot_axes(c, s, std::make_index_sequence<R>{});
}

/// One piece of a concatenation: its memory and strides in the result's
/// axes; it holds the result's indices below `end` along the joined axis
/// (from the previous piece's end), read at `ptr[off + sum(c[d] * strides[d])]`.
template <class T, std::size_t R>
struct join_piece {
  const T* ptr;
  index_t end;
  index_t off;
  extents<R> strides;
  std::uintptr_t lo, hi;  // its bytes, for the alias check
};

/// The pieces of a concatenation, one type each; a position takes the first
/// piece whose end lies past its index along the axis. Branch-free, so the
/// host loop vectorises (clang's assume_safety loops warn otherwise): pieces
/// of one type select an address and load once; mixed types load every
/// piece (at its first element where not selected: none is empty, join.hpp)
/// and select the value.
template <class T>
struct piece_at {
  const T* ptr;
  index_t at;
};
template <std::size_t R, class... T>
struct piece_chain;
template <std::size_t R, class T>
struct piece_chain<R, T> {
  join_piece<T, R> head;
  SINTER_HD SINTER_FORCEINLINE piece_at<T> address(const extents<R>& c, index_t) const {
    return {head.ptr, head.off + dot_axes(c, head.strides)};
  }
  /// The value if `sel`, else the piece's first element (a safe load).
  template <class V>
  SINTER_HD SINTER_FORCEINLINE V load_if(const extents<R>& c, index_t along, bool sel) const {
    const piece_at<T> a = address(c, along);
    return convert<V>(a.ptr[sel ? a.at : 0]);
  }
  template <class V>
  SINTER_HD SINTER_FORCEINLINE V load(const extents<R>& c, index_t along) const {
    return load_if<V>(c, along, true);
  }
  SINTER_HD bool touches(std::uintptr_t lo, std::uintptr_t hi) const { return head.lo < hi && lo < head.hi; }
  /// f(piece) for each piece in order (join.hpp's copy of a bare concatenation).
  template <class F>
  void each(F&& f) const {
    f(head);
  }
};
template <std::size_t R, class T, class U, class... More>
struct piece_chain<R, T, U, More...> {
  join_piece<T, R> head;
  piece_chain<R, U, More...> tail;
  static constexpr bool one_type = (std::is_same_v<T, U> && ... && std::is_same_v<T, More>);
  SINTER_HD SINTER_FORCEINLINE piece_at<T> address(const extents<R>& c, index_t along) const
    requires one_type
  {
    const bool here = along < head.end;
    const piece_at<T> rest = tail.address(c, along);
    return {here ? head.ptr : rest.ptr, here ? head.off + dot_axes(c, head.strides) : rest.at};
  }
  /// The value if `sel`, else a first element: a chain's tail computes
  /// addresses for positions of earlier pieces, which it must not load.
  template <class V>
  SINTER_HD SINTER_FORCEINLINE V load_if(const extents<R>& c, index_t along, bool sel) const {
    if constexpr (one_type) {
      const piece_at<T> a = address(c, along);
      return convert<V>(a.ptr[sel ? a.at : 0]);
    } else {
      const bool here = sel && along < head.end;
      const V mine = convert<V>(head.ptr[here ? head.off + dot_axes(c, head.strides) : 0]);
      const V rest = tail.template load_if<V>(c, along, sel && !here);
      return here ? mine : rest;
    }
  }
  template <class V>
  SINTER_HD SINTER_FORCEINLINE V load(const extents<R>& c, index_t along) const {
    return load_if<V>(c, along, true);
  }
  SINTER_HD bool touches(std::uintptr_t lo, std::uintptr_t hi) const {
    return (head.lo < hi && lo < head.hi) || tail.touches(lo, hi);
  }
  template <class F>
  void each(F&& f) const {
    f(head);
    tail.each(f);
  }
};

/// The value at a position of a concatenation along `axis`, as V.
template <class V, std::size_t R, class... T>
struct concat_gen {
  using value_type = V;
  static constexpr const char* name = "concatenate";
  coord_fields<R> fields;
  index_t axis;
  piece_chain<R, T...> pieces;
  SINTER_HD SINTER_FORCEINLINE V operator()(index_t o) const {
    // the axis's index from the fields, not c[axis]: a run-time index into a
    // local array kept clang from vectorising the loop
    const extents<R> c = fields.coords(o);
    return pieces.template load<V>(c, fields.at(o, static_cast<std::size_t>(axis)));
  }
  /// Whether it reads a byte of [lo, hi) (evaluate.hpp's alias check).
  SINTER_HD bool touches(std::uintptr_t lo, std::uintptr_t hi) const { return pieces.touches(lo, hi); }
};

/// How a gather maps the result's indices to the source's.
enum class take_mode {
  axis,   // take(x, idx, axis): result axes are x's before axis, idx's, x's after
  along,  // take_along_axis: idx has x's rank; the result's index replaces axis's
  flat    // take(x, idx): idx indexes x flattened in row-major order
};

/// The value at a position of a gather from `src` (a node bound to its own
/// shape, or for `along` to the result's with the source's extent on the
/// axis) by the integers at `idx`: source index v, v + extent where negative
/// (checked in range when the gather was made).
template <take_mode M, class Node, class I, std::size_t RI, std::size_t RO>
struct take_gen {
  using value_type = typename Node::value_type;
  static constexpr std::size_t RX = Node::rank;
  static constexpr const char* name = "take";
  Node src;
  const I* idx;
  extents<RI> istrides;
  index_t extent;
  index_t axis;
  coord_fields<RO> fields;
  std::uintptr_t ilo, ihi;  // idx's bytes, for the alias check

  SINTER_HD SINTER_FORCEINLINE value_type operator()(index_t o) const {
    const extents<RO> c = fields.coords(o);
    // axis < RX always; the clamp tells GCC so (-Warray-bounds at -O3)
    const std::size_t ax = static_cast<std::size_t>(axis) < RX ? static_cast<std::size_t>(axis) : RX - 1;
    index_t ii = 0;
    if constexpr (M == take_mode::axis) ii = idx_offset(o, ax, std::make_index_sequence<RI>{});
    else ii = idx_offset(o, 0, std::make_index_sequence<RI>{});
    index_t v = static_cast<index_t>(idx[ii]);
    if constexpr (std::is_signed_v<I>) v += v < 0 ? extent : 0;
    extents<RX> xi{};
    if constexpr (M == take_mode::axis) {
      xi = source_index(c, ax, v, std::make_index_sequence<RX>{});
    } else if constexpr (M == take_mode::along) {
      xi = along_index(c, ax, v, std::make_index_sequence<RX>{});
    } else {
      unflatten<RX>(xi, v);
    }
    return src.row(xi).load(xi[RX - 1]);
  }
  /// Whether it reads a byte of [lo, hi): idx's, or any memory leaf's under src.
  SINTER_HD bool touches(std::uintptr_t lo, std::uintptr_t hi) const {
    return (ilo < hi && lo < ihi) || node_touches(src, lo, hi);
  }

 private:
  /// xi = the row-major index of flat position v in src's shape (axes
  /// unrolled at compile time, as the folds below).
  template <std::size_t D>
  SINTER_HD SINTER_FORCEINLINE void unflatten(extents<RX>& xi, index_t v) const {
    if constexpr (D > 0) {
      xi[D - 1] = v % src.shape[D - 1];
      unflatten<D - 1>(xi, v / src.shape[D - 1]);
    }
  }
  /// The indices' offset at result offset o, idx's axes from `first` on.
  template <std::size_t... J>
  SINTER_HD SINTER_FORCEINLINE index_t idx_offset([[maybe_unused]] index_t o, std::size_t first,
                                                  std::index_sequence<J...>) const {
    return (index_t{0} + ... + (fields.at(o, first + J) * istrides[J]));
  }
  /// take's source index: c's axes before ax, v, c's axes after idx's.
  template <std::size_t... D>
  SINTER_HD SINTER_FORCEINLINE static extents<RX> source_index(const extents<RO>& c, std::size_t ax, index_t v,
                                                               std::index_sequence<D...>) {
    return extents<RX>{{(D < ax ? c[D] : D == ax ? v : c[D + RI - 1 < RO ? D + RI - 1 : 0])...}};
  }
  /// take_along_axis's source index: c with v on ax.
  template <std::size_t... D>
  SINTER_HD SINTER_FORCEINLINE static extents<RX> along_index(const extents<RO>& c, std::size_t ax, index_t v,
                                                              std::index_sequence<D...>) {
    return extents<RX>{{(D == ax ? v : c[D])...}};
  }
  template <class N>
  SINTER_HD static bool node_touches(const N& n, std::uintptr_t lo, std::uintptr_t hi) {
    if constexpr (requires { n.args; }) {
      return children_touch(n, lo, hi, std::make_index_sequence<pack_size_v<decltype(n.args)>>{});
    } else if constexpr (is_memory_leaf<N>::value) {
      std::uintptr_t h = 0;
      const std::uintptr_t l = layout_bytes(n.ptr, n.shape, n.strides, h);
      return l < hi && lo < h;
    } else if constexpr (requires { n.gen.touches(lo, hi); }) {
      return n.gen.touches(lo, hi);
    } else {
      return false;
    }
  }
  template <class N, std::size_t... K>
  SINTER_HD static bool children_touch(const N& n, std::uintptr_t lo, std::uintptr_t hi, std::index_sequence<K...>) {
    return (false || ... || node_touches(get<K>(n.args), lo, hi));
  }
};

}  // namespace sinter::detail
