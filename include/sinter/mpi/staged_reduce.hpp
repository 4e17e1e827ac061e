#pragma once
/// \file mpi/staged_reduce.hpp
/// Reductions along axes of expressions over device blocks (dist<cuda>),
/// run by the host blocks' reducer: each distributed device array the
/// expression reads gets a host mirror (a host region of the same layout,
/// this rank's rows copied from the device through the region's stager),
/// each local device array a host copy, and the tree with its leaves moved
/// to those copies is reduced by reducer<dist<host>>::along, so the result
/// is bitwise the single-process host one; it is then copied, whole, into
/// the device result on every rank. No CUDA here (mpi/cuda_dist.hpp passes
/// the copy of local device arrays), so the tests run it with stand-ins.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "reduce.hpp"

namespace sinter::mpi::detail {

/// The tree `n` with every memory leaf's pointer p replaced by to(p, leaf)
/// (a leaf of no element keeps its pointer); generators and scalars stay.
template <class N, class F>
N move_leaves(const N& n, const F& to);
template <class N, class F, std::size_t... I>
N move_children(const N& n, const F& to, std::index_sequence<I...>) {
  return N{n.fn(), sinter::detail::make_pack(move_leaves(sinter::detail::get<I>(n.args), to)...), n.shape};
}
template <class N, class F>
N move_leaves(const N& n, const F& to) {
  if constexpr (requires { n.args; }) {
    return move_children(n, to, std::make_index_sequence<sinter::detail::pack_size_v<decltype(n.args)>>{});
  } else if constexpr (requires { n.ptr; }) {
    N m = n;
    if (sinter::detail::shape_size(m.shape) != 0) m.ptr = reinterpret_cast<decltype(m.ptr)>(to(m));
    return m;
  } else {
    return n;
  }
}

/// The host copies of the device memory one staged reduction reads: a
/// host region per distributed device array, a buffer per local device
/// array (bytes [lo, hi)); the regions are released at destruction.
class host_copies {
 public:
  /// Copies for a reduction over `comm`.
  explicit host_copies(communicator comm) : comm_(comm) {}
  host_copies(const host_copies&) = delete;
  host_copies& operator=(const host_copies&) = delete;
  ~host_copies() {
    for (auto& m : mirrors_) release_region(m.second);
  }

  /// Notes every device leaf of `bound` (no communication; the same on every
  /// rank). Refuses, on every rank alike, generators that read memory (their
  /// pointers cannot be moved), arrays of another communicator, and arrays
  /// read before they were written.
  template <class Node>
  void note(const Node& bound) {
    sinter::detail::for_each_leaf(bound, [&](const auto& l) {
      using L = std::remove_cvref_t<decltype(l)>;
      if constexpr (sinter::detail::is_memory_leaf<L>::value) {
        if (sinter::detail::shape_size(l.shape) == 0) return;
        region* g = find_region(l.ptr);
        if (g && !g->backing) return;  // host memory: read where it is
        if (!g) return note_local(sinter::detail::byte_range(l));
        if (g->comm != comm_.get()) refuse("operands are distributed over different communicators; redistribute one");
        if (g->n0 < 0 && !g->replicated) refuse("a distributed array is read before it was written; fill it first");
        for (const auto& m : mirrors_)
          if (m.first == g) return;
        mirrors_.push_back({g, nullptr});
      } else if constexpr (requires { l.gen.touches(std::uintptr_t{}, std::uintptr_t{}); }) {
        refuse("roll, pad, take, take_along_axis, concatenate or stack in a reduction along axes of a "
               "dist<cuda> expression; evaluate it into a dist<cuda> array first");
      }
    });
  }

