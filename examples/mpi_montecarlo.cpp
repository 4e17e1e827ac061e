// Distributed Monte Carlo: pi from points uniform in the unit square, and a
// European call under Black-Scholes from normal draws. The random numbers
// are counter-based and keyed by their global index, so each rank draws
// only its own share (sinter::mpi::distributed: nothing is stored) and the
// estimates equal, bit for bit, those of one process.
//   mpirun -np 2 mpi_montecarlo [samples]     default: 4000000
#include <sinter/mpi.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace st = sinter;

// The two estimates from `samples` draws; `Dist` spreads them over the ranks.
template <bool Dist>
void estimate(st::index_t samples, double& pi, double& call) {
  const auto k = st::random::key(20261205);
  const auto ks = st::random::split(k, 3);
  auto wrap = [](auto&& e) {
    if constexpr (Dist) return st::mpi::distributed(e);
    else return e;
  };
  const auto x = st::random::uniform(ks[0], {samples}), y = st::random::uniform(ks[1], {samples});
  pi = 4.0 * st::mean(wrap(st::where(x * x + y * y <= 1.0, 1.0, 0.0)));
  const double s0 = 100, strike = 105, r = 0.03, sigma = 0.2, t = 1;
  const auto z = st::random::normal(ks[2], {samples});
  const auto st_ = s0 * st::exp((r - 0.5 * sigma * sigma) * t + sigma * std::sqrt(t) * z);
  call = std::exp(-r * t) * st::mean(wrap(st::maximum(st_ - strike, 0.0)));
}

int main(int argc, char** argv) {
  long samples = 4000000;
  if (argc > 2 || (argc == 2 && (argv[1][0] == '-' || (samples = std::strtol(argv[1], nullptr, 10)) < 1))) {
    std::fprintf(stderr, "usage: mpi_montecarlo [samples >= 1]  (run under mpirun)\n");
    return 2;
  }
  st::mpi::environment env(argc, argv);
  const st::mpi::communicator world;
  double pi = 0, call = 0, pi1 = 0, call1 = 0;
  estimate<true>(samples, pi, call);
  if (world.rank() != 0) return 0;
  estimate<false>(samples, pi1, call1);
  const bool same = std::memcmp(&pi, &pi1, sizeof pi) == 0 && std::memcmp(&call, &call1, sizeof call) == 0;
  const double bs = 7.128065;  // Black-Scholes closed form for these parameters
  const bool close = std::abs(pi - 3.14159265358979) < 0.01 && std::abs(call - bs) < 0.1;
  std::printf("mpi_montecarlo: %ld samples on %d ranks: pi %.6f, call %.4f (closed form %.4f): %s, %s\n", samples,
              world.size(), pi, call, bs, same ? "equal to one process (bitwise)" : "DIFFERS from one process",
              close ? "within tolerance" : "OUT OF TOLERANCE");
  return same && close ? 0 : 1;
}
