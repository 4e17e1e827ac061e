// expect: sinter::reshape: the expression is computed, not stored; evaluate it first with sinter::eval(x)
// A computed expression has no memory layout to re-index.
#include <sinter/sinter.hpp>

int main() {
  sinter::array<float, 1> a({6});
  auto v = sinter::reshape(a + 1.f, {2, 3});
  (void)v;
}
