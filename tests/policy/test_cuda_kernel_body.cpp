// The CUDA kernel body (policy/cuda/kernel_body.hpp) executed on the CPU by a
// grid emulator: every (block, thread) of a grid runs the same SINTER_HD
// function the __global__ shell calls, with its own global thread index. This
// runs the GPU indexing (grid-stride loops, vector steps, scalar heads and
// tails, misaligned and strided operands, 32- and 64-bit indices) in CI, under
// AddressSanitizer in the sanitizer build, and compares every element with
// the host policy. The output sits between guard elements filled with a byte
// pattern that must survive: a write one element before or after the output
// (the vector step past a tail, a misaligned head) fails the test even where
// AddressSanitizer cannot see it. On the CPU the body calls the same host maths as the host
// policy, so results must match exactly; on a real GPU, CUDA's device maths
// differ from ours by at most their documented ULP bounds (2 ULP for expf,
// logf, sinf...; CUDA Programming Guide, "Mathematical Functions").
#include <doctest/doctest.h>

#include "support/random.hpp"
#include "support/scale.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <type_traits>
#include <sinter/sinter.hpp>
#include <vector>

namespace st = sinter;
namespace cd = st::detail::cuda_detail;

namespace {

/// What the vector loops of a run loaded: every leaf chunk's address and size
/// (counting_probe, the test's Probe for fused_body).
struct load_log {
  std::vector<const void*> addresses;
  std::size_t bytes = 0;
};
load_log* active_log = nullptr;  // where counting_probe records, if anywhere

/// The kernel body's Probe in this test: records each vector load of a leaf
/// in active_log (host only; no code on the device side of an nvcc build).
struct counting_probe {
  /// One leaf chunk of `bytes` bytes at p.
  SINTER_HD static void vector_load(const void* p, std::size_t bytes) {
#if !SINTER_DEVICE_CODE()
    if (active_log) {
      active_log->addresses.push_back(p);
      active_log->bytes += bytes;
    }
#else
    (void)p, (void)bytes;
#endif
  }
};

/// Run the kernel body over an emulated grid of `grid` blocks of `block`
/// threads, as a launch does: the dedup kernel's body (vector path only)
/// when use_dedup_kernel, else the fused kernel's.
template <class I, class T, std::size_t R, class Node>
void emulate(const st::detail::memory_leaf<T, R>& out, const Node& bound, unsigned grid, unsigned block) {
  const st::index_t n = st::detail::shape_size(out.shape);
  const cd::kernel_plan plan = cd::choose_plan(out, bound);
  const auto sources = cd::find_leaf_sources(bound);
  const bool dedup = cd::use_dedup_kernel<Node>(plan, sources);
  const I nthreads = static_cast<I>(grid) * static_cast<I>(block);
  for (unsigned b = 0; b < grid; ++b)
    for (unsigned t = 0; t < block; ++t) {
      const I tid = static_cast<I>(b) * block + t;
      if (dedup)
        cd::fused_body<I, true, counting_probe>(out, bound, sources, static_cast<I>(n), cd::kernel_path::vector,
                                                static_cast<I>(plan.head), tid, nthreads);
      else
        cd::fused_body<I, false, counting_probe>(out, bound, sources, static_cast<I>(n), plan.path,
                                                 static_cast<I>(plan.head), tid, nthreads);
    }
}

/// An output buffer of n elements starting `offset` elements past a 64-byte
/// boundary, with at least 64 bytes of guard elements before and after it,
/// all filled with a byte pattern the kernel must leave alone.
template <class T>
class guarded_output {
 public:
  static_assert(64 % sizeof(T) == 0);
  static constexpr std::size_t guard = 64 / sizeof(T);  // elements per 64 bytes
  static constexpr unsigned char pattern = 0xA5;

  guarded_output(std::size_t n, std::size_t offset)
      : n_(n), size_(3 * guard + offset + n), buf_(new T[size_]) {
    std::size_t k = 0;  // first 64-byte aligned element
    while (reinterpret_cast<std::uintptr_t>(buf_.get() + k) % 64 != 0) ++k;
    REQUIRE(k < guard);
    first_ = k + guard + offset;
    std::memset(static_cast<void*>(buf_.get()), pattern, size_ * sizeof(T));
  }
  T* data() { return buf_.get() + first_; }
  /// Guard elements (before and after the output) whose bytes changed.
  std::size_t touched_guards() const {
    std::size_t bad = 0;
    for (std::size_t i = 0; i < size_; ++i) {
      if (i >= first_ && i < first_ + n_) continue;
      const auto* bytes = reinterpret_cast<const unsigned char*>(buf_.get() + i);
      for (std::size_t b = 0; b < sizeof(T); ++b)
        if (bytes[b] != pattern) {
          ++bad;
          break;
        }
    }
    return bad;
  }
  std::size_t guards_before() const { return first_; }
  std::size_t guards_after() const { return size_ - first_ - n_; }
  std::vector<T> values() const { return std::vector<T>(buf_.get() + first_, buf_.get() + first_ + n_); }

