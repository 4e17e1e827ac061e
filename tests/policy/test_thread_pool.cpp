// Tests for sinter::detail::thread_pool and sinter::{set,get}_num_threads
// (include/sinter/policy/host/thread_pool.hpp).
#include <sinter/policy/host/thread_pool.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using sinter::detail::thread_pool;

// Runs `n_chunks` chunks on `pool` and checks that each ran exactly once.
void check_each_chunk_once(thread_pool& pool, std::int64_t n_chunks) {
  std::vector<std::atomic<int>> hits(static_cast<std::size_t>(n_chunks));
  std::atomic<std::int64_t> out_of_range{0};
  pool.parallel_for(n_chunks, [&](std::int64_t i) {
    if (i < 0 || i >= n_chunks) {
      out_of_range.fetch_add(1);
      return;
    }
    hits[static_cast<std::size_t>(i)].fetch_add(1, std::memory_order_relaxed);
  });
  CHECK(out_of_range.load() == 0);
  std::int64_t wrong = 0;
  for (auto& h : hits) wrong += h.load() != 1;
  CHECK_MESSAGE(wrong == 0, "threads " << pool.num_threads() << ", chunks " << n_chunks);
}

const std::int64_t chunk_counts[] = {0, 1, 2, 3, 4, 5, 7, 8, 13, 31, 64, 97, 128, 1000, 1009, 10007};

}  // namespace

TEST_CASE("thread_pool: every chunk runs exactly once") {
  for (int threads : {1, 2, 3, 8}) {
    thread_pool pool(threads);
    CHECK(pool.num_threads() == threads);
    for (int rep = 0; rep < 3; ++rep)
      for (std::int64_t n : chunk_counts) check_each_chunk_once(pool, n);
  }
}

TEST_CASE("thread_pool: negative or zero chunk counts do nothing") {
  thread_pool pool(2);
  std::atomic<int> calls{0};
  pool.parallel_for(0, [&](std::int64_t) { ++calls; });
  pool.parallel_for(-5, [&](std::int64_t) { ++calls; });
  CHECK(calls.load() == 0);
}

TEST_CASE("thread_pool: work is spread over the caller and the workers") {
  thread_pool pool(3);
  std::mutex m;
  std::set<std::thread::id> ids;
  // Chunks long enough that the workers wake up and take some.
  for (int rep = 0; rep < 20 && ids.size() < 2; ++rep) {
    pool.parallel_for(64, [&](std::int64_t) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      const std::lock_guard<std::mutex> g(m);
      ids.insert(std::this_thread::get_id());
    });
  }
  CHECK(ids.size() >= 2);
  CHECK(ids.size() <= 3);
}

// Thread k of P runs the k-th of P consecutive blocks of chunks first, so
// that a pass over data in the cores' own caches finds each block on the
// core that last touched it (par's passes of 2^16 floats ran at 0.66-0.86
// of host with one shared counter: docs/journal/bench-2026-11b.md). With
// two threads and chunks of 2 ms, the caller runs chunks 0-3 and the worker
// 4-7 as soon as the worker joins within the caller's first 8 ms; a few
// jobs are allowed for a worker that wakes late.
TEST_CASE("thread_pool: each thread runs its own block of chunks first") {
  thread_pool pool(2);
  const auto caller = std::this_thread::get_id();
  bool split = false;
  for (int job = 0; job < 5 && !split; ++job) {
    std::vector<int> on_caller(8, -1);
    pool.parallel_for(8, [&](std::int64_t i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      on_caller[static_cast<std::size_t>(i)] = std::this_thread::get_id() == caller;
    });
    split = on_caller == std::vector<int>{1, 1, 1, 1, 0, 0, 0, 0};
  }
  CHECK(split);
}

