#pragma once
/// \file policy/host/thread_pool.hpp
/// The persistent thread pool behind the `par` policy, and the public thread
/// count setting. Workers are started on the first parallel_for, then spin
/// briefly and sleep between jobs. A job is a number of chunks, what a chunk
/// covers is up to the caller. Thread k of P (the caller is 0, the workers
/// 1 .. P-1) runs the k-th of P consecutive blocks of chunks first, then
/// takes the chunks left in the others: when every thread is there, chunk
/// i runs on the same thread job after job, so a pass over data that fits
/// in the cores' own caches finds each block where the last pass left it.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <vector>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif

namespace sinter::detail {

/// One spin-wait step: a CPU pause hint (keeps the spinning core polite to its sibling).
inline void cpu_relax() noexcept {
#if defined(_MSC_VER) && !defined(__clang__) && (defined(_M_X64) || defined(_M_IX86))
  _mm_pause();
#elif (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
  __builtin_ia32_pause();
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

/// True on a pool worker, and on a caller while it runs chunks: a parallel_for
/// started there runs serially instead of waiting for a busy pool.
inline bool& in_parallel_region() noexcept {
  thread_local bool flag = false;
  return flag;
}

/// The thread count to use when none is set: `SINTER_NUM_THREADS` if it is a
/// positive integer, else std::thread::hardware_concurrency(), at least 1.
inline int default_num_threads() noexcept {
  // getenv is only racy against setenv; this runs once, when the pool is made.
  if (const char* env = std::getenv("SINTER_NUM_THREADS")) {  // NOLINT(concurrency-mt-unsafe)
    char* end = nullptr;
    const long n = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && n > 0 && n <= 4096) return static_cast<int>(n);
  }
  const unsigned hc = std::thread::hardware_concurrency();
  return hc == 0 ? 1 : static_cast<int>(hc);
}

/// A persistent pool of worker threads; the calling thread takes part in every job.
class thread_pool {
 public:
  /// A pool that will use `n_threads` threads (callers included) once it starts.
  explicit thread_pool(int n_threads) : wanted_(n_threads < 1 ? 1 : n_threads) {}
  thread_pool(const thread_pool&) = delete;
  thread_pool& operator=(const thread_pool&) = delete;
  ~thread_pool() { stop_workers(); }

  /// The number of threads a job may use, the caller included.
  int num_threads() const noexcept { return wanted_.load(std::memory_order_relaxed); }

  /// Sets the thread count (< 1 means 1). Applied now when the pool is idle,
  /// else (e.g. when called from inside a chunk) by the next parallel_for.
  void set_num_threads(int n) {
    wanted_.store(n < 1 ? 1 : n, std::memory_order_relaxed);
    if (in_parallel_region()) return;
    const std::lock_guard<std::mutex> lock(dispatch_mutex_);
    if (started_) resize_locked();
  }

  /// Calls `f(i)` once for each i in [0, n_chunks), on the workers and the
  /// calling thread, and returns when all calls have returned. If calls throw,
  /// the first exception is rethrown here, the others are dropped, and chunks
  /// not yet started are skipped. `f` must be safe to call concurrently.
  /// Called from inside a chunk of a job running in parallel (on this pool or
  /// another), or while another thread uses this pool, it runs serially on
  /// the calling thread: nesting never deadlocks.
  template <class F>
  void parallel_for(std::int64_t n_chunks, F&& f) {
    if (n_chunks <= 0) return;
    if (n_chunks == 1 || wanted_.load(std::memory_order_relaxed) == 1 || in_parallel_region()) {
      run_serial(n_chunks, f);
      return;
    }
    std::unique_lock<std::mutex> lock(dispatch_mutex_, std::try_to_lock);
    if (!lock.owns_lock()) {
      run_serial(n_chunks, f);
      return;
    }
    if (!started_ || static_cast<int>(workers_.size()) != wanted_.load(std::memory_order_relaxed) - 1) {
      resize_locked();
    }
    if (workers_.empty()) {
      lock.unlock();
      run_serial(n_chunks, f);
      return;
    }
    using fn_type = std::remove_reference_t<F>;
    run_job(n_chunks, [](void* ctx, std::int64_t i) { (*static_cast<fn_type*>(ctx))(i); },
            const_cast<void*>(static_cast<const void*>(std::addressof(f))));
  }

 private:
  using invoke_fn = void (*)(void*, std::int64_t);

