#pragma once
/// \file reduce_combine.hpp
/// The deterministic full reduction across ranks: bitwise the result of
/// sinter's single-process reduction (reduce/host_engine.hpp) of the same
/// values, for any rank count. The flat range [0, n) is cut into the same
/// tiles of tile_elems elements; each tile is folded whole by the rank that
/// owns its first element (a tile straddling a rank boundary gets the
/// missing values, at most tile_elems - 1, from the ranks that hold them);
/// the tile partials are combined in the single process's pairwise tree,
/// each rank folding the subtrees made only of its own tiles.
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../reduce/host_engine.hpp"
#include "collective.hpp"
#include "comm.hpp"

namespace sinter::mpi::detail {

namespace rc = sinter::detail::reduce_host;

/// The MPI tag of the values that complete a straddling tile.
inline constexpr int straddle_tag = 0x51ea;

/// The pairwise fold of `len` values (flat indices base + k) that a tile of
/// the single-process reduction would give.
template <class Op, class V>
auto fold_values(const V* values, index_t len, index_t base) {
  if (len == 0) return Op::template identity<V>();
  return rc::pairwise<Op, V>([values](index_t i) { return values[i]; }, 0, len, base);
}

/// A fold_tile that evaluates a tile's values with eval, then folds them.
template <class Op, class V, class Eval>
struct eval_fold {
  const Eval& eval;  ///< eval(b, e, out): values of flat positions [b, e)
  /// The tile partial of flat positions [b, e).
  auto operator()(index_t b, index_t e) const {
    V buf[rc::tile_elems];
    eval(b, e, buf);
    return fold_values<Op, V>(buf, e - b, b);
  }
};

/// Tiles [t0, t1) of every rank: those whose first element the rank holds.
inline std::pair<index_t, index_t> owned_tiles(index_t f0, index_t f1) {
  const index_t te = rc::tile_elems;
  if (f0 >= f1) return {0, 0};
  return {(f0 + te - 1) / te, (f1 + te - 1) / te};
}

/// Visits the maximal subtrees of combine_partials' tree over tiles [lo, hi)
/// whose tiles all lie in [t0, t1), left to right.
template <class F>
void for_each_owned_subtree(index_t lo, index_t hi, index_t t0, index_t t1, const F& f) {
  if (hi <= t0 || lo >= t1 || lo >= hi) return;
  if (t0 <= lo && hi <= t1) {
    f(lo, hi);
    return;
  }
  const index_t h = (hi - lo) / 2;
  for_each_owned_subtree(lo, lo + h, t0, t1, f);
  for_each_owned_subtree(lo + h, hi, t0, t1, f);
}

/// combine_partials' tree over tiles [lo, hi), its owned subtrees taken in
/// order from each rank's list (next[r] the position in rank r's list).
template <class Op, class A>
A combine_owned(index_t lo, index_t hi, const std::vector<std::pair<index_t, index_t>>& tiles,
                const std::vector<std::vector<A>>& lists, std::vector<std::size_t>& next) {
  for (std::size_t r = 0; r < tiles.size(); ++r)
    if (tiles[r].first <= lo && hi <= tiles[r].second) return lists[r][next[r]++];
  const index_t h = (hi - lo) / 2;
  const A left = combine_owned<Op>(lo, lo + h, tiles, lists, next);
  return Op::combine(left, combine_owned<Op>(lo + h, hi, tiles, lists, next));
}

/// Collective full reduction (before Op's finish) of n values spread over
/// the ranks: this rank holds flat positions [f0, f1), the ranks' ranges
/// tiling [0, n) in rank order. eval(b, e, out) writes the values of
/// positions [b, e) (inside [f0, f1), at most tile_elems) to out;
/// fold_tile(b, e) returns the partial of a whole tile inside [f0, f1)
/// (bitwise fold_values of its values: the caller's faster fold). With
/// `parallel`, whole tiles fold on the thread pool (fold_tile, and eval
/// through it, must allow that). Every rank returns the same value, bitwise
/// the single-process one.
template <class Op, class V, class Eval, class FoldTile>
auto reduce_combine(const communicator& comm, index_t n, index_t f0, index_t f1, const Eval& eval,
                    const FoldTile& fold_tile, bool parallel = false) {
  using A = typename Op::template acc_t<V>;
  static_assert(std::is_trivially_copyable_v<A> && std::is_trivially_copyable_v<V>);
  require_mpi("reduce_combine");
  const int rank = comm.rank(), size = comm.size();
  // Every rank's range; a bad tiling throws the same error on every rank.
  const auto ranges = allgather(comm, std::array<std::int64_t, 2>{f0, f1});
  for (int r = 0; r < size; ++r) {
    const auto& g = ranges[std::size_t(r)];
    const std::int64_t expect = r == 0 ? 0 : ranges[std::size_t(r - 1)][1];
    if (g[0] != expect || g[1] < g[0] || (r == size - 1 && g[1] != n))
      throw value_error("sinter::mpi: reduce_combine: rank " + std::to_string(r) + " holds [" + std::to_string(g[0]) +
                        ", " + std::to_string(g[1]) + ") of " + std::to_string(n) +
                        " elements; the ranks' ranges must tile [0, n) in rank order");
  }
  if (n == 0) return Op::template identity<V>();
  const index_t te = rc::tile_elems, tiles = (n + te - 1) / te;
  std::vector<std::pair<index_t, index_t>> owned(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) owned[std::size_t(r)] = owned_tiles(ranges[std::size_t(r)][0], ranges[std::size_t(r)][1]);
  auto holder = [&](index_t pos) {  // the rank whose range holds flat position pos
    int r = 0;
    while (ranges[std::size_t(r)][1] <= pos) ++r;
    return r;
  };
  const index_t t0 = owned[std::size_t(rank)].first, t1 = owned[std::size_t(rank)].second;
  std::vector<MPI_Request> req;
  // The head of this range, in a tile an earlier rank owns: its values go there.
  const index_t head_end = f0 < f1 && f0 % te != 0 ? std::min(f1, (f0 / te + 1) * te) : f0;
  std::unique_ptr<V[]> head(new V[static_cast<std::size_t>(head_end - f0 + 1)]);
  if (head_end > f0) {
    eval(f0, head_end, head.get());
    req.emplace_back();
    check(MPI_Isend(head.get(), static_cast<int>(std::size_t(head_end - f0) * sizeof(V)), MPI_BYTE,
                    holder(f0 / te * te), straddle_tag, comm.get(), &req.back()),
          "MPI_Isend (reduce_combine)");
  }
  // The last owned tile may run past f1: the rest comes from later ranks.
  V last[rc::tile_elems];
  const index_t ls = (t1 - 1) * te, le = std::min(ls + te, n);
  const bool straddles = t1 > t0 && le > f1;
  if (straddles) {
    for (int q = rank + 1; q < size; ++q) {
      const index_t a = std::max<index_t>(ranges[std::size_t(q)][0], f1), b = std::min<index_t>(ranges[std::size_t(q)][1], le);
      if (a >= b) continue;
      req.emplace_back();
      check(MPI_Irecv(last + (a - ls), static_cast<int>(std::size_t(b - a) * sizeof(V)), MPI_BYTE, q, straddle_tag,
                      comm.get(), &req.back()),
            "MPI_Irecv (reduce_combine)");
    }
  }
  // This rank's whole tiles, folded while the straddling values travel.
  std::vector<A> partial(static_cast<std::size_t>(t1 - t0));
  const index_t whole = straddles ? t1 - 1 : t1;
  auto span = [&](index_t a, index_t b) {
    for (index_t t = a; t < b; ++t) partial[std::size_t(t - t0)] = fold_tile(t * te, std::min(t * te + te, n));
  };
  const index_t tasks = (whole - t0 + rc::tiles_per_task - 1) / rc::tiles_per_task;
  if (parallel && tasks > 1)
    sinter::detail::default_pool().parallel_for(tasks, [&](std::int64_t k) {
      const index_t a = t0 + k * rc::tiles_per_task;
      span(a, std::min(a + rc::tiles_per_task, whole));
    });
  else
    span(t0, whole);
  if (straddles) eval(ls, f1, last);
  check(MPI_Waitall(static_cast<int>(req.size()), req.data(), MPI_STATUSES_IGNORE), "MPI_Waitall (reduce_combine)");
  if (straddles) partial.back() = fold_values<Op, V>(last, le - ls, ls);
  // This rank's maximal subtrees of the partials' tree, then the whole tree on every rank.
  std::vector<A> mine;
  for_each_owned_subtree(0, tiles, t0, t1, [&](index_t lo, index_t hi) {
    mine.push_back(rc::combine_partials<Op>(partial.data() + (lo - t0), static_cast<std::size_t>(hi - lo)));
  });
  const auto flat = allgather(comm, std::span<const A>(mine));
  std::vector<std::vector<A>> lists(static_cast<std::size_t>(size));
  std::size_t at = 0;
  for (int r = 0; r < size; ++r) {
    std::size_t c = 0;  // rank r's subtree count, from the global facts
    for_each_owned_subtree(0, tiles, owned[std::size_t(r)].first, owned[std::size_t(r)].second,
                           [&c](index_t, index_t) { ++c; });
    lists[std::size_t(r)].assign(flat.begin() + std::ptrdiff_t(at), flat.begin() + std::ptrdiff_t(at + c));
    at += c;
  }
  std::vector<std::size_t> next(static_cast<std::size_t>(size), 0);
  return combine_owned<Op, A>(0, tiles, owned, lists, next);
}

/// reduce_combine with every tile's values evaluated by eval, then folded.
template <class Op, class V, class Eval>
auto reduce_combine(const communicator& comm, index_t n, index_t f0, index_t f1, const Eval& eval,
                    bool parallel = false) {
  return reduce_combine<Op, V>(comm, n, f0, f1, eval, eval_fold<Op, V, Eval>{eval}, parallel);
}

}  // namespace sinter::mpi::detail
