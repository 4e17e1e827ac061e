// The CUDA kernel body (policy/cuda/kernel_body.hpp) executed on the CPU by a
// grid emulator: every (block, thread) of a grid runs the same SINTER_HD
// function the __global__ shell calls, with its own global thread index. This
// runs the GPU indexing (grid-stride loops, vector steps, scalar tails,
// misaligned and strided operands, 32- and 64-bit indices) in CI, under
// AddressSanitizer in the sanitizer build, and compares every element with
// the host policy. On the CPU the body calls the same host maths as the host
// policy, so results must match exactly; on a real GPU, CUDA's device maths
// differ from ours by at most their documented ULP bounds (2 ULP for expf,
// logf, sinf...; CUDA Programming Guide, "Mathematical Functions").
#include <doctest/doctest.h>

#include <cstdint>
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
  const cd::kernel_path path = cd::choose_path(out, bound);
  const I nthreads = static_cast<I>(grid) * static_cast<I>(block);
  for (unsigned b = 0; b < grid; ++b)
    for (unsigned t = 0; t < block; ++t)
      cd::fused_body<I>(out, bound, static_cast<I>(n), path, static_cast<I>(b) * block + t, nthreads);
}

/// Evaluate `e` into a fresh buffer of out_shape with the emulator, after
/// the same binding and path choice as a launch; return the values.
template <class T, class I, std::size_t R, class E>
std::vector<T> run_emulated(const E& e, const st::extents<R>& out_shape, unsigned grid, unsigned block,
                            cd::kernel_path* path_taken = nullptr) {
  std::vector<T> buf(static_cast<std::size_t>(st::detail::shape_size(out_shape)) + 1);
  const st::detail::memory_leaf<T, R> out{buf.data(), out_shape, st::detail::row_major_strides(out_shape)};
  const auto bound = e.node().bind(out_shape);
  if (path_taken) *path_taken = cd::choose_path(out, bound);
  emulate<I>(out, bound, grid, block);
  buf.pop_back();
  return buf;
}

std::vector<float> random_floats(std::size_t n, unsigned seed, float lo = -3.f, float hi = 3.f) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = d(g);
  return v;
}

template <class T, class E, std::size_t R>
void check_against_host(const E& e, const st::extents<R>& shape, cd::kernel_path expect_path) {
  const st::array<T, R> ref = e;  // the host policy
  for (unsigned grid : {1u, 3u, 7u}) {
    for (unsigned block : {1u, 32u, 256u}) {
      cd::kernel_path p32{}, p64{};
      const auto got32 = run_emulated<T, std::uint32_t>(e, shape, grid, block, &p32);
      const auto got64 = run_emulated<T, st::index_t>(e, shape, grid, block, &p64);
      CHECK(p32 == expect_path);
      CHECK(p64 == expect_path);
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
    const auto expect = n == 0 ? cd::kernel_path::vector : cd::kernel_path::vector;
    if (n <= 1023) {
      check_against_host<float>(st::detail::as_expr(st::exp(a + b) * 2.f), st::extents<1>{n}, expect);
    } else {
      const auto got = run_emulated<float, std::uint32_t>(st::detail::as_expr(st::exp(a + b) * 2.f), st::extents<1>{n}, 40, 256);
      const st::array<float, 1> ref = st::exp(a + b) * 2.f;
      std::size_t bad = 0;
      for (st::index_t i = 0; i < n; ++i) bad += got[static_cast<std::size_t>(i)] != ref(i);
      CHECK(bad == 0);
    }
  }
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
