#pragma once
/// \file leaf.hpp
/// Leaf nodes of an expression: strided memory (a view), a generator (a value
/// computed from its position, as arange, linspace and random numbers are), and
/// a scalar. Each is a small trivially copyable value.
///
/// Evaluation works in two steps. `bind(out_shape)` restrides a leaf for the
/// output's shape (broadcast dimensions get stride 0). Then a *cursor* walks
/// it: `linear()` when the leaf is contiguous in the output's row-major order
/// (unit stride, known at compile time, so loops vectorise), `row(idx)` for one
/// innermost row of a strided or broadcast traversal, and `step_row<K>(idx)`
/// for one such row when every leaf reads it at the same stride K, known at
/// compile time (K = 2, a step-2 slice: compilers vectorise it with loads
/// and shuffles instead of gathers).
#include <cstddef>
#include <cstring>
#include <string>
#include <type_traits>

#include "dtype.hpp"
#include "shape.hpp"

namespace sinter::detail {

/// Offset of multi-index `idx` (of the first R-1 dimensions) under `strides`.
template <std::size_t R>
SINTER_HD SINTER_FORCEINLINE index_t row_offset(const extents<R>& idx, const extents<R>& strides) {
  index_t off = 0;
  if constexpr (R > 1)
    for (std::size_t d = 0; d != R - 1; ++d) off += idx[d] * strides[d];
  return off;
}

/// A copy of e built element by element (pack.hpp, copy_node).
template <std::size_t R, std::size_t... I>
SINTER_HD SINTER_FORCEINLINE constexpr extents<R> copy_extents(const extents<R>& e, std::index_sequence<I...>) {
  return {{e.v[I]...}};
}
template <std::size_t R>
SINTER_HD SINTER_FORCEINLINE constexpr extents<R> copy_extents(const extents<R>& e) {
  return copy_extents(e, std::make_index_sequence<R == 0 ? 1 : R>{});
}

/// Whether strides are row-major for shape, ignoring dimensions of extent 1.
template <std::size_t R>
SINTER_HD constexpr bool is_row_major(const extents<R>& shape, const extents<R>& strides) {
  index_t expect = 1;
  for (std::size_t d = R; d-- > 0;) {
    if (shape[d] != 1 && strides[d] != expect) return false;
    expect *= shape[d];
  }
  return true;
}

/// Whether the innermost axis has stride k (or at most one element).
template <std::size_t R>
SINTER_HD constexpr bool inner_step_is(const extents<R>& shape, const extents<R>& strides, index_t k) {
  if constexpr (R == 0) return true;
  else return shape[R - 1] <= 1 || strides[R - 1] == k;
}

/// Whether axes d and d+1 of a strided layout can be traversed as one axis.
template <std::size_t R>
SINTER_HD constexpr bool mergeable_axes(const extents<R>& shape, const extents<R>& strides,
                                        std::size_t d) {
  return shape[d] == 1 || shape[d + 1] == 1 || strides[d] == strides[d + 1] * shape[d + 1];
}

/// Fold axis d into axis d+1 (axis d becomes extent 1): fewer, longer rows.
template <std::size_t R>
SINTER_HD constexpr void merge_axes(extents<R>& shape, extents<R>& strides, std::size_t d) {
  strides[d + 1] = shape[d + 1] == 1 ? strides[d] : strides[d + 1];
  shape[d + 1] *= shape[d];
  shape[d] = 1;
  strides[d] = 0;
}

/// W consecutive values: what `load_n<W>` returns, one per lane.
template <class T, int W>
struct lanes {
  T v[W];
};

/// Alignment of a W-element vector access to T: the access size, capped at 16
/// bytes (the widest global load of current GPUs).
template <class T, int W>
inline constexpr std::size_t vector_align_v = sizeof(T) * W < 16 ? sizeof(T) * W : 16;

/// W elements of T laid out as one aligned chunk, so that a single load or
/// store moves them (ld.global.v4.f32 on CUDA).
template <class T, int W>
struct alignas(vector_align_v<T, W>) chunk {
  T v[W];
};

/// Load W consecutive elements at p (aligned to vector_align_v) in one access.
template <int W, class T>
SINTER_HD SINTER_FORCEINLINE lanes<std::remove_const_t<T>, W> load_chunk(T* p) {
  using U = std::remove_const_t<T>;
#if SINTER_DEVICE_CODE()
  const chunk<U, W> c = *reinterpret_cast<const chunk<U, W>*>(p);
#else
  chunk<U, W> c;
  std::memcpy(&c, p, sizeof c);
#endif
  lanes<U, W> out;
  for (int k = 0; k < W; ++k) out.v[k] = c.v[k];
  return out;
}

/// Store W consecutive elements at p (aligned to vector_align_v) in one access.
template <int W, class T>
SINTER_HD SINTER_FORCEINLINE void store_chunk(T* p, const lanes<T, W>& x) {
  chunk<T, W> c;
  for (int k = 0; k < W; ++k) c.v[k] = x.v[k];
#if SINTER_DEVICE_CODE()
  *reinterpret_cast<chunk<T, W>*>(p) = c;
#else
  std::memcpy(p, &c, sizeof c);
#endif
}

/// Reorder the axes of a layout: axis d of the result is axis perm[d].
template <std::size_t R>
SINTER_HD constexpr void permute_axes(extents<R>& shape, extents<R>& strides, const extents<R>& perm) {
  const extents<R> s = shape, st = strides;
  for (std::size_t d = 0; d != R; ++d) {
    shape[d] = s[static_cast<std::size_t>(perm[d])];
    strides[d] = st[static_cast<std::size_t>(perm[d])];
  }
}

/// Cursor over contiguous memory: element i is p[i].
template <class T>
struct unit_cursor {
  T* p;
  SINTER_HD SINTER_FORCEINLINE std::remove_const_t<T> load(index_t i) const { return p[i]; }
  /// Elements i .. i+W-1 in one vector access (p + i must be vector aligned).
  template <int W>
  SINTER_HD SINTER_FORCEINLINE lanes<std::remove_const_t<T>, W> load_n(index_t i) const {
    return load_chunk<W>(p + i);
  }
};

/// Cursor over one row at a compile-time stride K: element j is p[j * K].
template <class T, index_t K>
struct step_cursor {
  T* p;
  SINTER_HD SINTER_FORCEINLINE std::remove_const_t<T> load(index_t j) const { return p[j * K]; }
};

/// Cursor over one strided row: element j is p[j * s].
template <class T>
struct stride_cursor {
  T* p;
  index_t s;
  SINTER_HD SINTER_FORCEINLINE std::remove_const_t<T> load(index_t j) const { return p[j * s]; }
};

/// A strided view of memory as an expression leaf. T may be const.
/// `Dense`: the leaf reads a whole row-major buffer of its own (an array,
/// array::as_expr, or a pass's temporary). Its rows are then never read at
/// stride 2 (its innermost stride is 1, or 0 where it broadcasts), so a
/// host pass over a tree holding one does not compile the step-2 row loop
/// (host.hpp, `step2_possible_v`). Views and slices are not dense. Where
/// a pass reorders its axes (evaluate.hpp, output_order) a dense leaf may
/// read at any stride; the flag only keeps one loop out of the program,
/// every pass still runs correctly on the paths that remain.
template <class T, std::size_t R, bool Dense = false>
struct memory_leaf {
  using value_type = std::remove_const_t<T>;
  static constexpr std::size_t rank = R;
  T* ptr;
  extents<R> shape;
  extents<R> strides;

