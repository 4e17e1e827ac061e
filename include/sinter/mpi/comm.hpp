#pragma once
/// \file comm.hpp
/// sinter::mpi's base: the communicator handle, MPI's start and end, the
/// error type, MPI datatypes of sinter's element types and the exchange
/// statistics the trace reports. Needs <mpi.h> (link the CMake target
/// sinter::mpi); the core never includes this folder.
// MPI-2's C++ bindings are deprecated and warn under -Wconversion; sinter uses the C API.
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "../core/dtype.hpp"
#include "../core/error.hpp"
#include "../core/half.hpp"

namespace sinter::mpi {

/// An MPI call that failed, or MPI used before it was initialised; every
/// rank that sees it throws it. `code` is MPI's error code (0 when none).
struct mpi_error : error {
  int code = 0;  ///< the MPI error code, 0 for errors sinter detected itself
  /// The message, and MPI's error code when MPI reported one.
  explicit mpi_error(const std::string& what, int mpi_code = 0) : error(what), code(mpi_code) {}
};

namespace detail {

/// Whether MPI_Init has run and MPI_Finalize has not.
inline bool mpi_active() {
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  return init != 0 && fin == 0;
}

/// Throws mpi_error naming `what` when MPI is not initialised (or already finalised).
inline void require_mpi(const char* what) {
  if (!mpi_active())
    throw mpi_error(std::string("sinter::mpi: ") + what +
                    ": MPI is not initialised; create a sinter::mpi::environment (or call "
                    "MPI_Init) first");
}

/// Throws mpi_error naming `what` and MPI's message when `rc` is not MPI_SUCCESS.
inline void check(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) len = 0;
  throw mpi_error(std::string("sinter::mpi: ") + what + ": " + std::string(text, std::size_t(len > 0 ? len : 0)) +
                      "; check the MPI installation and that every rank made the same call",
                  rc);
}

}  // namespace detail

/// A communicator handle (not owning: the MPI_Comm stays the caller's to
/// free). The default is MPI_COMM_WORLD; rank() and size() ask MPI each
/// time, so a communicator may be made before MPI_Init.
class communicator {
 public:
  /// MPI_COMM_WORLD.
  communicator() noexcept : comm_(MPI_COMM_WORLD) {}
  /// Wraps `c` (not duplicated, not freed).
  explicit communicator(MPI_Comm c) noexcept : comm_(c) {}

  /// This process's rank in the communicator.
  int rank() const {
    detail::require_mpi("communicator::rank");
    int r = 0;
    detail::check(MPI_Comm_rank(comm_, &r), "MPI_Comm_rank");
    return r;
  }
  /// The number of ranks in the communicator.
  int size() const {
    detail::require_mpi("communicator::size");
    int s = 0;
    detail::check(MPI_Comm_size(comm_, &s), "MPI_Comm_size");
    return s;
  }
  /// The MPI_Comm handle.
  MPI_Comm get() const noexcept { return comm_; }
  /// Waits until every rank of the communicator has called it.
  void barrier() const {
    detail::require_mpi("communicator::barrier");
    detail::check(MPI_Barrier(comm_), "MPI_Barrier");
  }

  /// Whether both wrap the same handle (not MPI_Comm_compare's congruence).
  friend bool operator==(const communicator& a, const communicator& b) noexcept { return a.comm_ == b.comm_; }

 private:
  MPI_Comm comm_;
};

/// MPI's lifetime: initialises MPI (MPI_Init_thread, MPI_THREAD_FUNNELED:
/// only the thread that made it calls MPI; par's pool threads never do)
/// unless it is already initialised, and finalises it on destruction only
/// if this object initialised it.
class environment {
 public:
  /// Initialises MPI with the program's arguments.
  environment(int& argc, char**& argv) { init(&argc, &argv); }
  /// Initialises MPI without arguments.
  environment() { init(nullptr, nullptr); }
  environment(const environment&) = delete;
  environment& operator=(const environment&) = delete;
  ~environment() {
    int fin = 0;
    MPI_Finalized(&fin);
    if (owns_ && fin == 0) MPI_Finalize();
  }
  /// Whether this object called MPI_Init_thread (and will call MPI_Finalize).
  bool owns() const noexcept { return owns_; }
  /// The thread support MPI granted (MPI_THREAD_SINGLE ... MPI_THREAD_MULTIPLE).
  int thread_level() const noexcept { return provided_; }

 private:
  void init(int* argc, char*** argv) {
    int init = 0;
    MPI_Initialized(&init);
    if (init != 0) {
      MPI_Query_thread(&provided_);
      return;
    }
    detail::check(MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided_), "MPI_Init_thread");
    owns_ = true;
  }
  bool owns_ = false;
  int provided_ = MPI_THREAD_SINGLE;
};

namespace detail {

/// The MPI datatype of element type T (half and bfloat16 as 16-bit unsigned
/// bit patterns: move them, never reduce them with MPI's operators).
template <class T>
MPI_Datatype mpi_type() {
  static_assert(element<T>, "sinter::mpi::detail::mpi_type: T must be a sinter element type");
  if constexpr (std::is_same_v<T, bool>) return MPI_CXX_BOOL;
  else if constexpr (is_half_like_v<T>) return MPI_UINT16_T;
  else if constexpr (std::is_same_v<T, float>) return MPI_FLOAT;
  else if constexpr (std::is_same_v<T, double>) return MPI_DOUBLE;
  else if constexpr (std::is_signed_v<T>) {
    if constexpr (sizeof(T) == 1) return MPI_INT8_T;
    else if constexpr (sizeof(T) == 2) return MPI_INT16_T;
    else if constexpr (sizeof(T) == 4) return MPI_INT32_T;
    else return MPI_INT64_T;
  } else {
    if constexpr (sizeof(T) == 1) return MPI_UINT8_T;
    else if constexpr (sizeof(T) == 2) return MPI_UINT16_T;
    else if constexpr (sizeof(T) == 4) return MPI_UINT32_T;
    else return MPI_UINT64_T;
  }
}

/// What this process's exchanges moved since the last reset (the trace's
/// "bytes exchanged per pass"); updated by the thread that calls MPI.
struct exchange_counters {
  std::uint64_t bytes_sent = 0;      ///< payload bytes of posted sends
  std::uint64_t bytes_received = 0;  ///< payload bytes of posted receives
  std::uint64_t messages = 0;        ///< sends and receives posted
  /// Sets every count to zero.
  void reset() noexcept { *this = exchange_counters{}; }
};

/// The process's exchange counters.
inline exchange_counters& exchange_stats() noexcept {
  static exchange_counters c;
  return c;
}

}  // namespace detail
}  // namespace sinter::mpi
