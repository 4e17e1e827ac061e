#pragma once
/// \file mpi/pass.hpp
/// One assignment into a distributed array: the output's rows that this
/// rank owns are found from the registry, every leaf's tree is restricted to
/// those rows (generators keep their global positions), the ghost rows each
/// rank reads are exchanged, and the restricted pass runs on the local
/// policy's ordinary engine. A pass that does not write what it reads runs
/// its interior rows (those that read no ghost row) during the exchange.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "../evaluate.hpp"
#include "collective.hpp"
#include "policy.hpp"
#include "region.hpp"

namespace sinter::mpi::detail {

using sinter::extents;
using sinter::index_t;

/// The same bound tree over rows [lo, lo + len) of axis 0 only: memory
/// leaves move their pointer, generators their position (so a random
/// array keeps its global values), scalars stay.
template <class N>
N restrict_rows(const N& n, index_t lo, index_t len);
template <class N, std::size_t... I>
N restrict_children(const N& n, index_t lo, index_t len, std::index_sequence<I...>) {
  N m{n.fn(), sinter::detail::make_pack(restrict_rows(sinter::detail::get<I>(n.args), lo, len)...), n.shape};
  m.shape[0] = len;
  return m;
}
template <class N>
N restrict_rows(const N& n, index_t lo, index_t len) {
  if constexpr (requires { n.args; }) {
    return restrict_children(n, lo, len, std::make_index_sequence<sinter::detail::pack_size_v<decltype(n.args)>>{});
  } else if constexpr (requires { n.ptr; }) {
    N m = n;
    m.ptr += lo * m.strides[0];
    m.shape[0] = len;
    return m;
  } else if constexpr (requires { n.gen; }) {
    N m = n;
    m.base += lo * m.strides[0];
    m.shape[0] = len;
    return m;
  } else {
    static_assert(N::rank == 0, "sinter::mpi: an expression node that a distributed pass cannot split by rows");
    return n;
  }
}

/// Where a memory leaf's rows sit in its region, in bytes from the
/// region's base: output row i starts at rel + i * s0; a row spans
/// [span_lo, span_hi) around its start.
struct leaf_rows {
  region* g = nullptr;
  std::int64_t rel = 0, s0 = 0, span_lo = 0, span_hi = 0;
  /// Region rows read for output rows [lo, hi) (hi > lo).
  std::pair<index_t, index_t> rows(index_t lo, index_t hi) const {
    if (g->replicated) return {0, 0};
    const std::int64_t a = rel + lo * s0, c = rel + (hi - 1) * s0;
    const auto blo = static_cast<std::size_t>((a < c ? a : c) + span_lo);
    const auto bhi = static_cast<std::size_t>((a < c ? c : a) + span_hi);
    return {g->row_of(blo), g->row_of(bhi - 1) + 1};
  }
};

/// Throws value_error with sinter's wording.
[[noreturn]] inline void refuse(const std::string& what) { throw value_error("sinter::mpi: " + what); }

/// leaf_rows of every memory leaf of `bound` held in a region (local arrays
/// are replicated and skipped), its rows stepped by axis `ax` (the other
/// axes in the span); refuses generators that read distributed memory.
template <class Node>
void collect_leaves(const Node& bound, MPI_Comm comm, std::vector<leaf_rows>& out, std::size_t ax = 0) {
  sinter::detail::for_each_leaf(bound, [&](const auto& l) {
    using L = std::remove_cvref_t<decltype(l)>;
    if constexpr (sinter::detail::is_memory_leaf<L>::value) {
      if (sinter::detail::shape_size(l.shape) == 0) return;
      region* g = find_region(l.ptr);
      if (!g) return;
      if (g->n0 < 0 && !g->replicated) refuse("a distributed array is read before it was written; fill it first");
      if (g->comm != comm) refuse("operands are distributed over different communicators; redistribute one");
      constexpr auto sz = static_cast<std::int64_t>(sizeof(typename L::value_type));
      leaf_rows r;
      r.g = g;
      r.rel = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(l.ptr) - g->base);
      r.s0 = ax < L::rank ? l.strides[ax] * sz : 0;
      r.span_hi = sz;
      for (std::size_t d = 0; d < L::rank; ++d) {
        if (d == ax) continue;
        const std::int64_t span = (l.shape[d] - 1) * l.strides[d] * sz;
        (span < 0 ? r.span_lo : r.span_hi) += span;
      }
      out.push_back(r);
    } else if constexpr (requires { l.gen.touches(std::uintptr_t{}, std::uintptr_t{}); }) {
      auto& reg = regions();
      std::lock_guard<std::mutex> lock(reg.m);
      for (const auto& [base, g] : reg.by_base)
        if (l.gen.touches(base, base + g.reserved))
          refuse("roll, pad, take, take_along_axis, concatenate or stack of a distributed array reads rows of "
                 "other ranks; gather it first (sinter::mpi::gather), or work on this rank's rows (sinter::mpi::local)");
    }
  });
}