 private:
  std::size_t n_;
  std::size_t size_;
  std::unique_ptr<T[]> buf_;  // not std::vector: vector<bool> has no data()
  std::size_t first_ = 0;
};

/// Evaluate `e` with the emulator into a guarded buffer of out_shape that
/// starts `out_offset` elements past a 64-byte boundary, after the same
/// binding and plan choice as a launch; check the guards; return the values.
template <class T, class I, std::size_t R, class E>
std::vector<T> run_emulated(const E& e, const st::extents<R>& out_shape, unsigned grid, unsigned block,
                            cd::kernel_plan* plan_taken = nullptr, std::size_t out_offset = 0) {
  guarded_output<T> buf(static_cast<std::size_t>(st::detail::shape_size(out_shape)), out_offset);
  CHECK(buf.guards_before() >= guarded_output<T>::guard);
  CHECK(buf.guards_after() >= guarded_output<T>::guard);
  const st::detail::memory_leaf<T, R> out{buf.data(), out_shape, st::detail::row_major_strides(out_shape)};
  const auto bound = e.node().bind(out_shape);
  if (plan_taken) *plan_taken = cd::choose_plan(out, bound);
  emulate<I>(out, bound, grid, block);
  CHECK_MESSAGE(buf.touched_guards() == 0, "grid " << grid << " x block " << block << ", "
                                                    << 8 * sizeof(I) << "-bit index: wrote outside the output");
  return buf.values();
}

std::vector<float> random_floats(std::size_t n, unsigned seed, float lo = -3.f, float hi = 3.f) {
  return sinter_test::random_vector(n, seed, lo, hi);
}

/// The plan a test expects: a path and, on the vector path, the scalar head.
struct expect_plan {
  cd::kernel_path path;
  int head = 0;
  expect_plan(cd::kernel_path p, int h = 0) : path(p), head(h) {}  // NOLINT(google-explicit-constructor)
};

/// Emulated grids: all of them for small sizes; one realistic grid (40
/// blocks of 256, a grid-stride loop of ~100 steps at 2^20) for large ones.
enum class grids { all, one };

/// The large size of the "all sizes" cases: 2^20 + 3, and 2^18 + 3 (still
/// ~25 grid-stride steps, 6 on the vector path) in Debug and sanitizer builds
/// (support/scale.hpp): under ASan and UBSan the file took 77 s, now 23.
constexpr st::index_t large_n = (st::index_t{1} << (sinter_test::scale > 1 ? 18 : 20)) + 3;

/// What a test expects the vector loops to load: `per_step` leaf chunks per
/// vector step (one per distinct array of the output's element size; more
/// for wider leaves), and with `unique` no chunk address loaded twice.
struct expect_loads {
  std::size_t per_step;
  bool unique = false;
};

/// The emulator's value against the host's: bit for bit, except that under
/// run-time dispatch (policy/host/dispatch.hpp) the host's maths run at the
/// CPU's width with FMA, or call the C library, a few ulp from the build's
/// (relative to 1 at least: the data are of order 1 and may cancel).
template <class T>
bool host_match(T got, T r) {
  if (got == r || (got != got && r != r)) return true;
  if constexpr (std::is_floating_point_v<T>) {
    if (!st::cpu_dispatch) return false;
    const T scale = std::max(std::abs(r), T(1));
    return std::abs(got - r) <= T(8) * std::numeric_limits<T>::epsilon() * scale;
  }
  return false;
}

/// Run `e` under the emulator with both index widths (32- and 64-bit) on each
/// grid, the output `out_offset` elements past a 64-byte boundary; compare
/// every element with the host policy and check the plan taken, path and
/// head (nullopt: any plan, for an empty pass, which launches nothing), and
/// if given the leaf chunks the vector loops loaded.
template <class T, class E, std::size_t R>
void check_against_host(const E& e, const st::extents<R>& shape, std::optional<expect_plan> expect,
                        std::size_t out_offset = 0, grids which = grids::all,
                        std::optional<expect_loads> loads = std::nullopt) {
  const st::array<T, R> ref = e;  // the host policy
  const std::vector<unsigned> grid_sizes = which == grids::all ? std::vector<unsigned>{1u, 3u, 7u}
                                                               : std::vector<unsigned>{40u};
  const std::vector<unsigned> block_sizes = which == grids::all ? std::vector<unsigned>{1u, 32u, 256u}
                                                                : std::vector<unsigned>{256u};
  for (unsigned grid : grid_sizes) {
    for (unsigned block : block_sizes) {
      cd::kernel_plan p32{}, p64{};
      load_log log32, log64;
      active_log = &log32;
      const auto got32 = run_emulated<T, std::uint32_t>(e, shape, grid, block, &p32, out_offset);
      active_log = &log64;
      const auto got64 = run_emulated<T, st::index_t>(e, shape, grid, block, &p64, out_offset);
      active_log = nullptr;
      REQUIRE(got32.size() == static_cast<std::size_t>(ref.size()));
      if (expect) {
        CHECK(p32.path == expect->path);
        CHECK(p64.path == expect->path);
        CHECK(p32.head == expect->head);
        CHECK(p64.head == expect->head);
      }
      if (loads) {
        // vector steps of the pass: nv = (n - head) / W on the vector path
        const auto n = static_cast<std::size_t>(ref.size());
        const auto head = static_cast<std::size_t>(p32.head);
        const std::size_t steps = p32.path == cd::kernel_path::vector && n > head
                                      ? (n - head) / static_cast<std::size_t>(cd::vector_width_v<T>)
                                      : 0;
        for (load_log* log : {&log32, &log64}) {
          CHECK_MESSAGE(log->addresses.size() == loads->per_step * steps,
                        "grid " << grid << " x block " << block << ": " << log->addresses.size()
                                << " leaf chunks loaded over " << steps << " vector steps, expected "
                                << loads->per_step << " per step");
          if (loads->unique) {
            std::sort(log->addresses.begin(), log->addresses.end());
            CHECK(std::adjacent_find(log->addresses.begin(), log->addresses.end()) == log->addresses.end());
          }
        }
      }
      std::size_t bad = 0;
      const T* r = ref.data();
      for (std::size_t i = 0; i < got32.size(); ++i)
        if (!host_match(got32[i], r[i]) || !(got64[i] == got32[i] || got64[i] != got64[i])) ++bad;
      CHECK_MESSAGE(bad == 0, "grid " << grid << " x block " << block << ": " << bad << " mismatches");
    }
  }
}

}  // namespace

