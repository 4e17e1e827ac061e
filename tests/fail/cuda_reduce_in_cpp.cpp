// expect: sinter::cuda: compile this file as CUDA (nvcc, or LANGUAGE CUDA in CMake) to use cuda arrays
// expect: sinter::detail::reducer<sinter::cuda>
// A full reduction of device memory (here a view of it, so nothing is
// allocated and only the reduction can be refused) in a file compiled by a
// plain host compiler: one clear message, not the CPU reducer reading device
// memory on the host.
#include <sinter/sinter.hpp>

int main(int, char** argv) {
  const sinter::view<float, 1, sinter::cuda> v(reinterpret_cast<float*>(argv[0]), {4});
  return static_cast<int>(sinter::sum(v * 2.f));
}
