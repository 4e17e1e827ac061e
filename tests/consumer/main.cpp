// The program every consumer test builds (tests/consumer/*/CMakeLists.txt):
// it includes sinter the way a user does and exits 0 iff it works.
#include <sinter/sinter.hpp>

int main() { return sinter::version.major == SINTER_VERSION_MAJOR ? 0 : 1; }
