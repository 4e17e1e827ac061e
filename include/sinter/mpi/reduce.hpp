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
#include <type_traits>
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

/// One unit of an axis-0 reduction's fold, the same for every output:
/// positions [b, e) of the output's reduced elements, folded by `rank`
/// into one tile's partial (lanes false) or one leaf's lanes.
struct fold_piece {
  index_t b = 0, e = 0;
  int rank = 0;
  bool lanes = false;
};

/// How the ranks share the fold of each output of a reduction whose
/// reduced elements are ordered by the rows of a distributed axis (axis 0
/// reduced): rank q holds positions span(q). The engine cuts an output's
/// elements into tiles, a tile into leaves of lanes; a tile within one
/// rank's span is folded by that rank, a tile split between ranks is cut
/// into its leaves, each folded by the rank holding its first element
/// (reading the rest of it through the halo exchange), so every rank can
/// redo the engine's combination of leaves and tiles bit for bit.
struct axis0_plan {
  reduce_rows rows;  ///< partition-axis indices of each rank
  index_t len = 0, inner = 1, leaf = 1;
  std::size_t lanes = 1;
  std::vector<fold_piece> pieces;     ///< in position order (ranks ascending)
  std::vector<std::size_t> offset;    ///< per piece: accumulators before it in its rank's output block
  std::vector<std::size_t> per_rank;  ///< accumulators per output, by rank
  std::pair<index_t, index_t> span(int q) const {
    const auto [lo, hi] = rows.of(q);
    return {lo * inner, hi * inner};
  }
  void build() {
    constexpr index_t tile = sinter::detail::reduce_host::tile_elems;
    per_rank.assign(static_cast<std::size_t>(rows.size), 0);
    int q = 0;
    const auto owner = [&](index_t p) {  // p never decreases
      while (span(q).second <= p) ++q;
      return q;
    };
    for (index_t tb = 0; tb < len; tb += tile) {
      const index_t te = tb + tile < len ? tb + tile : len;
      const int o = owner(tb);
      if (te <= span(o).second || te - tb <= leaf) pieces.push_back({tb, te, o, false});
      else
        for (index_t lb = tb; lb < te; lb += leaf) pieces.push_back({lb, lb + leaf < te ? lb + leaf : te, owner(lb), true});
    }
    for (const auto& p : pieces) {
      auto& n = per_rank[static_cast<std::size_t>(p.rank)];
      offset.push_back(n);
      n += p.lanes ? lanes : 1;
    }
  }
  /// Partition-axis indices rank q reads (needs_of's rows).
  std::pair<index_t, index_t> of(int q) const {
    index_t b = -1, e = -1;
    for (const auto& p : pieces)
      if (p.rank == q) {
        if (b < 0) b = p.b;
        e = p.e;
      }
    if (b < 0) return {0, 0};
    return {b / inner, (e - 1) / inner + 1};
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
    mpi::detail::start_exchange(pol.comm, mpi::detail::agreed_halo(pol.comm, mpi::detail::needs_of(leaves, plan))).wait();
    const auto span = plan.tiles(me);  // not a structured binding: Clang 14 cannot capture one
    const index_t t0 = span.first, t1 = span.second;
    std::vector<A> mine(static_cast<std::size_t>(t1 - t0));
    mpi::detail::or_abort(pol.comm, [&] {  // the others wait in the all-gather
      for (index_t t = t0; t < t1; ++t) {
        const index_t b = t * plan.tile, len = b + plan.tile < n ? plan.tile : n - b;
        mine[static_cast<std::size_t>(t - t0)] = reduce_host::reduce_range<Op>(bound, e.shape(), b, len, false, 0);
      }
    });
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
    if constexpr (std::is_same_v<L, host> || std::is_same_v<L, par>)
      if (!rows.by && len > 1 && size > 1 && along_rows<Op>(pol, out, permuted, pshape, outputs, len, finish)) return;
    auto needs = mpi::detail::needs_of(leaves, rows);
    if (!by_rows)  // the one output's rank reads every row
      for (auto& x : needs)
        for (int q = 0; q != size; ++q)
          x.need[static_cast<std::size_t>(q)] = {0, rows.of(q).second > rows.of(q).first ? x.g->n0 : 0};
    mpi::detail::start_exchange(pol.comm, mpi::detail::agreed_halo(pol.comm, needs)).wait();
    const auto mine_rows = rows.of(me);  // not a structured binding: Clang 14 cannot capture one
    const index_t lo = mine_rows.first, hi = mine_rows.second;
    if (hi > lo) {
      extents<RP> part = pshape;
      part[0] = by_rows ? hi - lo : n0;
      const Node mine = by_rows ? mpi::detail::restrict_rows(permuted, lo, hi - lo) : permuted;
      mpi::detail::or_abort(pol.comm, [&] {  // the others wait in the all-gather
        reducer<L>::template along<Op>(pol.local, out + lo * per, mine, part, (hi - lo) * per, len, finish);
      });
    }
    std::vector<std::uint64_t> counts(static_cast<std::size_t>(size));
    for (int q = 0; q != size; ++q) {
      const auto [qlo, qhi] = rows.of(q);
      counts[static_cast<std::size_t>(q)] = static_cast<std::uint64_t>((qhi - qlo) * per) * sizeof(R);
    }
    mpi::detail::allgather_bytes(pol.comm, counts, out + lo * per, out);
  }

