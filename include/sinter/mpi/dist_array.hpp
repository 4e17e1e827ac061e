#pragma once
/// \file mpi/dist_array.hpp
/// The backend of the distributed policy (allocation in a reserved region,
/// passes through mpi/pass.hpp), its transfers to and from host memory
/// (an all-gather; a replicated host array distributed in place), printing
/// (collective), and the user-facing helpers: local(x), mpi::empty/zeros/
/// ones/full, mpi::scatter, mpi::gather, mpi::allgather, mpi::agreed,
/// mpi::save_npy/load_npy (rank-ordered through the root).
#include <cstring>
#include <exception>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "../factories.hpp"
#include "../npy.hpp"
#include "../transfer.hpp"
#include "../view.hpp"
#include "collective.hpp"
#include "pass.hpp"

namespace sinter::detail {

/// The distributed policy's backend: memory in a reserved region per array;
/// a pass restricted to this rank's rows after the halo exchange.
template <class L>
struct backend<mpi::dist<L>> : mpi::detail::dist_backend_hooks<mpi::dist<L>> {
  static void* allocate(const mpi::dist<L>& p, std::size_t bytes) {
    mpi::detail::require_mpi("distributed array");
    return mpi::detail::reserve_region(p.comm, bytes);
  }
  static void deallocate(const mpi::dist<L>&, void* p, std::size_t) { mpi::detail::release_region(p); }
};

}  // namespace sinter::detail

namespace sinter::mpi::detail {

/// Bytes of the rows each rank owns in region g, in rank order.
inline std::vector<std::uint64_t> owned_bytes(const region& g) {
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(g.size));
  for (int q = 0; q != g.size; ++q) {
    const auto [b, e] = g.owned(q);
    counts[static_cast<std::size_t>(q)] = static_cast<std::uint64_t>(e - b) * g.row_bytes;
  }
  return counts;
}

/// This rank's first owned byte of region g.
inline void* owned_start(const region& g) {
  return reinterpret_cast<void*>(g.base + static_cast<std::size_t>(g.b) * g.row_bytes);
}

/// Every row of region g into dst (g.bytes bytes), on every rank (collective).
inline void allgather_region(region& g, void* dst) {
  if (g.bytes == 0) return;
  if (g.replicated || g.size == 1) {
    std::memcpy(dst, reinterpret_cast<const void*>(g.base), g.bytes);
    return;
  }
  allgather_bytes(communicator(g.comm), owned_bytes(g), owned_start(g), dst);
}

/// The region of a whole distributed array, its layout known.
template <class X>
region& whole_region(const X& x) {
  region* g = find_region(x.data());
  if (!g) refuse("not a distributed array");
  if (g->n0 < 0) set_rows(*g, x.shape(0));
  return *g;
}

}  // namespace sinter::mpi::detail

