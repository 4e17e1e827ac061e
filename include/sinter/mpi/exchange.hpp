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

/// How MPI reaches memory that is not the host's (a device's): straight
/// when MPI reads device pointers (CUDA-aware), else through a pinned host
/// buffer (mpi/cuda_region.hpp implements it; tests a host stand-in).
struct stager {
  virtual ~stager() = default;
  /// Whether MPI may be given this memory's pointers as they are.
  virtual bool direct() const = 0;
  /// Waits for the device work queued before (direct path: before MPI reads).
  virtual void settle() = 0;
  /// A host buffer MPI can use of at least `bytes` bytes, until give_back.
  virtual void* take_buffer(std::size_t bytes) = 0;
  /// Returns take_buffer's buffer (its copies complete).
  virtual void give_back(void* buffer) noexcept = 0;
  /// Queues a copy from device memory to the host buffer.
  virtual void to_host(void* dst, const void* src, std::size_t bytes) = 0;
  /// Queues a copy from the host buffer to device memory.
  virtual void to_device(void* dst, const void* src, std::size_t bytes) = 0;
  /// Waits for the queued copies.
  virtual void sync() = 0;
};

/// A range of bytes to send to `peer`.
struct send_item {
  int peer;                ///< destination rank
  const void* data;        ///< first byte
  std::size_t bytes;       ///< length
  stager* via = nullptr;   ///< device memory's stager (nullptr: host memory)
};

/// A range of bytes to receive from `peer`.
struct recv_item {
  int peer;                ///< source rank
  void* data;              ///< first byte
  std::size_t bytes;       ///< length
  stager* via = nullptr;   ///< device memory's stager (nullptr: host memory)
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

/// A staged receive: `bytes` at `host` (in a stage buffer) go to `device`.
struct unpack_item {
  void* device;
  const void* host;
  std::size_t bytes;
};

/// One stager's part of an exchange: its host buffer (staged path) and
/// the received ranges to copy from it to device memory after the wait.
struct stage_lot {
  stager* via = nullptr;
  std::size_t bytes = 0;     ///< staged bytes (sends and receives)
  void* buffer = nullptr;    ///< take_buffer's, given back by the destructor
  std::vector<unpack_item> unpack;  ///< received ranges to copy to device memory
  stage_lot() = default;
  explicit stage_lot(stager* s) noexcept : via(s) {}
  stage_lot(stage_lot&& o) noexcept : via(o.via), bytes(o.bytes), buffer(o.buffer), unpack(std::move(o.unpack)) {
    o.buffer = nullptr;
  }
  stage_lot& operator=(stage_lot&&) = delete;
  ~stage_lot() {
    if (buffer) via->give_back(buffer);
  }
};

/// Rewrites the device ranges of `plan` for MPI: a direct stager's memory
/// is settled and kept; a staged one's sends are copied to its buffer
/// (complete on return) and its receives land there, to be unpacked.
inline std::vector<stage_lot> stage_plan(exchange_plan& plan) {
  std::vector<stage_lot> lots;
  auto lot_of = [&lots](stager* s) -> stage_lot& {
    for (auto& l : lots)
      if (l.via == s) return l;
    return lots.emplace_back(s);
  };
  for (const auto& s : plan.sends)
    if (s.via) lot_of(s.via).bytes += s.bytes;
  for (const auto& r : plan.receives)
    if (r.via) lot_of(r.via).bytes += r.bytes;
  for (auto& l : lots) {
    if (l.via->direct()) l.via->settle();
    else if (l.bytes > 0) l.buffer = l.via->take_buffer(l.bytes);
  }
  std::vector<std::size_t> used(lots.size(), 0);
  auto place = [&](stager* s, std::size_t bytes) -> std::pair<stage_lot*, std::size_t> {
    for (std::size_t k = 0; k != lots.size(); ++k)
      if (lots[k].via == s && lots[k].buffer) {
        const std::size_t at = used[k];
        used[k] += bytes;
        return {&lots[k], at};
      }
    return {nullptr, 0};
  };
  for (auto& s : plan.sends) {
    const auto [l, at] = place(s.via, s.bytes);
    if (!l) continue;
    void* h = static_cast<unsigned char*>(l->buffer) + at;
    l->via->to_host(h, s.data, s.bytes);
    s.data = h;
  }
  for (auto& r : plan.receives) {
    const auto [l, at] = place(r.via, r.bytes);
    if (!l) continue;
    void* h = static_cast<unsigned char*>(l->buffer) + at;
    l->unpack.push_back({r.data, h, r.bytes});
    r.data = h;
  }
  for (auto& l : lots)
    if (l.buffer) l.via->sync();  // the sent bytes are on the host before MPI reads them
  return lots;
}

/// An exchange in flight: wait() (or the destructor) completes it. Until
/// then the sent ranges must not change and the received ones not be read.
class pending {
 public:
  pending() = default;
  /// Takes over the requests of a started exchange (and its staging).
  explicit pending(std::vector<MPI_Request> r, std::vector<stage_lot> lots = {}) noexcept
      : requests_(std::move(r)), lots_(std::move(lots)) {}
  pending(pending&& o) noexcept : requests_(std::move(o.requests_)), lots_(std::move(o.lots_)) {
    o.requests_.clear();
    o.lots_.clear();
  }
  pending& operator=(pending&& o) noexcept {
    if (this != &o) {
      finish_quietly();
      requests_ = std::move(o.requests_);
      o.requests_.clear();
      lots_.clear();
      for (auto& l : o.lots_) lots_.push_back(std::move(l));
      o.lots_.clear();
    }
    return *this;
  }
  pending(const pending&) = delete;
  pending& operator=(const pending&) = delete;
  ~pending() { finish_quietly(); }

  /// Blocks until every send and receive of the exchange has completed (and
  /// staged receives are in device memory).
  void wait() {
    std::vector<stage_lot> lots = std::move(lots_);
    lots_.clear();
    if (!requests_.empty()) {
      std::vector<MPI_Request> r = std::move(requests_);
      requests_.clear();
      check(MPI_Waitall(static_cast<int>(r.size()), r.data(), MPI_STATUSES_IGNORE), "MPI_Waitall (exchange)");
    }
    for (auto& l : lots) {
      if (l.unpack.empty()) continue;
      for (const auto& u : l.unpack) l.via->to_device(u.device, u.host, u.bytes);
      l.via->sync();
    }
  }

 private:
  void finish_quietly() noexcept {
    if (!requests_.empty() && mpi_active())
      MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
    requests_.clear();
    lots_.clear();
  }
  std::vector<MPI_Request> requests_;
  std::vector<stage_lot> lots_;
};

/// Posts every receive, then every send of `plan` (device ranges staged by
/// stage_plan; ranges above
/// `max_message` bytes as several messages) and returns at once; the
/// exchange counters (exchange_stats) grow by what was posted. A failed
/// post throws mpi_error only under an MPI error handler that returns
/// (MPI's default aborts every rank).
inline pending start_exchange(const communicator& comm, exchange_plan&& plan,
                              std::size_t max_message = max_message_bytes) {
  require_mpi("start_exchange");
  if (max_message == 0 || max_message > std::size_t(INT_MAX)) max_message = max_message_bytes;
  std::vector<stage_lot> lots = stage_plan(plan);  // device memory: straight or through host buffers
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
  return pending(std::move(req), std::move(lots));
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
