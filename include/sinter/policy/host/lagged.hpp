#pragma once
/// \file policy/host/lagged.hpp
/// The lagged-rows route (trace "lagged rows"): an in-place assignment whose
/// output overlaps inputs that read the output's own array at a fixed offset
/// (`u(slice(1,-1)) = 0.5f * (u(slice(0,-2)) + u(slice(2,end)))`, a 2-D
/// stencil), on host and par, without a whole temporary. The pass walks the
/// outer axis (its first of extent > 1) in blocks of rows: each block is
/// computed into a small buffer (the ordinary host pass, on the block's rows),
/// and a computed row is written back only once no later row still reads its
/// old values; it lags the writes by `lag` rows. Every read thus sees the old
/// values: NumPy's result, as the temporary gives it, bit for bit.
/// par cuts the rows into chunks that run at once; a chunk keeps the rows its
/// neighbours read (its first `ahead` rows, its last `lag`) aside and they are
/// written after every chunk is done, so no thread writes what another reads.
/// What does not fit (another stride, a broadcast or transposed alias, a lag
/// of more rows than lagged_buffer_bytes holds) takes the temporary.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <type_traits>

#include "../../core/leaf.hpp"
#include "../../core/map_node.hpp"
#include "../../core/tree_fold.hpp"
#include "../host.hpp"
#include "../par.hpp"
#include "thread_pool.hpp"

