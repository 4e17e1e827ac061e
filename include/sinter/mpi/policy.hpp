#pragma once
/// \file mpi/policy.hpp
/// sinter::mpi::dist<Local>: the policy of a distributed array. An array of
/// this policy has the GLOBAL shape and row-major strides; its rows (axis
/// 0) are block-distributed over a communicator (mpi/blocks.hpp) and each
/// rank's block lives in the memory, and runs on the engine, of the local
/// policy (host, par, or cuda: mpi/cuda_region.hpp). The data pointer is a
/// real address in a range reserved for the whole array (mpi/region.hpp),
/// so views, slicing, broadcasting and the alias check work on it unchanged.
#include <cstddef>
#include <string>

#include "../array.hpp"
#include "../policy/backend.hpp"
#include "../policy/host.hpp"
#include "../policy/par.hpp"
#include "comm.hpp"

namespace sinter::mpi {

/// The distributed policy: rows block-distributed over `comm`, each rank's
/// block on the local policy `local`: `sinter::zeros<float>({n, m}, sinter::mpi::dist<>{})`.
template <class Local = host>
struct dist {
  /// The local policy type (host, par, or cuda in files compiled by nvcc).
  using local_policy = Local;
  communicator comm{};  ///< the ranks sharing the array (default MPI_COMM_WORLD)
  Local local{};        ///< the policy each rank's block runs on
  /// Same communicator and local policy.
  friend bool operator==(const dist& a, const dist& b) { return a.comm == b.comm && a.local == b.local; }
};

/// A distributed array: an ordinary sinter::array of global shape whose
/// rows are spread over the ranks (`sinter::mpi::dist_array<float, 2> u = ...`).
template <class T, std::size_t R, class Local = host>
using dist_array = sinter::array<T, R, dist<Local>>;

/// Whether P is a distributed policy.
template <class P>
inline constexpr bool is_dist_v = false;
template <class L>
inline constexpr bool is_dist_v<dist<L>> = true;

}  // namespace sinter::mpi

namespace sinter::detail {

/// A distributed expression may read local arrays of its local policy
/// (replicated on every rank, read as they are): the mix is distributed.
template <class L>
struct mixed_policy<mpi::dist<L>, L> {
  using type = mpi::dist<L>;
};
template <class L>
struct mixed_policy<L, mpi::dist<L>> {
  using type = mpi::dist<L>;
};

}  // namespace sinter::detail
