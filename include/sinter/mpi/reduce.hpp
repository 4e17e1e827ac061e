#pragma once
/// \file mpi/reduce.hpp
/// Reductions of distributed expressions (reducer<dist<L>>). A full
/// reduction folds the same 4096-element tiles as the single-process engine
/// (each rank the tiles that start in its rows, reading the rows a tile
/// spills into through the halo exchange), all-gathers the tile partials in
/// order and combines them in the single-process pairwise order: the
/// result is bitwise the single-process one for any rank count. A
/// reduction along axes splits its outputs by the rows of the expression's
/// first kept axis (axis 0 unless it is reduced): each rank runs the local
/// engine on the outputs of its rows, the halo exchange bringing any row
/// they read that it does not own, and the outputs are all-gathered, so
/// the result (replicated on every rank) is bitwise the single-process one.
#include <cstring>
#include <span>
#include <vector>

#include "../reduce.hpp"
#include "collective.hpp"
#include "pass.hpp"

namespace sinter::mpi::detail {

/// Expression rows [lo, hi) of rank q for a full reduction: the rows of the
/// first leaf that maps axis 0 to its region's rows (no data moves for
/// `sum(x)`), else the block distribution of the expression's rows.
struct reduce_rows {
  const leaf_rows* by = nullptr;
  index_t n = 0;
  int size = 1;
  std::pair<index_t, index_t> of(int q) const {
    if (!by) return block_rows(n, size, q);
    const auto [b, e] = by->g->owned(q);
    const index_t r0 = by->g->row_of(static_cast<std::size_t>(by->rel));
    const auto clamp = [&](index_t v) { return v < 0 ? index_t{0} : (v > n ? n : v); };
    return {clamp(b - r0), clamp(e - r0)};
  }
};

/// The first leaf whose axis 0 steps its region's rows (reduce_rows' `by`), or nullptr.
inline const leaf_rows* row_leaf(const std::vector<leaf_rows>& leaves) {
  for (const auto& l : leaves)
    if (!l.g->replicated && l.g->row_bytes > 0 && l.s0 == static_cast<std::int64_t>(l.g->row_bytes)) return &l;
  return nullptr;
}

/// The engine's tiles [t0, t1) that rank q folds (those starting in its
/// flat range), and the expression rows they read.
struct reduce_tiles_of {
  reduce_rows rows;
  index_t n = 0, inner = 1;
  static constexpr index_t tile = sinter::detail::reduce_host::tile_elems;
  std::pair<index_t, index_t> tiles(int q) const {
    const auto [lo, hi] = rows.of(q);
    return {(lo * inner + tile - 1) / tile, (hi * inner + tile - 1) / tile};
  }
  std::pair<index_t, index_t> of(int q) const {
    const auto [t0, t1] = tiles(q);
    if (t1 <= t0) return {0, 0};
    const index_t p0 = t0 * tile, p1 = t1 * tile < n ? t1 * tile : n;
    return {p0 / inner, (p1 - 1) / inner + 1};
  }
};

/// Commits every byte of g and marks it valid on every rank.
inline void commit_whole(region& g) {
  if (g.chi - g.clo != g.reserved &&
      mprotect(reinterpret_cast<void*>(g.base), g.reserved, PROT_READ | PROT_WRITE) != 0)
    throw std::bad_alloc();
  g.clo = 0;
  g.chi = g.reserved;
  g.replicated = true;
}

}  // namespace sinter::mpi::detail