  /// pack.hpp's copy_node.
  SINTER_HD SINTER_FORCEINLINE memory_leaf copy_fields() const {
    return {ptr, copy_extents(shape), copy_extents(strides)};
  }

  template <std::size_t RO>
  SINTER_HD memory_leaf<T, RO, Dense> bind(const extents<RO>& out) const {
    return {ptr, out, broadcast_strides(shape, strides, out)};
  }
  SINTER_HD SINTER_FORCEINLINE bool unit() const { return is_row_major(shape, strides); }
  SINTER_HD bool mergeable(std::size_t d) const { return mergeable_axes(shape, strides, d); }
  SINTER_HD memory_leaf merged(std::size_t d) const {
    memory_leaf m = *this;
    merge_axes(m.shape, m.strides, d);
    return m;
  }
  SINTER_HD memory_leaf permuted(const extents<R>& perm) const {
    memory_leaf m = *this;
    permute_axes(m.shape, m.strides, perm);
    return m;
  }
  SINTER_HD unit_cursor<T> linear() const { return {ptr}; }
  /// Whether every row has stride k (step_row<k> applies).
  SINTER_HD bool rows_step_is(index_t k) const { return inner_step_is(shape, strides, k); }
  /// K = 1 is the contiguous cursor itself (a row pass then runs the
  /// contiguous pass's loop, compiled once).
  template <index_t K>
  SINTER_HD auto step_row(const extents<R>& idx) const {
    if constexpr (K == 1) return unit_cursor<T>{ptr + row_offset(idx, strides)};
    else return step_cursor<T, K>{ptr + row_offset(idx, strides)};
  }
  SINTER_HD stride_cursor<T> row(const extents<R>& idx) const {
    if constexpr (R == 0) return {ptr, 0};
    else return {ptr + row_offset(idx, strides), strides[R - 1]};
  }
};

/// Whether the pass `out = bound` has adjacent axes that the output and
/// every leaf traverse as one (evaluate.hpp's collapse_from would fold them).
template <class T, std::size_t R, class Node>
SINTER_HD SINTER_FORCEINLINE bool any_mergeable(const memory_leaf<T, R>& out, const Node& bound) {
  for (std::size_t d = 0; d + 1 < R; ++d)
    if (out.mergeable(d) && bound.mergeable(d)) return true;
  return false;
}

/// Cursor over a generator at consecutive positions.
template <class G>
struct gen_unit_cursor {
  G gen;
  index_t base;
  SINTER_HD SINTER_FORCEINLINE typename G::value_type load(index_t i) const {
    return gen(base + i);
  }
  template <int W>
  SINTER_HD SINTER_FORCEINLINE lanes<typename G::value_type, W> load_n(index_t i) const {
    lanes<typename G::value_type, W> out;
    for (int k = 0; k < W; ++k) out.v[k] = gen(base + i + k);
    return out;
  }
};

/// Cursor over a generator along a row at compile-time stride K.
template <class G, index_t K>
struct gen_step_cursor {
  G gen;
  index_t base;
  SINTER_HD SINTER_FORCEINLINE typename G::value_type load(index_t j) const { return gen(base + j * K); }
};

/// Cursor over a generator along a strided row.
template <class G>
struct gen_stride_cursor {
  G gen;
  index_t base;
  index_t s;
  SINTER_HD SINTER_FORCEINLINE typename G::value_type load(index_t j) const {
    return gen(base + j * s);
  }
};

/// A generator as an expression leaf: the value at a position is `gen(offset)`,
/// with offset = base + sum(idx * strides). Views (slices, reshape, transpose)
/// apply to generators exactly as to memory, so `arange(10)(slice(2, 8))` works.
template <class G, std::size_t R>
struct gen_leaf {
  using value_type = typename G::value_type;
  static constexpr std::size_t rank = R;
  G gen;
  index_t base;
  extents<R> shape;
  extents<R> strides;

