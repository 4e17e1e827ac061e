#pragma once
/// \file par.hpp
/// sinter::par: data in host memory, each pass one loop split over the
/// persistent thread pool (host/thread_pool.hpp). par runs host's plan
/// (policy/host/plan.hpp) and executors, cut into chunks on the pool;
/// passes smaller than 2 * `par_grain` elements run on the calling
/// thread, so small arrays pay no threading cost.
#include <string>

#include "backend.hpp"
#include "host.hpp"
#include "host/thread_pool.hpp"

namespace sinter {

/// Multi-threaded CPU policy: `sinter::array<float, 1, sinter::par> a({1 << 20});`
/// Thread count: sinter::set_num_threads(n), or SINTER_NUM_THREADS.
struct par {
  friend constexpr bool operator==(par, par) { return true; }
};

namespace detail {

/// host and par share host memory, so their arrays and views mix in one
/// expression, copying nothing; the mixed expression is par's (backend.hpp).
template <>
struct mixed_policy<host, par> {
  using type = par;
};
template <>
struct mixed_policy<par, host> {
  using type = par;
};

/// Runs f(b, e) over the pool for the chunks of a pass of n flat positions
/// and returns how many there were. A few chunks per thread balance uneven
/// progress. Chunks are runs of flat positions, 16 elements apart (whole
/// cache lines of a contiguous output, so threads never write the same
/// line); on the strided routes a chunk may start and end inside a row, so
/// a pass with fewer rows than chunks (a 1-D strided view is one row) still
/// splits.
template <class F>
index_t for_chunks(index_t n, int threads, F&& f) {
  const index_t want = threads * 4;
  const index_t len = ((n + want - 1) / want + 15) / 16 * 16;
  const index_t chunks = (n + len - 1) / len;
  default_pool().parallel_for(chunks, [&](std::int64_t c) {
    const index_t b = c * len;
    f(b, b + len < n ? b + len : n);
  });
  return chunks;
}

/// par's threads: get_num_threads() asked for, the inline routes below
/// 2 * par_grain elements (what would run on one thread anyway), the
/// plan's chunks through for_chunks.
template <>
struct host_threads<par> {
  static constexpr bool parallel = true;
  static constexpr index_t inline_limit = 2 * par_grain;
  static int requested() { return get_num_threads(); }
  template <class F>
  static index_t run(index_t n, int threads, F& f) {
    return for_chunks(n, threads, f);
  }
};

template <>
struct backend<par> : host_backend<par> {
  static std::string label(const par&) { return "par"; }
  /// A new large block is first touched on the pool's threads, which later
  /// compute it (host_allocate_touched); deallocate is host's.
  static void* allocate(const par&, std::size_t bytes) {
    return host_allocate_touched(bytes, [](std::int64_t n, auto&& f) { default_pool().parallel_for(n, f); });
  }
};

}  // namespace detail
}  // namespace sinter
