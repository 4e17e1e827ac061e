#pragma once
/// \file collective.hpp
/// Collectives sinter::mpi builds on: agreement on an error before any
/// communication (so a failure on one rank never leaves the others waiting),
/// allgather of spans in rank order, and gather/scatter of byte blocks.
#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "comm.hpp"
#include "exchange.hpp"

namespace sinter::mpi::detail {

/// The kinds of exception agree() reproduces on the ranks that did not fail.
enum class error_kind : std::int32_t {
  none, error, shape, value, index, device, io, out_of_memory, mpi, other
};

/// The kind of the exception in `e` and its message.
inline error_kind classify(const std::exception_ptr& e, std::string& what, std::uint64_t (&extra)[2]) {
  try {
    std::rethrow_exception(e);
  } catch (const out_of_memory& x) {
    what = x.what();
    extra[0] = x.requested;
    extra[1] = x.available;
    return error_kind::out_of_memory;
  } catch (const index_error& x) {
    what = x.what();
    return error_kind::index;
  } catch (const value_error& x) {
    what = x.what();
    return error_kind::value;
  } catch (const shape_error& x) {
    what = x.what();
    return error_kind::shape;
  } catch (const device_error& x) {
    what = x.what();
    return error_kind::device;
  } catch (const io_error& x) {
    what = x.what();
    return error_kind::io;
  } catch (const mpi_error& x) {
    what = x.what();
    return error_kind::mpi;
  } catch (const error& x) {
    what = x.what();
    return error_kind::error;
  } catch (const std::exception& x) {
    what = x.what();
    return error_kind::other;
  } catch (...) {
    what = "an exception that is not a std::exception";
    return error_kind::other;
  }
}

/// Throws the exception of kind k with message `what` (other: mpi_error).
[[noreturn]] inline void throw_kind(error_kind k, const std::string& what, const std::uint64_t (&extra)[2]) {
  switch (k) {
    case error_kind::shape: throw shape_error(what);
    case error_kind::value: throw value_error(what);
    case error_kind::index: throw index_error(what);
    case error_kind::device: throw device_error(what);
    case error_kind::io: throw io_error(what);
    case error_kind::out_of_memory:
      throw out_of_memory(what, static_cast<std::size_t>(extra[0]), static_cast<std::size_t>(extra[1]));
    case error_kind::error: throw error(what);
    default: throw mpi_error(what);
  }
}

/// Collective: every rank passes what it caught (or nullptr). If any rank
/// failed, every rank throws: a failing rank its own exception, the others
/// one of the same kind (sinter's exception types; any other exception as
/// mpi_error) whose message names the lowest failing rank and its message.
inline void agree(const communicator& comm, std::exception_ptr local_error) {
  require_mpi("agree");
  const int rank = comm.rank(), size = comm.size();
  const int mine = local_error ? rank : size;
  int first = size;
  check(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm.get()), "MPI_Allreduce (agree)");
  if (first == size) return;
  std::string what;
  std::uint64_t head[4] = {0, 0, 0, 0};  // kind, message length, out_of_memory's two sizes
  if (rank == first) {
    std::uint64_t extra[2] = {0, 0};
    head[0] = static_cast<std::uint64_t>(classify(local_error, what, extra));
    head[1] = what.size();
    head[2] = extra[0];
    head[3] = extra[1];
  }
  check(MPI_Bcast(head, 4, MPI_UINT64_T, first, comm.get()), "MPI_Bcast (agree)");
  what.resize(static_cast<std::size_t>(head[1]));
  if (!what.empty()) check(MPI_Bcast(what.data(), static_cast<int>(what.size()), MPI_CHAR, first, comm.get()), "MPI_Bcast (agree)");
  if (local_error) std::rethrow_exception(local_error);
  const std::uint64_t extra[2] = {head[2], head[3]};
  throw_kind(static_cast<error_kind>(head[0]), "sinter::mpi: rank " + std::to_string(first) + " of " +
                 std::to_string(size) + " failed: " + what, extra);
}

