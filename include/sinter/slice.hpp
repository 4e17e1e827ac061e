#pragma once
/// \file slice.hpp
/// Python-style indexing: integers (negative counts from the end), slices
/// with start/stop/step (negative steps too), `all`, `newaxis`. Applied to a
/// shape and strides, it gives the offset, shape and strides of the view.
#include <concepts>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "core/error.hpp"
#include "core/shape.hpp"

namespace sinter {

/// Marks an omitted slice bound, as Python's None: `slice(none, none, -1)` reverses.
struct none_t {
  explicit constexpr none_t(int) {}
};
/// An omitted slice bound (Python's None).
inline constexpr none_t none{0};
/// "To the end of the axis", as a slice stop: `slice(2, sinter::end)`.
inline constexpr none_t end{0};

/// start:stop:step along one axis. `slice(1, -1)`, `slice(none, none, 2)`.
struct slice {
  index_t start = 0, stop = 0, step = 1;
  bool has_start = false, has_stop = false;

  /// The whole axis (Python's `:`).
  constexpr slice() = default;
  /// start:stop:step; start or stop may be sinter::none / sinter::end.
  template <class A, class B>
    requires((std::integral<A> || std::same_as<A, none_t>) &&
             (std::integral<B> || std::same_as<B, none_t>))
  constexpr slice(A a, B b, index_t s = 1) : step(s) {
    if constexpr (std::integral<A>) {
      start = static_cast<index_t>(a);
      has_start = true;
    }
    if constexpr (std::integral<B>) {
      stop = static_cast<index_t>(b);
      has_stop = true;
    }
  }
};

namespace detail {
/// Filled in by reduce.hpp: the `all` reduction behind sinter::all(x).
template <class Tag, class... X>
struct reduction_entry;
struct all_tag {};
}  // namespace detail

/// `all` is two things, as in NumPy code: the whole axis when indexing
/// (`m(all, 0)` is column 0), and the reduction "every element is true" when
/// called (`sinter::all(x > 0)`, `sinter::all(x, sinter::axis(1))`).
struct all_t : slice {
  constexpr all_t() = default;
  template <class... X>
  auto operator()(X&&... x) const {
    return detail::reduction_entry<detail::all_tag, X...>::call(std::forward<X>(x)...);
  }
};
/// The whole axis when indexing; the "all true" reduction when called.
inline constexpr all_t all{};

/// Inserts an axis of extent 1: `v(newaxis, all)` turns (n) into (1, n).
struct newaxis_t {
  explicit constexpr newaxis_t(int) {}
};
/// Inserts an axis of extent 1.
inline constexpr newaxis_t newaxis{0};

namespace detail {

template <class A>
concept index_arg = std::integral<A> || std::same_as<A, slice> || std::same_as<A, all_t> ||
                    std::same_as<A, newaxis_t>;

/// How many of the source axes the arguments consume; how many they keep or add.
template <class... A>
inline constexpr std::size_t consumed_v =
    (std::size_t{0} + ... + (std::same_as<A, newaxis_t> ? 0 : 1));
template <class... A>
inline constexpr std::size_t dropped_v = (std::size_t{0} + ... + (std::integral<A> ? 1 : 0));
template <class... A>
inline constexpr std::size_t added_v = (std::size_t{0} + ... + (std::same_as<A, newaxis_t> ? 1 : 0));

/// Rank after indexing a rank-R array with A...
template <std::size_t R, class... A>
inline constexpr std::size_t indexed_rank_v = R - dropped_v<A...> + added_v<A...>;

/// Normalise a slice against an axis of extent n, as CPython's PySlice_AdjustIndices.
struct slice_range {
  index_t start, step, length;
};
inline slice_range normalise(const slice& s, index_t n) {
  if (s.step == 0) throw value_error("slice step cannot be zero");
  const index_t step = s.step;
  auto clamp = [&](index_t v, bool has, bool is_start) {
    if (!has) return step > 0 ? (is_start ? index_t{0} : n) : (is_start ? n - 1 : index_t{-1});
    if (v < 0) {
      v += n;
      if (v < 0) v = step < 0 ? -1 : 0;
    } else if (v >= n) {
      v = step < 0 ? n - 1 : n;
    }
    return v;
  };
  const index_t start = clamp(s.start, s.has_start, true);
  const index_t stop = clamp(s.stop, s.has_stop, false);
  index_t len = 0;
  if (step < 0) {
    if (stop < start) len = (start - stop - 1) / (-step) + 1;
  } else if (start < stop) {
    len = (stop - start - 1) / step + 1;
  }
  return {start, step, len};
}

/// Offset, shape and strides of a view after indexing.
template <std::size_t R>
struct layout {
  index_t offset;
  extents<R> shape;
  extents<R> strides;
};

template <std::size_t RI, class... A>
layout<indexed_rank_v<RI, A...>> apply_indices(const extents<RI>& shape, const extents<RI>& strides,
                                               const A&... args) {
  static_assert(consumed_v<A...> <= RI, "sinter: too many indices for the array's rank");
  constexpr std::size_t RO = indexed_rank_v<RI, A...>;
  layout<RO> out{0, {}, {}};
  std::size_t in = 0, o = 0;
  [[maybe_unused]] auto one = [&](const auto& a) {  // unused when no index is given (rank 0)
    using T = std::remove_cvref_t<decltype(a)>;
    if constexpr (std::same_as<T, newaxis_t>) {
      out.shape[o] = 1;
      out.strides[o] = 0;
      ++o;
    } else if constexpr (std::same_as<T, slice> || std::same_as<T, all_t>) {
      const slice_range r = normalise(a, shape[in]);
      if (r.length > 0) out.offset += r.start * strides[in];
      out.shape[o] = r.length;
      out.strides[o] = r.step * strides[in];
      ++o;
      ++in;
    } else {
      index_t i = static_cast<index_t>(a);
      const index_t n = shape[in];
      if (i < -n || i >= n)
        throw index_error("index " + std::to_string(i) + " is out of bounds for axis " +
                          std::to_string(in) + " with size " + std::to_string(n));
      if (i < 0) i += n;
      out.offset += i * strides[in];
      ++in;
    }
  };
  (one(args), ...);
  for (; in != RI; ++in, ++o) {
    out.shape[o] = shape[in];
    out.strides[o] = strides[in];
  }
  return out;
}

}  // namespace detail
}  // namespace sinter