TEST_CASE("grid emulator: contiguous aligned operands take the vector path, all sizes") {
  for (st::index_t n : std::initializer_list<st::index_t>{0, 1, 3, 4, 5, 1023, large_n}) {
    CAPTURE(n);
    auto va = random_floats(static_cast<std::size_t>(n), 1), vb = random_floats(static_cast<std::size_t>(n), 2);
    st::array<float, 1> a({n}), b({n});
    std::copy(va.begin(), va.end(), a.begin());
    std::copy(vb.begin(), vb.end(), b.begin());
    // host arrays are 64-byte aligned: the vector path (16-byte accesses)
    const auto expect = cd::kernel_path::vector;
    // both index widths at every size, large_n included
    check_against_host<float>(st::detail::as_expr(st::exp(a + b) * 2.f), st::extents<1>{n}, expect, 0,
                              n <= 1023 ? grids::all : grids::one);
  }
}

TEST_CASE("grid emulator: operands misaligned differently take the scalar contiguous path, all sizes") {
  // Views 1 and 3 elements (4 and 12 bytes) past a 64-byte boundary next to
  // aligned ones: no head aligns every pointer, so the whole pass is the
  // scalar loop. (The same offset everywhere takes the vector path after a
  // head: the next test.)
  for (st::index_t n : std::initializer_list<st::index_t>{0, 1, 3, 5, 1023, large_n}) {
    for (st::index_t off : {1, 3}) {
      CAPTURE(n);
      CAPTURE(off);
      const auto total = static_cast<std::size_t>(n + off);
      auto va = random_floats(total, 11), vb = random_floats(total, 12);
      st::array<float, 1> a({n + off}), b({n + off});
      std::copy(va.begin(), va.end(), a.begin());
      std::copy(vb.begin(), vb.end(), b.begin());
      auto a_mis = a(st::slice(off, off + n)), b_mis = b(st::slice(off, off + n));
      auto a_ali = a(st::slice(0, n)), b_ali = b(st::slice(0, n));
      const auto which = n <= 1023 ? grids::all : grids::one;
      const auto uoff = static_cast<std::size_t>(off);
      // an empty pass launches nothing: its path does not matter
      const auto scalar = n == 0 ? std::nullopt : std::optional(cd::kernel_path::contiguous);
      // misaligned inputs, aligned output
      check_against_host<float>(st::detail::as_expr(st::sqrt(st::abs(a_mis)) * b_mis + 1.f), st::extents<1>{n},
                                scalar, 0, which);
      // aligned inputs, misaligned output
      check_against_host<float>(st::detail::as_expr(a_ali * 2.f - b_ali), st::extents<1>{n},
                                scalar, uoff, which);
      // one aligned and one misaligned input: still scalar
      check_against_host<float>(st::detail::as_expr(a_ali + b_mis), st::extents<1>{n},
                                scalar, 0, which);
    }
  }
}

