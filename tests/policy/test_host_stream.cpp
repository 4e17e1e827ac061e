// Streaming (non-temporal) stores: with the threshold lowered to 0 every host
// and par pass streams; results must match a double-precision scalar loop on
// every size around the 64-byte line and the 256-byte block, misaligned and
// strided outputs, 1- to 8-byte element types, and the row (broadcast) path.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sinter/sinter.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "support/random.hpp"
#include "support/streaming.hpp"

namespace st = sinter;

namespace {

std::vector<double> random_values(std::size_t n, unsigned seed) {
  return sinter_test::random_vector(n, seed, -20.0, 20.0);
}

const std::vector<st::index_t> sizes{0, 1, 3, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 1023, 1024, 1025, 4099, 9973, 100003};

// Sanitizer builds give each size above 1025 one of the output offsets
// 0, 1, 5 in turn (4099, 9973, 100003); the smaller sizes keep all three.
bool offset_sampled_out(st::index_t n, st::index_t offset) {
#if defined(SINTER_TEST_SANITIZED)
  return n > 1025 && offset != (n == 4099 ? 0 : n == 9973 ? 1 : 5);
#else
  (void)n;
  (void)offset;
  return false;
#endif
}

// out(offset..offset+n) = a * 3 - b for element type T, one pass, with the
// output starting `offset` elements into its buffer (misaligned for offset>0).
template <class T, class P>
void check_linear(st::index_t n, st::index_t offset) {
  const auto va = random_values(static_cast<std::size_t>(n), 11), vb = random_values(static_cast<std::size_t>(n), 12);
  st::array<T, 1, P> a({n}), b({n}), buf({n + offset});
  for (st::index_t i = 0; i < n; ++i) {
    a(i) = static_cast<T>(va[static_cast<std::size_t>(i)]);
    b(i) = static_cast<T>(vb[static_cast<std::size_t>(i)]);
  }
  buf = T(7);
  st::trace_scope t;
  buf(st::slice(offset, st::end)) = a * T(3) - b;
  const auto passes = t.passes();
  REQUIRE(passes.size() == 1);
  if (n > 0) CHECK_MESSAGE(passes[0].detail.find("streaming") != std::string::npos, passes[0].detail);
  for (st::index_t i = 0; i < offset; ++i) CHECK(buf(i) == T(7));
  st::index_t bad = 0;
  for (st::index_t i = 0; i < n; ++i) {
    // Integers: exact, in T's own (wrapping) arithmetic. Floats and half:
    // within T's rounding of the terms (a * 3 rounds before the subtraction,
    // or not where the compiler contracts to a fused multiply-add).
    const double want = static_cast<double>(a(i)) * 3 - static_cast<double>(b(i));
    const double got = static_cast<double>(buf(i + offset));
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, st::half>) {
      const double eps = std::is_same_v<T, st::half> ? 0x1p-10 : static_cast<double>(std::numeric_limits<T>::epsilon());
      const double scale = std::abs(static_cast<double>(a(i)) * 3) + std::abs(static_cast<double>(b(i)));
      if (!(std::abs(got - want) <= 2 * eps * scale)) ++bad;
    } else {
      if (got != static_cast<double>(static_cast<T>(a(i) * T(3) - b(i)))) ++bad;
    }
  }
  CHECK_MESSAGE(bad == 0, "n = " << n << ", offset = " << offset << ": " << bad << " wrong elements");
}

template <class T, class P>
void check_type() {
  for (st::index_t n : sizes)
    for (st::index_t offset : {0, 1, 5})
      if (!offset_sampled_out(n, offset)) check_linear<T, P>(n, offset);
}

}  // namespace

TEST_CASE_TEMPLATE("streaming stores: contiguous passes of every element size", P, st::host, st::par) {
  sinter_test::streaming_scope on(true);
  check_type<float, P>();
  check_type<double, P>();
  check_type<std::int8_t, P>();
  check_type<std::int16_t, P>();
  check_type<std::int64_t, P>();
}

TEST_CASE("streaming stores: half precision output") {
  sinter_test::streaming_scope on(true);
  for (st::index_t n : sizes) check_linear<st::half, st::host>(n, 3);
}

