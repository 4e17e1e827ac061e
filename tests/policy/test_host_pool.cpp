// Tests for the host caching allocator (include/sinter/policy/host_memory.hpp):
// reuse, statistics, the limit, SINTER_HOST_MEMORY_LIMIT, two threads,
// huge-page alignment and advice, first touch, and what arrays see through
// reuse. Most tests use a pool of their own; the ones through
// arrays use the process's pool and restore its limit.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <sinter/sinter.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace hpd = sinter::detail;
constexpr std::size_t pool_mib = std::size_t{1} << 20;

std::uintptr_t pool_address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

// A serial stand-in for thread_pool::parallel_for that counts its tasks.
struct pool_serial_for {
  std::int64_t* tasks;
  template <class F>
  void operator()(std::int64_t n, F&& f) const {
    *tasks += n;
    for (std::int64_t i = 0; i < n; ++i) f(i);
  }
};

#ifdef __linux__
// Whether the mapping holding `p` has the kernel's huge-page advice ("hg" in
// /proc/self/smaps's VmFlags). False where smaps cannot be read.
bool pool_huge_page_advised(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  const std::uintptr_t a = pool_address(p);
  while (std::getline(smaps, line)) {
    std::uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> lo >> dash >> hi && dash == '-') {
      inside = a >= lo && a < hi;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0) return line.find(" hg") != std::string::npos;
  }
  return false;
}
#endif

}  // namespace

TEST_CASE("host_pool: a freed large block is reused for a request of the same block size") {
  hpd::host_pool pool(true);
  bool fresh = false;
  void* a = pool.allocate(3 * pool_mib + 5, &fresh);
  CHECK(fresh);
  auto s = pool.stats();
  CHECK(s.in_use == 4 * pool_mib);  // whole 2 MiB pages from 2 MiB
  CHECK(s.misses == 1);
  CHECK(s.hits == 0);
  pool.deallocate(a, 3 * pool_mib + 5);
  s = pool.stats();
  CHECK(s.in_use == 0);
  CHECK(s.cached == 4 * pool_mib);
  void* b = pool.allocate(4 * pool_mib - 3, &fresh);  // another size, the same block size
  CHECK(b == a);
  CHECK_FALSE(fresh);
  s = pool.stats();
  CHECK(s.hits == 1);
  CHECK(s.misses == 1);
  CHECK(s.cached == 0);
  CHECK(s.in_use == 4 * pool_mib);
  CHECK(s.peak == 4 * pool_mib);
  void* c = pool.allocate(5 * pool_mib, &fresh);  // 6 MiB block: nothing cached fits
  CHECK(fresh);
  CHECK(c != a);
  CHECK(pool.stats().peak == 10 * pool_mib);
  pool.deallocate(b, 4 * pool_mib - 3);
  pool.deallocate(c, 5 * pool_mib);
  CHECK(pool.stats().cached == 10 * pool_mib);
  pool.empty_cache();
  s = pool.stats();
  CHECK(s.cached == 0);
  CHECK(s.in_use == 0);
  CHECK(s.peak == 10 * pool_mib);
}

TEST_CASE("host_pool: small requests are counted but not cached; a pool without caching keeps nothing") {
  hpd::host_pool pool(true);
  void* p = pool.allocate(1000);
  CHECK(pool_address(p) % hpd::host_alignment == 0);
  CHECK(pool.stats().in_use == 1000);
  pool.deallocate(p, 1000);
  CHECK(pool.stats().cached == 0);
  CHECK(pool.stats().hits + pool.stats().misses == 0);
  pool.set_limit(1500);  // small requests count against the limit too
  void* s1 = pool.allocate(600);
  void* s2 = pool.allocate(600);
  CHECK_THROWS_AS((void)pool.allocate(600), sinter::out_of_memory);
  CHECK(pool.stats().in_use == 1200);
  pool.deallocate(s1, 600);
  pool.deallocate(s2, 600);
  CHECK(pool.stats().in_use == 0);
  CHECK(pool.stats().peak == 1200);

  hpd::host_pool plain(false);
  void* q = plain.allocate(3 * pool_mib);
  CHECK(plain.stats().in_use == 3 * pool_mib);  // exact: no block rounding without the cache
  plain.deallocate(q, 3 * pool_mib);
  CHECK(plain.stats().cached == 0);
  CHECK(plain.stats().in_use == 0);
}

