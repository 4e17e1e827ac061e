// expect: sinter selftest: expected failure
// Proves the compile-fail harness: this file must not compile, and the error
// must carry the text above. Copy this shape for real compile-fail tests.
#include <sinter/sinter.hpp>

template <class T>
constexpr bool always_false = false;

template <class T>
void misuse() {
  static_assert(always_false<T>, "sinter selftest: expected failure");
}

int main() {
  misuse<int>();
  return sinter::version.major;
}