  /// pack.hpp's copy_node.
  SINTER_HD SINTER_FORCEINLINE gen_leaf copy_fields() const {
    return {gen, base, copy_extents(shape), copy_extents(strides)};
  }

  template <std::size_t RO>
  SINTER_HD gen_leaf<G, RO> bind(const extents<RO>& out) const {
    return {gen, base, out, broadcast_strides(shape, strides, out)};
  }
  SINTER_HD SINTER_FORCEINLINE bool unit() const { return is_row_major(shape, strides); }
  SINTER_HD bool mergeable(std::size_t d) const { return mergeable_axes(shape, strides, d); }
  SINTER_HD gen_leaf merged(std::size_t d) const {
    gen_leaf m = *this;
    merge_axes(m.shape, m.strides, d);
    return m;
  }
  SINTER_HD gen_leaf permuted(const extents<R>& perm) const {
    gen_leaf m = *this;
    permute_axes(m.shape, m.strides, perm);
    return m;
  }
  SINTER_HD gen_unit_cursor<G> linear() const { return {gen, base}; }
  SINTER_HD bool rows_step_is(index_t k) const { return inner_step_is(shape, strides, k); }
  template <index_t K>
  SINTER_HD auto step_row(const extents<R>& idx) const {
    if constexpr (K == 1) return gen_unit_cursor<G>{gen, base + row_offset(idx, strides)};
    else return gen_step_cursor<G, K>{gen, base + row_offset(idx, strides)};
  }
  SINTER_HD gen_stride_cursor<G> row(const extents<R>& idx) const {
    if constexpr (R == 0) return {gen, base, 0};
    else return {gen, base + row_offset(idx, strides), strides[R - 1]};
  }
};

/// A scalar as an expression leaf (rank 0, broadcasts to anything).
template <class T>
struct scalar_leaf {
  using value_type = T;
  static constexpr std::size_t rank = 0;
  T value;
  /// Static, so the leaf is just its value: a 16-byte leaf (value, then the
  /// shape's unused slot) was built by narrower stores than the load that
  /// copied it (store forwarding: docs/design.md#store-forwarding).
  static constexpr extents<0> shape{};