TEST_CASE_TEMPLATE("streaming stores: row broadcast and strided outputs", P, st::host, st::par) {
  sinter_test::streaming_scope on(true);
  for (st::index_t cols : {256, 257, 1031}) {
    const st::index_t rows = 301;
    const auto vm = random_values(static_cast<std::size_t>(rows * cols), 21);
    const auto vr = random_values(static_cast<std::size_t>(cols), 22);
    st::array<float, 2, P> m({rows, cols}), out({rows, cols + 3});
    st::array<float, 1, P> row({cols});
    for (st::index_t i = 0; i < rows; ++i)
      for (st::index_t j = 0; j < cols; ++j) m(i, j) = static_cast<float>(vm[static_cast<std::size_t>(i * cols + j)]);
    for (st::index_t j = 0; j < cols; ++j) row(j) = static_cast<float>(vr[static_cast<std::size_t>(j)]);
    out = -1.f;
    st::trace_scope t;
    // Rows of `out` are `cols + 3` apart: the output is not contiguous, each
    // row is streamed on its own (unaligned head, lines, tail).
    out(st::all, st::slice(1, cols + 1)) = m * 2.f - row;
    const auto passes = t.passes();
    REQUIRE(passes.size() == 1);
    CHECK_MESSAGE(passes[0].detail.find("strided streaming") == 0, passes[0].detail);
    st::index_t bad = 0;
    for (st::index_t i = 0; i < rows; ++i) {
      if (out(i, 0) != -1.f || out(i, cols + 1) != -1.f || out(i, cols + 2) != -1.f) ++bad;
      for (st::index_t j = 0; j < cols; ++j) {
        const double want = static_cast<float>(static_cast<double>(m(i, j)) * 2 - static_cast<double>(row(j)));
        if (static_cast<double>(out(i, j + 1)) != want) ++bad;
      }
    }
    CHECK_MESSAGE(bad == 0, "cols = " << cols << ": " << bad << " wrong elements");
  }
}

TEST_CASE("streaming stores: in-place update with the same mapping, and fused maths") {
  sinter_test::streaming_scope on(true);
  const st::index_t n = 10007;
  const auto va = random_values(static_cast<std::size_t>(n), 31);
  st::array<double, 1> a({n});
  for (st::index_t i = 0; i < n; ++i) a(i) = va[static_cast<std::size_t>(i)] / 25;
  a = st::exp(a) * 0.5 + a;  // reads and streams the same block
  st::index_t bad = 0;
  for (st::index_t i = 0; i < n; ++i) {
    const double x = va[static_cast<std::size_t>(i)] / 25, want = std::exp(x) * 0.5 + x;
    // sinter's exp is within 1 ulp (docs/math.md); then two roundings.
    if (!(std::abs(a(i) - want) <= 4 * 0x1p-52 * (std::exp(x) * 0.5 + std::abs(x)))) ++bad;
  }
  CHECK(bad == 0);
}