TEST_CASE("thread_pool: one thread runs everything on the caller, in order") {
  thread_pool pool(1);
  std::vector<std::int64_t> order;
  const auto caller = std::this_thread::get_id();
  bool all_on_caller = true;
  pool.parallel_for(10, [&](std::int64_t i) {
    order.push_back(i);
    all_on_caller = all_on_caller && std::this_thread::get_id() == caller;
  });
  CHECK(all_on_caller);
  CHECK(order == std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
}

TEST_CASE("thread_pool: accepts lvalue, const and mutable callables") {
  thread_pool pool(2);
  std::atomic<int> n{0};
  const auto const_fn = [&](std::int64_t) { n.fetch_add(1); };
  pool.parallel_for(5, const_fn);
  auto lvalue_fn = [&](std::int64_t) { n.fetch_add(1); };
  pool.parallel_for(5, lvalue_fn);
  // A mutable rvalue lambda (non-const call operator). The one object is
  // shared by all threads, so it must not write its captures.
  pool.parallel_for(5, [&n, k = 1](std::int64_t) mutable { n.fetch_add(k); });
  struct functor {
    std::atomic<int>* n;
    void operator()(std::int64_t) const { n->fetch_add(1); }
  };
  pool.parallel_for(5, functor{&n});
  CHECK(n.load() == 20);
}

TEST_CASE("thread_pool: the first exception is rethrown on the caller") {
  for (int threads : {1, 2, 3, 8}) {
    thread_pool pool(threads);
    // One chunk throws.
    CHECK_THROWS_WITH_AS(pool.parallel_for(100, [](std::int64_t i) {
      if (i == 37) throw std::runtime_error("chunk 37");
    }),
                         "chunk 37", std::runtime_error);
    // Every chunk throws: exactly one exception comes out, and it is one of them.
    try {
      pool.parallel_for(100, [](std::int64_t i) { throw std::out_of_range("chunk " + std::to_string(i)); });
      FAIL("no exception");
    } catch (const std::out_of_range& e) {
      CHECK(std::string(e.what()).rfind("chunk ", 0) == 0);
    }
    // A non-std exception type travels too.
    CHECK_THROWS_AS(pool.parallel_for(8, [](std::int64_t i) {
      if (i == 7) throw 42;
    }),
                    int);
    // The pool is usable afterwards, and has no stale error.
    check_each_chunk_once(pool, 1000);
    CHECK_NOTHROW(pool.parallel_for(50, [](std::int64_t) {}));
  }
}

TEST_CASE("thread_pool: nested parallel_for runs serially on the calling chunk's thread") {
  for (int threads : {1, 2, 3, 8}) {
    thread_pool pool(threads);
    std::vector<std::atomic<int>> hits(16 * 32);
    std::atomic<int> inner_elsewhere{0}, other_pool_elsewhere{0};
    pool.parallel_for(16, [&](std::int64_t i) {
      const auto me = std::this_thread::get_id();
      pool.parallel_for(32, [&](std::int64_t j) {
        if (std::this_thread::get_id() != me) inner_elsewhere.fetch_add(1);
        hits[static_cast<std::size_t>(i * 32 + j)].fetch_add(1);
      });
      // Another pool (here the default one) from inside a chunk of a job
      // that runs in parallel is serial too. (A 1-thread pool runs its
      // chunks as plain calls, so there a nested job may use other threads.)
      sinter::detail::default_pool().parallel_for(3, [&](std::int64_t) {
        if (std::this_thread::get_id() != me) other_pool_elsewhere.fetch_add(1);
      });
    });
    CHECK(inner_elsewhere.load() == 0);
    if (threads > 1) CHECK(other_pool_elsewhere.load() == 0);
    int wrong = 0;
    for (auto& h : hits) wrong += h.load() != 1;
    CHECK(wrong == 0);
  }
}

TEST_CASE("thread_pool: an exception in a nested parallel_for reaches the outer caller") {
  thread_pool pool(3);
  CHECK_THROWS_WITH(pool.parallel_for(6, [&](std::int64_t i) {
    pool.parallel_for(4, [&](std::int64_t j) {
      if (i == 4 && j == 2) throw std::runtime_error("inner");
    });
  }),
                    "inner");
  check_each_chunk_once(pool, 100);
}

TEST_CASE("thread_pool: resizing while idle") {
  thread_pool pool(2);
  check_each_chunk_once(pool, 100);
  for (int n : {3, 1, 8, 2, 2, 5, 1, 1, 4}) {
    pool.set_num_threads(n);
    CHECK(pool.num_threads() == n);
    for (std::int64_t c : {1, 2, 17, 256}) check_each_chunk_once(pool, c);
  }
  pool.set_num_threads(0);  // below 1 means 1
  CHECK(pool.num_threads() == 1);
  check_each_chunk_once(pool, 10);
}

TEST_CASE("thread_pool: resizing from inside a chunk takes effect at the next job") {
  thread_pool pool(2);
  pool.parallel_for(4, [&](std::int64_t i) {
    if (i == 0) pool.set_num_threads(3);  // must not deadlock
  });
  CHECK(pool.num_threads() == 3);
  check_each_chunk_once(pool, 333);
}

TEST_CASE("thread_pool: stress, 10000 small jobs") {
  for (int threads : {2, 3}) {
    thread_pool pool(threads);
    std::atomic<std::int64_t> total{0};
    std::int64_t expected = 0;
    for (int job = 0; job < 10000; ++job) {
      const std::int64_t n = 1 + job % 7;
      pool.parallel_for(n, [&](std::int64_t i) { total.fetch_add(i + 1, std::memory_order_relaxed); });
      expected += n * (n + 1) / 2;
    }
    CHECK(total.load() == expected);
  }
}

TEST_CASE("thread_pool: plain data written by chunks is visible to the caller afterwards") {
  thread_pool pool(3);
  std::vector<std::int64_t> out(4096);
  for (int rep = 0; rep < 200; ++rep) {
    pool.parallel_for(64, [&](std::int64_t c) {
      for (std::int64_t k = c * 64; k < (c + 1) * 64; ++k) out[static_cast<std::size_t>(k)] = k + rep;
    });
    std::int64_t bad = 0;
    for (std::size_t k = 0; k < out.size(); ++k) bad += out[k] != static_cast<std::int64_t>(k) + rep;
    REQUIRE(bad == 0);
  }
}

TEST_CASE("thread_pool: two user threads sharing a pool both finish") {
  thread_pool pool(3);
  std::atomic<std::int64_t> a{0}, b{0};
  auto user = [&](std::atomic<std::int64_t>& sum) {
    for (int job = 0; job < 2000; ++job) pool.parallel_for(5, [&](std::int64_t i) { sum.fetch_add(i); });
  };
  std::thread t1(user, std::ref(a));
  std::thread t2(user, std::ref(b));
  t1.join();
  t2.join();
  CHECK(a.load() == 2000 * 10);
  CHECK(b.load() == 2000 * 10);
}

TEST_CASE("set_num_threads / get_num_threads") {
  const int before = sinter::get_num_threads();
  CHECK(before >= 1);
  sinter::set_num_threads(3);
  CHECK(sinter::get_num_threads() == 3);
  check_each_chunk_once(sinter::detail::default_pool(), 1000);
  sinter::set_num_threads(1);
  CHECK(sinter::get_num_threads() == 1);
  check_each_chunk_once(sinter::detail::default_pool(), 10);
  sinter::set_num_threads(0);  // back to the default
  CHECK(sinter::get_num_threads() == sinter::detail::default_num_threads());
  CHECK_THROWS_AS(sinter::set_num_threads(-1), std::invalid_argument);
  sinter::set_num_threads(before);
  CHECK(sinter::get_num_threads() == before);
}

#if defined(__unix__) || defined(__APPLE__)
TEST_CASE("SINTER_NUM_THREADS sets the default thread count") {
  const char* old = std::getenv("SINTER_NUM_THREADS");
  const std::string saved = old ? old : "";
  ::setenv("SINTER_NUM_THREADS", "5", 1);
  CHECK(sinter::detail::default_num_threads() == 5);
  for (const char* bad : {"0", "-3", "abc", "4x", ""}) {
    ::setenv("SINTER_NUM_THREADS", bad, 1);
    CHECK(sinter::detail::default_num_threads() >= 1);
    CHECK(sinter::detail::default_num_threads() ==
          static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  }
  if (old) {
    ::setenv("SINTER_NUM_THREADS", saved.c_str(), 1);
  } else {
    ::unsetenv("SINTER_NUM_THREADS");
  }
}
#endif
