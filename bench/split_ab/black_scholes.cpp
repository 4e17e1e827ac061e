// Black-Scholes (bench_math's kernel, both prices) three ways, in ns per
// element: sinter's fused tied pass as the suite runs it (it shares d1
// through a tile buffer; d2 = d1 - sqrt(t) v and k exp(-r t) are computed
// in both prices); `buffered`: tile by tile (1024 elements) d1, d2 and
// k exp(-r t) into buffers, then each price in one pass; `split`: d1 into
// a buffer, then each price in two passes of one erfc each, d2 and
// k exp(-r t) inline (bench/README.md, "Black-Scholes: the repeated
// subexpressions"). Best of 100 batches; prints the largest difference
// between the fused and buffered results. Not built by CMake:
//   g++ -std=c++20 -O3 -march=native -DNDEBUG -I<include> bench/split_ab/black_scholes.cpp -o bs_split
//   ./bs_split 1024 4096 65536
#include <sinter/sinter.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <tuple>
#include <vector>

namespace st = sinter;
using st::index_t;

template <class T>
struct bs {
  static constexpr T r = T(0.02), v = T(0.3), hr = T(0.02 + 0.5 * 0.3 * 0.3), c = T(0.70710678118654752440);
  using V = st::view<T, 1>;
  using CV = st::view<const T, 1>;

  __attribute__((noinline)) static void fused(T* call, T* put, const T* s_, const T* k_, const T* t_, index_t n) {
    const CV s(s_, {n}), k(k_, {n}), t(t_, {n});
    const auto vs = st::sqrt(t) * v;
    const auto d1 = (st::log(s / k) + t * hr) / vs;
    const auto d2 = d1 - vs;
    const auto ke = k * st::exp(t * -r);
    V vc(call, {n}), vp(put, {n});
    st::tie(vc, vp) = std::tuple(s * T(0.5) * st::erfc(d1 * -c) - ke * T(0.5) * st::erfc(d2 * -c),
                                 ke * T(0.5) * st::erfc(d2 * c) - s * T(0.5) * st::erfc(d1 * c));
  }

  __attribute__((noinline)) static void buffered(T* call, T* put, const T* s_, const T* k_, const T* t_, index_t n) {
    constexpr index_t tile = 1024;
    alignas(64) T bd1[tile], bd2[tile], bke[tile];
    for (index_t i0 = 0; i0 < n; i0 += tile) {
      const index_t m = std::min(tile, n - i0);
      const CV s(s_ + i0, {m}), k(k_ + i0, {m}), t(t_ + i0, {m});
      V d1(bd1, {m}), d2(bd2, {m}), ke(bke, {m}), vc(call + i0, {m}), vp(put + i0, {m});
      d1 = (st::log(s / k) + t * hr) / (st::sqrt(t) * v);
      d2 = d1 - st::sqrt(t) * v;
      ke = k * st::exp(t * -r);
      vc = s * T(0.5) * st::erfc(d1 * -c) - ke * T(0.5) * st::erfc(d2 * -c);
      vp = ke * T(0.5) * st::erfc(d2 * c) - s * T(0.5) * st::erfc(d1 * c);
    }
  }

  __attribute__((noinline)) static void split(T* call, T* put, const T* s_, const T* k_, const T* t_, index_t n) {
    constexpr index_t tile = 1024;
    alignas(64) T bd1[tile], bt[tile];
    for (index_t i0 = 0; i0 < n; i0 += tile) {
      const index_t m = std::min(tile, n - i0);
      const CV s(s_ + i0, {m}), k(k_ + i0, {m}), t(t_ + i0, {m});
      V d1(bd1, {m}), tmp(bt, {m}), vc(call + i0, {m}), vp(put + i0, {m});
      d1 = (st::log(s / k) + t * hr) / (st::sqrt(t) * v);
      tmp = s * T(0.5) * st::erfc(d1 * -c);
      vc = tmp - k * st::exp(t * -r) * T(0.5) * st::erfc((d1 - st::sqrt(t) * v) * -c);
      tmp = s * T(0.5) * st::erfc(d1 * c);
      vp = k * st::exp(t * -r) * T(0.5) * st::erfc((d1 - st::sqrt(t) * v) * c) - tmp;
    }
  }
};

template <class F>
double best_ns(F f, int reps) {
  double best = 1e30;
  for (int b = 0; b < 100; ++b) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) {
      f();
      asm volatile("" ::: "memory");
    }
    best = std::min(best, std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / reps);
  }
  return best;
}

template <class T>
void run(index_t n) {
  std::vector<T> s(n), k(n), t(n), c1(n), p1(n), c2(n), p2(n), c3(n), p3(n);
  for (index_t i = 0; i < n; ++i) {  // bench_math's ranges: s in [5, 30], k in [1, 100], t in [0.25, 10]
    s[i] = T(5 + 25.0 * ((i * 37) % 101) / 101);
    k[i] = T(1 + 99.0 * ((i * 53) % 97) / 97);
    t[i] = T(0.25 + 9.75 * ((i * 11) % 89) / 89);
  }
  const int reps = static_cast<int>(std::max<index_t>(1, (1 << 18) / n));
  for (int rep = 0; rep < 3; ++rep) {
    const double f = best_ns([&] { bs<T>::fused(c1.data(), p1.data(), s.data(), k.data(), t.data(), n); }, reps);
    const double b = best_ns([&] { bs<T>::buffered(c2.data(), p2.data(), s.data(), k.data(), t.data(), n); }, reps);
    const double p = best_ns([&] { bs<T>::split(c3.data(), p3.data(), s.data(), k.data(), t.data(), n); }, reps);
    std::printf("%s n=%ld ns/element: fused %.3f buffered %.3f split %.3f (fused / buffered %.2f, fused / split %.2f)\n",
                sizeof(T) == 4 ? "f32" : "f64", static_cast<long>(n), f / n, b / n, p / n, f / b, f / p);
  }
  double diff = 0;
  for (index_t i = 0; i < n; ++i) diff = std::max({diff, std::fabs(double(c1[i]) - c2[i]), std::fabs(double(p1[i]) - p2[i])});
  std::printf("largest difference, fused against buffered %g\n", diff);
}

int main(int argc, char** argv) {
  for (int a = 1; a < argc; ++a) {
    run<float>(std::atol(argv[a]));
    run<double>(std::atol(argv[a]));
  }
}
