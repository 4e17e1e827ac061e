#pragma once
/// \file policy/host/loop.hpp
/// The CPU loops behind the host and par policies: a flat loop over a range
/// of a contiguous pass, and a row loop for strided or broadcast passes whose
/// outer indices advance like an odometer (one div/mod per chunk, none per
/// element). Both are written so that GCC and Clang vectorise the inner loop
/// when the inlined expression allows it.
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "../../core/leaf.hpp"
#include "../../core/tree_fold.hpp"
#include "dispatch.hpp"
#include "simd.hpp"

// Clang reports a loop its vectorize(assume_safety) could not vectorise (a
// gather's index arithmetic, say) as -Wpass-failed: a missed speed-up, not an
// error in the user's code, so not a warning the user's build should fail on.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpass-failed"
#endif

namespace sinter::detail {

// convert<T>(v), the conversion of every store, is in core/dtype.hpp.

/// SINTER_UNROLL4: unroll the (vectorised) loop that follows four times.
/// Small passes in L1 catch up with Eigen Tensor (whose executor also
/// unrolls four packets) for a little more compile time and code
/// (docs/journal/code-notes.md#unroll4).
/// GCC only (nvcc's front end rejects the pragma, clang unrolls on its own).
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#define SINTER_UNROLL4 _Pragma("GCC unroll 4")
#else
#define SINTER_UNROLL4
#endif

#if defined(__clang__)
#define SINTER_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define SINTER_IVDEP _Pragma("GCC ivdep")
#else
#define SINTER_IVDEP
#endif

/// o[k] = c.load(lo + k) for k in [0, n), in two loops: whole 64-byte
/// lines of output, whose count has its low bits masked off, then the
/// remaining elements. GCC 12 at -O2 (CMake's RelWithDebInfo) vectorises
/// with its "very cheap" cost model, which refuses a loop that needs a
/// scalar remainder: one loop over [0, n) ran scalar there
/// (docs/journal/code-notes.md#split-store-loop). The masked count is a
/// multiple of every vector width, so the first loop needs none.
/// The cursor is taken by value: read through a reference, its scalars were
/// loaded again for every vector (a store to o might change them).
/// ivdep: an operand may alias the output only with the same index mapping
/// (evaluate.hpp guarantees it), so iterations are independent.
template <class T, class Cursor>
SINTER_FORCEINLINE void store_run_loops(T* o, const Cursor c, index_t lo, index_t n) {
  constexpr index_t line = sizeof(T) >= 64 ? 1 : 64 / static_cast<index_t>(sizeof(T));
  const index_t whole = n & ~(line - 1);
  SINTER_IVDEP
  SINTER_UNROLL4
  for (index_t k = 0; k < whole; ++k) o[k] = convert<T>(c.load(lo + k));
  SINTER_IVDEP
  for (index_t k = whole; k < n; ++k) o[k] = convert<T>(c.load(lo + k));
}

/// store_run_loops as a function of its own, which GCC inlines or not by
/// its own measure: one copy per cursor type for a large expression.
template <class T, class Cursor>
void store_run_call(T* o, const Cursor c, index_t lo, index_t n) {
  store_run_loops(o, c, lo, n);
}

template <class C>
struct shift_cursor;

/// Visitor (core/tree_fold.hpp): operations (map nodes) in a cursor, 0 for
/// a leaf; a shift_cursor counts those of the cursor it shifts.
struct cursor_ops_fold {
  template <class L>
  struct leaf_ops : std::integral_constant<int, 0> {};
  template <class C>
  struct leaf_ops<shift_cursor<C>> : fold_tree_t<cursor_ops_fold, C> {};
  template <class L>
  using leaf = leaf_ops<L>;
  template <class N, class F, class... R>
  using node = std::integral_constant<int, 1 + (0 + ... + R::value)>;
};
/// Operations (map nodes) in a cursor: 0 for a leaf.
template <class C>
inline constexpr int cursor_ops_v = fold_tree_v<cursor_ops_fold, C>;

#if !defined(SINTER_INLINE_STORE_OPS)
/// Cursors of up to this many operations (map nodes, a repeated operand
/// counted each time) have their store loops forced inline (store_run);
/// larger ones are left to GCC's choice, one copy per cursor type. At -O3
/// GCC kept the split loop of small expressions out of line where it had
/// inlined the single one, and a call also copies the cursor. Forced inline
/// for every cursor, a pass with streaming stores held the loops three times
/// over (head, tail and the contiguous pass's own;
/// docs/journal/code-notes.md#inline-store-ops).
#define SINTER_INLINE_STORE_OPS 64
#endif

/// store_run_loops: forced inline for a small cursor (SINTER_INLINE_STORE_OPS),
/// else through store_run_call. store_range's loop, also the staging loop
/// of strided reductions (reduce/host_engine.hpp).
template <class T, class Cursor>
SINTER_FORCEINLINE void store_run(T* o, const Cursor& c, index_t lo, index_t n) {
  if constexpr (cursor_ops_v<Cursor> <= SINTER_INLINE_STORE_OPS) store_run_loops(o, c, lo, n);
  else store_run_call(o, c, lo, n);
}

#if !defined(SINTER_MEMMOVE_MIN_BYTES)
/// Plain copies (a contiguous operand of the output's own type) from this
/// many bytes up to SINTER_MEMMOVE_MAX_BYTES are one std::memmove, not the
/// store loop. glibc's memmove copies such blocks with `rep movsb`, which
/// writes whole lines without reading them first, where the store loop
/// reads every output line before writing it. With an L1d of 48 KiB and
/// an L2 of 1 MiB memmove won from 32 KiB to 1 MiB and lost below and
/// above (docs/journal/code-notes.md#memmove-range). Define
/// SINTER_MEMMOVE_MIN_BYTES to 0 before including sinter to keep the loop.
#define SINTER_MEMMOVE_MIN_BYTES 32768
#endif
#if !defined(SINTER_MEMMOVE_MAX_BYTES)
/// See SINTER_MEMMOVE_MIN_BYTES.
#define SINTER_MEMMOVE_MAX_BYTES 1048576
#endif

/// Whether a cursor reads elements of T contiguously and unconverted, so
/// that storing it is a copy.
template <class T, class Cursor>
inline constexpr bool plain_copy_v = std::is_same_v<Cursor, unit_cursor<const T>> || std::is_same_v<Cursor, unit_cursor<T>>;

/// std::memmove, out of line and opaque to GCC's interprocedural analysis:
/// inlined, GCC 12 -O3 checked it against a small array's size on a branch
/// that excludes it (false -Warray-bounds; pragmas fail from a PCH).
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
[[gnu::noipa]]
#endif
inline void move_bytes(void* d, const void* s, std::size_t n) { std::memmove(d, s, n); }

/// o[i] = c.load(i) for i in [lo, hi) as one std::memmove when the cursor
/// is a plain copy of SINTER_MEMMOVE_MIN_BYTES to SINTER_MEMMOVE_MAX_BYTES
/// (memmove: `a = a` is allowed, the same elements); returns whether it did.
template <class T, class Cursor>
SINTER_FORCEINLINE bool copy_range(T* o, const Cursor& c, index_t lo, index_t hi) {
  if constexpr (plain_copy_v<T, Cursor> && SINTER_MEMMOVE_MIN_BYTES > 0) {
    constexpr index_t min_n = (SINTER_MEMMOVE_MIN_BYTES + index_t{sizeof(T)} - 1) / index_t{sizeof(T)};
    constexpr index_t max_n = SINTER_MEMMOVE_MAX_BYTES / index_t{sizeof(T)};
    const index_t n = hi - lo;
    if (n >= min_n && n <= max_n) {
      move_bytes(static_cast<void*>(o + lo), static_cast<const void*>(c.p + lo), static_cast<std::size_t>(n) * sizeof(T));
      return true;
    }
  } else {
    (void)o, (void)c, (void)lo, (void)hi;
  }
  return false;
}

/// o[i] = c.load(i) for i in [lo, hi): the one unit-stride store loop of a
/// cursor type. The contiguous pass, each unit-stride row, and the head and
/// tail of a streaming pass all call it, so an expression's vectorised loop
/// is compiled once per cursor type (code size and compile time; GCC keeps
/// it out of line when the body is large).
/// A cursor that calls exp, tanh or sqrt runs the explicit vector loop of
/// host_simd.hpp instead, where it has one (the same values).
template <class T, class Cursor>
SINTER_FORCEINLINE void store_range(T* o, const Cursor& c, index_t lo, index_t hi) {
  if (copy_range(o, c, lo, hi)) return;
  if constexpr (dispatch::applies_v<T, Cursor>) {
    // Maths at the CPU's width, chosen at run time (policy/host/dispatch.hpp).
    if (dispatch::active<Cursor>()) return dispatch::store_range(o, c, lo, hi);
  }
  if constexpr (simd::applies_v<T, Cursor>) simd::store_range(o, c, lo, hi);
  else store_run(o + lo, c, lo, hi - lo);
}

#if !defined(SINTER_WIDE_STORE_BYTES)
/// Output bytes up to which a contiguous pass runs store_range_wide (16
/// KiB: a float pass of 4096 elements, with its operands, stays in a 48 KiB
/// L1). Define it to 0 before including sinter to keep one loop.
#define SINTER_WIDE_STORE_BYTES 16384
#endif

/// store_range's loop with full-width AVX-512 vectors (SINTER_WIDE_VECTORS),
/// for passes whose data sit in L1. Where GCC's tuning prefers 256-bit
/// vectors, 512-bit stores win in L1 (at Eigen's speed) and lose once the
/// data are in L2 (docs/journal/code-notes.md#wide-store-loop): hence both loops,
/// chosen by size. Only compiled where the flag changes something.
/// The cursor is copied first: read through the reference, its scalars were
/// loaded again on every iteration (a store to o might change them), a third
/// load per vector where the CPU does two 512-bit loads a cycle.
/// Its whole lines are unrolled four times, as store_run_loops' are, for
/// the same reason (docs/journal/code-notes.md#wide-store-loop).
template <class T, class Cursor>
SINTER_NOINLINE SINTER_WIDE_VECTORS void store_range_wide(T* o, const Cursor& cursor, index_t lo, index_t hi) {
  const Cursor c = cursor;
  constexpr index_t line = sizeof(T) >= 64 ? 1 : 64 / static_cast<index_t>(sizeof(T));
  const index_t n = hi - lo, whole = n & ~(line - 1);  // split as store_run's, for -O2
  T* const base = o + lo;
  SINTER_IVDEP
  SINTER_UNROLL4
  for (index_t k = 0; k < whole; ++k) base[k] = convert<T>(c.load(lo + k));
  SINTER_IVDEP
  for (index_t k = whole; k < n; ++k) base[k] = convert<T>(c.load(lo + k));
}

/// Whether a pass writing n elements of T is small enough for
/// store_range_wide (always false where it would be the same loop).
template <class T>
SINTER_FORCEINLINE bool wide_pass(index_t n) {
#if SINTER_HAS_WIDE_VECTORS && SINTER_WIDE_STORE_BYTES > 0
  return n * static_cast<index_t>(sizeof(T)) <= SINTER_WIDE_STORE_BYTES;
#else
  (void)n;
  return false;
#endif
}

/// store_range, or store_range_wide for a `wide` pass (wide_pass) whose
/// cursor has no explicit vector loop (that one is full width already).
template <class T, class Cursor>
SINTER_FORCEINLINE void store_range_sized(T* o, const Cursor& c, index_t lo, index_t hi, bool wide) {
#if SINTER_HAS_WIDE_VECTORS && SINTER_WIDE_STORE_BYTES > 0
  if constexpr (!simd::applies_v<T, Cursor>) {
    if (wide) {
      if (!copy_range(o, c, lo, hi)) store_range_wide(o, c, lo, hi);
      return;
    }
  }
#else
  (void)wide;
#endif
  store_range(o, c, lo, hi);
}

/// store_range_sized as a call: one out-of-line copy of a cursor type's
/// loop, shared by the paths where a call costs nothing next to the pass:
/// the general path's contiguous passes (run_linear_shared), par's chunks,
/// and a streaming pass's head, tail and misaligned output. Inlined at
/// each, they were copies of the same vectorised loop (a streamed range
/// held three); with rank-1 row passes (run_rows) also through it, less
/// code and a shorter compile (docs/journal/code-notes.md#store-range-call).
template <class T, class Cursor>
SINTER_NOINLINE void store_range_call(T* o, const Cursor& c, index_t lo, index_t hi, bool wide) {
  store_range_sized(o, c, lo, hi, wide);
}

/// out[i] = c.load(i) for i in [begin, end), `c` a node's contiguous
/// cursor: assign's inline path, which takes the small passes whose fixed
/// cost counts. Forced inline: in a large translation unit GCC had left it
/// out of line, reading the cursor back through a reference.
/// The loop is inlined (store_run, to SINTER_INLINE_STORE_OPS), except for
/// a cursor with an explicit vector loop (exp, tanh, sqrt: host_simd.hpp),
/// which calls store_range_call, the copy the general path compiles
/// anyway: its maths cost more than the call even at 16 elements, and the
/// expression's vector loop is compiled once, not twice. Cheap cursors keep
/// the inlined loop, where the call would count (docs/journal/code-notes.md#run-linear).
template <class T, class Cursor>
SINTER_FORCEINLINE void run_linear(T* out, const Cursor& c, index_t begin, index_t end) {
  if constexpr (simd::applies_v<T, Cursor>) store_range_call(out, c, begin, end, false);
  else store_range_sized(out, c, begin, end, wide_pass<T>(end - begin));
}

/// Keeps the loop it is in scalar: GCC and Clang vectorise no loop that
/// holds an asm statement.
SINTER_FORCEINLINE void keep_scalar() noexcept {
#if defined(__GNUC__) || defined(__clang__)
  asm volatile("");
#endif
}

/// out[r * len + j] = row r of `bound` at column j, for `rows` rows of
/// `len`: assign's inline path by rows (host.hpp, inline_rows_ok), every
/// leaf's rows at stride 1 (`step_row<1>`, the contiguous cursor). Each row
/// is store_run_loops' split (whole 64-byte lines, vectorised at -O2 too),
/// but with a scalar remainder: GCC vectorised that one too, with its own
/// epilogue, and the state of the two loops left so few registers that it
/// kept the row counters in vector registers. Out of line, with the node
/// copied: inlined in assign's caller, or reading the node through the
/// reference (a store to out might change it), the rows took longer
/// (docs/journal/code-notes.md#inline-rows). With AVX-512 the
/// remainder of a cursor the explicit loop evaluates is one masked vector
/// (simd::store_line_tail; docs/journal/code-notes.md#store-line-tail). A cursor with an
/// explicit vector loop (exp, tanh: host_simd.hpp) calls store_range_call
/// for each row instead, the loop its contiguous passes run; so does a
/// pass that store_range_sized would widen (wide_pass), and a plain copy's
/// rows go to copy_range (memmove) as the contiguous pass's do.
template <class T, class Node>
SINTER_NOINLINE void store_rows(T* out, index_t rows, index_t len, const Node& bound) {
  constexpr index_t line = sizeof(T) >= 64 ? 1 : 64 / static_cast<index_t>(sizeof(T));
  const Node b = bound;
  const index_t whole = len & ~(line - 1);
  const bool wide = wide_pass<T>(rows * len);  // false where there is no wider loop
  for (index_t r = 0; r != rows; ++r) {
    T* const o = out + r * len;
    const auto c = b.template step_row<1>(extents<2>{r, 0});
    if constexpr (simd::applies_v<T, std::remove_const_t<decltype(c)>>) {
      store_range_call(o, c, 0, len, false);  // the explicit vector loop, as run_linear
    } else if (wide) {
      store_range_call(o, c, 0, len, true);  // store_range_wide, as the general path's contiguous pass
    } else if (!copy_range(o, c, 0, len)) {   // long rows of a plain copy: memmove
      SINTER_IVDEP
      for (index_t k = 0; k < whole; ++k) o[k] = convert<T>(c.load(k));
      if constexpr (simd::line_tail_v<T, std::remove_const_t<decltype(c)>>) {
        if (whole < len) simd::store_line_tail(o, c, whole, len);
      } else {
        for (index_t k = whole; k < len; ++k) {
          o[k] = convert<T>(c.load(k));
          keep_scalar();
        }
      }
    }
  }
}

/// run_linear through store_range_call: the general path's contiguous
/// passes (traced, or into a temporary) and par's chunks.
template <class T, class Node>
void run_linear_shared(T* out, const Node& node, index_t begin, index_t end) {
  store_range_call(out, node.linear(), begin, end, wide_pass<T>(end - begin));
}

/// The row index idx (its last entry unused) and column j of flat position
/// s of a pass row-major over `shape`: one div/mod per axis.
template <std::size_t R>
SINTER_FORCEINLINE void row_start(const extents<R>& shape, index_t s, extents<R>& idx, index_t& j) {
  index_t r = s / shape[R - 1];
  j = s - r * shape[R - 1];
  for (std::size_t d = R - 1; d-- > 0;) {
    idx[d] = r % shape[d];
    r /= shape[d];
  }
}

/// Calls f(idx, j0, j1) for each piece of row covering the flat positions
/// [s, e) of a pass row-major over `shape` (a row is the innermost
/// dimension): idx is the row's index (its last entry unused), [j0, j1)
/// the columns. The range may start and end inside a row, so par can split
/// a pass with few, long rows (a 1-D strided view is one row). The outer
/// index advances like an odometer: one div/mod per call (row_start), none
/// for host's whole pass, which starts at 0.
template <std::size_t R, class F>
SINTER_FORCEINLINE void for_row_ranges(const extents<R>& shape, index_t s, index_t e, F&& f) {
  static_assert(R >= 1);
  const index_t inner = shape[R - 1];
  extents<R> idx{};
  index_t j = 0;
  if (s != 0) row_start(shape, s, idx, j);
  for (index_t pos = s; pos < e;) {
    const index_t j1 = inner - j < e - pos ? inner : j + (e - pos);
    f(static_cast<const extents<R>&>(idx), j, j1);
    pos += j1 - j;
    j = 0;
    for (std::size_t d = R - 1; d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}

/// Calls f(o, c, j0, j1) for each piece of row covering the flat positions
/// [s, e) of a strided pass (for_row_ranges over out.shape): o is the row's
/// output pointer, c the node's row cursor (`step_row<K>` when K > 0: every
/// leaf's rows at stride K, else `row`), [j0, j1) the columns.
template <index_t K, class T, std::size_t R, class Node, class F>
void for_row_pieces(const memory_leaf<T, R>& out, const Node& node, index_t s, index_t e, F&& f) {
  for_row_ranges(out.shape, s, e, [&](const extents<R>& idx, index_t j0, index_t j1) {
    if constexpr (K > 0) f(out.ptr + row_offset(idx, out.strides), node.template step_row<K>(idx), j0, j1);
    else f(out.ptr + row_offset(idx, out.strides), node.row(idx), j0, j1);
  });
}

/// o[j * os] = c.load(j) for j in [j0, j1): one row piece of a pass whose
/// output rows have stride os (store_range_sized when they are unit-stride;
/// `call`: through store_range_call).
template <bool call, class T, class Cursor>
SINTER_FORCEINLINE void store_row(T* o, index_t os, const Cursor& c, index_t j0, index_t j1, bool wide) {
  if (os == 1) {
    if constexpr (call) store_range_call(o, c, j0, j1, wide);
    else store_range_sized(o, c, j0, j1, wide);
  } else {
    SINTER_IVDEP
    for (index_t j = j0; j < j1; ++j) o[j * os] = convert<T>(c.load(j));
  }
}

/// Flat positions [s, e) of a strided pass. K > 0: the output's rows are
/// contiguous and every leaf's rows have stride K (the caller checked), so
/// each row runs a loop with that stride known at compile time (for K = 2,
/// loads and shuffles instead of gathers); K = 0: run-time strides.
/// Rank 1 is one row, stored through store_range_call: its loop is the one
/// the streaming pass of the same cursor type calls (K = 1: the general
/// path's contiguous pass's too), where an inlined copy would be one more
/// (sinter_20.cpp of bench/compile_time). Rows of higher ranks can be short,
/// so their loops stay inline.
template <index_t K, class T, std::size_t R, class Node>
void run_rows(const memory_leaf<T, R>& out, const Node& node, index_t s, index_t e) {
  const bool wide = wide_pass<T>((e - s) * (K > 0 ? K : 1));  // step-K rows read K times the span
  const index_t os = K > 0 ? 1 : out.strides[R - 1];
  for_row_pieces<K>(out, node, s, e, [os, wide](T* o, const auto& c, index_t j0, index_t j1) {
    store_row<R == 1>(o, os, c, j0, j1, wide);
  });
}

}  // namespace sinter::detail

#if defined(__clang__)
#pragma clang diagnostic pop
#endif