namespace sinter::detail {

/// A distributed expression into host memory: evaluated as a distributed
/// array, then gathered on every rank (collective: `sinter::to<sinter::host>(x)`).
template <class L>
struct transfer<mpi::dist<L>, host_space> {
  template <class PD, class T, std::size_t R, class E, class Passes>
  static void copy(const PD& dst, const memory_leaf<T, R>& out, const E& src, const mpi::dist<L>& spol,
                   const Passes& passes) {
    using U = typename E::value_type;
    array<U, E::rank, mpi::dist<L>> staged(src.shape(), spol);
    assign(spol, staged.leaf(), src);
    host_scratch<U> all(staged.size());
    if (staged.size() > 0) mpi::detail::allgather_region(mpi::detail::whole_region(staged), all.ptr);
    passes.run_dense(dst, out, static_cast<const U*>(all.ptr), src.shape());
  }
};

/// A host expression (replicated: the same on every rank) into a
/// distributed array: each rank copies its own rows.
template <class L>
struct transfer<host_space, mpi::dist<L>> {
  template <class T, std::size_t R, class E, class PS, class Passes>
  static void copy(const mpi::dist<L>& dst, const memory_leaf<T, R>& out, const E& src, const PS&, const Passes&) {
    assign(dst, out, expr<typename E::node_type, any_policy, E::keep_count()>(src.node(), src.keep()), "sinter::to");
  }
};

/// Printing a distributed array: each rank supplies the shown elements it
/// owns (collective: every rank must print, or format, the array).
template <class L>
struct device_gather<mpi::dist<L>> {
  template <class T>
  static void gather(const mpi::dist<L>& p, const T* ptr, std::span<const index_t> offsets, T* values) {
    mpi::detail::region* g = mpi::detail::find_region(ptr);
    std::vector<unsigned char> mine(offsets.size() * sizeof(T), 0);
    for (std::size_t i = 0; i != offsets.size(); ++i) {
      const T* at = ptr + offsets[i];
      const auto row = g->row_of(static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(at) - g->base));
      if (g->replicated ? g->rank == 0 : (row >= g->b && row < g->e)) std::memcpy(&mine[i * sizeof(T)], at, sizeof(T));
    }
    mpi::detail::allreduce_or_bytes(p.comm, mine, static_cast<void*>(values));
  }
};

}  // namespace sinter::detail