TEST_CASE("host_pool: blocks of 2 MiB and more are 2 MiB aligned and advised huge pages") {
  for (bool caching : {true, false}) {
    hpd::host_pool pool(caching);
    for (std::size_t bytes : {2 * pool_mib, 2 * pool_mib + 1, 7 * pool_mib + 4093, 64 * pool_mib}) {
      CAPTURE(bytes);
      void* p = pool.allocate(bytes);
      CHECK(pool_address(p) % hpd::host_huge_page == 0);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
      if (std::ifstream("/proc/self/smaps")) CHECK(pool_huge_page_advised(p));
#endif
      pool.deallocate(p, bytes);
    }
    void* m = pool.allocate(pool_mib + 3);  // under 2 MiB: the ordinary 64-byte alignment
    CHECK(pool_address(m) % hpd::host_alignment == 0);
    pool.deallocate(m, pool_mib + 3);
  }
}

TEST_CASE("host_pool: past the limit, out_of_memory and nothing changes; the cache is released first") {
  hpd::host_pool pool(true);
  pool.set_limit(10 * pool_mib);
  void* a = pool.allocate(4 * pool_mib);
  void* b = pool.allocate(2 * pool_mib);
  std::memset(a, 0x5a, 4 * pool_mib);
  const auto before = pool.stats();
  try {
    (void)pool.allocate(5 * pool_mib);  // a 6 MiB block; 4 MiB available
    FAIL("no out_of_memory");
  } catch (const sinter::out_of_memory& e) {
    CHECK(e.requested == 6 * pool_mib);
    CHECK(e.available == 4 * pool_mib);
    CHECK(std::string(e.what()).find("host memory") != std::string::npos);
  }
  const auto after = pool.stats();
  CHECK(after.in_use == before.in_use);
  CHECK(after.misses == before.misses);
  CHECK(static_cast<unsigned char*>(a)[4 * pool_mib - 1] == 0x5a);
  pool.deallocate(b, 2 * pool_mib);  // cached: 6 MiB in use + cached
  CHECK(pool.stats().cached == 2 * pool_mib);
  void* c = pool.allocate(6 * pool_mib);  // fits only once the cached block is given back
  CHECK(pool.stats().cached == 0);
  CHECK(pool.stats().in_use == 10 * pool_mib);
  pool.deallocate(c, 6 * pool_mib);
  pool.set_limit(5 * pool_mib);  // lowering the limit trims the cache to fit
  CHECK(pool.stats().cached == 0);
  pool.deallocate(a, 4 * pool_mib);
  CHECK(pool.stats().cached == 4 * pool_mib);
}

TEST_CASE("host_pool: the cache gives its oldest blocks back beyond its cap") {
  hpd::host_pool pool(true);
  const std::size_t big = hpd::host_cache_cap / 2 + 2 * pool_mib;  // untouched: address space only
  void* a = pool.allocate(big);
  void* b = pool.allocate(big);
  pool.deallocate(a, big);
  pool.deallocate(b, big);  // a is given back to make room
  CHECK(pool.stats().cached == big);
  void* c = pool.allocate(big);
  CHECK(c == b);  // the newer block stayed
  pool.deallocate(c, big);
}

TEST_CASE("host_pool: SINTER_HOST_MEMORY_LIMIT") {
  ::setenv("SINTER_HOST_MEMORY_LIMIT", "64M", 1);
  CHECK(hpd::host_pool(true).stats().limit == 64 * pool_mib);
  ::setenv("SINTER_HOST_MEMORY_LIMIT", "3G", 1);
  CHECK(hpd::host_pool(true).stats().limit == std::size_t{3} << 30);
  ::setenv("SINTER_HOST_MEMORY_LIMIT", "12345", 1);
  CHECK(hpd::host_pool(true).stats().limit == 12345);
  ::setenv("SINTER_HOST_MEMORY_LIMIT", "lots", 1);
  CHECK_THROWS_AS(hpd::host_pool(true), sinter::value_error);
  ::setenv("SINTER_HOST_MEMORY_LIMIT", "99999999999999G", 1);  // past size_t: refused, not wrapped
  CHECK_THROWS_AS(hpd::host_pool(true), sinter::value_error);
  ::setenv("SINTER_HOST_MEMORY_LIMIT", "-5M", 1);
  CHECK_THROWS_AS(hpd::host_pool(true), sinter::value_error);
  ::setenv("SINTER_HOST_MEMORY_LIMIT", "4T", 1);
  CHECK_THROWS_AS(hpd::host_pool(true), sinter::value_error);
  ::unsetenv("SINTER_HOST_MEMORY_LIMIT");
  CHECK(hpd::host_pool(true).stats().limit == std::numeric_limits<std::size_t>::max());
}

