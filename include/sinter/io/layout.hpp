#pragma once
/// \file layout.hpp
/// The shape of printed output, following NumPy's _formatArray: which
/// elements are shown (edge items of each long axis when summarising), and
/// how their formatted words nest in brackets, with `...`, blank lines
/// between blocks and wrapping at the line width. Works on the shown
/// elements only, so a device backend has to fetch no more than those.
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "../core/shape.hpp"

namespace sinter::detail {

/// The elements a print shows: per axis, the indices shown (all of them, or
/// the first and last `edgeitems` when summarising and the axis is longer
/// than 2 * edgeitems) and whether `...` stands between the two groups.
template <std::size_t R>
struct print_grid {
  extents<R> shape{};
  std::array<std::vector<index_t>, R> shown{};
  std::array<bool, R> elided{};

  /// Number of shown elements (their row-major order is the grid's order).
  index_t size() const {
    index_t n = 1;
    for (std::size_t d = 0; d != R; ++d) n *= static_cast<index_t>(shown[d].size());
    return n;
  }
  /// Visit the multi-index of every shown element in row-major order.
  template <class F>
  void for_each_index(F&& f) const {
    if (size() == 0) return;
    extents<R> pos{}, idx{};
    for (std::size_t d = 0; d != R; ++d) idx[d] = shown[d][0];
    for (;;) {
      f(static_cast<const extents<R>&>(idx));
      std::size_t d = R;
      for (; d-- > 0;) {
        if (++pos[d] < static_cast<index_t>(shown[d].size())) {
          idx[d] = shown[d][static_cast<std::size_t>(pos[d])];
          break;
        }
        pos[d] = 0;
        idx[d] = shown[d][0];
      }
      if (d == static_cast<std::size_t>(-1)) return;
    }
  }
};

/// The grid of a shape: summarise (as NumPy) when the size exceeds `threshold`.
template <std::size_t R>
print_grid<R> make_print_grid(const extents<R>& shape, index_t threshold, index_t edgeitems) {
  print_grid<R> g;
  g.shape = shape;
  const bool summary = shape_size(shape) > threshold;
  for (std::size_t d = 0; d != R; ++d) {
    const index_t n = shape[d];
    g.elided[d] = summary && 2 * edgeitems < n;
    if (g.elided[d]) {
      for (index_t i = 0; i < edgeitems; ++i) g.shown[d].push_back(i);
      for (index_t i = n - edgeitems; i < n; ++i) g.shown[d].push_back(i);
    } else {
      for (index_t i = 0; i < n; ++i) g.shown[d].push_back(i);
    }
  }
  return g;
}

/// NumPy's _extendLine: append `word`, first breaking the line if it would
/// pass `width` (unless the line holds only the indent).
inline void extend_line(std::string& s, std::string& line, const std::string& word, std::size_t width,
                        const std::string& indent) {
  if (line.size() + word.size() > width && line.size() > indent.size()) {
    while (!line.empty() && line.back() == ' ') line.pop_back();
    s += line;
    s += '\n';
    line = indent;
  }
  line += word;
}

/// NumPy's _formatArray recursion over the shown grid (separator " ").
template <std::size_t R>
class grid_layout {
 public:
  grid_layout(const print_grid<R>& g, const std::vector<std::string>& words, index_t edgeitems)
      : grid_(g), words_(words), edge_(static_cast<std::size_t>(edgeitems)) {
    std::size_t acc = 1;
    for (std::size_t d = R; d-- > 0;) {
      stride_[d] = acc;
      acc *= g.shown[d].size();
    }
  }

  std::string render(index_t linewidth) const {
    return recurse(0, 0, " ", static_cast<std::size_t>(linewidth < 1 ? 1 : linewidth));
  }

 private:
  std::string recurse(std::size_t axis, std::size_t off, const std::string& indent, std::size_t width) const {
    if (axis == R) return words_[off];
    const std::string next_indent = indent + ' ';
    const std::size_t next_width = width > 1 ? width - 1 : 1;  // room for this level's ']'
    const std::size_t n = grid_.shown[axis].size();
    const bool elided = grid_.elided[axis];
    std::string s;
    if (axis + 1 == R) {
      const std::size_t elem_width = width > 1 ? width - 1 : 1;
      std::string line = indent;
      for (std::size_t i = 0; i < n; ++i) {
        if (elided && i == edge_) {
          extend_line(s, line, "...", elem_width, indent);
          line += ' ';
        }
        extend_line(s, line, recurse(axis + 1, off + i * stride_[axis], next_indent, next_width), elem_width,
                    indent);
        if (i + 1 < n) line += ' ';
      }
      s += line;
    } else {
      // Rows end in one newline, 2-D blocks in two (a blank line), and so on.
      const std::string sep(R - axis - 1, '\n');
      for (std::size_t i = 0; i < n; ++i) {
        if (elided && i == edge_) s += indent + "..." + sep;
        s += indent + recurse(axis + 1, off + i * stride_[axis], next_indent, next_width);
        if (i + 1 < n) s += sep;
      }
    }
    // Appended, not "[" + str: GCC 12 warns of a bogus memcpy bound in
    // string::insert (-Wstringop-overflow) when this recursion is inlined.
    std::string out = "[";
    out.append(s, indent.size(), std::string::npos);
    out += ']';
    return out;
  }

  const print_grid<R>& grid_;
  const std::vector<std::string>& words_;
  std::size_t edge_;
  std::array<std::size_t, R> stride_{};
};

}  // namespace sinter::detail