namespace sinter::mpi {

/// This rank's rows of a distributed array as an ordinary view of the local
/// policy (global rows [b, e) are local rows [0, e - b)).
template <class T, std::size_t R, class L>
view<T, R, L> local(array<T, R, dist<L>>& x) {
  detail::region& g = detail::whole_region(x);
  auto s = x.shape();
  s[0] = g.e - g.b;
  return view<T, R, L>(x.data() + g.b * x.strides()[0], s, x.strides(), x.policy().local);
}
/// This rank's rows, read-only.
template <class T, std::size_t R, class L>
view<const T, R, L> local(const array<T, R, dist<L>>& x) {
  detail::region& g = detail::whole_region(x);
  auto s = x.shape();
  s[0] = g.e - g.b;
  return view<const T, R, L>(x.data() + g.b * x.strides()[0], s, x.strides(), x.policy().local);
}

/// Global rows [first, last) of x that this rank owns.
template <class T, std::size_t R, class L>
std::pair<index_t, index_t> owned_rows(const array<T, R, dist<L>>& x) {
  const detail::region& g = detail::whole_region(x);
  return {g.b, g.e};
}

/// An uninitialised distributed array of global `shape` over `comm`
/// (collective): `auto u = sinter::mpi::empty<float>({n, m});`
template <element T, class L = host, std::size_t R>
dist_array<T, R, L> empty(const extents<R>& shape, communicator comm = {}, L local = {}) {
  dist_array<T, R, L> a(shape, dist<L>{comm, local});
  if constexpr (R > 0) detail::whole_region(a);
  return a;
}
/// empty with a braced global shape.
template <element T, class L = host, std::size_t R>
dist_array<T, R, L> empty(const sinter::detail::extent_arg (&shape)[R], communicator comm = {}, L local = {}) {
  return empty<T, L>(sinter::detail::extents_of(shape, "sinter::mpi::empty"), comm, local);
}
/// A distributed array filled with `value` (collective).
template <element T, class L = host, std::size_t R>
dist_array<T, R, L> full(const sinter::detail::extent_arg (&shape)[R], T value, communicator comm = {}, L local = {}) {
  auto a = empty<T, L>(shape, comm, local);
  a = value;
  return a;
}
/// Distributed zeros (collective).
template <element T, class L = host, std::size_t R>
dist_array<T, R, L> zeros(const sinter::detail::extent_arg (&shape)[R], communicator comm = {}, L local = {}) {
  return full<T, L>(shape, T(0), comm, local);
}
/// Distributed ones (collective).
template <element T, class L = host, std::size_t R>
dist_array<T, R, L> ones(const sinter::detail::extent_arg (&shape)[R], communicator comm = {}, L local = {}) {
  return full<T, L>(shape, T(1), comm, local);
}

/// Distributes root's host array over comm (collective; the other ranks'
/// `x` is ignored, the shape is root's): `auto u = sinter::mpi::scatter(h, 0);`
template <class T, std::size_t R, class P>
dist_array<T, R, host> scatter(const array<T, R, P>& x, int root = 0, communicator comm = {}) {
  extents<R> shape = x.shape();
  if constexpr (R > 0)
    detail::check(MPI_Bcast(shape.data(), static_cast<int>(R), MPI_INT64_T, root, comm.get()), "MPI_Bcast");
  auto out = empty<T, host>(shape, comm);
  if (out.size() == 0) return out;
  detail::region& g = detail::whole_region(out);
  detail::scatter_rows(comm, root, g.rank == root ? static_cast<const void*>(x.data()) : nullptr,
                       detail::owned_start(g), detail::owned_bytes(g)[static_cast<std::size_t>(g.rank)]);
  return out;
}

/// The whole distributed array as a host array on `root` (collective); the
/// other ranks get an empty array (shape all zeros).
template <class T, std::size_t R, class L>
array<T, R, host> gather(const array<T, R, dist<L>>& x, int root = 0) {
  const communicator comm = x.policy().comm;
  const bool here = comm.rank() == root;
  array<T, R, host> out(here ? x.shape() : extents<R>{});
  if (x.size() == 0) return out;
  detail::region& g = detail::whole_region(x);
  if (g.replicated) {
    if (here) std::memcpy(static_cast<void*>(out.data()), reinterpret_cast<const void*>(g.base), g.bytes);
    return out;
  }
  detail::gather_rows(comm, root, detail::owned_start(g), detail::owned_bytes(g)[static_cast<std::size_t>(g.rank)],
                      here ? static_cast<void*>(out.data()) : nullptr);
  return out;
}

/// The whole distributed array as a host array on every rank (collective).
template <class T, std::size_t R, class L>
array<T, R, host> allgather(const array<T, R, dist<L>>& x) {
  array<T, R, host> out(x.shape());
  if (x.size() > 0) detail::allgather_region(detail::whole_region(x), out.data());
  return out;
}

/// An expression (of generators: random numbers, arange; or of replicated
/// local arrays) whose reductions and passes are split over the ranks of
/// MPI_COMM_WORLD by rows, nothing stored:
/// `sinter::mean(sinter::mpi::distributed(sinter::random::uniform(k, {n})))`.
template <class L = host, expression X>
auto distributed(X&& x) {
  auto e = sinter::detail::as_expr(std::forward<X>(x));
  using E = decltype(e);
  return expr<typename E::node_type, dist<L>, E::keep_count()>(e.node(), e.keep());
}

/// Runs f() on this rank; if it throws on any rank of comm, every rank
/// throws (the failing ranks their own exception, the others one of the
/// same kind naming the lowest failing rank: mpi/collective.hpp's agree),
/// so no rank waits for a failed one. f should make no collective call.
template <class F>
void agreed(F&& f, communicator comm = {}) {
  detail::run_agreed(comm, std::forward<F>(f));
}

/// Writes a distributed array as one .npy file (collective): gathered to
/// `root`, which writes it; a write error throws on every rank.
template <class T, std::size_t R, class L>
void save_npy(const std::string& path, const array<T, R, dist<L>>& x, int root = 0) {
  const auto h = gather(x, root);
  const communicator comm = x.policy().comm;
  agreed([&] { if (comm.rank() == root) sinter::save_npy(path, h); }, comm);
}

/// Reads a .npy file on `root` and distributes it over comm (collective); a
/// read error throws on every rank.
template <class T, std::size_t R>
dist_array<T, R, host> load_npy(const std::string& path, int root = 0, communicator comm = {}) {
  array<T, R, host> h;
  agreed([&] { if (comm.rank() == root) h = sinter::load_npy<T, R>(path); }, comm);
  return scatter(h, root, comm);
}

}  // namespace sinter::mpi