  /// Reserves the host regions (collective), then copies this rank's rows
  /// of each device array (every row of a replicated one) and the local
  /// arrays (fetch(dst, src, bytes)) to the host, failures agreed.
  template <class Fetch>
  void copy(const Fetch& fetch) {
    for (auto& m : mirrors_) m.second = reserve_region(comm_, m.first->bytes);
    run_agreed(comm_, [&] {
      for (auto& m : mirrors_) {
        const region& g = *m.first;
        region& h = *find_region(m.second);
        if (g.n0 >= 0) set_rows(h, g.n0);
        std::size_t lo = static_cast<std::size_t>(g.b) * g.row_bytes, hi = static_cast<std::size_t>(g.e) * g.row_bytes;
        if (g.replicated) {
          commit_whole(h);
          lo = 0;
          hi = g.bytes;
        }
        if (hi <= lo) continue;
        g.backing->staging()->to_host(static_cast<unsigned char*>(m.second) + lo,
                                      reinterpret_cast<const void*>(g.base + lo), hi - lo);
        g.backing->staging()->sync();
      }
      for (auto& c : locals_) {
        c.host = std::make_unique<unsigned char[]>(c.hi - c.lo);
        fetch(static_cast<void*>(c.host.get()), reinterpret_cast<const void*>(c.lo), c.hi - c.lo);
      }
    });
  }

  /// The host address of device address p, read by memory leaf l (noted).
  template <class Leaf>
  std::uintptr_t where(const Leaf& l) const {
    const auto p = reinterpret_cast<std::uintptr_t>(l.ptr);
    const region* g = find_region(l.ptr);
    if (g && !g->backing) return p;
    if (g) {
      for (const auto& m : mirrors_)
        if (m.first == g) return reinterpret_cast<std::uintptr_t>(m.second) + (p - g->base);
    }
    const auto [lo, hi] = sinter::detail::byte_range(l);
    for (const auto& c : locals_)
      if (c.lo <= lo && hi <= c.hi) return reinterpret_cast<std::uintptr_t>(c.host.get()) + (p - c.lo);
    refuse("a reduction read memory it did not copy");  // not reached: note saw every leaf
  }

 private:
  struct local_copy {
    std::uintptr_t lo, hi;
    std::unique_ptr<unsigned char[]> host;
  };
  void note_local(std::pair<std::uintptr_t, std::uintptr_t> r) {
    for (const auto& c : locals_)
      if (c.lo <= r.first && r.second <= c.hi) return;
    locals_.push_back({r.first, r.second, nullptr});
  }
  communicator comm_;
  std::vector<std::pair<region*, void*>> mirrors_;  ///< device region, its host mirror's base
  std::vector<local_copy> locals_;
};

/// reducer<dist<L>>::along for a device policy (see the file comment):
/// out[o] = finish(fold of output o), `out` in a device region (its
/// backing's stager copies the result in), complete on every rank;
/// fetch(dst, src, bytes) copies a local device array to the host.
template <class Op, class R, class Node, std::size_t RP, class Finish, class Fetch>
void staged_along(const communicator& comm, R* out, const Node& permuted, const extents<RP>& pshape,
                  index_t outputs, index_t len, Finish finish, const Fetch& fetch) {
  region* og = find_region(out);
  if (!og || !og->backing) refuse("a reduction into memory that is not a distributed device array's");
  host_copies copies(comm);
  copies.note(permuted);
  void* hout = reserve_region(comm, og->bytes);
  struct release_out {
    void* p;
    ~release_out() { release_region(p); }
  } out_guard{hout};
  copies.copy(fetch);
  run_agreed(comm, [&] {  // the device result whole on every rank, as reducer<dist<L>> makes it
    if (og->chi - og->clo != og->reserved) og->backing->commit(og->base, 0, og->reserved, og->clo, og->chi);
    og->clo = 0;
    og->chi = og->reserved;
    og->replicated = true;
  });
  const std::size_t at = reinterpret_cast<std::uintptr_t>(out) - og->base;
  R* host_out = reinterpret_cast<R*>(static_cast<unsigned char*>(hout) + at);
  const Node moved = move_leaves(permuted, [&copies](const auto& l) { return copies.where(l); });
  sinter::detail::reducer<dist<host>>::template along<Op>(dist<host>{comm, host{}}, host_out, moved, pshape, outputs,
                                                          len, finish);
  if (outputs == 0) return;
  run_agreed(comm, [&] {
    og->backing->staging()->to_device(out, host_out, static_cast<std::size_t>(outputs) * sizeof(R));
    og->backing->staging()->sync();
  });
}

}  // namespace sinter::mpi::detail
