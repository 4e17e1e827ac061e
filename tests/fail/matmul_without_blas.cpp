// expect: sinter: matmul needs a BLAS; link the CMake target sinter::blas
#include <sinter/linalg.hpp>
#include <sinter/sinter.hpp>

int main() {
  sinter::array<float, 2> a({2, 2}), b({2, 2});
  auto c = sinter::matmul(a, b);
  (void)c;
}