/// Output rows [lo, hi) that rank q computes, for an output of n rows in
/// region g: rows mode (axis 0 maps to region rows from r0 with step +1)
/// or one region row (`row`, owned by one rank).
struct out_rows {
  region* g;
  bool by_rows;
  index_t r0, n, row;
  std::pair<index_t, index_t> of(int q) const {
    const auto [b, e] = g->owned(q);
    if (!by_rows) return (row >= b && row < e) ? std::pair<index_t, index_t>{0, n} : std::pair<index_t, index_t>{0, 0};
    const auto clamp = [&](index_t v) { return v < 0 ? index_t{0} : (v > n ? n : v); };
    return {clamp(b - r0), clamp(e - r0)};
  }
};

/// The rows of output leaf `out` each rank computes; sets a region's
/// layout at its first whole write; refuses outputs whose axis 0 is not
/// the distributed rows at step +1 (identical on every rank: no hang).
template <class T, std::size_t R>
out_rows output_rows(const sinter::detail::memory_leaf<T, R>& out) {
  static_assert(R >= 1, "sinter::mpi: a distributed array has at least one axis");
  region* g = find_region(out.ptr);
  if (!g) refuse("a distributed pass into memory that is not a distributed array's");
  const auto sz = sizeof(T);
  const auto rel = reinterpret_cast<std::uintptr_t>(out.ptr) - g->base;
  if (g->n0 < 0) {
    if (rel != 0 || static_cast<std::size_t>(sinter::detail::shape_size(out.shape)) * sz != g->bytes)
      refuse("the first write to a distributed array must cover it whole (its row layout is not known yet); "
             "create it with sinter::mpi::empty or a factory");
    set_rows(*g, out.shape[0]);
  }
  g->replicated = false;  // this pass writes only the owned rows
  if (g->row_bytes == 0) return {g, true, 0, out.shape[0], 0};
  if (static_cast<std::size_t>(out.strides[0]) * sz == g->row_bytes && out.strides[0] > 0)
    return {g, true, g->row_of(rel), out.shape[0], 0};
  const auto [lo, hi] = sinter::detail::byte_range(out);
  if (g->row_of(lo - g->base) == g->row_of(hi - 1 - g->base)) return {g, false, 0, out.shape[0], g->row_of(lo - g->base)};
  refuse("assignment to a view whose axis 0 is not the distributed rows at step 1 (a step, reversal or transpose "
         "of axis 0); assign to rows at step 1, or gather the array, work on it locally and scatter it back");
}

/// The ghost rows of every region read by `leaves`, for every rank (the
/// same table on every rank), given each rank's output rows o.of(q).
template <class Rows>
std::vector<region_need> needs_of(const std::vector<leaf_rows>& leaves, const Rows& o) {
  std::vector<region_need> needs;
  for (const auto& l : leaves) {
    if (l.g->replicated) continue;
    region_need* n = nullptr;
    for (auto& x : needs)
      if (x.g == l.g) n = &x;
    if (!n) {
      needs.push_back({l.g, std::vector<std::pair<index_t, index_t>>(static_cast<std::size_t>(l.g->size), {0, 0})});
      n = &needs.back();
    }
    for (int q = 0; q != l.g->size; ++q) {
      const auto [lo, hi] = o.of(q);
      if (hi <= lo) continue;
      const auto [rlo, rhi] = l.rows(lo, hi);
      auto& nq = n->need[static_cast<std::size_t>(q)];
      if (nq.second <= nq.first) nq = {rlo, rhi};
      else nq = {std::min(nq.first, rlo), std::max(nq.second, rhi)};
    }
  }
  return needs;
}

/// Whether output row i reads only rows this rank owns.
inline bool interior_row(const std::vector<leaf_rows>& leaves, index_t i) {
  for (const auto& l : leaves) {
    if (l.g->replicated) continue;
    const auto [lo, hi] = l.rows(i, i + 1);
    if (lo < l.g->b || hi > l.g->e) return false;
  }
  return true;
}