namespace sinter::detail {

/// Reductions on the distributed policy (see the file comment).
template <class L>
struct reducer<mpi::dist<L>> {
  template <class Op, class E>
  static auto full(const mpi::dist<L>& pol, const E& e) {
    static_assert(E::rank >= 1, "sinter::mpi: a distributed expression has at least one axis");
    using V = typename E::value_type;
    using A = typename Op::template acc_t<V>;
    const index_t n = e.size();
    if (n == 0) return Op::template identity<V>();
    const auto bound = e.node().bind(e.shape());
    std::vector<mpi::detail::leaf_rows> leaves;
    mpi::detail::collect_leaves(bound, pol.comm.get(), leaves);
    const int size = pol.comm.size(), me = pol.comm.rank();
    mpi::detail::reduce_tiles_of plan;
    plan.n = n;
    plan.inner = n / e.shape()[0];
    plan.rows = {mpi::detail::row_leaf(leaves), e.shape()[0], size};
    mpi::detail::start_exchange(pol.comm, mpi::detail::halo_of(mpi::detail::needs_of(leaves, plan))).wait();
    const auto [t0, t1] = plan.tiles(me);
    std::vector<A> mine(static_cast<std::size_t>(t1 - t0));
    for (index_t t = t0; t < t1; ++t) {
      const index_t b = t * plan.tile, len = b + plan.tile < n ? plan.tile : n - b;
      mine[static_cast<std::size_t>(t - t0)] = reduce_host::reduce_range<Op>(bound, e.shape(), b, len, false, 0);
    }
    const auto all = mpi::detail::allgather(pol.comm, std::span<const A>(mine));  // every tile, in order
    return reduce_host::combine_partials<Op>(all.data(), all.size());
  }

  /// out[o] = finish(fold of output o's elements): the outputs of this
  /// rank's rows of the first kept axis, by the local engine, then
  /// all-gathered; the result array is complete on every rank (a
  /// replicated region).
  template <class Op, class R, class Node, std::size_t RP, class Finish>
  static void along(const mpi::dist<L>& pol, R* out, const Node& permuted, const extents<RP>& pshape,
                    index_t outputs, index_t len, Finish finish) {
    static_assert(RP >= 1, "sinter::mpi: a distributed expression has at least one axis");
    mpi::detail::region* g = mpi::detail::find_region(out);
    if (!g) mpi::detail::refuse("a reduction into memory that is not a distributed array's");
    mpi::detail::commit_whole(*g);
    if (outputs == 0) return;
    std::vector<mpi::detail::leaf_rows> leaves;
    mpi::detail::collect_leaves(permuted, pol.comm.get(), leaves);
    const int me = pol.comm.rank(), size = pol.comm.size();
    // The permuted axis 0 is kept (outputs in its row-major blocks) unless
    // every axis is reduced: then its extent divides the one output only
    // when it is 1. Otherwise one rank folds the one output from every row.
    const index_t n0 = pshape[0];
    const bool by_rows = n0 > 0 && outputs % n0 == 0;
    const index_t per = by_rows ? outputs / n0 : outputs;
    mpi::detail::reduce_rows rows{by_rows ? mpi::detail::row_leaf(leaves) : nullptr, by_rows ? n0 : 1, size};
    if (rows.by && (rows.of(0).first != 0 || rows.of(size - 1).second != rows.n)) rows.by = nullptr;
    auto needs = mpi::detail::needs_of(leaves, rows);
    if (!by_rows)  // the one output's rank reads every row
      for (auto& x : needs)
        for (int q = 0; q != size; ++q)
          x.need[static_cast<std::size_t>(q)] = {0, rows.of(q).second > rows.of(q).first ? x.g->n0 : 0};
    mpi::detail::start_exchange(pol.comm, mpi::detail::halo_of(needs)).wait();
    const auto [lo, hi] = rows.of(me);
    if (hi > lo) {
      extents<RP> part = pshape;
      part[0] = by_rows ? hi - lo : n0;
      const Node mine = by_rows ? mpi::detail::restrict_rows(permuted, lo, hi - lo) : permuted;
      reducer<L>::template along<Op>(pol.local, out + lo * per, mine, part, (hi - lo) * per, len, finish);
    }
    std::vector<std::uint64_t> counts(static_cast<std::size_t>(size));
    for (int q = 0; q != size; ++q) {
      const auto [qlo, qhi] = rows.of(q);
      counts[static_cast<std::size_t>(q)] = static_cast<std::uint64_t>((qhi - qlo) * per) * sizeof(R);
    }
    mpi::detail::allgather_bytes(pol.comm, counts, out + lo * per, out);
  }
};

}  // namespace sinter::detail
