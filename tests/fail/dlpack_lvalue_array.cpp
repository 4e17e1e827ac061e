// expect: sinter::to_dlpack: an array is exported by handing its buffer over: to_dlpack(std::move(a))
#include <sinter/dlpack.hpp>

int main() {
  sinter::array<float, 1> a({4});
  DLManagedTensor* t = sinter::to_dlpack(a);  // would silently copy or steal: neither
  t->deleter(t);
}
