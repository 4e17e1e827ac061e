// Distributed 2-D heat diffusion: the 5-point stencil of examples/heat.cpp,
// written the same way, on an array whose rows are spread over the MPI ranks
// (sinter::mpi::dist). Each step exchanges one ghost row with each
// neighbour. The result is gathered on rank 0 and compared, bit for bit,
// with the same steps run on one process.
//   mpirun -np 2 mpi_heat [n [steps]]     defaults: 256 200
#include <sinter/mpi.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numbers>
#include <string>

namespace st = sinter;

constexpr float alpha = 0.2f;  // dt * diffusivity / dx^2: stable up to 0.25

// The heat steps on an n x n array of policy P (distributed or not).
template <class A>
void run(A& u, long steps) {
  const st::index_t n = u.shape(0);
  u(0, st::all) = st::sin(st::linspace<float>(0, std::numbers::pi_v<float>, n));
  u(st::slice(n / 2, 3 * n / 4), st::slice(n / 4, n / 2)) = 1.f;
  const auto in = st::slice(1, -1), lo = st::slice(0, -2), hi = st::slice(2, st::end);
  for (long s = 0; s < steps; ++s)
    u(in, in) = u(in, in) + alpha * (u(lo, in) + u(hi, in) + u(in, lo) + u(in, hi) - 4.f * u(in, in));
}

int main(int argc, char** argv) {
  long n = 256, steps = 200;
  for (int i = 1; i < argc; ++i) {
    char* end = nullptr;
    const long v = std::strtol(argv[i], &end, 10);
    if (argv[i][0] == '-' || *end != '\0' || v < 3 || i > 2) {
      std::fprintf(stderr, "usage: mpi_heat [n >= 3 [steps]]  (run under mpirun)\n");
      return 2;
    }
    (i == 1 ? n : steps) = v;
  }
  st::mpi::environment env(argc, argv);
  const st::mpi::communicator world;
  auto u = st::mpi::zeros<float>({n, n});  // rows spread over the ranks
  run(u, steps);
  const auto got = st::mpi::gather(u, 0);
  const float total = st::sum(u);  // a distributed reduction: the same bits as one process
  if (world.rank() != 0) return 0;
  st::array<float, 2> ref = st::zeros<float>({n, n});
  run(ref, steps);
  const bool same = std::memcmp(got.data(), ref.data(), sizeof(float) * std::size_t(n * n)) == 0;
  const float ref_total = st::sum(ref);
  const bool same_total = std::memcmp(&total, &ref_total, sizeof total) == 0;
  std::printf("mpi_heat: %ld x %ld, %ld steps on %d ranks: field %s, sum %.9g %s\n", n, n, steps, world.size(),
              same ? "equal to one process (bitwise)" : "DIFFERS from one process", double(total),
              same_total ? "(bitwise)" : "DIFFERS");
  return same && same_total ? 0 : 1;
}
