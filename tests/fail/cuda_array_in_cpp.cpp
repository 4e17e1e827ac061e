// expect: sinter::cuda: compile this file as CUDA (nvcc, or LANGUAGE CUDA in CMake) to use cuda arrays
// A cuda array in a file compiled by a plain host compiler: one clear message.
#include <sinter/sinter.hpp>

int main() {
  sinter::array<float, 1, sinter::cuda> a({4});
  (void)a;
}
