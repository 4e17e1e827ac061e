// Black-Scholes prices of European calls and puts for a book of options:
// both prices from one pass with sinter::tie, on the GPU when one answers
// (else the CPU thread pool). Checked against Hull's textbook example, a
// scalar double reference on a random book, and put-call parity.
//   black_scholes [n [seed]]     defaults: 10000 options, seed 1
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
using real = float;  // what a GPU runs fastest; double works the same
constexpr real rate = 0.1f;  // the riskless rate, one for the whole book

struct book {
  std::vector<real> spot, strike, years, vol;
};

// Call and put prices of every option in the book (host vectors in and out).
template <class P>
void price(P policy, const book& b, std::vector<real>& call_out, std::vector<real>& put_out) {
  std::printf("black_scholes: %zu options on %s\n", b.spot.size(),
              std::is_same_v<P, st::par> ? "the CPU thread pool" : "the GPU");
  // The inputs, copied into the policy's memory (the GPU's, or the CPU's).
  const auto s = st::to<P>(st::as_view(b.spot), policy), k = st::to<P>(st::as_view(b.strike), policy);
  const auto t = st::to<P>(st::as_view(b.years), policy), v = st::to<P>(st::as_view(b.vol), policy);
  const auto n = static_cast<st::index_t>(b.spot.size());
  st::array<real, 1, P> call({n}, policy), put({n}, policy);

  // Lazy expressions: nothing runs until the assignment below.
  const auto vt = v * st::sqrt(t);
  const auto d1 = (st::log(s / k) + (rate + 0.5f * v * v) * t) / vt;
  const auto d2 = d1 - vt;
  const auto ke = k * st::exp(-rate * t);  // the discounted strike
  const auto cdf = [](const auto& x) { return 0.5f * st::erfc(x * -0.70710678f); };  // normal CDF
  // One pass writes both outputs; on the CPU, d1 is computed once per option for both.
  st::tie(call, put) = std::tuple(s * cdf(d1) - ke * cdf(d2), ke * cdf(-d2) - s * cdf(-d1));

  call_out.resize(b.spot.size());
  put_out.resize(b.spot.size());
  st::copy(st::as_view(call_out), call);  // back to host memory
  st::copy(st::as_view(put_out), put);
}

// The textbook formulas in double, one option at a time.
void reference(double s, double k, double t, double v, double& call, double& put) {
  const double d1 = (std::log(s / k) + (0.1 + v * v / 2) * t) / (v * std::sqrt(t)), d2 = d1 - v * std::sqrt(t);
  const auto cdf = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
  call = s * cdf(d1) - k * std::exp(-0.1 * t) * cdf(d2);
  put = k * std::exp(-0.1 * t) * cdf(-d2) - s * cdf(-d1);
}

// The larger of two errors; a NaN wins, so that it fails the check.
double worse(double a, double b) { return std::isnan(a) || a > b ? a : b; }

bool parse(const char* s, long lo, long hi, long& x) {
  char* end = nullptr;
  errno = 0;
  x = std::strtol(s, &end, 10);
  return *s != '\0' && *end == '\0' && errno == 0 && x >= lo && x <= hi;
}

int main(int argc, char** argv) {
  long n = 10000, seed = 1;
  if (argc > 3 || (argc > 1 && !parse(argv[1], 1, 100000000, n)) || (argc > 2 && !parse(argv[2], 0, 1L << 31, seed))) {
    std::fprintf(stderr, "usage: %s [n [seed]]\n  n: options, 1 to 100000000 (default 10000)\n"
                         "  seed: of the random book, 0 to 2^31 (default 1)\n", argv[0]);
    return 2;
  }
  // Option 0 is Hull's example (Options, Futures and Other Derivatives,
  // "Black-Scholes-Merton pricing formulas"): S = 42, K = 40, T = 0.5, sigma = 0.2.
  book b{{42}, {40}, {0.5f}, {0.2f}};
  std::mt19937_64 gen(static_cast<std::uint64_t>(seed));
  std::uniform_real_distribution<real> spot(10, 200), moneyness(0.7f, 1.3f), years(0.05f, 3), vol(0.05f, 0.6f);
  for (long i = 1; i < n; ++i) {
    b.spot.push_back(spot(gen));
    b.strike.push_back(b.spot.back() * moneyness(gen));
    b.years.push_back(years(gen));
    b.vol.push_back(vol(gen));
  }

  std::vector<real> call, put;
  st::dispatch([&](auto policy) { price(policy, b, call, put); });

  std::printf("Hull's option: call %.4f (book: 4.76), put %.4f (book: 0.81)\n", double(call[0]), double(put[0]));
  bool ok = std::fabs(call[0] - 4.76) < 0.005 && std::fabs(put[0] - 0.81) < 0.005;
  // Float prices against double ones: errors relative to the spot price,
  // since a price is a difference of terms of that size.
  double worst = 0, worst_parity = 0;
  for (std::size_t i = 0; i < call.size(); ++i) {
    double c = 0, p = 0;
    const double s = b.spot[i], k = b.strike[i], t = b.years[i];
    reference(s, k, t, b.vol[i], c, p);
    worst = worse(worse(worst, std::fabs(call[i] - c) / s), std::fabs(put[i] - p) / s);
    // Put-call parity: call - put = S - K exp(-rT), whatever the volatility.
    worst_parity = worse(worst_parity, std::fabs((call[i] - put[i]) - (s - k * std::exp(-0.1 * t))) / s);
  }
  std::printf("largest error / spot: %.2g against the double reference, %.2g in put-call parity\n", worst,
              worst_parity);
  ok = ok && worst < 2e-6 && worst_parity < 2e-6;  // float: about 1e-7 per operation
  if (!ok) std::fprintf(stderr, "black_scholes: FAILED\n");
  return ok ? 0 : 1;
}
