#pragma once
/// \file mpi/unsupported.hpp
/// Operations beyond the fused pass on distributed arrays: scans along an
/// axis other than 0 run on each rank's rows (after the halo exchange of
/// the rows they read), and so does sorting a whole array along such an
/// axis; scans along axis 0 or flattened, sorting along axis 0, argsort,
/// partition, topk, unique, searchsorted, histogram and selection by a
/// mask read rows of other
/// ranks in one process and throw value_error on every rank (the same
/// decision from global facts everywhere, so no rank waits), naming the
/// operation and the remedy: sinter::mpi::gather, or sinter::mpi::local.
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "../mask.hpp"
#include "../scan.hpp"
#include "../sort_rows.hpp"
#include "../view.hpp"
#include "pass.hpp"

namespace sinter::mpi::detail {

/// Throws value_error for operation `what` on a distributed array.
[[noreturn]] inline void refuse_op(const std::string& what) {
  refuse(what + " of a distributed array reads rows of other ranks; gather it first (sinter::mpi::gather), or "
                "work on this rank's rows (sinter::mpi::local)");
}

/// The rows of a region each rank owns (needs_of's rows of an output).
struct owned_of {
  const region* g;
  std::pair<index_t, index_t> of(int q) const { return g->owned(q); }
};

}  // namespace sinter::mpi::detail

namespace sinter::detail {

/// Whether a distributed policy's local blocks are in host memory.
template <class L>
inline constexpr bool host_local_v = std::is_same_v<L, host> || std::is_same_v<L, par>;

/// Sorting along an axis after the first: each rank sorts its own rows.
/// Along axis 0, argsort, partition, topk, unique, searchsorted,
/// histogram: refused on distributed arrays.
template <class L>
struct whole_array_ops<mpi::dist<L>> {
  /// Throws value_error naming `name` (on every rank: each one calls it).
  static void check(const char* name) { mpi::detail::refuse_op(name); }
  /// Refuses a sort along axis 0 (a column spans ranks).
  static void check_sort(std::size_t a) {
    if (a == 0) mpi::detail::refuse_op("sinter::sort along axis 0");
  }
  /// Sorts a whole distributed array along axis a >= 1: this rank's rows.
  template <class T, std::size_t R>
  static void sort_rows(const view<T, R, mpi::dist<L>>& v, std::size_t a) {
    check_sort(a);
    if constexpr (!host_local_v<L>)
      mpi::detail::refuse("sort of a dist<cuda> array is not built; sort this rank's rows (sinter::mpi::local)");
    mpi::detail::region* g = mpi::detail::find_region(v.data());
    if (!g || g->n0 < 0 || reinterpret_cast<std::uintptr_t>(v.data()) != g->base || v.shape()[0] != g->n0 ||
        v.strides()[0] <= 0 || static_cast<std::size_t>(v.strides()[0]) * sizeof(T) != g->row_bytes)
      mpi::detail::refuse_op("sinter::sort_inplace of a view (sort the whole array)");
    if (g->e <= g->b) return;
    extents<R> part = v.shape();
    part[0] = g->e - g->b;
    const mpi::communicator comm(g->comm);
    const auto run = [&] { sort_layout(v.data() + g->b * v.strides()[0], part, v.strides(), a, std::is_same_v<L, par>); };
    mpi::detail::or_abort(comm, run);
  }
};

/// nonzero, flatnonzero and x(mask) of distributed arrays: refused.
template <class L>
struct mask_selector<mpi::dist<L>> {
  template <class V, std::size_t R, class MNode, class XNode>
  static array<V, 1, mpi::dist<L>> select(const mpi::dist<L>&, const MNode&, const XNode&, const extents<R>&) {
    mpi::detail::refuse_op("sinter::nonzero, flatnonzero or selection by a mask");
  }
};

/// Scans of distributed expressions: along an axis after the first, each
/// rank scans its own rows on the local policy; along axis 0 or flattened
/// (a row's scan continues another rank's), refused.
template <class L>
struct scanner<mpi::dist<L>> {
  template <class Op, class R, class Node, std::size_t Rank>
  static void run(const mpi::dist<L>& pol, R* out, const Node& node, const extents<Rank>& shape, index_t outer,
                  index_t len, index_t inner) {
    const index_t n0 = Rank > 0 ? shape[0] : 0;
    // Along axis a >= 1, outer is a multiple of n0 (axes 0 .. a-1); along
    // axis 0 or flattened it is 1. One row (n0 == 1) cannot tell a flat scan
    // from one along the last axis: refused too.
    if (Rank < 2 || n0 < 2 || outer < n0 || outer % n0 != 0)
      mpi::detail::refuse_op("a scan (cumsum, cumprod, ...) along axis 0 or flattened");
    if constexpr (!host_local_v<L>) {
      mpi::detail::refuse("a scan of a dist<cuda> array is not built; scan this rank's rows (sinter::mpi::local)");
    } else {
      run_rows<Op>(pol, out, node, shape, outer, len, inner);
    }
  }

  /// run on host or par blocks: this rank's rows, after the halo exchange.
  template <class Op, class R, class Node, std::size_t Rank>
  static void run_rows(const mpi::dist<L>& pol, R* out, const Node& node, const extents<Rank>& shape, index_t outer,
                       index_t len, index_t inner) {
    const index_t n0 = shape[0];
    mpi::detail::region* g = mpi::detail::find_region(out);
    if (!g) mpi::detail::refuse("a scan into memory that is not a distributed array's");
    if (g->n0 < 0) mpi::detail::set_rows(*g, n0);
    g->replicated = false;
    std::vector<mpi::detail::leaf_rows> leaves;
    mpi::detail::collect_leaves(node, pol.comm.get(), leaves);
    const auto needs = mpi::detail::needs_of(leaves, mpi::detail::owned_of{g});
    mpi::detail::start_exchange(pol.comm, mpi::detail::agreed_halo(pol.comm, needs)).wait();
    const index_t b = g->b, e = g->e;
    if (e <= b) return;
    extents<Rank> part = shape;
    part[0] = e - b;
    const index_t per_row = outer / n0 * len * inner;
    mpi::detail::or_abort(pol.comm, [&] {  // the others go on to their next collective
      scanner<L>::template run<Op>(pol.local, out + b * per_row, mpi::detail::restrict_rows(node, b, e - b), part,
                                   outer / n0 * (e - b), len, inner);
    });
  }
};

}  // namespace sinter::detail