TEST_CASE("grid emulator: views sharing one misalignment take the vector path after a scalar head, all sizes") {
  // Output and inputs all 1 or 3 floats past a 64-byte boundary: a head of
  // h = 4 - offset elements aligns every pointer, so the vector loop runs
  // over [h, h + 4 nv) and one scalar loop does the head and the tail. Sizes
  // below h + 4 run no vector step (n = 1, 3 are shorter than the head).
  for (st::index_t n : std::initializer_list<st::index_t>{0, 1, 3, 4, 5, 1023, large_n}) {
    for (st::index_t off : {1, 3}) {
      CAPTURE(n);
      CAPTURE(off);
      const auto total = static_cast<std::size_t>(n + off);
      auto va = random_floats(total, 13), vb = random_floats(total, 14);
      st::array<float, 1> a({n + off}), b({n + off});
      std::copy(va.begin(), va.end(), a.begin());
      std::copy(vb.begin(), vb.end(), b.begin());
      auto a_mis = a(st::slice(off, off + n)), b_mis = b(st::slice(off, off + n));
      const auto which = n <= 1023 ? grids::all : grids::one;
      const auto uoff = static_cast<std::size_t>(off);
      const int head = 4 - static_cast<int>(off);
      // an empty pass launches nothing: its plan does not matter
      const auto vec = n == 0 ? std::nullopt : std::optional(expect_plan(cd::kernel_path::vector, head));
      check_against_host<float>(st::detail::as_expr(a_mis * b_mis), st::extents<1>{n}, vec, uoff, which);
      check_against_host<float>(st::detail::as_expr(st::exp(a_mis + b_mis) * 2.f), st::extents<1>{n}, vec,
                                uoff, which);
    }
  }
}

TEST_CASE("grid emulator: the head for each element offset and width") {
  // choose_plan alone: views k elements past a 64-byte boundary need
  // (W - k % W) % W head elements: W = 4 for float, 2 for double, 8 for half.
  st::array<float, 1> f({64});
  st::array<double, 1> d({64});
  st::array<st::half, 1> h({64});
  const st::index_t n = 32;
  const st::extents<1> shape{n};
  const auto check_heads = [&](auto& arr, int w) {
    using T = typename std::remove_cvref_t<decltype(arr)>::value_type;
    for (st::index_t k = 0; k < 16; ++k) {
      CAPTURE(k);
      CAPTURE(w);
      auto v = arr(st::slice(k, k + n));
      const st::detail::memory_leaf<T, 1> out{arr.data() + k, shape, st::extents<1>{1}};
      const auto bound = st::detail::as_expr(v * v).node().bind(shape);
      const cd::kernel_plan p = cd::choose_plan(out, bound);
      CHECK(p.path == cd::kernel_path::vector);
      CHECK(p.head == (w - static_cast<int>(k) % w) % w);
      CHECK(cd::vector_aligned(out, bound, p.head));
      CHECK(cd::vector_aligned(out, bound) == (p.head == 0));
    }
  };
  check_heads(f, 4);
  check_heads(d, 2);
  check_heads(h, 8);
}

