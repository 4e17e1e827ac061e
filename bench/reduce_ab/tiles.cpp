// A float dot product through sinter's reduction against its tiles' folds
// called directly (bench/README.md, "Tiles of a contiguous reduction"), in
// GB/s (8 bytes an element): sinter's sum(a * b); the fold `pairwise`
// called on each tile of 4096 elements and the partials summed in a loop
// (direct pairwise); reduce_tiles alone; fold_tiles with a lambda that
// calls the fold. It reaches into sinter::detail, so it follows the
// headers it is compiled with. Best of 400 batches. Not built by CMake:
//   g++ -std=c++20 -O3 -march=native -DNDEBUG -I<include> bench/reduce_ab/tiles.cpp -o tiles
//   ./tiles 16384 65536 262144      (each n a multiple of 4096, at most 2^22)
#include <sinter/sinter.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
namespace st = sinter;
using st::index_t;
namespace rh = sinter::detail::reduce_host;
using C = sinter::detail::map_cursor<sinter::detail::ops::mul, sinter::detail::unit_cursor<const float>, sinter::detail::unit_cursor<const float>>;
__attribute__((noinline)) float s_dot(const float* a, const float* b, index_t n) {
  return st::sum(st::view<const float,1>(a, {n}) * st::view<const float,1>(b, {n}));
}
__attribute__((noinline)) float direct(const float* a, const float* b, index_t n) {
  const auto e = st::view<const float,1>(a, {n}) * st::view<const float,1>(b, {n});
  const auto node = e.node().bind(e.shape());
  const auto c = node.linear();
  float p[1024]; index_t t = 0;
  for (index_t s = 0; s < n; s += 4096) p[t++] = rh::pairwise<sinter::detail::reduce_ops::sum, float>(rh::load_as<float, decltype(c)>{c}, s, 4096, s);
  float r = 0; for (index_t k = 0; k < t; ++k) r += p[k];
  return r;
}
__attribute__((noinline)) float via_tiles(const float* a, const float* b, index_t n) {
  const auto e = st::view<const float,1>(a, {n}) * st::view<const float,1>(b, {n});
  const auto node = e.node().bind(e.shape());
  return rh::reduce_tiles<sinter::detail::reduce_ops::sum>(node, e.shape(), 0, n, false, 0);
}
__attribute__((noinline)) float via_fold_tiles(const float* a, const float* b, index_t n) {
  const auto e = st::view<const float,1>(a, {n}) * st::view<const float,1>(b, {n});
  const auto node = e.node().bind(e.shape());
  const auto c = node.linear();
  return rh::fold_tiles<float, sinter::detail::reduce_ops::sum>(0, n, false, [&](index_t s, index_t t) {
    return rh::pairwise<sinter::detail::reduce_ops::sum, float>(rh::load_as<float, decltype(c)>{c}, s, t - s, s); });
}
template <class F>
double timeit(F f, int reps) {
  double best = 1e30;
  for (int b = 0; b < 400; ++b) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) { f(); asm volatile("" ::: "memory"); }
    best = std::min(best, std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / reps);
  }
  return best;
}
volatile float sink;
int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const index_t n = std::atol(argv[i]);
    float* a = (float*)std::aligned_alloc(4096, n * 4 + 4096);
    float* b = (float*)std::aligned_alloc(4096, n * 4 + 8192) + 512;
    for (index_t k = 0; k < n; ++k) { a[k] = std::sin(k * 0.1f); b[k] = std::cos(k * 0.3f); }
    const int reps = std::max<index_t>(1, (1 << 22) / n);
    auto gbs = [&](double ns) { return 8.0 * n / ns; };
    std::printf("n=%8ld GB/s: sinter %.1f direct pairwise %.1f reduce_tiles %.1f fold_tiles %.1f\n", (long)n,
      gbs(timeit([&]{ sink = s_dot(a, b, n); }, reps)), gbs(timeit([&]{ sink = direct(a, b, n); }, reps)),
      gbs(timeit([&]{ sink = via_tiles(a, b, n); }, reps)), gbs(timeit([&]{ sink = via_fold_tiles(a, b, n); }, reps)));
  }
}