/// Prints "sinter: mpi: rank R: <what>; aborting" on stderr and calls
/// MPI_Abort: for an exception after communication started, when the other
/// ranks may already wait for this one (no collective can agree then).
[[noreturn]] inline void abort_rank(const communicator& comm, const std::exception_ptr& e) {
  std::string what;
  std::uint64_t extra[2] = {0, 0};
  classify(e, what, extra);
  const std::string line = "sinter: mpi: rank " + std::to_string(comm.rank()) + ": " + what + "; aborting\n";
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
  MPI_Abort(comm.get(), 1);
  std::abort();  // MPI_Abort does not return; said for the compiler
}

/// Runs f(), which starts communication or runs between a communication's
/// start and its end; with more than one rank, an exception from it aborts
/// every rank (abort_rank); with one, it propagates.
template <class F>
void or_abort(const communicator& comm, F&& f) {
  if (comm.size() == 1) return f();
  try {
    f();
  } catch (...) {
    abort_rank(comm, std::current_exception());
  }
}

/// Runs f() on every rank, then agree()s on whether it threw (collective).
template <class F>
void run_agreed(const communicator& comm, F&& f) {
  std::exception_ptr e;
  try {
    f();
  } catch (...) {
    e = std::current_exception();
  }
  agree(comm, e);
}

/// The byte counts of every rank, in rank order (collective).
inline std::vector<std::uint64_t> allgather_counts(const communicator& comm, std::uint64_t mine) {
  std::vector<std::uint64_t> all(static_cast<std::size_t>(comm.size()));
  check(MPI_Allgather(&mine, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, comm.get()), "MPI_Allgather");
  return all;
}

/// Whether every displacement fits MPI's int (one Gatherv/Scatterv suffices).
inline bool counts_fit(const std::vector<std::uint64_t>& counts, std::size_t max_message) {
  std::uint64_t total = 0;
  for (auto c : counts) total += c;
  return total <= std::uint64_t(INT_MAX) && total <= max_message;
}
/// Counts and displacements as MPI's ints.
inline void counts_as_ints(const std::vector<std::uint64_t>& counts, std::vector<int>& cnt, std::vector<int>& disp) {
  cnt.resize(counts.size());
  disp.resize(counts.size());
  int total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    cnt[r] = static_cast<int>(counts[r]);
    disp[r] = total;
    total += cnt[r];
  }
}

/// Each rank's bytes OR-ed into `out` on every rank (collective; a rank
/// leaves zeros where it has nothing): the elements each rank owns, shared.
inline void allreduce_or_bytes(const communicator& comm, const std::vector<unsigned char>& mine, void* out) {
  std::vector<unsigned char> all(mine.size());
  check(MPI_Allreduce(mine.data(), all.data(), static_cast<int>(mine.size()), MPI_BYTE, MPI_BOR, comm.get()),
        "MPI_Allreduce");
  if (!all.empty()) std::memcpy(out, all.data(), all.size());
}

/// Every rank's block (counts[r] bytes; `mine` this rank's), concatenated
/// in rank order into `global` on every rank (collective; counts may differ
/// and be zero; in place when `mine` is this rank's place in `global`; at
/// most 2 GiB in all, else mpi_error on every rank).
inline void allgather_bytes(const communicator& comm, const std::vector<std::uint64_t>& counts, const void* mine,
                            void* global) {
  require_mpi("allgather");
  if (!counts_fit(counts, std::size_t(INT_MAX))) throw mpi_error("sinter::mpi: allgather: more than 2 GiB in all; gather in parts");
  std::vector<int> cnt, disp;
  counts_as_ints(counts, cnt, disp);
  const auto r = static_cast<std::size_t>(comm.rank());
  const bool in_place = mine == static_cast<const unsigned char*>(global) + disp[r];
  check(MPI_Allgatherv(in_place ? MPI_IN_PLACE : mine, cnt[r], MPI_BYTE, global, cnt.data(), disp.data(), MPI_BYTE,
                       comm.get()),
        "MPI_Allgatherv");
}

