// expect: sinter: cannot assign to a view of const elements
// broadcast_to is read-only: its elements repeat, so writing them is refused.
#include <sinter/sinter.hpp>

int main() {
  sinter::array<float, 1> row({3});
  sinter::broadcast_to(row, {4, 3}) = 1.f;
}
