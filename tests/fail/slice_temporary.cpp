// expect: sinter: indexing a temporary array would dangle; name the array first
// Slicing a temporary array would leave a dangling view: it does not compile.
#include <sinter/sinter.hpp>

int main() {
  auto v = sinter::zeros<float>({4})(sinter::slice(1, 3));
  (void)v;
}