/// Every rank's span, concatenated in rank order, on every rank (collective;
/// counts may differ and be zero; at most 2 GiB in all, else mpi_error on every rank).
template <class T>
std::vector<T> allgather(const communicator& comm, std::span<const T> mine) {
  static_assert(std::is_trivially_copyable_v<T>, "sinter::mpi::detail::allgather: T must be trivially copyable");
  require_mpi("allgather");
  const auto counts = allgather_counts(comm, mine.size_bytes());
  std::uint64_t total = 0;
  for (auto c : counts) total += c;
  std::vector<T> out(total <= std::uint64_t(INT_MAX) ? static_cast<std::size_t>(total / sizeof(T)) : 0);
  allgather_bytes(comm, counts, mine.data(), out.data());
  return out;
}

/// One value of every rank, in rank order (collective).
template <class T>
std::vector<T> allgather(const communicator& comm, const T& mine) {
  return allgather(comm, std::span<const T>(&mine, 1));
}

/// Gathers every rank's block of `bytes` bytes to `root`, which receives
/// them in rank order, contiguous from `global` (ignored elsewhere).
/// Collective. Above max_message bytes in all, point-to-point messages of
/// at most max_message bytes replace one Gatherv (MPI's counts are int).
inline void gather_rows(const communicator& comm, int root, const void* local, std::size_t bytes, void* global,
                        std::size_t max_message = max_message_bytes) {
  require_mpi("gather_rows");
  const int rank = comm.rank();
  const auto counts = allgather_counts(comm, bytes);
  if (max_message == 0 || max_message > std::size_t(INT_MAX)) max_message = max_message_bytes;
  if (counts_fit(counts, max_message)) {
    std::vector<int> cnt, disp;
    counts_as_ints(counts, cnt, disp);
    check(MPI_Gatherv(local, static_cast<int>(bytes), MPI_BYTE, global, cnt.data(), disp.data(), MPI_BYTE, root,
                      comm.get()),
          "MPI_Gatherv");
    return;
  }
  exchange_plan plan;  // one message per rank pair, split by start_exchange
  plan.tag = 0x51e8;
  if (rank == root) {
    auto* out = static_cast<unsigned char*>(global);
    for (std::size_t r = 0; r < counts.size(); ++r) {
      const auto n = static_cast<std::size_t>(counts[r]);
      if (static_cast<int>(r) == root && n > 0) std::memcpy(out, local, n);
      else if (n > 0) plan.receives.push_back({static_cast<int>(r), out, n});
      out += n;
    }
  } else if (bytes > 0) {
    plan.sends.push_back({root, local, bytes});
  }
  start_exchange(comm, std::move(plan), max_message).wait();
}

/// The reverse of gather_rows: `root` sends each rank its block of the
/// contiguous `global` (rank order), which lands in `local` (`bytes` bytes,
/// this rank's own count). Collective.
inline void scatter_rows(const communicator& comm, int root, const void* global, void* local, std::size_t bytes,
                         std::size_t max_message = max_message_bytes) {
  require_mpi("scatter_rows");
  const int rank = comm.rank();
  const auto counts = allgather_counts(comm, bytes);
  if (max_message == 0 || max_message > std::size_t(INT_MAX)) max_message = max_message_bytes;
  if (counts_fit(counts, max_message)) {
    std::vector<int> cnt, disp;
    counts_as_ints(counts, cnt, disp);
    check(MPI_Scatterv(global, cnt.data(), disp.data(), MPI_BYTE, local, static_cast<int>(bytes), MPI_BYTE, root,
                       comm.get()),
          "MPI_Scatterv");
    return;
  }
  exchange_plan plan;  // one message per rank pair, split by start_exchange
  plan.tag = 0x51e9;
  if (rank == root) {
    const auto* in = static_cast<const unsigned char*>(global);
    for (std::size_t r = 0; r < counts.size(); ++r) {
      const auto n = static_cast<std::size_t>(counts[r]);
      if (static_cast<int>(r) == root && n > 0) std::memcpy(local, in, n);
      else if (n > 0) plan.sends.push_back({static_cast<int>(r), in, n});
      in += n;
    }
  } else if (bytes > 0) {
    plan.receives.push_back({root, local, bytes});
  }
  start_exchange(comm, std::move(plan), max_message).wait();
}

}  // namespace sinter::mpi::detail
