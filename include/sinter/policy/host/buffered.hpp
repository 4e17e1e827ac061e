#pragma once
/// \file policy/host/buffered.hpp
/// Strided and broadcast host passes run through the contiguous pass's own
/// loop. A pass is cut into blocks; each operand that the block cannot read
/// in place (a row stride other than 1: a transpose, a reversed view, a
/// column broadcast, a step of 3) is first copied into a small L1 buffer
/// (NumPy's buffered iteration), then the expression's unit-stride loop,
/// the one `store_range_call` compiled for the contiguous pass, computes the
/// block. An expression thus compiles one vectorised loop for all its
/// layouts, where a loop of run-time strides was one more per expression
/// (docs/journal/bench-2026-11b.md, "Strided passes through the contiguous
/// loop"). The copies are one loop per element
/// type and rank, shared by every expression.
///
/// A column broadcast (rows at stride 0, `x - m` with m of shape (n, 1))
/// beside operands read in place gathers nothing: its blocks are full
/// length, streamed or not, its buffer one value per row (col_bcast).
///
/// Trees of memory and scalar leaves take this path (`bufferable_v`), and
/// so do generators that fill a run at once (`fill_run`: sinter::random),
/// contiguous or not (plan.hpp), their buffers filled per block; other
/// generators (arange) keep the run-time-stride loop (run_rows<0>).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>

#include "../../core/map_node.hpp"
#include "../../core/tree_fold.hpp"
#include "stream.hpp"

