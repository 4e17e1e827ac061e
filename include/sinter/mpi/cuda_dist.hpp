#pragma once
/// \file mpi/cuda_dist.hpp
/// What dist<cuda> does beyond passes (files compiled as CUDA only): full
/// reductions (the cuda engine on this rank's rows, the per-rank partials
/// all-gathered and combined in rank order: bitwise the same run to run for
/// a given rank count, not across rank counts), reductions along axes (the
/// host blocks' reducer on host copies: mpi/staged_reduce.hpp), and
/// everything that moves rows to or from the host through host copies of
/// the owned rows: to<host>, printing, gather, allgather, save_npy, scatter.
/// Sorting is refused (value_error on every rank); scans along axes after
/// the first run each rank's rows on the cuda engine (mpi/unsupported.hpp).
#include <cstring>
#include <span>
#include <vector>

#include "../reduce.hpp"
#include "cuda_region.hpp"
#include "dist_array.hpp"
#include "reduce.hpp"
#include "staged_reduce.hpp"
#include "unsupported.hpp"

namespace sinter::mpi::detail {

/// A bound node seen as an expression (what reducer<cuda>::full reads:
/// value_type, shape, size, node().bind), for a restricted tree.
template <class Node, std::size_t R>
struct bound_expr {
  using value_type = typename Node::value_type;
  static constexpr std::size_t rank = R;
  struct holder {
    Node n;
    const Node& bind(const extents<R>&) const { return n; }
  };
  holder h;
  extents<R> s;
  const holder& node() const { return h; }
  const extents<R>& shape() const { return s; }
  index_t size() const { return sinter::detail::shape_size(s); }
};

/// This rank's owned rows of a dist<cuda> region, copied to host memory.
inline std::vector<unsigned char> owned_to_host(const region& g, const cuda& c) {
  std::vector<unsigned char> h(static_cast<std::size_t>(g.e - g.b) * g.row_bytes);
  if (h.empty()) return h;
  sinter::detail::cuda_detail::check(cudaSetDevice(c.device), "cudaSetDevice");
  sinter::detail::cuda_detail::check(
      cudaMemcpyAsync(h.data(), owned_start(g), h.size(), cudaMemcpyDeviceToHost, c.stream),
      "cudaMemcpyAsync (distributed rows to host)");
  sinter::detail::cuda_detail::check(cudaStreamSynchronize(c.stream), "cudaStreamSynchronize");
  return h;
}

/// Every row of dist<cuda> region g into host memory dst, on every rank (collective).
inline void allgather_cuda_region(const region& g, const cuda& c, void* dst) {
  if (g.bytes == 0) return;
  if (g.replicated) {
    sinter::detail::cuda_detail::check(
        cudaMemcpy(dst, reinterpret_cast<const void*>(g.base), g.bytes, cudaMemcpyDeviceToHost),
        "cudaMemcpy (distributed array to host)");
    return;
  }
  const auto mine = owned_to_host(g, c);
  allgather_bytes(communicator(g.comm), owned_bytes(g), mine.data(), dst);
}

}  // namespace sinter::mpi::detail

namespace sinter::detail {

/// Reductions of dist<cuda> expressions (see the file comment).
template <>
struct reducer<mpi::dist<cuda>> {
  template <class Op, class E>
  static auto full(const mpi::dist<cuda>& pol, const E& e) {
    static_assert(E::rank >= 1, "sinter::mpi: a distributed expression has at least one axis");
    using V = typename E::value_type;
    using A = typename Op::template acc_t<V>;
    if (e.size() == 0) return Op::template identity<V>();
    const auto bound = e.node().bind(e.shape());
    std::vector<mpi::detail::leaf_rows> leaves;
    mpi::detail::collect_leaves(bound, pol.comm.get(), leaves);
    const mpi::detail::reduce_rows rows{mpi::detail::row_leaf(leaves), e.shape()[0], pol.comm.size()};
    mpi::detail::start_exchange(pol.comm, mpi::detail::halo_of(mpi::detail::needs_of(leaves, rows))).wait();
    const auto [lo, hi] = rows.of(pol.comm.rank());
    A mine = Op::template identity<V>();
    if (hi > lo) {
      auto part = e.shape();
      part[0] = hi - lo;
      using B = decltype(mpi::detail::restrict_rows(bound, lo, hi - lo));
      const mpi::detail::bound_expr<B, E::rank> local{{mpi::detail::restrict_rows(bound, lo, hi - lo)}, part};
      mine = reducer<cuda>::template full<Op>(pol.local, local);
    }
    const auto all = mpi::detail::allgather(pol.comm, mine);  // one partial per rank, in rank order
    return reduce_host::combine_partials<Op>(all.data(), all.size());
  }
  /// Along axes: reducer<dist<host>> on host copies of the arrays read
  /// (staged_along), so bitwise the single-process host result; the copy of
  /// this rank's rows to the host is the cost. Local cuda arrays are copied whole.
  template <class Op, class Res, class Node, std::size_t RP, class Finish>
  static void along(const mpi::dist<cuda>& pol, Res* out, const Node& permuted, const extents<RP>& pshape,
                    index_t outputs, index_t len, Finish finish) {
    const cuda c = pol.local;
    const auto fetch = [c](void* dst, const void* src, std::size_t bytes) {
      cuda_detail::check(cudaSetDevice(c.device), "cudaSetDevice");
      cuda_detail::check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, c.stream),
                         "cudaMemcpyAsync (a local array to the host)");
      cuda_detail::check(cudaStreamSynchronize(c.stream), "cudaStreamSynchronize");
    };
    mpi::detail::staged_along<Op>(pol.comm, out, permuted, pshape, outputs, len, finish, fetch);
  }
};