/// `out = bound` restricted to output rows [lo, hi), on the local policy.
template <class L, class T, std::size_t R, class Bound>
void local_rows(const L& local, const sinter::detail::memory_leaf<T, R>& out, const Bound& bound, index_t lo,
                index_t hi) {
  if (hi <= lo) return;
  const auto o = restrict_rows(out, lo, hi - lo);
  const auto b = restrict_rows(bound, lo, hi - lo);
  sinter::detail::assign_bound(local, o, b, b);
}

/// The trace's record of a pass's exchange: this rank, the bytes it moved,
/// the seconds it waited, and which rows ran during the exchange (out of line).
SINTER_NOINLINE void trace_exchange(const std::string& label, const std::uint64_t (&moved)[3], double waited,
                                           index_t ilo, index_t ihi, index_t lo, index_t hi, bool aliased) {
  std::string d = "halo exchange: " + std::to_string(moved[0]) + " bytes sent, " + std::to_string(moved[1]) +
                  " received in " + std::to_string(moved[2]) + " messages; ";
  d += aliased ? "in place: rows [" + std::to_string(lo) + ", " + std::to_string(hi) + ") after it"
               : "interior rows [" + std::to_string(ilo) + ", " + std::to_string(ihi) + ") ran during it, the other rows of [" +
                     std::to_string(lo) + ", " + std::to_string(hi) + ") after it";
  sinter::detail::emit_pass(label, "mpi exchange", 0, static_cast<std::size_t>(moved[1]),
                            static_cast<std::size_t>(moved[0]), waited, std::move(d));
}

/// Rows rank q of g is known to have committed (region::known, else its own).
inline std::pair<index_t, index_t> known_rows(const region& g, int q) {
  return g.known.empty() ? g.owned(q) : g.known[static_cast<std::size_t>(q)];
}

/// Whether some rank needs rows beyond those it is known to have committed:
/// only then can committing fail, on that rank alone (the same answer on
/// every rank: needs and known rows are global facts).
inline bool any_new_ghosts(const std::vector<region_need>& needs) {
  for (const auto& x : needs) {
    if (x.g->replicated || x.g->size == 1) continue;
    for (int q = 0; q != x.g->size; ++q) {
      const auto [lo, hi] = x.need[static_cast<std::size_t>(q)];
      const auto [b, e] = known_rows(*x.g, q);
      if (hi > lo && (e <= b || lo < b || hi > e)) return true;
    }
  }
  return false;
}

/// Adds the needs to the known rows (a hull, as commit_rows commits one).
inline void note_known(const std::vector<region_need>& needs) {
  for (const auto& x : needs) {
    region& g = *x.g;
    if (g.replicated || g.size == 1) continue;
    if (g.known.empty())
      for (int q = 0; q != g.size; ++q) g.known.push_back(g.owned(q));
    for (int q = 0; q != g.size; ++q) {
      const auto [lo, hi] = x.need[static_cast<std::size_t>(q)];
      auto& k = g.known[static_cast<std::size_t>(q)];
      if (hi > lo) k = k.second > k.first ? std::pair<index_t, index_t>{std::min(k.first, lo), std::max(k.second, hi)}
                                          : std::pair<index_t, index_t>{lo, hi};
    }
  }
}

/// halo_of(needs), its local failures (committing this rank's ghost rows)
/// agreed before any rank posts a message when some rank needs rows it has
/// not committed before: one Allreduce in a stencil's first pass, none after.
inline exchange_plan agreed_halo(const communicator& comm, const std::vector<region_need>& needs) {
  if (!any_new_ghosts(needs)) return halo_of(needs);
  exchange_plan plan;
  run_agreed(comm, [&] { plan = halo_of(needs); });
  note_known(needs);
  return plan;
}

template <class L, class T, std::size_t R, class Bound>
void dist_pass_run(const dist<L>& pol, const sinter::detail::memory_leaf<T, R>& out, const Bound& bound,
                   const out_rows& o, const std::vector<leaf_rows>& leaves, exchange_plan plan);

