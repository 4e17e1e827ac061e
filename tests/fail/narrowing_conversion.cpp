// expect: sinter::array: implicit conversion to an element type that does not hold every value
// A double array passed to a float array parameter would be a narrowed copy
// made silently; as in Eigen, the conversion must be written out
// (sinter::array<float, 1>(x) or sinter::cast<float>(x)). Widening
// (float to double) stays implicit.
#include <sinter/sinter.hpp>

static float first(const sinter::array<float, 1>& x) { return x.data()[0]; }

int main() {
  sinter::array<double, 1> d({4});
  d = 0.1;
  return first(d) > 0.f ? 0 : 1;
}