/// dist<cuda>: every whole-array operation refused, sorting along any axis
/// too (whole_array_ops<dist<L>>'s row sort is a host loop).
template <>
struct whole_array_ops<mpi::dist<cuda>> {
  /// Throws value_error naming `name` (on every rank).
  static void check(const char* name) { mpi::detail::refuse_op(name); }
  /// Refuses sorting a dist<cuda> array along any axis.
  static void check_sort(std::size_t) { mpi::detail::refuse_op("sinter::sort of a dist<cuda> array"); }
  /// Refuses sorting a dist<cuda> array along any axis.
  template <class T, std::size_t R>
  static void sort_rows(const view<T, R, mpi::dist<cuda>>&, std::size_t a) {
    check_sort(a);
  }
};

/// A dist<cuda> expression into host memory: evaluated as a distributed
/// array, its rows copied to the host and all-gathered (collective).
template <>
struct transfer<mpi::dist<cuda>, host_space> {
  template <class PD, class T, std::size_t R, class E, class Passes>
  static void copy(const PD& dst, const memory_leaf<T, R>& out, const E& src, const mpi::dist<cuda>& spol,
                   const Passes& passes) {
    using U = typename E::value_type;
    array<U, E::rank, mpi::dist<cuda>> staged(src.shape(), spol);
    assign(spol, staged.leaf(), src);
    host_scratch<U> all(staged.size());
    if (staged.size() > 0) mpi::detail::allgather_cuda_region(mpi::detail::whole_region(staged), spol.local, all.ptr);
    passes.run_dense(dst, out, static_cast<const U*>(all.ptr), src.shape());
  }
};

/// A host expression (the same on every rank) into a whole dist<cuda>
/// array: evaluated on the host, each rank copying its rows to the device.
template <>
struct transfer<host_space, mpi::dist<cuda>> {
  template <class T, std::size_t R, class E, class PS, class Passes>
  static void copy(const mpi::dist<cuda>& dst, const memory_leaf<T, R>& out, const E& src, const PS&, const Passes&) {
    mpi::detail::region* g = mpi::detail::find_region(out.ptr);
    const auto bytes = static_cast<std::size_t>(shape_size(out.shape)) * sizeof(T);
    if (!g || reinterpret_cast<std::uintptr_t>(out.ptr) != g->base || bytes != g->bytes ||
        !is_row_major(out.shape, out.strides))
      mpi::detail::refuse("host data into part of a dist<cuda> array; copy into a whole array");
    array<T, R, host> h(src);
    if (bytes == 0) return;
    if (g->n0 < 0) mpi::detail::set_rows(*g, out.shape[0]);
    g->replicated = false;
    const std::size_t n = static_cast<std::size_t>(g->e - g->b) * g->row_bytes;
    if (n == 0) return;
    sinter::detail::cuda_detail::check(cudaSetDevice(dst.local.device), "cudaSetDevice");
    sinter::detail::cuda_detail::check(cudaMemcpyAsync(mpi::detail::owned_start(*g),
                                       reinterpret_cast<const unsigned char*>(h.data()) + g->b * g->row_bytes, n,
                                       cudaMemcpyHostToDevice, dst.local.stream),
                       "cudaMemcpyAsync (host rows to a distributed array)");
    sinter::detail::cuda_detail::check(cudaStreamSynchronize(dst.local.stream), "cudaStreamSynchronize");
  }
};

