// A two-layer perceptron's forward pass, y = relu(x W1 + b1) W2 + b2, on
// the CPU thread pool: the first layer's GEMM with its bias and relu fused
// on each block of rows (sinter::matmul_epilogue), the second a GEMM whose
// beta adds the bias rows already in y (sinter::matmul_into). Checked
// against a plain double loop. Needs the CMake target sinter::blas.
//   mlp_forward [batch [seed]]     defaults: 300, seed 1
#include <sinter/linalg.hpp>
#include <sinter/sinter.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace st = sinter;

bool parse(const char* s, long lo, long hi, long& v) {
  char* end = nullptr;
  errno = 0;
  v = std::strtol(s, &end, 10);
  return *s != '\0' && *end == '\0' && errno == 0 && v >= lo && v <= hi;
}

int main(int argc, char** argv) {
  long batch = 300, seed = 1;
  if (argc > 3 || (argc > 1 && !parse(argv[1], 1, 100000, batch)) || (argc > 2 && !parse(argv[2], 0, 1L << 31, seed))) {
    std::fprintf(stderr, "usage: %s [batch [seed]]\n  batch: rows of the input, 1 to 100000 (default 300)\n"
                         "  seed: of the random weights, 0 to 2^31 (default 1)\n", argv[0]);
    return 2;
  }
  const st::index_t n = batch, d_in = 64, d_hidden = 129, d_out = 10;
  std::mt19937_64 gen(static_cast<std::uint64_t>(seed));
  std::normal_distribution<float> normal(0.f, 1.f);
  const auto random = [&](auto& a, float scale) {
    for (float& v : a) v = scale * normal(gen);
  };
  st::array<float, 2, st::par> x({n, d_in}), w1({d_in, d_hidden}), w2({d_hidden, d_out});
  st::array<float, 1, st::par> b1({d_hidden}), b2({d_out});
  random(x, 1.f);
  random(w1, 1.f / 8);
  random(w2, 1.f / 11);
  random(b1, 0.1f);
  random(b2, 0.1f);

  // Layer 1: h = relu(x W1 + b1), the epilogue run per block of rows.
  st::array<float, 2, st::par> h({n, d_hidden});
  st::matmul_epilogue(h, x, w1, [&](auto p) { return st::maximum(p + b1, 0.f); });
  // Layer 2: y = h W2 + b2 as y = b2 (broadcast), then y = 1 * h W2 + 1 * y.
  st::array<float, 2, st::par> y({n, d_out});
  y = b2;
  st::matmul_into(y, h, w2, 1.f, 1.f);

  // Check against double loops.
  double worst = 0;
  std::vector<double> hid(static_cast<std::size_t>(d_hidden));
  for (st::index_t i = 0; i < n; ++i) {
    for (st::index_t j = 0; j < d_hidden; ++j) {
      double s = b1(j);
      for (st::index_t k = 0; k < d_in; ++k) s += double(x(i, k)) * double(w1(k, j));
      hid[static_cast<std::size_t>(j)] = s > 0 ? s : 0;
    }
    for (st::index_t j = 0; j < d_out; ++j) {
      double s = b2(j);
      for (st::index_t k = 0; k < d_hidden; ++k) s += hid[static_cast<std::size_t>(k)] * double(w2(k, j));
      const double e = std::abs(double(y(i, j)) - s);
      worst = std::isnan(e) || e > worst ? e : worst;
    }
  }
  std::printf("mlp_forward: %lld x %lld -> %lld -> %lld, largest error against double: %.3g\n",
              static_cast<long long>(n), static_cast<long long>(d_in), static_cast<long long>(d_hidden),
              static_cast<long long>(d_out), worst);
  if (!(worst < 1e-3)) {
    std::fprintf(stderr, "mlp_forward: error %.3g above 1e-3\n", worst);
    return 1;
  }
  std::printf("y[0] = ");
  for (st::index_t j = 0; j < d_out; ++j) std::printf("%.4f ", double(y(0, j)));
  std::printf("\n");
  return 0;
}