  template <std::size_t RO>
  SINTER_HD scalar_leaf bind(const extents<RO>&) const { return *this; }
  SINTER_HD bool unit() const { return true; }
  SINTER_HD bool mergeable(std::size_t) const { return true; }
  SINTER_HD scalar_leaf merged(std::size_t) const { return *this; }
  template <std::size_t RO>
  SINTER_HD scalar_leaf permuted(const extents<RO>&) const { return *this; }
  SINTER_HD scalar_leaf linear() const { return *this; }
  SINTER_HD bool rows_step_is(index_t) const { return true; }
  template <index_t K, std::size_t RO>
  SINTER_HD scalar_leaf step_row(const extents<RO>&) const { return *this; }
  template <std::size_t RO>
  SINTER_HD scalar_leaf row(const extents<RO>&) const { return *this; }
  SINTER_HD SINTER_FORCEINLINE T load(index_t) const { return value; }
  template <int W>
  SINTER_HD SINTER_FORCEINLINE lanes<T, W> load_n(index_t) const {
    lanes<T, W> out;
    for (int k = 0; k < W; ++k) out.v[k] = value;
    return out;
  }
};

template <class T> struct is_memory_leaf : std::false_type {};
template <class T, std::size_t R, bool D> struct is_memory_leaf<memory_leaf<T, R, D>> : std::true_type {};

/// Appends "f32[3,4]" to `out` for a leaf of dtype `dtype` and shape
/// shape[0..rank) (out of line: one copy per program).
SINTER_NOINLINE void append_leaf_label(std::string& out, const char* dtype, const index_t* shape, std::size_t rank) {
  out += dtype;
  out += '[';
  for (std::size_t d = 0; d != rank; ++d) {
    if (d) out += ',';
    out += std::to_string(shape[d]);
  }
  out += ']';
}

/// "f32[3,4]": how a leaf appears in a trace line.
template <class T, std::size_t R>
std::string leaf_label(const extents<R>& s) {
  std::string out;
  append_leaf_label(out, dtype_name<std::remove_const_t<T>>(), s.data(), R);
  return out;
}

}  // namespace sinter::detail
