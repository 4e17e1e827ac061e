// Row softmax and row standardisation of a matrix with reductions along an
// axis (keepdims, then broadcasting), on the GPU when one answers (else the
// CPU thread pool), checked against a plain double loop.
//   softmax [rows cols [seed]]     defaults: 500 37, seed 1
#include <sinter/sinter.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

namespace st = sinter;

// softmax(x) and the standardised x, row by row (host row-major buffers).
template <class P>
void rows(P policy, const std::vector<float>& data, st::index_t r, st::index_t c, std::vector<float>& soft_out,
          std::vector<float>& z_out) {
  std::printf("softmax: %lld x %lld on %s\n", static_cast<long long>(r), static_cast<long long>(c),
              std::is_same_v<P, st::par> ? "the CPU thread pool" : "the GPU");
  const st::array<float, 2, P> x = st::to<P>(st::as_view(data.data(), {r, c}), policy);

  // Row softmax: exp(x - m) / (its row sum), m each row's max (which keeps
  // exp from overflowing; softmax does not change). Written out it is
  //   e = exp(x - max(x, axis(1), keepdims)); e / sum(e, axis(1), keepdims)
  // with the same values; sinter::softmax reads x from memory once on the
  // CPU (per block of rows, while they are in cache), the written form three times.
  const st::array<float, 2, P> soft = st::softmax(x);

  // Each row to mean 0 and standard deviation 1 (numpy's std: ddof = 0):
  // (x - mean(x, axis(1), keepdims)) / std(x, axis(1), keepdims), in one read.
  const st::array<float, 2, P> z = st::standardize(x);

  soft_out.resize(data.size());
  z_out.resize(data.size());
  st::copy(st::as_view(soft_out.data(), {r, c}), soft);  // back to host memory
  st::copy(st::as_view(z_out.data(), {r, c}), z);
}

// The larger of two errors; a NaN wins, so that it fails the check.
double worse(double a, double b) { return std::isnan(a) || a > b ? a : b; }

bool parse(const char* s, long lo, long hi, long& v) {
  char* end = nullptr;
  errno = 0;
  v = std::strtol(s, &end, 10);
  return *s != '\0' && *end == '\0' && errno == 0 && v >= lo && v <= hi;
}

int main(int argc, char** argv) {
  long r = 500, c = 37, seed = 1;
  if (argc == 2 || argc > 4 || (argc > 2 && (!parse(argv[1], 1, 100000, r) || !parse(argv[2], 2, 100000, c))) ||
      (argc > 3 && !parse(argv[3], 0, 1L << 31, seed))) {
    std::fprintf(stderr, "usage: %s [rows cols [seed]]\n  rows: 1 to 100000, cols: 2 to 100000 (default 500 37)\n"
                         "  seed: of the random matrix, 0 to 2^31 (default 1)\n", argv[0]);
    return 2;
  }
  const auto ur = static_cast<std::size_t>(r), uc = static_cast<std::size_t>(c);
  // Random rows, each around its own level up to 150: exp(150) overflows a
  // float, so the max subtraction is needed.
  std::mt19937_64 gen(static_cast<std::uint64_t>(seed));
  std::normal_distribution<float> noise(0.f, 3.f);
  std::uniform_real_distribution<float> level(-150.f, 150.f);
  std::vector<float> x(ur * uc);
  for (std::size_t i = 0; i < ur; ++i) {
    const float at = level(gen);
    for (std::size_t j = 0; j < uc; ++j) x[i * uc + j] = at + noise(gen);
  }

  std::vector<float> soft, z;
  st::dispatch([&](auto policy) { rows(policy, x, r, c, soft, z); });

  // Check: the same maths in double, one row at a time.
  double soft_err = 0, z_err = 0, sum_err = 0;
  for (std::size_t i = 0; i < ur; ++i) {
    const float* row = &x[i * uc];
    double mx = row[0], total = 0, mean = 0, var = 0, sum = 0;
    for (std::size_t j = 0; j < uc; ++j) mx = std::max(mx, double(row[j]));
    for (std::size_t j = 0; j < uc; ++j) total += std::exp(row[j] - mx), mean += row[j];
    mean /= double(uc);
    for (std::size_t j = 0; j < uc; ++j) var += (row[j] - mean) * (row[j] - mean);
    const double sd = std::sqrt(var / double(uc));
    for (std::size_t j = 0; j < uc; ++j) {
      soft_err = worse(soft_err, std::fabs(soft[i * uc + j] - std::exp(row[j] - mx) / total));
      z_err = worse(z_err, std::fabs(z[i * uc + j] - (row[j] - mean) / sd));
      sum += soft[i * uc + j];
    }
    sum_err = worse(sum_err, std::fabs(sum - 1));
  }
  std::printf("largest error against double: softmax %.2g, standardised %.2g; largest |row sum - 1| %.2g\n",
              soft_err, z_err, sum_err);
  // Float rounding: about 1e-7 per operation, and the rows' levels of up to
  // 150 cost standardisation about 150 / 3 times that.
  const bool ok = soft_err < 1e-6 && z_err < 1e-4 && sum_err < 1e-5;
  if (!ok) std::fprintf(stderr, "softmax: FAILED\n");
  return ok ? 0 : 1;
}
