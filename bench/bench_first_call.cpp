// The first call on new arrays against later ones (issue 58): row softmax
// of a 4096 x 1024 float matrix into fresh arrays, `calls` times in one
// process, as a user writes it:
//   e = exp(x - max(x, axis(1), keepdims)); y = e / sum(e, axis(1), keepdims)
// "first" is the process's first call, "steady" the median of the others
// (the previous result is freed when the next one is assigned, as
// `y = softmax(x)` in a loop does). Minor page faults from getrusage.
// Not a Google Benchmark: a first call happens once per process, so
// bench/fast_by_default.py runs this program once per sample, interleaved
// with NumPy's same call. Prints one JSON line.
//   bench_first_call [host|par [calls [rows cols]]]   defaults: host 20 4096 1024
#include <sinter/sinter.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#if __has_include(<sys/resource.h>)
#include <sys/resource.h>
#define SINTER_BENCH_HAS_RUSAGE 1
#else
#define SINTER_BENCH_HAS_RUSAGE 0
#endif

namespace {

namespace st = sinter;
using clock_type = std::chrono::steady_clock;

long minor_faults() {
#if SINTER_BENCH_HAS_RUSAGE
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
#else
  return -1;
#endif
}

template <class P>
st::array<float, 2, P> softmax(const st::view<const float, 2, P>& x) {
  const st::array<float, 2, P> e = st::exp(x - st::max(x, st::axis(1), st::keepdims));
  return e / st::sum(e, st::axis(1), st::keepdims);
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// Largest |y - softmax(x)| over a few rows, against a double loop.
double max_error(const std::vector<float>& x, const float* y, long rows, long cols) {
  double worst = 0;
  for (long r : {0L, rows / 3, rows - 1}) {
    const float* xr = &x[static_cast<std::size_t>(r * cols)];
    double mx = xr[0], s = 0;
    for (long j = 0; j < cols; ++j) mx = std::max(mx, static_cast<double>(xr[j]));
    for (long j = 0; j < cols; ++j) s += std::exp(xr[j] - mx);
    for (long j = 0; j < cols; ++j) {
      const double err = std::fabs(y[r * cols + j] - std::exp(xr[j] - mx) / s);
      worst = std::isnan(err) || err > worst ? err : worst;
    }
  }
  return worst;
}

template <class P>
int run(const char* policy, int calls, long rows, long cols) {
  std::vector<float> data(static_cast<std::size_t>(rows * cols));
  std::mt19937_64 gen(1);
  std::uniform_real_distribution<float> dist(-4.f, 4.f);
  for (float& v : data) v = dist(gen);  // touched here, before any timing
  const st::view<const float, 2, P> x(data.data(), {rows, cols});

  std::vector<double> ms;
  std::vector<long> faults;
  std::optional<st::array<float, 2, P>> y;
  for (int i = 0; i < calls; ++i) {
    const long f0 = minor_faults();
    const auto t0 = clock_type::now();
    st::array<float, 2, P> fresh = softmax<P>(x);
    const auto t1 = clock_type::now();
    faults.push_back(minor_faults() - f0);
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    y.emplace(std::move(fresh));  // frees the previous result, as `y = f(x)`
  }
  const double err = max_error(data, y->data(), rows, cols);
  std::vector<double> later(ms.begin() + 1, ms.end()), later_faults;
  for (std::size_t i = 1; i < faults.size(); ++i) later_faults.push_back(static_cast<double>(faults[i]));
  std::ostringstream cpu;
  cpu << st::devices().front();
  std::printf("{\"policy\": \"%s\", \"rows\": %ld, \"cols\": %ld, \"calls\": %d, \"first_ms\": %.4f, "
              "\"steady_ms\": %.4f, \"faults_first\": %ld, \"faults_steady\": %.1f, \"max_error\": %.3g, "
              "\"cpu\": \"%s\"}\n",
              policy, rows, cols, calls, ms.front(), median(later), faults.front(), median(later_faults), err,
              cpu.str().c_str());
  if (!(err < 1e-6)) {
    std::fprintf(stderr, "bench_first_call: softmax differs from the double reference by %g\n", err);
    return 1;
  }
  return 0;
}

bool parse(const char* s, long lo, long hi, long& v) {
  char* end = nullptr;
  v = std::strtol(s, &end, 10);
  return *s != '\0' && *end == '\0' && v >= lo && v <= hi;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string policy = argc > 1 ? argv[1] : "host";
  long calls = 20, rows = 4096, cols = 1024;
  if ((policy != "host" && policy != "par") || argc == 4 || argc > 5 ||
      (argc > 2 && !parse(argv[2], 2, 100000, calls)) ||
      (argc > 4 && (!parse(argv[3], 1, 1L << 20, rows) || !parse(argv[4], 1, 1L << 20, cols)))) {
    std::fprintf(stderr, "usage: %s [host|par [calls [rows cols]]]  (defaults: host 20 4096 1024)\n", argv[0]);
    return 2;
  }
  const int n = static_cast<int>(calls);
  return policy == "par" ? run<st::par>("par", n, rows, cols) : run<st::host>("host", n, rows, cols);
}