TEST_CASE("host_pool: two threads allocating and freeing") {
  hpd::host_pool pool(true);
  constexpr int rounds = 300;
  std::atomic<int> wrong{0};
  auto work = [&](unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<std::pair<unsigned char*, std::size_t>> held;
    for (int r = 0; r < rounds; ++r) {
      if (held.size() < 4 && rng() % 3 != 0) {
        // large (cached blocks, the lock) and small (atomic counters only)
        const std::size_t bytes = rng() % 4 == 0 ? 1 + rng() % 5000 : (1 + rng() % 5) * pool_mib + rng() % 1000;
        auto* p = static_cast<unsigned char*>(pool.allocate(bytes));
        const auto mark = static_cast<unsigned char>(seed + static_cast<unsigned>(r));
        std::memset(p, mark, bytes);
        held.push_back({p, bytes});
      } else if (!held.empty()) {
        auto [p, bytes] = held.back();
        held.pop_back();
        // no other thread wrote into a block this thread holds
        if (p[0] != p[bytes - 1] || p[bytes / 2] != p[0]) ++wrong;
        pool.deallocate(p, bytes);
      }
    }
    for (auto [p, bytes] : held) pool.deallocate(p, bytes);
  };
  std::thread t1(work, 1u), t2(work, 2u);
  t1.join();
  t2.join();
  CHECK(wrong == 0);
  const auto s = pool.stats();
  CHECK(s.in_use == 0);
  CHECK(s.hits > 0);
  CHECK(s.cached <= hpd::host_cache_cap);
}

TEST_CASE("host_first_touch and host_allocate_touched: fresh blocks only, one task per 2 MiB") {
  std::int64_t tasks = 0;
  std::vector<unsigned char> buf(5 * pool_mib + 100, 0xff);
  hpd::host_first_touch(buf.data(), buf.size(), pool_serial_for{&tasks});
  CHECK(tasks == 3);
  for (std::size_t i = 0; i < buf.size(); i += 4096) CHECK(buf[i] == 0);
  CHECK(buf[1] == 0xff);

  tasks = 0;
  sinter::host_empty_cache();  // no 4 MiB block left by an earlier test
  void* p = hpd::host_allocate_touched(3 * pool_mib, pool_serial_for{&tasks});
  CHECK(tasks == 2);
  hpd::host_deallocate(p, 3 * pool_mib);
  tasks = 0;
  void* q = hpd::host_allocate_touched(3 * pool_mib, pool_serial_for{&tasks});
  CHECK(tasks == (hpd::host_memory().caching() ? 0 : 2));  // a reused block was touched before
  hpd::host_deallocate(q, 3 * pool_mib);
  tasks = 0;
  void* r = hpd::host_allocate_touched(1000, pool_serial_for{&tasks});
  CHECK(tasks == 0);
  hpd::host_deallocate(r, 1000);
}

TEST_CASE("host pool through arrays: zeros after reuse, the allocation count, stats and the limit") {
  CHECK(hpd::host_memory().caching() == (SINTER_HOST_POOL != 0));
#if defined(__SANITIZE_ADDRESS__)
  CHECK_FALSE(hpd::host_memory().caching());
#endif
  const sinter::index_t n = (std::int64_t{1} << 20) + 3;  // 4 MiB and a bit of float: a 6 MiB block
  const float* old = nullptr;
  {
    auto a = sinter::full<float>({n}, 7.5f, sinter::par{});
    old = a.data();
  }
  const auto before = sinter::host_memory_stats();
  const std::size_t count = sinter::allocation_count();
  auto z = sinter::zeros<float>({n}, sinter::par{});
  CHECK(sinter::allocation_count() == count + 1);  // a pool hit still counts
  const auto after = sinter::host_memory_stats();
  if (hpd::host_memory().caching()) {
    CHECK(z.data() == old);
    CHECK(after.hits == before.hits + 1);
    CHECK(after.cached + 6 * pool_mib == before.cached);
  }
  bool all_zero = true;
  for (sinter::index_t i = 0; i < n; ++i) all_zero = all_zero && z.data()[i] == 0.0f;
  CHECK(all_zero);

  auto keep = sinter::full<double>({n}, 1.25, sinter::host{});
  sinter::set_host_memory_limit(sinter::host_memory_stats().in_use + 4 * pool_mib);
  const auto limited = sinter::host_memory_stats();
  CHECK(limited.in_use + limited.cached <= limited.limit);  // the cache trimmed to fit
  CHECK_THROWS_AS((void)sinter::empty<float>({n}, sinter::par{}), sinter::out_of_memory);
  using par_vector = sinter::array<float, 1, sinter::par>;
  CHECK_THROWS_AS((void)par_vector(z + 1.0f), sinter::out_of_memory);
  sinter::set_host_memory_limit(std::numeric_limits<std::size_t>::max());
  CHECK(sinter::host_memory_stats().limit == std::numeric_limits<std::size_t>::max());
  bool intact = true;
  for (sinter::index_t i = 0; i < n; ++i) intact = intact && z.data()[i] == 0.0f && keep.data()[i] == 1.25;
  CHECK(intact);
  sinter::host_empty_cache();
  CHECK(sinter::host_memory_stats().cached == 0);
}