TEST_CASE("grid emulator: mixed types at one element offset take the vector path after a head") {
  // f32 output, f64 and i32 inputs: W = 4 floats per step, so each pointer
  // plus h elements must be 16-byte aligned. At one element offset k for all
  // three, h = 4 - k does it (the double input, 8 bytes per element, is then
  // 32-byte aligned). With the double 2 elements further on (16 bytes) the
  // same head still does; with the int 2 further on (8 bytes), or the double
  // 1 further on (8 bytes), no head aligns every pointer: contiguous, all
  // scalar.
  for (st::index_t n : std::initializer_list<st::index_t>{0, 1, 3, 4, 5, 1023, large_n}) {
    for (st::index_t off : {1, 3}) {
      CAPTURE(n);
      CAPTURE(off);
      const auto total = static_cast<std::size_t>(n + off + 2);
      auto va = random_floats(total, 15);
      st::array<double, 1> d({n + off + 2});
      st::array<std::int32_t, 1> i({n + off + 2});
      for (std::size_t k = 0; k < total; ++k) {
        d.data()[k] = static_cast<double>(va[k]) * 1.25;
        i.data()[k] = static_cast<std::int32_t>(k % 61) - 30;
      }
      const auto d_at = [&](st::index_t o) { return d(st::slice(o, o + n)); };
      const auto i_at = [&](st::index_t o) { return i(st::slice(o, o + n)); };
      const auto which = n <= 1023 ? grids::all : grids::one;
      const auto uoff = static_cast<std::size_t>(off);
      // an empty pass launches nothing: its plan does not matter
      const auto expect = [&](cd::kernel_path p, int head) {
        return n == 0 ? std::nullopt : std::optional(expect_plan(p, head));
      };
      const int head = 4 - static_cast<int>(off);
      const st::extents<1> shape{n};
      // one offset everywhere: vector after a head of 4 - off
      check_against_host<float>(st::detail::as_expr(st::cast<float>(d_at(off) * 0.5 + i_at(off))), shape,
                                expect(cd::kernel_path::vector, head), uoff, which);
      // the double 2 elements further on (16 bytes): the same head aligns it
      check_against_host<float>(st::detail::as_expr(st::cast<float>(d_at(off + 2) - i_at(off))), shape,
                                expect(cd::kernel_path::vector, head), uoff, which);
      // the int 2 elements further on (8 bytes): no head aligns every pointer
      check_against_host<float>(st::detail::as_expr(st::cast<float>(d_at(off) * i_at(off + 2))), shape,
                                expect(cd::kernel_path::contiguous, 0), uoff, which);
      // the double 1 element further on (8 bytes): neither
      check_against_host<float>(st::detail::as_expr(st::cast<float>(d_at(off + 1) + i_at(off))), shape,
                                expect(cd::kernel_path::contiguous, 0), uoff, which);
    }
  }
}

TEST_CASE("grid emulator: the shell's index width switch (32-bit up to INT_MAX elements)") {
  static_assert(cd::use_32bit_index(0));
  static_assert(cd::use_32bit_index(st::index_t{INT_MAX}));
  static_assert(!cd::use_32bit_index(st::index_t{INT_MAX} + 1));
  CHECK(cd::use_32bit_index(0));
  CHECK(cd::use_32bit_index((1 << 20) + 3));
  CHECK(cd::use_32bit_index((st::index_t{1} << 31) - 1));  // 2^31 - 1: the last 32-bit size
  CHECK_FALSE(cd::use_32bit_index(st::index_t{1} << 31));   // 2^31: 64-bit indices
  CHECK_FALSE(cd::use_32bit_index((st::index_t{1} << 32) + 5));
}

TEST_CASE("grid emulator: misaligned views take the scalar contiguous path") {
  const st::index_t n = 1000;
  auto va = random_floats(static_cast<std::size_t>(n + 1), 3);
  st::array<float, 1> a({n + 1});
  std::copy(va.begin(), va.end(), a.begin());
  auto shifted = a(st::slice(1, st::end));  // 4 bytes past a 64-byte boundary
  check_against_host<float>(st::detail::as_expr(st::sqrt(st::abs(shifted)) + 1.f), st::extents<1>{n},
                            cd::kernel_path::contiguous);
}

