// expect: sinter::cuda: compile this file as CUDA (nvcc, or LANGUAGE CUDA in CMake) to use cuda arrays
// Printing device memory in a file compiled by a plain host compiler: one
// clear message, not a link error.
#include <sinter/sinter.hpp>

#include <iostream>

int main(int, char** argv) {
  const sinter::view<float, 1, sinter::cuda> v(reinterpret_cast<float*>(argv[0]), {4});
  std::cout << v << '\n';
}
