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

#include <climits>
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <sinter/sinter.hpp>
#include <vector>

namespace st = sinter;
namespace cd = st::detail::cuda_detail;

namespace {

/// Run the kernel body over an emulated grid of `grid` blocks of `block` threads.
template <class I, class T, std::size_t R, class Node>
void emulate(const st::detail::memory_leaf<T, R>& out, const Node& bound, unsigned grid, unsigned block) {
  const st::index_t n = st::detail::shape_size(out.shape);
  const cd::kernel_plan plan = cd::choose_plan(out, bound);
  const I nthreads = static_cast<I>(grid) * static_cast<I>(block);
  for (unsigned b = 0; b < grid; ++b)
    for (unsigned t = 0; t < block; ++t)
      cd::fused_body<I>(out, bound, static_cast<I>(n), plan.path, static_cast<I>(plan.head),
                        static_cast<I>(b) * block + t, nthreads);
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

  guarded_output(std::size_t n, std::size_t offset) : n_(n), buf_(3 * guard + offset + n) {
    std::size_t k = 0;  // first 64-byte aligned element
    while (reinterpret_cast<std::uintptr_t>(buf_.data() + k) % 64 != 0) ++k;
    REQUIRE(k < guard);
    first_ = k + guard + offset;
    std::memset(static_cast<void*>(buf_.data()), pattern, buf_.size() * sizeof(T));
  }
  T* data() { return buf_.data() + first_; }
  /// Guard elements (before and after the output) whose bytes changed.
  std::size_t touched_guards() const {
    std::size_t bad = 0;
    for (std::size_t i = 0; i < buf_.size(); ++i) {
      if (i >= first_ && i < first_ + n_) continue;
      const auto* bytes = reinterpret_cast<const unsigned char*>(buf_.data() + i);
      for (std::size_t b = 0; b < sizeof(T); ++b)
        if (bytes[b] != pattern) {
          ++bad;
          break;
        }
    }
    return bad;
  }
  std::size_t guards_before() const { return first_; }
  std::size_t guards_after() const { return buf_.size() - first_ - n_; }
  std::vector<T> values() const {
    return {buf_.begin() + static_cast<std::ptrdiff_t>(first_),
            buf_.begin() + static_cast<std::ptrdiff_t>(first_ + n_)};
  }

 private:
  std::size_t n_;
  std::vector<T> buf_;
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
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = d(g);
  return v;
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

/// Run `e` under the emulator with both index widths (32- and 64-bit) on each
/// grid, the output `out_offset` elements past a 64-byte boundary; compare
/// every element with the host policy and check the plan taken, path and
/// head (nullopt: any plan, for an empty pass, which launches nothing).
template <class T, class E, std::size_t R>
void check_against_host(const E& e, const st::extents<R>& shape, std::optional<expect_plan> expect,
                        std::size_t out_offset = 0, grids which = grids::all) {
  const st::array<T, R> ref = e;  // the host policy
  const std::vector<unsigned> grid_sizes = which == grids::all ? std::vector<unsigned>{1u, 3u, 7u}
                                                               : std::vector<unsigned>{40u};
  const std::vector<unsigned> block_sizes = which == grids::all ? std::vector<unsigned>{1u, 32u, 256u}
                                                                : std::vector<unsigned>{256u};
  for (unsigned grid : grid_sizes) {
    for (unsigned block : block_sizes) {
      cd::kernel_plan p32{}, p64{};
      const auto got32 = run_emulated<T, std::uint32_t>(e, shape, grid, block, &p32, out_offset);
      const auto got64 = run_emulated<T, st::index_t>(e, shape, grid, block, &p64, out_offset);
      REQUIRE(got32.size() == static_cast<std::size_t>(ref.size()));
      if (expect) {
        CHECK(p32.path == expect->path);
        CHECK(p64.path == expect->path);
        CHECK(p32.head == expect->head);
        CHECK(p64.head == expect->head);
      }
      std::size_t bad = 0;
      const T* r = ref.data();
      for (std::size_t i = 0; i < got32.size(); ++i)
        if (!(got32[i] == r[i] || (got32[i] != got32[i] && r[i] != r[i])) || !(got64[i] == got32[i] || got64[i] != got64[i]))
          ++bad;
      CHECK_MESSAGE(bad == 0, "grid " << grid << " x block " << block << ": " << bad << " mismatches");
    }
  }
}

}  // namespace

TEST_CASE("grid emulator: contiguous aligned operands take the vector path, all sizes") {
  for (st::index_t n : {0, 1, 3, 4, 5, 1023, (1 << 20) + 3}) {
    CAPTURE(n);
    auto va = random_floats(static_cast<std::size_t>(n), 1), vb = random_floats(static_cast<std::size_t>(n), 2);
    st::array<float, 1> a({n}), b({n});
    std::copy(va.begin(), va.end(), a.begin());
    std::copy(vb.begin(), vb.end(), b.begin());
    // host arrays are 64-byte aligned: the vector path (16-byte accesses)
    const auto expect = cd::kernel_path::vector;
    // both index widths at every size, 2^20 + 3 included
    check_against_host<float>(st::detail::as_expr(st::exp(a + b) * 2.f), st::extents<1>{n}, expect, 0,
                              n <= 1023 ? grids::all : grids::one);
  }
}

TEST_CASE("grid emulator: operands misaligned differently take the scalar contiguous path, all sizes") {
  // Views 1 and 3 elements (4 and 12 bytes) past a 64-byte boundary next to
  // aligned ones: no head aligns every pointer, so the whole pass is the
  // scalar loop. (The same offset everywhere takes the vector path after a
  // head: the next test.)
  for (st::index_t n : {0, 1, 3, 5, 1023, (1 << 20) + 3}) {
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
  for (st::index_t n : {0, 1, 3, 4, 5, 1023, (1 << 20) + 3}) {
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
  for (st::index_t n : {0, 1, 3, 4, 5, 1023, (1 << 20) + 3}) {
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