namespace sinter::detail {

/// Whether the route can cut a leaf into blocks of rows (row_block): a
/// memory, generator or scalar leaf.
template <class L>
struct lagged_sliceable_leaf : std::false_type {};
template <class T, std::size_t R, bool D>
struct lagged_sliceable_leaf<memory_leaf<T, R, D>> : std::true_type {};
// A generator that reads memory (concatenate, take: `touches`) hides it
// from lagged_fits, so a tree holding one keeps the temporary.
template <class G, std::size_t R>
struct lagged_sliceable_leaf<gen_leaf<G, R>>
    : std::bool_constant<!requires(const G& g) { g.touches(std::uintptr_t{}, std::uintptr_t{}); }> {};
template <class T>
struct lagged_sliceable_leaf<scalar_leaf<T>> : std::true_type {};
/// Whether the route can cut a bound tree into blocks of rows: map nodes
/// over such leaves (core/tree_fold.hpp).
template <class N>
inline constexpr bool lagged_sliceable_v = fold_tree_v<all_leaves_fold<lagged_sliceable_leaf>, N>;

/// Whether a tree holds a view (a memory leaf that is not a whole array): a
/// whole array's leaf never reads the output at a shifted mapping, so trees
/// of arrays alone do not compile the route.
template <class L>
struct view_leaf : std::false_type {};
template <class T, std::size_t R>
struct view_leaf<memory_leaf<T, R, false>> : std::true_type {};
template <class N>
inline constexpr bool lagged_has_view_v = fold_tree_v<any_leaf_fold<view_leaf>, N>;

/// Whether assign_bound (evaluate.hpp) tries the route for policy P and a
/// bound tree Node: host or par, a tree it can cut, holding a view.
template <class P, class Node>
inline constexpr bool lagged_route_v = [] {
  if constexpr ((std::is_same_v<P, host> || std::is_same_v<P, par>) && lagged_sliceable_v<Node>)
    return Node::rank >= 1 && lagged_has_view_v<Node>;
  else
    return false;
}();

/// At most this many bytes of rows are held back (the lag) or computed per
/// row (one row of the outer axis): a buffer that stays in L2.
inline constexpr std::size_t lagged_buffer_bytes = std::size_t{1} << 20;
/// Bytes of rows computed per block (at least one row, at least the lag).
inline constexpr std::size_t lagged_block_bytes = std::size_t{32} << 10;

/// The route's parameters for one pass (lagged_fits).
struct lagged_plan {
  std::size_t axis = 0;  ///< the outer axis: the first of extent > 1
  index_t row = 1;       ///< elements per row (the axes after `axis`)
  index_t lag = 0;       ///< rows a computed row waits: the furthest row back a position reads
  index_t ahead = 0;     ///< the furthest row forward a position reads
  index_t block = 1;     ///< rows computed per block (>= lag)
};

/// The rows [r0, r0 + count) along `axis` of a bound tree (same type).
template <class T, std::size_t R, bool D>
memory_leaf<T, R, D> row_block(const memory_leaf<T, R, D>& l, std::size_t axis, index_t r0, index_t count) {
  memory_leaf<T, R, D> b = l;
  b.ptr = l.ptr + r0 * l.strides[axis];
  b.shape[axis] = count;
  return b;
}
template <class G, std::size_t R>
gen_leaf<G, R> row_block(const gen_leaf<G, R>& l, std::size_t axis, index_t r0, index_t count) {
  gen_leaf<G, R> b = l;
  b.base = l.base + r0 * l.strides[axis];
  b.shape[axis] = count;
  return b;
}
template <class T>
scalar_leaf<T> row_block(const scalar_leaf<T>& l, std::size_t, index_t, index_t) {
  return l;
}
template <class F, class... A, std::size_t... I>
map_node<F, A...> row_block_args(const map_node<F, A...>& n, std::size_t axis, index_t r0, index_t count,
                                 std::index_sequence<I...>) {
  map_node<F, A...> b{n.fn(), make_pack(row_block(get<I>(n.args), axis, r0, count)...), n.shape};
  b.shape[axis] = count;
  return b;
}
template <class F, class... A>
map_node<F, A...> row_block(const map_node<F, A...>& n, std::size_t axis, index_t r0, index_t count) {
  return row_block_args(n, axis, r0, count, std::index_sequence_for<A...>{});
}

/// a / b rounded down and up (b > 0).
inline index_t floor_div(index_t a, index_t b) { return a / b - (a % b != 0 && a < 0); }
inline index_t ceil_div(index_t a, index_t b) { return a / b + (a % b != 0 && a > 0); }

/// Whether the route takes `out = bound` (an output that some input
/// overlaps), and its plan. The output's rows along the outer axis must lie
/// apart in memory in increasing order (stride above the span of a row);
/// every leaf overlapping the output must have its element size and its
/// strides, at a whole number of elements from it. Such a leaf at offset c
/// reads, from row r, output rows r + d with d in [ceil((c - W) / s),
/// floor((c + W) / s)] (s the outer stride, W a row's span): the plan's lag
/// and ahead are the extremes.
template <class T, std::size_t R, class Node>
bool lagged_fits(const memory_leaf<T, R>& out, const Node& bound, lagged_plan& plan) {
  std::size_t ax = R - 1;
  for (std::size_t d = 0; d != R; ++d)
    if (out.shape[d] > 1) {
      ax = d;
      break;
    }
  index_t span = 0, row = 1;  // W and the row's elements
  for (std::size_t d = ax + 1; d < R; ++d) {
    span += (out.shape[d] - 1) * (out.strides[d] < 0 ? -out.strides[d] : out.strides[d]);
    row *= out.shape[d];
  }
  const index_t s = out.strides[ax];
  const bool rows = out.shape[ax] > 1;
  if (rows && s <= span) return false;
  index_t lo = 0, hi = 0;  // the output's bytes, from out.ptr, in elements
  for (std::size_t d = 0; d != R; ++d) {
    const index_t reach = (out.shape[d] - 1) * out.strides[d];
    (reach < 0 ? lo : hi) += reach;
  }
  const auto olo = reinterpret_cast<std::uintptr_t>(out.ptr) - static_cast<std::uintptr_t>(-lo) * sizeof(T);
  const auto ohi = reinterpret_cast<std::uintptr_t>(out.ptr) + static_cast<std::uintptr_t>(hi + 1) * sizeof(T);
  bool ok = true;
  index_t dmin = 0, dmax = 0;
  for_each_leaf(bound, [&](const auto& leaf) {
    using L = std::remove_cvref_t<decltype(leaf)>;
    if constexpr (is_memory_leaf<L>::value && L::rank != R) {
      ok = false;  // not from bind: never seen
    } else if constexpr (is_memory_leaf<L>::value) {
      const auto p = reinterpret_cast<std::uintptr_t>(leaf.ptr);
      index_t llo = 0, lhi = 0;  // the leaf's bytes, from p, in elements
      for (std::size_t d = 0; d != R; ++d) {
        const index_t reach = (leaf.shape[d] - 1) * leaf.strides[d];
        (reach < 0 ? llo : lhi) += reach;
      }
      using U = typename L::value_type;
      if (p + static_cast<std::uintptr_t>(lhi + 1) * sizeof(U) <= olo ||
          p - static_cast<std::uintptr_t>(-llo) * sizeof(U) >= ohi)
        return;  // disjoint
      const auto diff = static_cast<std::intptr_t>(p - reinterpret_cast<std::uintptr_t>(out.ptr));
      if constexpr (sizeof(U) != sizeof(T)) {  // a constant test: nvcc flags the loop after it unreachable
        ok = false;
      } else {
        if (diff % static_cast<std::intptr_t>(sizeof(T)) != 0) {
          ok = false;
          return;
        }
        for (std::size_t d = 0; d != R; ++d)
          if (out.shape[d] > 1 && leaf.strides[d] != out.strides[d]) ok = false;
        const index_t c = static_cast<index_t>(diff / static_cast<std::intptr_t>(sizeof(T)));
        if (!rows) return;
        const index_t dlo = ceil_div(c - span, s), dhi = floor_div(c + span, s);
        if (dlo > dhi) return;  // reads only between the output's rows
        dmin = std::min(dmin, dlo);
        dmax = std::max(dmax, dhi);
      }
    }
  });
  const auto row_bytes = static_cast<std::size_t>(row) * sizeof(T);
  if (!ok || row_bytes > lagged_buffer_bytes || static_cast<std::size_t>(-dmin) * row_bytes > lagged_buffer_bytes ||
      static_cast<std::size_t>(dmax) * row_bytes > lagged_buffer_bytes)
    return false;
  plan.axis = ax;
  plan.row = row;
  plan.lag = -dmin;
  plan.ahead = dmax;
  plan.block = std::max<index_t>({plan.lag, 1, static_cast<index_t>(lagged_block_bytes / row_bytes)});
  return true;
}

/// A 64-byte aligned buffer of n elements of T (not an array: not counted
/// by the trace, as the buffered route's blocks are not).
template <class T>
struct lagged_buffer {
  T* ptr;
  explicit lagged_buffer(index_t n)
      : ptr(static_cast<T*>(::operator new(static_cast<std::size_t>(n) * sizeof(T) + 1, std::align_val_t{64}))) {}
  lagged_buffer(const lagged_buffer&) = delete;
  lagged_buffer& operator=(const lagged_buffer&) = delete;
  ~lagged_buffer() { ::operator delete(ptr, std::align_val_t{64}); }
};

/// out's rows [r0, r0 + count) = the rows at `src`, contiguous (a host
/// pass, or memcpy).
template <class T, std::size_t R>
void lagged_write(const memory_leaf<T, R>& out, const lagged_plan& p, index_t r0, index_t count, const T* src) {
  if (count <= 0) return;
  if constexpr (std::is_trivially_copyable_v<T>) {
    // Rows that are one unit-stride run each (rank 1, a matrix): memcpy,
    // a little cheaper than the copy pass (docs/journal/2026-12-05-stencil.md).
    const bool flat = p.axis + 1 == R && out.strides[p.axis] == 1;
    if (flat || (p.axis + 2 == R && out.strides[R - 1] == 1)) {
      const index_t run = flat ? count : p.row;
      for (index_t i = 0; i != (flat ? 1 : count); ++i)
        std::memcpy(out.ptr + (r0 + i) * out.strides[p.axis], src + i * p.row, static_cast<std::size_t>(run) * sizeof(T));
      return;
    }
  }
  const memory_leaf<T, R> o = row_block(out, p.axis, r0, count);
  backend<host>::evaluate(host{}, o, memory_leaf<const T, R, true>{src, o.shape, row_major_strides(o.shape)}, nullptr);
}

/// Rows [a, b) of the pass on the calling thread. Rows [a, a + head) and
/// [b - tail, b) go to `side` (head rows, then tail rows) instead of out.
/// Blocks alternate between two halves of the buffer: the rows a block
/// leaves unwritten (the last `lag`) are written after the next block.
template <class T, std::size_t R, class Node>
void run_lagged_range(const memory_leaf<T, R>& out, const Node& bound, const lagged_plan& p, index_t a, index_t b,
                      index_t head, index_t tail, T* side) {
  const index_t m = p.row, B = p.block;
  lagged_buffer<T> buf(2 * B * m);
  // Rows [x, y), their values at src (row x first): to side or out.
  const auto put = [&](index_t x, index_t y, const T* src) {
    const index_t h = std::min(y, a + head), t = std::max(x, b - tail);
    if (x < h) std::copy(src, src + (h - x) * m, side + (x - a) * m);
    const index_t mx = std::max(x, h), my = std::min(y, t);
    lagged_write(out, p, mx, my - mx, src + (mx - x) * m);
    if (t < y) std::copy(src + (t - x) * m, src + (y - x) * m, side + (head + t - (b - tail)) * m);
  };
  index_t written = a;  // rows below are written
  for (index_t r0 = a, k = 0; r0 < b; r0 += B, ++k) {
    const index_t r1 = std::min(r0 + B, b);
    T* const cur = buf.ptr + (k & 1) * B * m;
    const auto blk = row_block(bound, p.axis, r0, r1 - r0);
    backend<host>::evaluate(host{}, memory_leaf<T, R>{cur, blk.shape, row_major_strides(blk.shape)}, blk, nullptr);
    // Rows below r1 - lag are read by no later position (the last block: none is).
    const index_t upto = r1 == b ? b : r1 - p.lag;
    if (written < r0) {  // the previous block's last rows
      put(written, r0, buf.ptr + ((k & 1) ^ 1) * B * m + (written - (r0 - B)) * m);
      written = r0;
    }
    if (written < upto) {
      put(written, upto, cur + (written - r0) * m);
      written = upto;
    }
  }
}

/// Runs the route for P (host: one range; par: chunks) and names it.
template <class P, class T, std::size_t R, class Node>
void run_lagged(const memory_leaf<T, R>& out, const Node& bound, const lagged_plan& p, std::string* detail) {
  const index_t n = out.shape[p.axis];
  const int threads = std::is_same_v<P, par> ? get_num_threads() : 1;
  const index_t per = std::max<index_t>(p.lag + p.ahead, 1);  // a chunk's fewest rows
  const index_t chunks = std::min<index_t>({index_t{threads} * 4, n / per, shape_size(out.shape) / par_grain});
  if (threads <= 1 || chunks < 2) {
    run_lagged_range(out, bound, p, 0, n, 0, 0, static_cast<T*>(nullptr));
    if (detail) *detail = std::is_same_v<P, par> ? "lagged rows 1 thread" : "lagged rows";
    return;
  }
  // Chunk c: rows [c n / chunks, (c + 1) n / chunks); its first `ahead`
  // (read by chunk c - 1) and last `lag` rows (read by c + 1) wait in `side`.
  const index_t keep = (p.lag + p.ahead) * p.row;
  lagged_buffer<T> side(chunks * keep);
  const auto first = [&](index_t c) { return c * n / chunks; };
  default_pool().parallel_for(chunks, [&](std::int64_t c) {
    run_lagged_range(out, bound, p, first(c), first(c + 1), c > 0 ? p.ahead : 0, c + 1 < chunks ? p.lag : 0,
                     side.ptr + c * keep);
  });
  for (index_t c = 0; c != chunks; ++c) {
    const index_t head = c > 0 ? p.ahead : 0, tail = c + 1 < chunks ? p.lag : 0;
    lagged_write(out, p, first(c), head, side.ptr + c * keep);
    lagged_write(out, p, first(c + 1) - tail, tail, side.ptr + c * keep + head * p.row);
  }
  if (detail)
    *detail = "lagged rows " + std::to_string(threads) + " threads, " + std::to_string(chunks) + " chunks";
}

/// The policy value assign_bound hands evaluate_pass for this route: P,
/// and the plan. Its backend runs the route and is labelled as P.
template <class P>
struct lagged_pass {
  P pol;
  lagged_plan plan;
};

/// The route as a backend, so that evaluate_pass times and traces it as
/// one pass of P.
template <class P>
struct backend<lagged_pass<P>> {
  static constexpr bool host_accessible = true;
  static std::string label(const lagged_pass<P>& l) { return backend<P>::label(l.pol); }
  template <class T, std::size_t R, class Node>
  static void evaluate(const lagged_pass<P>& l, const memory_leaf<T, R>& out, const Node& bound, std::string* detail) {
    run_lagged<P>(out, bound, l.plan, detail);
  }
};

}  // namespace sinter::detail
