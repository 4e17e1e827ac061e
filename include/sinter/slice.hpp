#pragma once
/// \file slice.hpp
/// Python-style indexing: integers (negative counts from the end), slices
/// with start/stop/step (negative steps too), `all`, `newaxis`. Applied to a
/// shape and strides, it gives the offset, shape and strides of the view.
#include <array>
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
/// Throws normalise's value_error (out of line: normalise is inlined).
[[noreturn]] inline void throw_zero_step() { throw value_error("slice step cannot be zero"); }
SINTER_FORCEINLINE slice_range normalise(const slice& s, index_t n) {
  if (s.step == 0) [[unlikely]]
    throw_zero_step();
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

/// Throws the index_error of an integer index outside an axis (out of line:
/// the check stays small where it is inlined).
[[noreturn]] inline void throw_index(index_t i, std::size_t axis, index_t n) {
  throw index_error("index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(axis) +
                    " with size " + std::to_string(n));
}

/// The axis each of the index arguments A... starts at, known at compile
/// time: in the source (`source`: an integer or a slice consumes one, newaxis
/// none) or in the result (an integer adds none, a slice or newaxis one).
template <class... A>
constexpr std::array<std::size_t, sizeof...(A) + 1> axes_before(bool source) {
  std::array<std::size_t, sizeof...(A) + 1> r{};
  [[maybe_unused]] std::size_t k = 0, axis = 0;
  ((r[k++] = axis, axis += (source ? !std::same_as<A, newaxis_t> : !std::integral<A>) ? 1 : 0), ...);
  return r;
}

/// Apply one index argument, of source axis In and result axis Out, to `l`.
template <std::size_t In, std::size_t Out, std::size_t RI, std::size_t RO, class A>
SINTER_FORCEINLINE void apply_index(layout<RO>& l, const extents<RI>& shape, const extents<RI>& strides,
                                    const A& a) {
  if constexpr (std::same_as<A, newaxis_t>) {
    l.shape[Out] = 1;
    l.strides[Out] = 0;
  } else if constexpr (std::same_as<A, slice> || std::same_as<A, all_t>) {
    const slice_range r = normalise(a, shape[In]);
    if (r.length > 0) l.offset += r.start * strides[In];
    l.shape[Out] = r.length;
    l.strides[Out] = r.step * strides[In];
  } else {
    index_t i = static_cast<index_t>(a);
    const index_t n = shape[In];
    if (i < -n || i >= n) [[unlikely]]
      throw_index(i, In, n);
    if (i < 0) i += n;
    l.offset += i * strides[In];
  }
}

template <std::size_t RI, class... A, std::size_t... K, std::size_t... D>
SINTER_FORCEINLINE layout<indexed_rank_v<RI, A...>> apply_indices_seq(const extents<RI>& shape,
                                                                      const extents<RI>& strides,
                                                                      std::index_sequence<K...>,
                                                                      std::index_sequence<D...>, const A&... args) {
  constexpr std::size_t RO = indexed_rank_v<RI, A...>;
  constexpr std::size_t in0 = consumed_v<A...>, out0 = RO - (RI - in0);
  layout<RO> out{0, {}, {}};
  (apply_index<axes_before<A...>(true)[K], axes_before<A...>(false)[K]>(out, shape, strides, args), ...);
  ((out.shape[out0 + D] = shape[in0 + D], out.strides[out0 + D] = strides[in0 + D]), ...);  // axes not indexed
  return out;
}

/// Offset, shape and strides after indexing with args. Every argument's
/// axes are compile-time constants, and the whole is forced inline: with
/// run-time axis counters, GCC kept it out of line, its layout in memory
/// (docs/journal/code-notes.md#slice-axes), and a constant step is
/// folded into the slice's length instead of a division.
template <std::size_t RI, class... A>
SINTER_FORCEINLINE layout<indexed_rank_v<RI, A...>> apply_indices(const extents<RI>& shape,
                                                                  const extents<RI>& strides, const A&... args) {
  static_assert(consumed_v<A...> <= RI, "sinter: too many indices for the array's rank");
  return apply_indices_seq(shape, strides, std::index_sequence_for<A...>{},
                           std::make_index_sequence<RI - consumed_v<A...>>{}, args...);
}

}  // namespace detail
}  // namespace sinter