TEST_CASE("grid emulator: the PTX proof's rows 3 and 4 take the strided path at run time") {
  // tests/cuda/ptx/ptx_cases.cu marks these `path=strided`: their vector loop
  // is compiled but never runs.
  const st::index_t r = 64, c = 64;
  auto vm = random_floats(static_cast<std::size_t>(r * c), 21), vrow = random_floats(static_cast<std::size_t>(c), 22);
  st::array<float, 2> m({r, c});
  std::copy(vm.begin(), vm.end(), m.begin());
  st::array<float, 1> a({c}), b({c});
  std::copy(vrow.begin(), vrow.end(), a.begin());
  std::copy(vm.begin(), vm.begin() + c, b.begin());
  // 3: m + row, the row broadcast over the rows
  check_against_host<float>(st::detail::as_expr(m + a), st::extents<2>{r, c}, cd::kernel_path::strided);
  // 4: a[::2] * 2 + b[1::2]
  check_against_host<float>(st::detail::as_expr(a(st::slice(st::none, st::none, 2)) * 2.f +
                                                b(st::slice(1, st::none, 2))),
                            st::extents<1>{c / 2}, cd::kernel_path::strided);
  // while rows 1 and 13 (contiguous, aligned) take the vector path
  check_against_host<float>(st::detail::as_expr(st::exp(a + b) * 2.f), st::extents<1>{c}, cd::kernel_path::vector);
  check_against_host<float>(st::detail::as_expr(a + b), st::extents<1>{c}, cd::kernel_path::vector);
}

TEST_CASE("grid emulator: broadcast and strided operands take the strided path") {
  const st::index_t rows = 37, cols = 129;
  auto vm = random_floats(static_cast<std::size_t>(rows * cols * 2), 4);
  auto vr = random_floats(static_cast<std::size_t>(cols), 5);
  st::array<float, 2> m({rows, cols * 2});
  std::copy(vm.begin(), vm.end(), m.begin());
  st::array<float, 1> row({cols});
  std::copy(vr.begin(), vr.end(), row.begin());
  auto strided = m(st::all, st::slice(st::none, st::none, 2));
  check_against_host<float>(st::detail::as_expr(st::tanh(strided * row) - row), st::extents<2>{rows, cols},
                            cd::kernel_path::strided);
  // a reversed, transposed view of doubles with an integer column broadcast
  st::array<double, 2> d = st::reshape(st::linspace<double>(-2, 2, rows * cols), {rows, cols});
  st::array<int, 2> col = st::reshape(st::arange<int>(rows), {rows, 1});
  auto rev = st::transpose(d(st::slice(st::none, st::none, -1), st::all));
  check_against_host<double>(st::detail::as_expr(st::where(rev > 0.0, rev, 0.5) * 3),
                             st::extents<2>{cols, rows}, cd::kernel_path::strided);
  check_against_host<double>(st::detail::as_expr(d * col), st::extents<2>{rows, cols}, cd::kernel_path::strided);
}

TEST_CASE("grid emulator: mixed types, half storage and generators on the vector path") {
  const st::index_t n = 1021;  // prime: a scalar tail for every vector width
  auto va = random_floats(static_cast<std::size_t>(n), 6);
  st::array<st::half, 1> h({n});
  st::array<double, 1> d({n});
  for (st::index_t i = 0; i < n; ++i) {
    h(i) = st::half(va[static_cast<std::size_t>(i)]);
    d(i) = static_cast<double>(va[static_cast<std::size_t>(i)]) * 0.5;
  }
  // half output: 8 elements (16 bytes) per vector step
  check_against_host<st::half>(st::detail::as_expr(st::cast<st::half>(st::exp(st::cast<float>(h)) * 0.5f)),
                               st::extents<1>{n}, cd::kernel_path::vector);
  // float output reading double: 32-byte chunks of the double input
  check_against_host<float>(st::detail::as_expr(st::cast<float>(d * 2.0 + st::arange<double>(n))),
                            st::extents<1>{n}, cd::kernel_path::vector);
  // integer division by a generator that includes zero
  st::array<std::int32_t, 1> ia = st::arange<std::int32_t>(n) * 7 - 3000;
  check_against_host<std::int32_t>(st::detail::as_expr(ia / (st::arange<std::int32_t>(n) % 5) + ia % 3),
                                   st::extents<1>{n}, cd::kernel_path::vector);
}

// ---- an array used twice is read once per vector step (leaf_dedup.hpp) ----

