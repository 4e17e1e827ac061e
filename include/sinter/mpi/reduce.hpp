#pragma once
/// \file mpi/reduce.hpp
/// Reductions of distributed expressions (reducer<dist<L>>). A full
/// reduction folds the same 4096-element tiles as the single-process engine
/// (each rank the tiles that start in its rows, reading the rows a tile
/// spills into through the halo exchange), gathers the tile partials in
/// order and combines them in the single-process pairwise order: the
/// result is bitwise the single-process one for any rank count. A
/// reduction along axes gathers its input on every rank and runs the local
/// engine, so its result (replicated on every rank) is bitwise the
/// single-process one too.
#include <climits>
#include <cstring>
#include <memory>
#include <vector>

#include "../reduce.hpp"
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
    plan.rows = {nullptr, e.shape()[0], size};
    for (const auto& l : leaves)
      if (!l.g->replicated && l.g->row_bytes > 0 && l.s0 == static_cast<std::int64_t>(l.g->row_bytes)) {
        plan.rows.by = &l;
        break;
      }
    {
      mpi::detail::halo_requests reqs;
      const auto needs = mpi::detail::needs_of(leaves, plan);
      for (std::size_t k = 0; k != needs.size(); ++k) mpi::detail::start_halo(needs[k], static_cast<int>(k), reqs);
      reqs.wait();
    }
    const index_t tiles = (n + plan.tile - 1) / plan.tile;
    std::vector<int> counts(static_cast<std::size_t>(size)), displs(counts.size());
    for (int q = 0; q != size; ++q) {
      const auto [t0, t1] = plan.tiles(q);
      counts[static_cast<std::size_t>(q)] = static_cast<int>(static_cast<std::size_t>(t1 - t0) * sizeof(A));
      displs[static_cast<std::size_t>(q)] = static_cast<int>(static_cast<std::size_t>(t0) * sizeof(A));
    }
    const auto [t0, t1] = plan.tiles(me);
    const std::unique_ptr<A[]> all(new A[static_cast<std::size_t>(tiles)]);
    for (index_t t = t0; t < t1; ++t) {
      const index_t b = t * plan.tile, len = b + plan.tile < n ? plan.tile : n - b;
      all[static_cast<std::size_t>(t)] = reduce_host::reduce_range<Op>(bound, e.shape(), b, len, false, 0);
    }
    if (static_cast<std::size_t>(tiles) * sizeof(A) > static_cast<std::size_t>(INT_MAX))
      mpi::detail::refuse("a full reduction of more than 2^31 bytes of tile partials is not supported");
    mpi::detail::check(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_BYTE, all.get(), counts.data(), displs.data(), MPI_BYTE,
                                      pol.comm.get()),
                       "MPI_Allgatherv");
    return reduce_host::combine_partials<Op>(all.get(), static_cast<std::size_t>(tiles));
  }

  /// out[o] = finish(fold of output o's elements): the input's rows
  /// gathered on every rank, the local engine run there; the result array
  /// is complete on every rank (a replicated region).
  template <class Op, class R, class Node, std::size_t RP, class Finish>
  static void along(const mpi::dist<L>& pol, R* out, const Node& permuted, const extents<RP>& pshape,
                    index_t outputs, index_t len, Finish finish) {
    std::vector<mpi::detail::leaf_rows> leaves;
    mpi::detail::collect_leaves(permuted, pol.comm.get(), leaves);
    std::vector<mpi::detail::region_need> needs;
    for (const auto& l : leaves) {
      bool seen = l.g->replicated;
      for (const auto& x : needs) seen = seen || x.g == l.g;
      if (!seen)
        needs.push_back({l.g, std::vector<std::pair<index_t, index_t>>(static_cast<std::size_t>(l.g->size),
                                                                        {index_t{0}, l.g->n0})});
    }
    {
      mpi::detail::halo_requests reqs;
      for (std::size_t k = 0; k != needs.size(); ++k) mpi::detail::start_halo(needs[k], static_cast<int>(k), reqs);
      reqs.wait();
    }
    mpi::detail::region* g = mpi::detail::find_region(out);
    if (!g) mpi::detail::refuse("a reduction into memory that is not a distributed array's");
    mpi::detail::commit_whole(*g);
    reducer<L>::template along<Op>(pol.local, out, permuted, pshape, outputs, len, finish);
  }
};

}  // namespace sinter::detail