// A maths expression (tanh, exp: the explicit vector loop, streamed from
// the registers) streamed into an output `offset` elements into its buffer:
// the same bits as the pass without streaming, and a double loop's values.
template <class T, class P>
void check_streamed_maths(st::index_t n, st::index_t offset) {
  const auto va = random_values(static_cast<std::size_t>(n), 41), vb = random_values(static_cast<std::size_t>(n), 42),
             vc = random_values(static_cast<std::size_t>(n), 43);
  st::array<T, 1, P> a({n}), b({n}), c({n}), streamed({n + offset}), cached({n + offset});
  for (st::index_t i = 0; i < n; ++i) {
    a(i) = static_cast<T>(va[static_cast<std::size_t>(i)] / 10);
    b(i) = static_cast<T>(vb[static_cast<std::size_t>(i)] / 10);
    c(i) = static_cast<T>(vc[static_cast<std::size_t>(i)]);
  }
  for (int k = 0; k < 2; ++k) {
    streamed = T(7);
    cached = T(7);
    {
      sinter_test::streaming_scope off(false);
      if (k == 0) cached(st::slice(offset, st::end)) = st::tanh(a * T(0.5) + b) * c - st::sqrt(st::abs(a));
      else cached(st::slice(offset, st::end)) = st::exp(a + b) * T(2);
    }
    st::trace_scope t;
    if (k == 0) streamed(st::slice(offset, st::end)) = st::tanh(a * T(0.5) + b) * c - st::sqrt(st::abs(a));
    else streamed(st::slice(offset, st::end)) = st::exp(a + b) * T(2);
    const auto passes = t.passes();
    REQUIRE(passes.size() == 1);
    if (n > 0) CHECK_MESSAGE(passes[0].detail.find("streaming") != std::string::npos, passes[0].detail);
    for (st::index_t i = 0; i < offset; ++i) CHECK(streamed(i) == T(7));
    const double eps = static_cast<double>(std::numeric_limits<T>::epsilon());
    st::index_t differ = 0, bad = 0;
    for (st::index_t i = 0; i < n; ++i) {
      const T got = streamed(i + offset);
      if (!(got == cached(i + offset))) ++differ;
      const double x = static_cast<double>(a(i)), y = static_cast<double>(b(i)), z = static_cast<double>(c(i));
      const double want = k == 0 ? std::tanh(x * 0.5 + y) * z - std::sqrt(std::abs(x)) : std::exp(x + y) * 2;
      const double scale = k == 0 ? std::abs(z) + std::sqrt(std::abs(x)) : std::abs(want);
      if (!(std::abs(static_cast<double>(got) - want) <= 8 * eps * scale)) ++bad;
    }
    CHECK_MESSAGE(differ == 0, "n = " << n << ", offset = " << offset << ", kernel " << k << ": " << differ
                                      << " elements differ from the unstreamed pass");
    CHECK_MESSAGE(bad == 0, "n = " << n << ", offset = " << offset << ", kernel " << k << ": " << bad
                                   << " elements off the double loop");
  }
}

TEST_CASE_TEMPLATE("streaming stores: maths expressions, straight from the vector loop", P, st::host, st::par) {
  sinter_test::streaming_scope on(true);
  for (st::index_t n : sizes)
    for (st::index_t offset : {0, 1, 5}) {
      if (offset_sampled_out(n, offset)) continue;
      check_streamed_maths<float, P>(n, offset);
      check_streamed_maths<double, P>(n, offset);
    }
}

TEST_CASE("streaming threshold: default from the cache size, settable, off above the pass size") {
  const std::size_t saved = st::streaming_threshold();
  CHECK(saved > 0);
  st::set_streaming_threshold(4000);
  CHECK(st::streaming_threshold() == 4000);
  st::array<float, 1> a = st::linspace<float>(0, 1, 999), b({999}), c({1000});
  {
    st::trace_scope t;
    b = a + 1.f;       // 3996 bytes: below the threshold
    c = 2.f;           // 4000 bytes: at it
    const auto p = t.passes();
    REQUIRE(p.size() == 2);
    CHECK(p[0].detail == "contiguous");
    CHECK(p[1].detail == "contiguous streaming");
  }
  CHECK(b(998) == 2.f);
  CHECK(c(999) == 2.f);
  st::set_streaming_threshold(saved);
}