TEST_CASE("grid emulator: an array used twice in the PTX proof's case 10 is loaded once per vector step") {
  // tanh(a*0.5+b)*c - sqrt(abs(a)): four memory leaves, three arrays. The
  // host finds the repeat, the dedup kernel's body runs, and each vector step
  // loads 3 chunks, never one address twice; with a fourth array d in place
  // of the second a, the fused kernel's body loads 4. Aligned arrays (vector
  // path from 0) and views sharing one offset (vector path after a head).
  for (st::index_t n : std::initializer_list<st::index_t>{0, 1, 3, 5, 1023, large_n}) {
    for (st::index_t off : {0, 1, 3}) {
      CAPTURE(n);
      CAPTURE(off);
      const auto total = static_cast<std::size_t>(n + off);
      st::array<float, 1> a({n + off}), b({n + off}), c({n + off}), d({n + off});
      for (auto* x : {&a, &b, &c, &d}) {
        const auto v = random_floats(total, static_cast<unsigned>(31 + (x - &a)));
        std::copy(v.begin(), v.end(), x->begin());
      }
      auto va = a(st::slice(off, off + n)), vb = b(st::slice(off, off + n)), vc = c(st::slice(off, off + n)),
           vd = d(st::slice(off, off + n));
      const auto which = n <= 1023 ? grids::all : grids::one;
      const auto uoff = static_cast<std::size_t>(off);
      const int head = off == 0 ? 0 : 4 - static_cast<int>(off);
      const auto vec = n == 0 ? std::nullopt : std::optional(expect_plan(cd::kernel_path::vector, head));
      const st::extents<1> shape{n};
      const auto twice = st::detail::as_expr(st::tanh(va * 0.5f + vb) * vc - st::sqrt(st::abs(va)));
      const auto bound = twice.node().bind(shape);
      const auto sources = cd::find_leaf_sources(bound);
      // (n + off = 0: four empty arrays, null pointers, all one view)
      if (n + off > 0) {
        CHECK(sources.src[0] == 0);
        CHECK(sources.src[1] == 1);
        CHECK(sources.src[2] == 2);
        CHECK(sources.src[3] == 0);  // the second a takes the first's chunk
        CHECK(sources.repeats() == 1);
      }
      check_against_host<float>(twice, shape, vec, uoff, which, expect_loads{3, true});
      const auto four = st::detail::as_expr(st::tanh(va * 0.5f + vb) * vc - st::sqrt(st::abs(vd)));
      if (n + off > 0) CHECK(cd::find_leaf_sources(four.node().bind(shape)).repeats() == 0);
      check_against_host<float>(four, shape, vec, uoff, which, expect_loads{4, true});
    }
  }
}

TEST_CASE("grid emulator: views that are not the same array are not merged") {
  const st::index_t n = 1023;
  st::array<float, 1> a({2 * n + 8});
  const auto va = random_floats(static_cast<std::size_t>(2 * n + 8), 41);
  std::copy(va.begin(), va.end(), a.begin());
  const st::extents<1> shape{n};
  // overlapping views one element apart: different pointers, no common head
  // aligns both: contiguous (scalar), nothing merged
  auto lo = a(st::slice(0, n)), hi1 = a(st::slice(1, n + 1));
  const auto one = st::detail::as_expr(lo * 2.f + hi1 * lo);
  const auto s1 = cd::find_leaf_sources(one.node().bind(shape));
  CHECK(s1.src[1] == 1);  // hi1: its own
  CHECK(s1.src[2] == 0);  // the second lo: the first's
  check_against_host<float>(one, shape, cd::kernel_path::contiguous, 0, grids::all, expect_loads{0});
  // four elements apart (16 bytes): both aligned, vector path, still two
  // arrays: lo loaded once per step (its repeat merged), hi4 once
  auto hi4 = a(st::slice(4, n + 4));
  const auto four = st::detail::as_expr(lo * 2.f + hi4 * lo);
  const auto s4 = cd::find_leaf_sources(four.node().bind(shape));
  CHECK(s4.src[1] == 1);
  CHECK(s4.src[2] == 0);
  check_against_host<float>(four, shape, cd::kernel_path::vector, 0, grids::all, expect_loads{2});
  // one pointer, one shape, two stride vectors: rows of 16 as [r, 0:16] of
  // a [r, 16] reshape and of a [r, 32] reshape: not merged (strided path)
  const st::index_t rows = 8;
  auto m16 = st::reshape(a(st::slice(0, rows * 16)), {rows, 16});
  auto m32 = st::reshape(a(st::slice(0, rows * 32)), {rows, 32})(st::all, st::slice(0, 16));
  const st::extents<2> shape2{rows, 16};
  const auto strides = st::detail::as_expr(m16 - m32 * 3.f);
  const auto b2 = strides.node().bind(shape2);
  CHECK(cd::find_leaf_sources(b2).repeats() == 0);
  check_against_host<float>(strides, shape2, cd::kernel_path::strided, 0, grids::all, expect_loads{0});
  // the same rows with the same strides are one array
  const auto same = st::detail::as_expr(m32 - m32 * 3.f);
  CHECK(cd::find_leaf_sources(same.node().bind(shape2)).repeats() == 1);
  check_against_host<float>(same, shape2, cd::kernel_path::strided, 0, grids::all, expect_loads{0});
  // two unit layouts of one pointer whose strides differ only on an axis of
  // extent 1: the same elements, but only identical views are merged
  using leaf = st::detail::memory_leaf<const float, 2>;
  const leaf x{a.data(), {1, n}, {n, 1}}, y{a.data(), {1, n}, {5, 1}};
  CHECK(x.unit());
  CHECK(y.unit());
  const st::detail::map_node<st::detail::ops::add, leaf, leaf> xy{st::detail::ops::add{}, st::detail::make_pack(x, y), {1, n}};
  CHECK(cd::find_leaf_sources(xy).repeats() == 0);
  const st::detail::map_node<st::detail::ops::add, leaf, leaf> xx{st::detail::ops::add{}, st::detail::make_pack(x, x), {1, n}};
  CHECK(cd::find_leaf_sources(xx).repeats() == 1);
}