/// The distributed pass `out = bound` (bound to out's global shape). Errors
/// of global facts throw on every rank alike; a local one before the
/// exchange is agreed (agreed_halo); one after it started aborts (or_abort).
template <class L, class T, std::size_t R, class Bound>
void dist_pass(const dist<L>& pol, const sinter::detail::memory_leaf<T, R>& out, const Bound& bound) {
  if (sinter::detail::shape_size(out.shape) == 0) return;
  const out_rows o = output_rows(out);
  std::vector<leaf_rows> leaves;
  collect_leaves(bound, pol.comm.get(), leaves);
  if (o.g->comm != pol.comm.get()) refuse("the output's communicator differs from the policy's");
  exchange_plan plan = agreed_halo(pol.comm, needs_of(leaves, o));
  or_abort(pol.comm, [&] { dist_pass_run(pol, out, bound, o, leaves, std::move(plan)); });
}

/// dist_pass after planning: the exchange and the local passes.
template <class L, class T, std::size_t R, class Bound>
void dist_pass_run(const dist<L>& pol, const sinter::detail::memory_leaf<T, R>& out, const Bound& bound,
                   const out_rows& o, const std::vector<leaf_rows>& leaves, exchange_plan plan) {
  const bool aliased = sinter::detail::needs_temporary(out, bound);
  const auto mine = o.of(o.g->rank);  // not a structured binding: Clang 14 cannot capture one
  const index_t lo = mine.first, hi = mine.second;
  const bool moves = plan.bytes_sent() + plan.bytes_received() > 0;
  const exchange_counters before = exchange_stats();
  pending reqs = start_exchange(pol.comm, std::move(plan));
  const auto wait = [&](index_t ilo, index_t ihi) {  // completes the exchange, traced
    if (!sinter::detail::trace_active() || !moves) return reqs.wait();
    const auto t0 = std::chrono::steady_clock::now();
    reqs.wait();
    const auto& st = exchange_stats();
    const std::uint64_t moved[3] = {st.bytes_sent - before.bytes_sent, st.bytes_received - before.bytes_received,
                                    st.messages - before.messages};
    trace_exchange(sinter::detail::backend<dist<L>>::label(pol), moved,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), ilo, ihi, lo, hi,
                   aliased);
  };
  if (aliased || !moves) {  // in place: every rank's old rows are sent before any is overwritten
    wait(lo, lo);
    local_rows(pol.local, out, bound, lo, hi);
    return;
  }
  index_t ilo = lo, ihi = hi;
  while (ilo < ihi && !interior_row(leaves, ilo)) ++ilo;
  while (ihi > ilo && !interior_row(leaves, ihi - 1)) --ihi;
  local_rows(pol.local, out, bound, ilo, ihi);  // overlaps the exchange
  wait(ilo, ihi);
  if (ilo == ihi) {
    local_rows(pol.local, out, bound, lo, hi);
    return;
  }
  local_rows(pol.local, out, bound, lo, ilo);
  local_rows(pol.local, out, bound, ihi, hi);
}

/// The pass hooks both distributed backends share (backend<dist<L>> and
/// backend<dist<cuda>> derive from it): label, evaluate, assign's hook.
template <class P>
struct dist_backend_hooks {
  static constexpr bool host_accessible = false;  // other ranks' rows are not readable here
  static std::string label(const P& p) {
    return "mpi:" + sinter::detail::backend<typename P::local_policy>::label(p.local) + " rank " +
           std::to_string(p.comm.rank()) + "/" + std::to_string(p.comm.size());
  }
  /// `out = bound` as a distributed pass.
  template <class T, std::size_t R, class Node>
  static void evaluate(const P& p, sinter::detail::memory_leaf<T, R> out, const Node& bound, std::string* detail) {
    // Reached past assign's hook only by array's reshaping assignment, whose
    // pass may fold axes: the row layout of a new array cannot be read off it.
    const region* g = find_region(out.ptr);
    if (g && g->n0 < 0)
      refuse("assigning an expression of another shape to a distributed array; create a new one "
             "(sinter::mpi::empty with the new shape, then assign)");
    dist_pass(p, out, bound);
    if (detail) *detail = "distributed rows of rank " + std::to_string(p.comm.rank());
  }
  /// evaluate.hpp's assign hook: the whole assignment (alias handling
  /// included: each rank's local pass sees its rows and ghost rows).
  template <class T, std::size_t R, class E>
  static void assign_distributed(const P& p, const sinter::detail::memory_leaf<T, R>& out, const E& e) {
    dist_pass(p, out, e.node().bind(out.shape));
  }
};

}  // namespace sinter::mpi::detail