  /// along's case of reduced elements ordered by distributed rows (axis 0
  /// reduced; see axis0_plan): each rank folds its pieces of every output,
  /// the pieces are all-gathered and every rank combines them as the
  /// engine does. False (nothing done) when no leaf steps rows along the
  /// reduced axes' first one.
  template <class Op, class R, class Node, std::size_t RP, class Finish>
  static bool along_rows(const mpi::dist<L>& pol, R* out, const Node& node, const extents<RP>& pshape,
                         index_t outputs, index_t len, Finish finish) {
    using V = typename Node::value_type;
    using A = typename Op::template acc_t<V>;
    static_assert(std::is_trivially_copyable_v<A>, "sinter::mpi: a reduction's accumulator is sent as bytes");
    constexpr std::size_t LN = static_cast<std::size_t>(reduce_host::leaf_lanes<A>);
    std::size_t d = RP;  // the reduced axes' first of extent > 1 (len > 1)
    for (index_t prod = 1; d > 0 && prod < len;) prod *= pshape[--d];
    std::vector<mpi::detail::leaf_rows> leaves;
    mpi::detail::collect_leaves(node, pol.comm.get(), leaves, d);
    const int me = pol.comm.rank(), size = pol.comm.size();
    mpi::detail::axis0_plan plan;
    plan.rows = {mpi::detail::row_leaf(leaves), pshape[d], size};
    if (!plan.rows.by || plan.rows.of(0).first != 0 || plan.rows.of(size - 1).second != plan.rows.n) return false;
    plan.len = len;
    plan.inner = len / pshape[d];
    plan.leaf = reduce_host::leaf_block<A>;
    plan.lanes = LN;
    plan.build();
    mpi::detail::start_exchange(pol.comm, mpi::detail::agreed_halo(pol.comm, mpi::detail::needs_of(leaves, plan))).wait();
    const std::size_t mine_n = plan.per_rank[static_cast<std::size_t>(me)];
    std::vector<A> mine(static_cast<std::size_t>(outputs) * mine_n);
    const auto fold_output = [&](index_t o) {
      A* dst = mine.data() + static_cast<std::size_t>(o) * mine_n;
      for (std::size_t k = 0; k != plan.pieces.size(); ++k) {
        const auto& p = plan.pieces[k];
        if (p.rank != me) continue;
        if (!p.lanes) {
          dst[plan.offset[k]] = reduce_host::reduce_range<Op>(node, pshape, o * len + p.b, p.e - p.b, false, o * len);
          continue;
        }
        V buf[reduce_host::tile_elems];
        reduce_host::eval_range<V>(node, pshape, o * len + p.b, o * len + p.e, buf);
        reduce_host::fold_leaf<Op, V>([&buf](index_t i) { return buf[i]; }, 0, p.e - p.b, p.b, dst + plan.offset[k]);
      }
    };
    mpi::detail::or_abort(pol.comm, [&] {  // the others wait in the all-gather
      if (std::is_same_v<L, par> && outputs > 1 && outputs * len >= 2 * par_grain) {
        const index_t chunks = std::min<index_t>(outputs, 4 * get_num_threads());
        const index_t each = (outputs + chunks - 1) / chunks;
        default_pool().parallel_for(chunks, [&](std::int64_t k) {
          for (index_t o = k * each; o < std::min(outputs, (k + 1) * each); ++o) fold_output(o);
        });
      } else {
        for (index_t o = 0; o < outputs; ++o) fold_output(o);
      }
    });
    std::vector<std::uint64_t> counts(static_cast<std::size_t>(size));
    std::vector<std::size_t> disp(static_cast<std::size_t>(size) + 1, 0);
    for (std::size_t q = 0; q != counts.size(); ++q) {
      counts[q] = static_cast<std::uint64_t>(outputs) * plan.per_rank[q] * sizeof(A);
      disp[q + 1] = disp[q] + static_cast<std::size_t>(outputs) * plan.per_rank[q];
    }
    std::vector<A> all(disp.back());
    mpi::detail::allgather_bytes(pol.comm, counts, mine.data(), all.data());
    std::vector<A> tiles;
    for (index_t o = 0; o < outputs; ++o) {
      tiles.clear();
      const auto at = [&](std::size_t k) {
        const auto q = static_cast<std::size_t>(plan.pieces[k].rank);
        return all.data() + disp[q] + static_cast<std::size_t>(o) * plan.per_rank[q] + plan.offset[k];
      };
      for (std::size_t k = 0; k != plan.pieces.size();) {
        if (!plan.pieces[k].lanes) {
          tiles.push_back(*at(k++));
          continue;
        }
        // A split tile: its leaves' lanes as pairwise combines them, ((L0 + L1) + (L2 + L3)).
        A acc[LN]{}, pair[LN]{};
        const index_t tile_end = (plan.pieces[k].b / reduce_host::tile_elems + 1) * reduce_host::tile_elems;
        int l = 0;
        for (; k != plan.pieces.size() && plan.pieces[k].b < tile_end; ++k, ++l) {
          const A* c = at(k);
          for (std::size_t j = 0; j != LN; ++j) {
            if (l == 0) acc[j] = c[j];
            else if (l == 1) acc[j] = Op::combine(acc[j], c[j]);
            else if (l == 2) pair[j] = c[j];
            else pair[j] = Op::combine(pair[j], c[j]);
          }
        }
        if (l > 2)
          for (std::size_t j = 0; j != LN; ++j) acc[j] = Op::combine(acc[j], pair[j]);
        tiles.push_back(reduce_host::fold_lanes<Op, static_cast<int>(LN / 2)>(acc));
      }
      out[o] = finish(reduce_host::combine_partials<Op>(tiles.data(), tiles.size()), len);
    }
    return true;
  }
};

}  // namespace sinter::detail