/// Printing a dist<cuda> array: each rank copies the shown elements it owns
/// from the device (collective, as for host blocks).
template <>
struct device_gather<mpi::dist<cuda>> {
  template <class T>
  static void gather(const mpi::dist<cuda>& p, const T* ptr, std::span<const index_t> offsets, T* values) {
    mpi::detail::region* g = mpi::detail::find_region(ptr);
    std::vector<index_t> mine_at;
    std::vector<std::size_t> slot;
    for (std::size_t i = 0; i != offsets.size(); ++i) {
      const auto at = reinterpret_cast<std::uintptr_t>(ptr + offsets[i]);
      const auto row = g->row_of(static_cast<std::size_t>(at - g->base));
      if (g->replicated ? g->rank == 0 : (row >= g->b && row < g->e)) {
        mine_at.push_back(offsets[i]);
        slot.push_back(i);
      }
    }
    std::vector<T> got(mine_at.size());
    if (!got.empty()) {
      device_gather<cuda>::gather(p.local, ptr, std::span<const index_t>(mine_at), got.data());
      synchronize(p.local);
    }
    std::vector<unsigned char> mine(offsets.size() * sizeof(T), 0);
    for (std::size_t k = 0; k != slot.size(); ++k) std::memcpy(&mine[slot[k] * sizeof(T)], &got[k], sizeof(T));
    mpi::detail::allreduce_or_bytes(p.comm, mine, static_cast<void*>(values));
  }
};

}  // namespace sinter::detail

namespace sinter::mpi {

/// The whole dist<cuda> array as a host array on `root` (collective, through
/// host copies of each rank's rows); the other ranks get an empty array.
template <class T, std::size_t R>
array<T, R, host> gather(const array<T, R, dist<cuda>>& x, int root = 0) {
  const communicator comm = x.policy().comm;
  const bool here = comm.rank() == root;
  array<T, R, host> out(here ? x.shape() : extents<R>{});
  if (x.size() == 0) return out;
  detail::region& g = detail::whole_region(x);
  if (g.replicated) {
    if (here) detail::allgather_cuda_region(g, x.policy().local, out.data());
    return out;
  }
  const auto mine = detail::owned_to_host(g, x.policy().local);
  detail::gather_rows(comm, root, mine.data(), mine.size(), here ? static_cast<void*>(out.data()) : nullptr);
  return out;
}

/// The whole dist<cuda> array as a host array on every rank (collective).
template <class T, std::size_t R>
array<T, R, host> allgather(const array<T, R, dist<cuda>>& x) {
  array<T, R, host> out(x.shape());
  if (x.size() > 0) detail::allgather_cuda_region(detail::whole_region(x), x.policy().local, out.data());
  return out;
}

/// Distributes root's host array over comm into cuda blocks on `local`
/// (collective; the shape is root's): `mpi::scatter(h, 0, {}, sinter::cuda{0})`.
template <class T, std::size_t R, class P>
dist_array<T, R, cuda> scatter(const array<T, R, P>& x, int root, communicator comm, cuda local) {
  extents<R> shape = x.shape();
  if constexpr (R > 0)
    detail::check(MPI_Bcast(shape.data(), static_cast<int>(R), MPI_INT64_T, root, comm.get()), "MPI_Bcast");
  auto out = empty<T, cuda>(shape, comm, local);
  if (out.size() == 0) return out;
  detail::region& g = detail::whole_region(out);
  std::vector<unsigned char> mine(detail::owned_bytes(g)[static_cast<std::size_t>(g.rank)]);
  detail::scatter_rows(comm, root, g.rank == root ? static_cast<const void*>(x.data()) : nullptr, mine.data(),
                       mine.size());
  if (!mine.empty()) {
    sinter::detail::cuda_detail::check(cudaSetDevice(local.device), "cudaSetDevice");
    sinter::detail::cuda_detail::check(
        cudaMemcpyAsync(detail::owned_start(g), mine.data(), mine.size(), cudaMemcpyHostToDevice, local.stream),
        "cudaMemcpyAsync (scattered rows to the device)");
    synchronize(local);
  }
  return out;
}

}  // namespace sinter::mpi
