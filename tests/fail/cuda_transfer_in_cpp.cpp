// expect: sinter::cuda: compile this file as CUDA (nvcc, or LANGUAGE CUDA in CMake) to use cuda arrays
// Copying device memory (here a view of it) to the host in a file compiled by
// a plain host compiler, which cannot call the CUDA runtime: one clear message.
#include <sinter/sinter.hpp>

int main(int, char** argv) {
  sinter::view<float, 1, sinter::cuda> v(reinterpret_cast<float*>(argv[0]), {4});
  auto h = sinter::to<sinter::host>(v);
  (void)h;
}