  // state_ packs the job epoch (high 32 bits), a "closed" flag (bit 31) and
  // the number of workers inside the current job (low 31 bits). A worker
  // joins only an open job, by CAS, so the caller can close the job and wait
  // for exactly the workers that joined: a sleeping or descheduled worker
  // never delays a job it did not join.
  static constexpr std::uint64_t epoch_one = std::uint64_t{1} << 32;
  static constexpr std::uint64_t closed_bit = std::uint64_t{1} << 31;
  static constexpr std::uint64_t count_mask = closed_bit - 1;
  // How long an idle worker (or a caller waiting for the last chunks) spins
  // before it sleeps: long enough that back-to-back jobs never pay a wake-up,
  // short enough not to hog a core between bursts.
  static constexpr std::chrono::microseconds spin_time{100};

  // Spins (pause, then yield) until `ready()` or spin_time has passed; returns ready().
  template <class Ready>
  static bool spin_until(Ready ready) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0;; ++i) {
      if (ready()) return true;
      if ((i & 63) == 63) {
        const auto elapsed = std::chrono::steady_clock::now() - start;
        if (elapsed > spin_time) return false;
        if (elapsed > spin_time / 2) std::this_thread::yield();  // let an oversubscribed core run others
      }
      cpu_relax();
    }
  }

  template <class F>
  static void run_serial(std::int64_t n_chunks, F& f) {
    for (std::int64_t i = 0; i < n_chunks; ++i) f(i);
  }

  void run_job(std::int64_t n_chunks, invoke_fn fn, void* ctx) {
    fn_ = fn;
    ctx_ = ctx;
    const int parts = static_cast<int>(workers_.size()) + 1;
    n_parts_ = parts;
    for (int b = 0; b < parts; ++b) {
      blocks_[static_cast<std::size_t>(b)].next.store(n_chunks * b / parts, std::memory_order_relaxed);
      blocks_[static_cast<std::size_t>(b)].end = n_chunks * (b + 1) / parts;
    }
    const std::uint64_t epoch = (state_.load(std::memory_order_relaxed) & ~(epoch_one - 1)) + epoch_one;
    state_.store(epoch, std::memory_order_seq_cst);  // publishes the fields above
    if (sleepers_.load(std::memory_order_seq_cst) > 0) {
      { const std::lock_guard<std::mutex> g(work_mutex_); }
      work_cv_.notify_all();
    }

    in_parallel_region() = true;
    run_chunks(0);
    in_parallel_region() = false;

    // Every chunk is taken; close the job and wait for the workers inside it.
    std::uint64_t s = state_.fetch_or(closed_bit, std::memory_order_acq_rel);
    const bool done = (s & count_mask) == 0 || spin_until([&] {
                        return (state_.load(std::memory_order_acquire) & count_mask) == 0;
                      });
    if (!done) {
      std::unique_lock<std::mutex> g(done_mutex_);
      caller_waiting_.store(true, std::memory_order_seq_cst);
      done_cv_.wait(g, [&] { return (state_.load(std::memory_order_seq_cst) & count_mask) == 0; });
      caller_waiting_.store(false, std::memory_order_relaxed);
    }

    if (has_error_.load(std::memory_order_acquire)) {
      std::exception_ptr e = std::move(error_);
      error_ = nullptr;
      has_error_.store(false, std::memory_order_relaxed);
      std::rethrow_exception(e);
    }
  }

  // Takes chunks until none is left, thread `self`'s own block first, then
  // the others' in turn; records the first exception and skips the rest.
  // Each chunk is claimed by one fetch_add on its block's counter.
  void run_chunks(int self) noexcept {
    const int parts = n_parts_;
    for (int k = 0; k < parts; ++k) {
      block& bl = blocks_[static_cast<std::size_t>((self + k) % parts)];
      for (std::int64_t i = bl.next.fetch_add(1, std::memory_order_relaxed); i < bl.end;
           i = bl.next.fetch_add(1, std::memory_order_relaxed)) {
        try {
          fn_(ctx_, i);
        } catch (...) {
          if (!has_error_.exchange(true, std::memory_order_acq_rel)) error_ = std::current_exception();
          for (int b = 0; b < parts; ++b) {
            block& o = blocks_[static_cast<std::size_t>(b)];
            o.next.store(o.end, std::memory_order_relaxed);
          }
          return;
        }
      }
    }
  }

  // `seen` is the epoch current when the worker was made: the next job is new to it.
  void worker_loop(std::uint64_t seen, int self) {
    in_parallel_region() = true;
    for (;;) {
      std::uint64_t s = wait_for_job(seen);
      if (stop_.load(std::memory_order_acquire)) return;
      seen = s >> 32;
      // Join the job if it is still open.
      while ((s & closed_bit) == 0 && (s >> 32) == seen) {
        if (state_.compare_exchange_weak(s, s + 1, std::memory_order_acq_rel, std::memory_order_acquire)) {
          run_chunks(self);
          const std::uint64_t left = state_.fetch_sub(1, std::memory_order_seq_cst) - 1;
          if ((left & count_mask) == 0 && caller_waiting_.load(std::memory_order_seq_cst)) {
            { const std::lock_guard<std::mutex> g(done_mutex_); }
            done_cv_.notify_one();
          }
          break;
        }
      }
    }
  }

  // Spins, then yields, then sleeps until the epoch differs from `seen` or stop is asked.
  std::uint64_t wait_for_job(std::uint64_t seen) {
    const auto ready = [&](std::uint64_t s) { return (s >> 32) != seen || stop_.load(std::memory_order_acquire); };
    std::uint64_t s = 0;
    if (spin_until([&] { return ready(s = state_.load(std::memory_order_acquire)); })) return s;
    std::unique_lock<std::mutex> g(work_mutex_);
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    work_cv_.wait(g, [&] {
      s = state_.load(std::memory_order_seq_cst);
      return ready(s);
    });
    sleepers_.fetch_sub(1, std::memory_order_relaxed);
    return s;
  }

  // Called with dispatch_mutex_ held and no job running.
  void resize_locked() {
    const int want = wanted_.load(std::memory_order_relaxed);
    started_ = true;
    if (static_cast<int>(workers_.size()) == want - 1) return;
    stop_workers();
    workers_.reserve(static_cast<std::size_t>(want - 1));
    blocks_ = std::make_unique<block[]>(static_cast<std::size_t>(want));
    const std::uint64_t seen = state_.load(std::memory_order_relaxed) >> 32;
    try {
      for (int i = 1; i < want; ++i) workers_.emplace_back([this, seen, i] { worker_loop(seen, i); });
    } catch (...) {
      // Could not start them all (e.g. out of threads): work with those we have.
      wanted_.store(static_cast<int>(workers_.size()) + 1, std::memory_order_relaxed);
    }
  }

  void stop_workers() {
    if (workers_.empty()) return;
    {
      const std::lock_guard<std::mutex> g(work_mutex_);
      stop_.store(true, std::memory_order_seq_cst);
    }
    work_cv_.notify_all();
    for (std::thread& t : workers_) t.join();
    workers_.clear();
    stop_.store(false, std::memory_order_relaxed);
  }

  // Shared with the workers; the job fields are written only while no worker is inside a job.
  alignas(64) std::atomic<std::uint64_t> state_{0};
  invoke_fn fn_ = nullptr;
  void* ctx_ = nullptr;
  // A job's chunks [n * b / P, n * (b + 1) / P) for b in [0, P), P = n_parts_:
  // the next one to claim and the end, a cache line each.
  struct alignas(64) block {
    std::atomic<std::int64_t> next{0};
    std::int64_t end = 0;
  };
  int n_parts_ = 1;
  std::unique_ptr<block[]> blocks_;
  alignas(64) std::atomic<int> sleepers_{0};
  std::atomic<bool> caller_waiting_{false};
  std::atomic<bool> stop_{false};
  std::atomic<bool> has_error_{false};
  std::exception_ptr error_;
  std::mutex work_mutex_;
  std::condition_variable work_cv_;
  std::mutex done_mutex_;
  std::condition_variable done_cv_;

  // Owned by whoever holds dispatch_mutex_.
  std::mutex dispatch_mutex_;
  std::vector<std::thread> workers_;
  bool started_ = false;
  std::atomic<int> wanted_;
};

/// The process-wide pool used by the `par` policy (made on first use; its threads on the first job).
inline thread_pool& default_pool() {
  static thread_pool pool(default_num_threads());
  return pool;
}

}  // namespace sinter::detail

namespace sinter {

/// Sets how many threads `par` work uses, the caller included: `sinter::set_num_threads(4);`
/// 0 restores the default (`SINTER_NUM_THREADS`, else the hardware thread count).
inline void set_num_threads(int n) {
  if (n < 0) throw std::invalid_argument("sinter::set_num_threads: thread count is negative; pass n >= 1, or 0 for the default");
  detail::default_pool().set_num_threads(n == 0 ? detail::default_num_threads() : n);
}

/// How many threads `par` work uses, the caller included: `int n = sinter::get_num_threads();`
inline int get_num_threads() noexcept { return detail::default_pool().num_threads(); }

}  // namespace sinter
