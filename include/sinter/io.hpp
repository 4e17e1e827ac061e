#pragma once
/// \file io.hpp
/// Printing arrays, views and expressions the way NumPy's `str()` /
/// `print(a)` does: nested brackets, summarised with `...` past a threshold,
/// one width and notation per array, wrapped at 75 columns.
///
/// Everything is built on one primitive, `detail::format_fetched(shape,
/// fetch)`, where `fetch(idx)` returns the element at a multi-index and is
/// called only for the elements shown (at most 2 * edgeitems per long axis
/// when summarising). Device memory is printed whole after one transfer to
/// the host when nothing is summarised; else only the shown elements are
/// copied, by the device's specialisation of `detail::device_gather<P>`
/// (policy/backend.hpp; cuda: policy/cuda/print.hpp, through policy/cuda.hpp).
#include <cstddef>
#include <memory>
#include <mutex>
#include <ostream>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "array.hpp"
#include "core/error.hpp"
#include "expression.hpp"
#include "io/layout.hpp"
#include "io/number_format.hpp"
#include "policy/backend.hpp"
#include "policy/backend.hpp"
#include "transfer.hpp"
#include "view.hpp"

namespace sinter {

/// Printing settings, NumPy's defaults. Example:
/// `sinter::set_print_options({.threshold = 100, .edgeitems = 2});`
struct print_options {
  /// Summarise (show edge items and `...`) when the size exceeds this.
  index_t threshold = 1000;
  /// Elements shown at each end of a summarised axis.
  index_t edgeitems = 3;
  /// At most this many digits after the decimal point (of the mantissa in scientific notation).
  int precision = 8;
  /// Wrap lines longer than this many characters.
  index_t linewidth = 75;
};

namespace detail {
/// Throws value_error for options NumPy would also reject.
inline void check_print_options(const print_options& o) {
  if (o.threshold < 0 || o.edgeitems < 0 || o.precision < 0 || o.linewidth < 1)
    throw value_error("sinter::print_options: threshold, edgeitems and precision must be >= 0, linewidth >= 1");
}
/// The global options and the lock guarding them.
struct print_options_store {
  std::mutex m;
  print_options opts;
};
inline print_options_store& print_options_global() {
  static print_options_store s;
  return s;
}
}  // namespace detail

/// The current global print options: `auto o = sinter::get_print_options();`
inline print_options get_print_options() {
  auto& g = detail::print_options_global();
  std::lock_guard lock(g.m);
  return g.opts;
}

/// Set the global print options, as numpy.set_printoptions:
/// `sinter::set_print_options({.precision = 4});` (`{}` restores the defaults).
inline void set_print_options(const print_options& o) {
  detail::check_print_options(o);
  auto& g = detail::print_options_global();
  std::lock_guard lock(g.m);
  g.opts = o;
}

namespace detail {

/// Format shown elements already gathered in the grid's row-major order.
template <class T, std::size_t R>
std::string format_gathered(const print_grid<R>& grid, std::span<const T> values, const print_options& o) {
  check_print_options(o);
  if constexpr (R == 0) {
    return scalar_string(values[0]);
  } else {
    if (shape_size(grid.shape) == 0) return "[]";
    const std::vector<std::string> words = format_elements(values, o.precision);
    return grid_layout<R>(grid, words, o.edgeitems).render(o.linewidth);
  }
}

/// Format an array of this shape whose element at a multi-index is
/// `fetch(const extents<R>&)` (convertible to T); only shown elements are fetched.
template <class T, std::size_t R, class Fetch>
std::string format_fetched(const extents<R>& shape, Fetch&& fetch, const print_options& o) {
  const print_grid<R> grid = make_print_grid(shape, o.threshold, o.edgeitems);
  // Not std::vector: vector<bool> has no contiguous storage for a span.
  const auto n = static_cast<std::size_t>(grid.size());
  const auto values = std::make_unique<T[]>(n);
  std::size_t i = 0;
  grid.for_each_index([&](const extents<R>& idx) { values[i++] = static_cast<T>(fetch(idx)); });
  return format_gathered<T, R>(grid, std::span<const T>(values.get(), n), o);
}

/// Format strided memory the CPU reads.
template <class T, std::size_t R>
std::string format_host_memory(const T* ptr, const extents<R>& shape, const extents<R>& strides,
                               const print_options& o) {
  return format_fetched<T, R>(
      shape,
      [&](const extents<R>& idx) {
        index_t off = 0;
        for (std::size_t d = 0; d != R; ++d) off += idx[d] * strides[d];
        return ptr[off];
      },
      o);
}

/// Format strided memory of a device policy P: printed whole, one transfer
/// (a device pass first if strided); summarised, only the shown elements
/// cross to the host (device_gather<P>, one synchronisation).
template <class T, std::size_t R, class P>
std::string format_device_memory(const T* ptr, const extents<R>& shape, const extents<R>& strides, const P& pol,
                                 const print_options& o) {
  check_print_options(o);
  if (shape_size(shape) <= o.threshold) {
    const auto h = to<host>(view<const T, R, P>(ptr, shape, strides, pol));
    return format_host_memory<T, R>(h.data(), h.shape(), h.strides(), o);
  }
  const print_grid<R> grid = make_print_grid(shape, o.threshold, o.edgeitems);
  std::vector<index_t> offsets;
  offsets.reserve(static_cast<std::size_t>(grid.size()));
  grid.for_each_index([&](const extents<R>& idx) {
    index_t off = 0;
    for (std::size_t d = 0; d != R; ++d) off += idx[d] * strides[d];
    offsets.push_back(off);
  });
  // Not std::vector: vector<bool> has no contiguous storage to copy into.
  const std::size_t n = offsets.size();
  const auto values = std::make_unique<T[]>(n);
  device_gather<P>::gather(pol, ptr, std::span<const index_t>(offsets), values.get());
  return format_gathered<T, R>(grid, std::span<const T>(values.get(), n), o);
}

/// Format strided memory of policy P (device memory through device_gather<P>).
template <class T, std::size_t R, class P>
std::string format_memory(const T* ptr, const extents<R>& shape, const extents<R>& strides, const P& pol,
                          const print_options& o) {
  if constexpr (!backend<P>::host_accessible) {
    return format_device_memory<T, R, P>(ptr, shape, strides, pol, o);
  } else {
    (void)pol;
    return format_host_memory<T, R>(ptr, shape, strides, o);
  }
}

}  // namespace detail

/// NumPy's `str(a)`: `sinter::to_string(a)` is "[[1. 2.]\n [3. 4.]]".
template <class T, std::size_t R, class P>
std::string to_string(const array<T, R, P>& a, const print_options& o = get_print_options()) {
  return detail::format_memory<T, R, P>(a.data(), a.shape(), a.strides(), a.policy(), o);
}

/// NumPy's `str(v)` of a view: `sinter::to_string(a(sinter::slice(0, 2)))`.
template <class T, std::size_t R, class P>
std::string to_string(const view<T, R, P>& v, const print_options& o = get_print_options()) {
  return detail::format_memory<std::remove_const_t<T>, R, P>(v.data(), v.shape(), v.strides(), v.policy(), o);
}

/// An expression printed by evaluating it into a temporary array first (on
/// its own device for a device policy):
/// `sinter::to_string(sinter::arange<int>(5) * 2)` is "[0 2 4 6 8]".
template <class N, class P, std::size_t K>
std::string to_string(const expr<N, P, K>& e, const print_options& o = get_print_options()) {
  if constexpr (std::is_same_v<P, detail::any_policy>) {
    return to_string(eval(e), o);
  } else {
    const array<typename N::value_type, N::rank, P> tmp(e, detail::expr_policy<P>::get(e));
    return to_string(tmp, o);
  }
}

/// Print an array as NumPy's `print(a)` does: `std::cout << a << '\n';`
template <class T, std::size_t R, class P>
std::ostream& operator<<(std::ostream& os, const array<T, R, P>& a) {
  return os << to_string(a);
}

/// Print a view as NumPy's `print(v)` does: `std::cout << a(0, sinter::all);`
template <class T, std::size_t R, class P>
std::ostream& operator<<(std::ostream& os, const view<T, R, P>& v) {
  return os << to_string(v);
}

/// Print an expression (evaluated into a temporary first): `std::cout << a + 1;`
template <class N, class P, std::size_t K>
std::ostream& operator<<(std::ostream& os, const expr<N, P, K>& e) {
  return os << to_string(e);
}

}  // namespace sinter