namespace sinter::detail {

/// Whether a leaf has a block cursor (block_cursor): memory, a scalar, or a
/// generator that fills a run at once.
template <class N>
struct bufferable : std::false_type {};
template <class T, std::size_t R, bool D>
struct bufferable<memory_leaf<T, R, D>> : std::true_type {};
template <class T>
struct bufferable<scalar_leaf<T>> : std::true_type {};
/// Whether a generator fills a run of elements at once (`g.fill_run(first, n, out)`).
template <class G>
concept run_generator = requires(const G& g, index_t i, typename G::value_type* p) { g.fill_run(i, i, p); };
template <class G, std::size_t R>
struct bufferable<gen_leaf<G, R>> : std::bool_constant<run_generator<G>> {};
/// Whether a bound tree is made of map nodes over bufferable leaves only, so
/// that its block cursor has its `linear()` type (core/tree_fold.hpp).
template <class N>
inline constexpr bool bufferable_v = fold_tree_v<all_leaves_fold<bufferable>, N>;

/// Whether a leaf is a run_generator's.
template <class L>
struct run_gen_leaf : std::false_type {};
template <class G, std::size_t R>
struct run_gen_leaf<gen_leaf<G, R>> : std::bool_constant<run_generator<G>> {};
/// Whether a tree holds a run_generator leaf (plan.hpp sends it to the buffered route).
template <class N>
inline constexpr bool has_run_gen_v = fold_tree_v<any_leaf_fold<run_gen_leaf>, N>;

/// The number of memory and generator leaves of a tree (each read through a
/// block buffer), and their largest element size: a leaf's element size if
/// it has a block buffer, else 0.
template <class L>
struct leaf_size_of : std::integral_constant<std::size_t, 0> {};
template <class T, std::size_t R, bool D>
struct leaf_size_of<memory_leaf<T, R, D>> : std::integral_constant<std::size_t, sizeof(T)> {};
template <class G, std::size_t R>
struct leaf_size_of<gen_leaf<G, R>> : std::integral_constant<std::size_t, sizeof(typename G::value_type)> {};
/// Whether a leaf has a block buffer.
template <class L>
using buffered_leaf = std::bool_constant<(leaf_size_of<L>::value > 0)>;
/// The number of such leaves in a tree (core/tree_fold.hpp).
template <class N>
inline constexpr std::size_t leaf_count_v = fold_tree_v<sum_leaves_fold<buffered_leaf>, N>;
/// Their largest element size.
template <class N>
inline constexpr std::size_t leaf_size_v = fold_tree_v<max_leaf_fold<leaf_size_of>, N>;

/// Whether every memory leaf of a bufferable tree reads its rows at stride
/// 1 or 0 (a column broadcast, `x - m` with m of shape (n, 1)): a block
/// within a row then gathers nothing from memory, it only fills a buffer
/// with the broadcast leaf's one value.
template <class T, std::size_t R, bool D>
SINTER_FORCEINLINE bool rows_unit_or_bcast(const memory_leaf<T, R, D>& l) {
  return l.strides[R - 1] == 0 || l.strides[R - 1] == 1;
}
template <class T>
SINTER_FORCEINLINE bool rows_unit_or_bcast(const scalar_leaf<T>&) {
  return true;
}
template <class G, std::size_t R>
SINTER_FORCEINLINE bool rows_unit_or_bcast(const gen_leaf<G, R>& l) {  // computed, not gathered: long blocks
  return l.strides[R - 1] == 0 || l.strides[R - 1] == 1;
}
template <class F, class... A, std::size_t... I>
SINTER_FORCEINLINE bool rows_unit_or_bcast_of(const map_node<F, A...>& n, std::index_sequence<I...>) {
  return (true && ... && rows_unit_or_bcast(get<I>(n.args)));
}
template <class F, class... A>
SINTER_FORCEINLINE bool rows_unit_or_bcast(const map_node<F, A...>& n) {
  return rows_unit_or_bcast_of(n, std::index_sequence_for<A...>{});
}

/// Rows at least this long are cut into blocks within each row (an operand
/// whose rows have unit stride is then read in place); shorter rows are
/// blocked across rows (only operands contiguous over the whole pass are
/// read in place), so that a block is never a few elements long.
inline constexpr index_t buffered_row_min = 64;

/// Where a block starts and how long it is, and the scratch its gathered
/// operands take their buffers from.
template <std::size_t R>
struct block_at {
  extents<R> idx;  // outer index of the block's first position (last entry unused)
  index_t j;       // its column
  index_t len;     // positions
  bool in_row;     // the block lies in one row
  unsigned char* next;  // the next free buffer
  index_t slot;    // bytes of a buffer
  index_t kept;    // positions of a column broadcast's buffer still filled from
                   // the previous block of the same row (0 on a new row)
};

/// Offset of the position (idx, j) under strides.
template <std::size_t R>
SINTER_FORCEINLINE index_t block_offset(const extents<R>& idx, index_t j, const extents<R>& strides) {
  return row_offset(idx, strides) + j * strides[R - 1];
}

/// Calls f(off, j, k, cnt) for each row piece of the len positions from
/// (idx, j) of a pass over `shape`: off is the row's offset under
/// `strides`, [j, j + cnt) its columns, k the piece's first position in
/// the block. The walk of host_loop.hpp's for_row_ranges, with the offset
/// and the block position handed over: gather_block written on
/// for_row_ranges' callback ran a streamed step-2 pass slower
/// (docs/journal/code-notes.md#buffered-stream-blocks).
template <std::size_t R, class F>
SINTER_FORCEINLINE void for_block_rows(const extents<R>& shape, const extents<R>& strides, extents<R> idx,
                                       index_t j, index_t len, F&& f) {
  const index_t inner = shape[R - 1];
  for (index_t k = 0; k < len;) {
    const index_t cnt = inner - j < len - k ? inner - j : len - k;
    f(row_offset(idx, strides), j, k, cnt);
    k += cnt;
    j = 0;
    for (std::size_t d = R - 1; d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}

/// buf[k] = p[offset of position k] for the len positions from (idx, j)
/// of a pass over `shape`, row by row (inlined in block_source, of which
/// there is one per element type and rank).
template <class V, std::size_t R>
SINTER_FORCEINLINE void gather_block(V* buf, const V* p, const extents<R>& shape, const extents<R>& strides,
                                     const extents<R>& idx, index_t j, index_t len) {
  const index_t s = strides[R - 1];
  for_block_rows(shape, strides, idx, j, len, [&](index_t off, index_t j0, index_t k, index_t cnt) {
    const V* row = p + off;
    if (s == 1) {
      std::memcpy(static_cast<void*>(buf + k), static_cast<const void*>(row + j0), static_cast<std::size_t>(cnt) * sizeof(V));
    } else if (s == 0) {
      const V v = row[0];
      for (index_t t = 0; t < cnt; ++t) buf[k + t] = v;
    } else if (s == 2) {  // a step-2 slice: loads and shuffles, not one load per element
      const V* q = row + 2 * j0;
      for (index_t t = 0; t < cnt; ++t) buf[k + t] = q[2 * t];
    } else {
      for (index_t t = 0; t < cnt; ++t) buf[k + t] = row[(j0 + t) * s];
    }
  });
}

/// The inverse of gather_block, for an output that a block cannot write in
/// place: p[offset of position k] = buf[k].
template <class V, std::size_t R>
SINTER_NOINLINE void scatter_block(V* p, const V* buf, const extents<R>& shape, const extents<R>& strides,
                                   const extents<R>& idx, index_t j, index_t len) {
  const index_t s = strides[R - 1];
  for_block_rows(shape, strides, idx, j, len, [&](index_t off, index_t j0, index_t k, index_t cnt) {
    V* row = p + off;
    for (index_t t = 0; t < cnt; ++t) row[(j0 + t) * s] = buf[k + t];
  });
}

/// Where a memory leaf's block at b is read from: its memory where the
/// block reads it with unit stride, else a buffer gathered from it. Out of
/// line: one copy per element type and rank, shared by every expression.
template <class T, std::size_t R>
SINTER_NOINLINE T* block_source(const memory_leaf<T, R>& l, block_at<R>& b) {
  using V = std::remove_const_t<T>;
  const bool in_place = b.in_row ? l.strides[R - 1] == 1 : l.unit();
  if (in_place) return l.ptr + block_offset(b.idx, b.j, l.strides);
  V* buf = reinterpret_cast<V*>(b.next);
  b.next += b.slot;
  if (b.in_row && l.strides[R - 1] == 0) {  // a column broadcast: one value per row
    const V v = l.ptr[row_offset(b.idx, l.strides)];
    for (index_t t = b.kept; t < b.len; ++t) buf[t] = v;
    return buf;
  }
  gather_block<V, R>(buf, l.ptr, l.shape, l.strides, b.idx, b.j, b.len);
  return buf;
}
/// A memory leaf's cursor over the block at b (a dense leaf's through the
/// same block_source).
template <class T, std::size_t R, bool D>
SINTER_FORCEINLINE unit_cursor<T> block_cursor(const memory_leaf<T, R, D>& l, block_at<R>& b) {
  if constexpr (D) return {block_source(memory_leaf<T, R>{l.ptr, l.shape, l.strides}, b)};
  else return {block_source(l, b)};
}
/// A run generator's values at the block at b, in a buffer: fill_run over
/// each unit-stride row piece (reversed ones filled forwards, then turned),
/// one element at a time otherwise. Out of line: one copy per generator and rank.
template <class G, std::size_t R>
SINTER_NOINLINE const typename G::value_type* gen_block(const gen_leaf<G, R>& l, block_at<R>& b) {
  using V = typename G::value_type;
  V* const buf = reinterpret_cast<V*>(b.next);
  b.next += b.slot;
  const index_t s = l.strides[R - 1];
  if (b.in_row ? s == 1 : l.unit()) {
    l.gen.fill_run(l.base + block_offset(b.idx, b.j, l.strides), b.len, buf);
    return buf;
  }
  for_block_rows(l.shape, l.strides, b.idx, b.j, b.len, [&](index_t off, index_t j0, index_t k, index_t cnt) {
    const index_t at = l.base + off + j0 * s;
    if (s == 1) {
      l.gen.fill_run(at, cnt, buf + k);
    } else if (s == -1) {
      l.gen.fill_run(at - (cnt - 1), cnt, buf + k);
      std::reverse(buf + k, buf + k + cnt);
    } else if (s == 0) {
      const V v = l.gen(at);
      for (index_t t = 0; t < cnt; ++t) buf[k + t] = v;
    } else {
      for (index_t t = 0; t < cnt; ++t) buf[k + t] = l.gen(at + t * s);
    }
  });
  return buf;
}
/// A run generator's cursor over the block at b: its buffer.
template <class G, std::size_t R>
SINTER_FORCEINLINE unit_cursor<const typename G::value_type> block_cursor(const gen_leaf<G, R>& l, block_at<R>& b) {
  return {gen_block(l, b)};
}
/// A scalar's cursor over any block: itself.
template <class T, std::size_t R>
SINTER_FORCEINLINE scalar_leaf<T> block_cursor(const scalar_leaf<T>& l, block_at<R>&) {
  return l;
}
/// block_cursor of a map node, its children's cursors built in turn.
template <class F, class... A, std::size_t R, std::size_t... I>
SINTER_FORCEINLINE auto block_cursor_of(const map_node<F, A...>& n, block_at<R>& b, std::index_sequence<I...>) {
  return map_cursor<F, decltype(block_cursor(get<I>(n.args), b))...>{n.fn(), make_pack(block_cursor(get<I>(n.args), b)...)};
}
/// A map node's cursor over the block at b: its type is the node's
/// `linear()` cursor's, so the block runs the contiguous pass's loop.
template <class F, class... A, std::size_t R>
SINTER_FORCEINLINE auto block_cursor(const map_node<F, A...>& n, block_at<R>& b) {
  return block_cursor_of(n, b, std::index_sequence_for<A...>{});
}

/// Bytes of scratch a block of a buffered pass may use (a buffer for every
/// memory leaf and one for the output): small enough to stay in L1 with
/// the operands' own lines.
inline constexpr std::size_t buffered_scratch_bytes = 16384;

/// A buffer's element size in a buffered pass of `Node` into T.
template <class T, class Node>
inline constexpr std::size_t buffered_elem_v = sizeof(T) > leaf_size_v<Node> ? sizeof(T) : leaf_size_v<Node>;

/// Positions per block of a buffered pass of `Node` into T: as many as the
/// scratch holds, 1024 at most and 16 at least (a tree of hundreds of
/// leaves then takes its buffers from the heap, run_buffered).
template <class T, class Node>
inline constexpr index_t buffered_block_v = [] {
  const std::size_t per = buffered_elem_v<T, Node> * (leaf_count_v<Node> + 1);
  std::size_t b = 1024;
  while (b > 16 && b * per > buffered_scratch_bytes) b /= 2;
  return static_cast<index_t>(b);
}();

/// Output bytes of a block of a streamed pass that gathers. Such a pass
/// is memory-bound, and long blocks leave the memory idle while a block is
/// computed and written; blocks of 256 bytes keep it level with the
/// strided loop it replaced (docs/journal/code-notes.md#buffered-stream-blocks).
inline constexpr index_t buffered_stream_bytes = 256;

/// Flat positions [s, e) of the pass `out = node` (not contiguous: some
/// operand or the output is strided or broadcast), block by block through
/// the contiguous pass's loop (see the file comment). `stream`: the output's
/// rows are unit-stride runs written with streaming stores (the caller
/// fences). Rows of buffered_row_min or more are blocked within rows, and
/// a row all of whose operands have unit stride is one block.
template <class T, std::size_t R, class Node>
void run_buffered(const memory_leaf<T, R>& out, const Node& node, index_t s, index_t e, bool stream) {
  static_assert(R >= 1 && bufferable_v<Node>);
  constexpr index_t B = buffered_block_v<T, Node>;
  constexpr index_t Bs = B < buffered_stream_bytes / static_cast<index_t>(sizeof(T)) ? B : buffered_stream_bytes / static_cast<index_t>(sizeof(T));
  // A 64-byte aligned buffer of B elements per memory leaf, and the output's.
  constexpr std::size_t slot = (static_cast<std::size_t>(B) * buffered_elem_v<T, Node> + 63) / 64 * 64;
  constexpr std::size_t bytes = slot * (leaf_count_v<Node> + 1);
  constexpr bool on_stack = bytes <= 2 * buffered_scratch_bytes;
  alignas(64) unsigned char local[on_stack ? bytes : 64];
  std::unique_ptr<unsigned char[]> heap;
  unsigned char* scratch = local;
  if constexpr (!on_stack) {
    heap.reset(new unsigned char[bytes + 64]);
    scratch = heap.get() + (64 - reinterpret_cast<std::uintptr_t>(heap.get()) % 64) % 64;
  }
  T* const obuf = reinterpret_cast<T*>(scratch + slot * leaf_count_v<Node>);

  const index_t inner = out.shape[R - 1];
  const bool in_row = inner >= buffered_row_min;
  const bool out_in_place = in_row ? out.strides[R - 1] == 1 : out.unit();
  // In a row whose operands all have unit stride nothing is gathered: the
  // block is the whole row piece (unless the output needs its buffer).
  const bool whole_rows = !has_run_gen_v<Node> && in_row && out_in_place && node.rows_step_is(1);
  // A column broadcast reads no memory a block must wait on (its buffer is
  // one value filled in L1): its blocks are as long as the buffers, streamed
  // or not, rather than the short blocks of a gathering streamed pass.
  const bool col_bcast = in_row && out_in_place && !whole_rows && rows_unit_or_bcast(node);
  const bool wide = wide_pass<T>(e - s);
  index_t kept = 0;  // the previous block's length in this row (its buffers are the same slots)
  for (index_t p = s; p < e;) {
    extents<R> idx{};  // the block's first position (idx, j)
    index_t j = 0;
    row_start(out.shape, p, idx, j);
    index_t len = e - p;
    if (in_row && inner - j < len) len = inner - j;
    if (!whole_rows && B < len) len = B;
    T* const o = out.ptr + block_offset(idx, j, out.strides);
    // Streamed blocks that gather are short (buffered_stream_bytes), and
    // end on a 64-byte line of the output where its elements allow, so that
    // stream_range streams every whole block rather than splitting each
    // into an ordinary head and tail.
    if (stream && out_in_place && !whole_rows && !col_bcast) {
      if (Bs < len) len = Bs;
      const auto mis = reinterpret_cast<std::uintptr_t>(o) % 64;
      if (mis != 0 && mis % sizeof(T) == 0 && static_cast<index_t>((64 - mis) / sizeof(T)) < len)
        len = static_cast<index_t>((64 - mis) / sizeof(T));
    }
    if (j == 0) kept = 0;
    block_at<R> b{idx, j, len, in_row, scratch, static_cast<index_t>(slot), kept};
    kept = len;
    const auto c = block_cursor(node, b);
    static_assert(has_run_gen_v<Node> || std::is_same_v<std::remove_const_t<decltype(c)>, decltype(node.linear())>);
    if (out_in_place) {
      if (stream) stream_range(o, c, 0, len);
      else store_range_call(o, c, 0, len, wide);
    } else {
      store_range_call(obuf, c, 0, len, false);
      scatter_block<T, R>(out.ptr, obuf, out.shape, out.strides, idx, j, len);
    }
    p += len;
  }
}

}  // namespace sinter::detail