// The threshold's cache size (policy/host/cache.hpp): sysfs sizes parsed,
// the highest data or unified level chosen from a fake sysfs tree, and on
// Linux the default read from the real one (not glibc's sysconf, which on
// AMD reports the whole package's L3).
TEST_CASE("streaming threshold: last-level cache size from sysfs") {
  using st::detail::parse_cache_size;
  CHECK(parse_cache_size("32768K\n") == std::size_t{32} << 20);
  CHECK(parse_cache_size("1M") == std::size_t{1} << 20);
  CHECK(parse_cache_size("2G\n") == std::size_t{2} << 30);
  CHECK(parse_cache_size("512") == 512);
  CHECK(parse_cache_size("") == 0);
  CHECK(parse_cache_size("K") == 0);
  CHECK(parse_cache_size("12Q") == 0);
  CHECK(parse_cache_size("12K junk") == 0);

  using st::detail::parse_cpu_list_count;
  CHECK(parse_cpu_list_count("0-1\n") == 2);
  CHECK(parse_cpu_list_count("5") == 1);
  CHECK(parse_cpu_list_count("0,2,4-7\n") == 6);
  CHECK(parse_cpu_list_count("0-63,128-191") == 128);
  CHECK(parse_cpu_list_count("") == 0);
  CHECK(parse_cpu_list_count("3-1") == 0);
  CHECK(parse_cpu_list_count("0-") == 0);
  CHECK(parse_cpu_list_count("0,") == 0);
  CHECK(parse_cpu_list_count("0-1 ") == 0);

  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("sinter_cache_test_" + std::to_string(std::random_device{}()));
  // One cpu directory with the given caches: {level, type, size} each, and
  // optionally shared_cpu_list.
  const auto make_cpu = [&](const std::string& name, const std::vector<std::vector<std::string>>& caches) {
    for (std::size_t k = 0; k < caches.size(); ++k) {
      const fs::path d = root / name / "cache" / ("index" + std::to_string(k));
      fs::create_directories(d);
      const char* files[] = {"level", "type", "size", "shared_cpu_list"};
      for (std::size_t f = 0; f < caches[k].size(); ++f)
        if (!caches[k][f].empty()) std::ofstream(d / files[f]) << caches[k][f] << "\n";
    }
    return (root / name).string();
  };
  const auto llc = [](const std::string& dir) { return st::detail::sysfs_last_level_cache_bytes(dir.c_str()); };
  // A Zen 4 core: L1d, L1i, L2, and the L3 of its CCX.
  CHECK(llc(make_cpu("zen", {{"1", "Data", "32K"}, {"1", "Instruction", "32K"}, {"2", "Unified", "1024K"},
                             {"3", "Unified", "32768K"}})) == std::size_t{32} << 20);
  // No L3: the L2.
  CHECK(llc(make_cpu("l2", {{"1", "Data", "48K"}, {"2", "Unified", "2048K"}, {"1", "Instruction", "32K"}})) ==
        std::size_t{2} << 20);
  // An instruction cache never counts, even at the highest level listed.
  CHECK(llc(make_cpu("icache", {{"2", "Unified", "1M"}, {"3", "Instruction", "64M"}})) == std::size_t{1} << 20);
  // An unreadable size at the top level falls back to the next level; a
  // missing type file skips that cache.
  CHECK(llc(make_cpu("bad", {{"2", "Unified", "512K"}, {"3", "Unified", "lots"}, {"4", "", "1G"}})) ==
        std::size_t{512} << 10);
  // Two caches at one level: the larger.
  CHECK(llc(make_cpu("two", {{"3", "Unified", "16M"}, {"3", "Data", "96M"}, {"2", "Unified", "1M"}})) ==
        std::size_t{96} << 20);
  // A VM's two CPUs listed as sharing the whole host's 260 MiB L3 (the Xeon VM
  // of docs/journal/bench-2026-12.md): 32 MiB per CPU, so 64 MiB. A cache its CPUs could
  // own (16 CPUs, 32 MiB; 2 CPUs, 64 MiB) and one without a list are whole.
  constexpr std::size_t mib = std::size_t{1} << 20;
  CHECK(llc(make_cpu("vm", {{"1", "Data", "48K", "0"}, {"2", "Unified", "2048K", "0"},
                            {"3", "Unified", "266240K", "0-1"}})) == 64 * mib);
  CHECK(llc(make_cpu("ccx", {{"2", "Unified", "1024K", "0"}, {"3", "Unified", "32768K", "0-15"}})) == 32 * mib);
  CHECK(llc(make_cpu("even", {{"3", "Unified", "64M", "0,2"}})) == 64 * mib);
  CHECK(llc(make_cpu("one", {{"3", "Unified", "96M", "3"}})) == 32 * mib);
  CHECK(llc(make_cpu("nolist", {{"3", "Unified", "266240K"}})) == 260 * mib);
  CHECK(llc(make_cpu("badlist", {{"3", "Unified", "266240K", "0-x"}})) == 260 * mib);
  // A 1 GiB L3 of one CPU: 32 MiB, still the last level taken.
  CHECK(llc(make_cpu("capped", {{"2", "Unified", "2M", "0"}, {"3", "Unified", "1G", "0"}})) == 32 * mib);
  // Nothing there.
  CHECK(llc((root / "absent").string()) == 0);
  fs::remove_all(root);

#if defined(__linux__)
  const std::size_t real = st::detail::sysfs_last_level_cache_bytes("/sys/devices/system/cpu/cpu0");
  if (real > 0) CHECK(st::detail::last_level_cache_bytes() == real);
  if (real > 0 && !std::getenv("SINTER_STREAMING_THRESHOLD")) CHECK(st::detail::default_streaming_threshold() == real / 2);
#endif
}
