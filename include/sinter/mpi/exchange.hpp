#pragma once
/// \file exchange.hpp
/// Non-blocking exchange of byte ranges between ranks, and the plan of a
/// halo exchange: which rows of a block-distributed region each rank sends
/// and receives so that every rank holds the rows its pass reads.
#include <algorithm>
#include <climits>
#include <cstddef>
#include <utility>
#include <vector>

#include "blocks.hpp"
#include "comm.hpp"

namespace sinter::mpi::detail {

/// Bytes of one MPI message at most: MPI counts are int, so larger ranges
/// go as several messages (which MPI delivers in order).
inline constexpr std::size_t max_message_bytes = std::size_t(1) << 30;

/// A range of bytes to send to `peer`.
struct send_item {
  int peer;           ///< destination rank
  const void* data;   ///< first byte
  std::size_t bytes;  ///< length
};

/// A range of bytes to receive from `peer`.
struct recv_item {
  int peer;           ///< source rank
  void* data;         ///< first byte
  std::size_t bytes;  ///< length
};

/// What one exchange moves. Between two ranks, the k-th send of one is
/// matched with the k-th receive of the other (same tag, MPI's order).
struct exchange_plan {
  std::vector<send_item> sends;     ///< ranges this rank sends
  std::vector<recv_item> receives;  ///< ranges this rank receives
  int tag = 0x51e7;                 ///< MPI tag of its messages
  /// Bytes this rank sends.
  std::size_t bytes_sent() const noexcept {
    std::size_t s = 0;
    for (const auto& x : sends) s += x.bytes;
    return s;
  }
  /// Bytes this rank receives.
  std::size_t bytes_received() const noexcept {
    std::size_t s = 0;
    for (const auto& x : receives) s += x.bytes;
    return s;
  }
};

/// An exchange in flight: wait() (or the destructor) completes it. Until
/// then the sent ranges must not change and the received ones not be read.
class pending {
 public:
  pending() = default;
  /// Takes over the requests of a started exchange.
  explicit pending(std::vector<MPI_Request> r) noexcept : requests_(std::move(r)) {}
  pending(pending&& o) noexcept : requests_(std::move(o.requests_)) { o.requests_.clear(); }
  pending& operator=(pending&& o) noexcept {
    if (this != &o) {
      finish_quietly();
      requests_ = std::move(o.requests_);
      o.requests_.clear();
    }
    return *this;
  }
  pending(const pending&) = delete;
  pending& operator=(const pending&) = delete;
  ~pending() { finish_quietly(); }

  /// Blocks until every send and receive of the exchange has completed.
  void wait() {
    if (requests_.empty()) return;
    std::vector<MPI_Request> r = std::move(requests_);
    requests_.clear();
    check(MPI_Waitall(static_cast<int>(r.size()), r.data(), MPI_STATUSES_IGNORE), "MPI_Waitall (exchange)");
  }

 private:
  void finish_quietly() noexcept {
    if (requests_.empty() || !mpi_active()) return;
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
    requests_.clear();
  }
  std::vector<MPI_Request> requests_;
};

/// Posts every receive, then every send of `plan` (ranges above
/// `max_message` bytes as several messages) and returns at once; the
/// exchange counters (exchange_stats) grow by what was posted. A failed
/// post throws mpi_error only under an MPI error handler that returns
/// (MPI's default aborts every rank).
inline pending start_exchange(const communicator& comm, exchange_plan&& plan,
                              std::size_t max_message = max_message_bytes) {
  require_mpi("start_exchange");
  if (max_message == 0 || max_message > std::size_t(INT_MAX)) max_message = max_message_bytes;
  std::vector<MPI_Request> req;
  req.reserve(plan.sends.size() + plan.receives.size());
  auto& stats = exchange_stats();
  for (const auto& r : plan.receives) {
    auto* d = static_cast<unsigned char*>(r.data);
    for (std::size_t o = 0; o < r.bytes; o += max_message) {
      req.emplace_back();
      const int n = static_cast<int>(std::min(max_message, r.bytes - o));
      check(MPI_Irecv(d + o, n, MPI_BYTE, r.peer, plan.tag, comm.get(), &req.back()), "MPI_Irecv");
      ++stats.messages;
    }
    stats.bytes_received += r.bytes;
  }
  for (const auto& s : plan.sends) {
    const auto* d = static_cast<const unsigned char*>(s.data);
    for (std::size_t o = 0; o < s.bytes; o += max_message) {
      req.emplace_back();
      const int n = static_cast<int>(std::min(max_message, s.bytes - o));
      check(MPI_Isend(d + o, n, MPI_BYTE, s.peer, plan.tag, comm.get(), &req.back()), "MPI_Isend");
      ++stats.messages;
    }
    stats.bytes_sent += s.bytes;
  }
  return pending(std::move(req));
}

/// The halo exchange of a block-distributed region of n0 rows of
/// `row_bytes` each, global row i at base + i * row_bytes on every rank
/// (sinter::mpi reserves every distributed array's whole range on every
/// rank). need(r) gives the rows [lo, hi) rank r reads (any rank, computed
/// from global facts only, so that every rank derives the same plan); this
/// rank receives the rows it needs beyond its own block, from whichever
/// ranks own them (blocks smaller than the halo, empty blocks), and sends
/// each other rank the rows of its own block that rank needs: at most one
/// message each way per pair.
template <class Need>
exchange_plan halo_plan(index_t n0, std::size_t row_bytes, int size, int rank, void* base, const Need& need) {
  exchange_plan plan;
  auto* const row0 = static_cast<unsigned char*>(base);
  auto at = [&](index_t row) { return row0 + static_cast<std::size_t>(row) * row_bytes; };
  auto clip = [n0](std::pair<index_t, index_t> w) {
    const index_t lo = std::max<index_t>(w.first, 0), hi = std::min<index_t>(w.second, n0);
    return std::pair<index_t, index_t>{lo, hi < lo ? lo : hi};
  };
  const auto [b, e] = block_rows(n0, size, rank);
  const auto [lo, hi] = clip(need(rank));
  // Receives: the needed rows below and above the own block, cut by owner.
  const std::pair<index_t, index_t> pieces[2] = {{lo, std::min(hi, b)}, {std::max(lo, e), hi}};
  for (const auto& [p0, p1] : pieces)
    for (index_t row = p0; row < p1;) {
      const int owner = row_owner(n0, size, row);
      const index_t end = std::min(p1, block_rows(n0, size, owner).second);
      plan.receives.push_back({owner, at(row), static_cast<std::size_t>(end - row) * row_bytes});
      row = end;
    }
  // Sends: each other rank's needed rows that lie in this rank's block.
  for (int r = 0; r < size && b < e; ++r) {
    if (r == rank) continue;
    const auto [rlo, rhi] = clip(need(r));
    const index_t s0 = std::max(rlo, b), s1 = std::min(rhi, e);
    if (s0 < s1) plan.sends.push_back({r, at(s0), static_cast<std::size_t>(s1 - s0) * row_bytes});
  }
  return plan;
}

}  // namespace sinter::mpi::detail
