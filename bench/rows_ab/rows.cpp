// A row broadcast's pass against a hand loop, in ns (bench/README.md, "A row
// broadcast by rows from assign"): `m * 0.5f + row` over rows x columns
// through sinter's assign (sinter rows), a contiguous pass of the same
// element count (sinter flat), a hand loop over runtime columns (hand) and
// one over 1000 constant columns (hand(1000 const), 0 for other widths).
// Minimum of 3000 batches of 50 calls. Compile once per header version and
// alternate the binaries:
//   g++ -std=c++20 -O3 -march=native -I<include> bench/rows_ab/rows.cpp -o rows
//   ./rows 4 1000
#include <sinter/sinter.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#ifndef ROWS_AB_OUT_OFFSET
#define ROWS_AB_OUT_OFFSET 1088
#endif
#ifndef ROWS_AB_ROW_OFFSET
#define ROWS_AB_ROW_OFFSET 2176
#endif
namespace st = sinter;
using st::index_t;
__attribute__((noinline)) void sin_rb(float* o, const float* m, const float* row, index_t rows, index_t cols) {
  st::view<float, 2>(o, {rows, cols}) = st::view<const float, 2>(m, {rows, cols}) * 0.5f + st::view<const float, 1>(row, {cols});
}
__attribute__((noinline)) void sin_flat(float* o, const float* m, const float* b, index_t n) {
  st::view<float, 1>(o, {n}) = st::view<const float, 1>(m, {n}) * 0.5f + st::view<const float, 1>(b, {n});
}
__attribute__((noinline)) void hand_rb(float* __restrict o, const float* __restrict m, const float* __restrict row, index_t rows, index_t cols) {
  for (index_t r = 0; r < rows; ++r)
    for (index_t c = 0; c < cols; ++c) o[r * cols + c] = m[r * cols + c] * 0.5f + row[c];
}
__attribute__((noinline)) void hand_rb1000(float* __restrict o, const float* __restrict m, const float* __restrict row, index_t rows, index_t) {
  for (index_t r = 0; r < rows; ++r)
    for (index_t c = 0; c < 1000; ++c) o[r * 1000 + c] = m[r * 1000 + c] * 0.5f + row[c];
}
template <class F>
double timeit(F f) {
  double best = 1e30;
  for (int b = 0; b < 3000; ++b) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 50; ++i) { f(); asm volatile("" ::: "memory"); }
    best = std::min(best, std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / 50);
  }
  return best;
}
int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s rows columns\n", argv[0]);
    return 2;
  }
  const index_t rows = std::atol(argv[1]), cols = std::atol(argv[2]);
  // One buffer; the matrix starts 1 KiB past a 4 KiB boundary, the output
  // and the row ROWS_AB_OUT_OFFSET and ROWS_AB_ROW_OFFSET bytes after that,
  // modulo 4 KiB (multiples of 64). -DROWS_AB_OUT_OFFSET=64
  // -DROWS_AB_ROW_OFFSET=0 puts the output 64 bytes past both inputs: 4 KiB
  // aliasing (bench/suite.hpp).
  const index_t n = rows * cols, span = ((n * 4 + 4095) / 4096 + 1) * 4096;
  char* base = static_cast<char*>(std::aligned_alloc(4096, 3 * span + 8192));
  float* M = reinterpret_cast<float*>(base + 1024);
  float* O = reinterpret_cast<float*>(base + span + 1024 + ROWS_AB_OUT_OFFSET);
  float* Rw = reinterpret_cast<float*>(base + 2 * span + 1024 + ROWS_AB_ROW_OFFSET);
  for (index_t i = 0; i < n; ++i) { M[i] = float(i % 7); Rw[i] = float(i % 5); O[i] = 0; }
  double a = timeit([&] { sin_rb(O, M, Rw, rows, cols); });
  double f = timeit([&] { sin_flat(O, M, Rw, rows * cols); });
  double h = timeit([&] { hand_rb(O, M, Rw, rows, cols); });
  double h2 = cols == 1000 ? timeit([&] { hand_rb1000(O, M, Rw, rows, cols); }) : 0;
  std::printf("%ld x %ld: sinter rows %.1f  sinter flat %.1f  hand %.1f  hand(1000 const) %.1f\n", rows, cols, a, f, h, h2);
}
