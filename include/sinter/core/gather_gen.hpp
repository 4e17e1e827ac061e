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
  /// Every axis's index at offset o.
  SINTER_HD SINTER_FORCEINLINE extents<R> coords(index_t o) const {
    extents<R> c{};
    for (std::size_t d = 0; d != R; ++d) c[d] = at(o, d);
    return c;
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
/// piece whose end lies past its index along the axis.
template <std::size_t R, class... T>
struct piece_chain;
template <std::size_t R, class T>
struct piece_chain<R, T> {
  join_piece<T, R> head;
  template <class V>
  SINTER_HD SINTER_FORCEINLINE V load(const extents<R>& c, index_t) const {
    index_t o = head.off;
    for (std::size_t d = 0; d != R; ++d) o += c[d] * head.strides[d];
    return convert<V>(head.ptr[o]);
  }
  SINTER_HD bool touches(std::uintptr_t lo, std::uintptr_t hi) const { return head.lo < hi && lo < head.hi; }
};
template <std::size_t R, class T, class U, class... More>
struct piece_chain<R, T, U, More...> {
  join_piece<T, R> head;
  piece_chain<R, U, More...> tail;
  template <class V>
  SINTER_HD SINTER_FORCEINLINE V load(const extents<R>& c, index_t along) const {
    if (along >= head.end) return tail.template load<V>(c, along);
    index_t o = head.off;
    for (std::size_t d = 0; d != R; ++d) o += c[d] * head.strides[d];
    return convert<V>(head.ptr[o]);
  }
  SINTER_HD bool touches(std::uintptr_t lo, std::uintptr_t hi) const {
    return (head.lo < hi && lo < head.hi) || tail.touches(lo, hi);
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
    const extents<R> c = fields.coords(o);
    return pieces.template load<V>(c, c[static_cast<std::size_t>(axis)]);
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
    const std::size_t ax = static_cast<std::size_t>(axis);
    index_t ii = 0;
    if constexpr (M == take_mode::axis)
      for (std::size_t j = 0; j != RI; ++j) ii += c[ax + j] * istrides[j];
    else
      for (std::size_t j = 0; j != RI; ++j) ii += c[j] * istrides[j];
    index_t v = static_cast<index_t>(idx[ii]);
    if constexpr (std::is_signed_v<I>) v += v < 0 ? extent : 0;
    extents<RX> xi{};
    if constexpr (M == take_mode::axis) {
      for (std::size_t d = 0; d != ax; ++d) xi[d] = c[d];
      xi[ax] = v;
      for (std::size_t d = ax + 1; d < RX; ++d) xi[d] = c[d + RI - 1];
    } else if constexpr (M == take_mode::along) {
      for (std::size_t d = 0; d != RX; ++d) xi[d] = c[d];
      xi[ax] = v;
    } else {
      for (std::size_t d = RX; d-- > 0;) {
        xi[d] = v % src.shape[d];
        v /= src.shape[d];
      }
    }
    return src.row(xi).load(xi[RX - 1]);
  }
  /// Whether it reads a byte of [lo, hi): idx's, or any memory leaf's under src.
  SINTER_HD bool touches(std::uintptr_t lo, std::uintptr_t hi) const {
    return (ilo < hi && lo < ihi) || node_touches(src, lo, hi);
  }

 private:
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