TEST_CASE("grid emulator: repeats among mixed types, half, bool, generators and where") {
  const st::index_t n = 1021;  // prime: a scalar tail for every width
  const auto v = random_floats(static_cast<std::size_t>(n), 51);
  st::array<float, 1> a({n}), b({n});
  st::array<double, 1> d({n});
  st::array<std::int32_t, 1> i({n});
  st::array<st::half, 1> h({n}), g({n});
  for (st::index_t k = 0; k < n; ++k) {
    const float x = v[static_cast<std::size_t>(k)];
    a(k) = x;
    b(k) = x * 0.75f - 0.5f;
    d(k) = static_cast<double>(x) * 1.5;
    i(k) = static_cast<std::int32_t>(k % 37) - 18;
    h(k) = st::half(x);
    g(k) = st::half(x * 0.25f);
  }
  const st::extents<1> shape{n};
  const auto vec = cd::kernel_path::vector;
  // f32 out: a (16 B), d (two 16-byte halves of one 32-byte chunk), i, a
  // again: 3 leaf chunks per step, the d and i leaves are no twins of a
  check_against_host<float>(st::detail::as_expr(st::cast<float>(a * d + i) - a), shape, vec, 0, grids::all,
                            expect_loads{3, true});
  // d used twice (double twins in a float expression), a generator between
  check_against_host<float>(st::detail::as_expr(st::cast<float>(d * st::arange<double>(n) + d) * a), shape, vec,
                            0, grids::all, expect_loads{2, true});
  // half out, 8 lanes per step: h twice, g once
  check_against_host<st::half>(
      st::detail::as_expr(st::cast<st::half>(st::cast<float>(h) * st::cast<float>(g) + st::cast<float>(h))), shape,
      vec, 0, grids::all, expect_loads{2, true});
  // bool out, 16 lanes: a > a reads a once (64 bytes of float per step)
  check_against_host<bool>(st::detail::as_expr(a > a), shape, vec, 0, grids::all, expect_loads{1, true});
  check_against_host<bool>(st::detail::as_expr(a > b), shape, vec, 0, grids::all, expect_loads{2, true});
  // where with the condition's array repeated in both branches; a, b, a, b
  check_against_host<float>(st::detail::as_expr(st::where(a > b, a * 2.f, b - a) + st::arange<float>(n)), shape,
                            vec, 0, grids::all, expect_loads{2, true});
  // three leaves, the third a repeat of the second: a, b, b
  check_against_host<float>(st::detail::as_expr(a * b + st::exp(b)), shape, vec, 0, grids::all,
                            expect_loads{2, true});
  // all four the same array
  check_against_host<float>(st::detail::as_expr((a + a) * (a - a)), shape, vec, 0, grids::all,
                            expect_loads{1, true});
  // an array (a dense leaf) and a whole view of it (an ordinary leaf): one load
  const auto whole = st::detail::as_expr(a * 2.f + a(st::slice(0, n)));
  CHECK(cd::find_leaf_sources(whole.node().bind(shape)).repeats() == 1);
  check_against_host<float>(whole, shape, vec, 0, grids::all, expect_loads{1, true});
}
