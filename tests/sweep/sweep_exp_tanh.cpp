// The exhaustive sweep behind docs/math.md's float exp and tanh bounds
// (sweep.hpp): the loops run the vector variants of hw_exp.hpp and GCC's
// SIMD clones; references double-precision std::exp/std::tanh. Bounds 0.81;
// tanh 1.46 with FMA, 1.76 without. Exits 1 above them or on a mismatch.
// Not a ctest: about 80 s on 2 cores. Built by tests/CMakeLists.txt (not by
// default) for the baseline target and, as ..._fma, for x86-64-v3.
#include <sinter/core/math/exp_log.hpp>

#include "sweep.hpp"

namespace m = sinter::detail::math;

namespace {
__attribute__((noinline)) void exp_loop(const float* __restrict x, float* __restrict y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = m::exp(x[i]);
}
__attribute__((noinline)) void tanh_loop(const float* __restrict x, float* __restrict y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = m::tanh(x[i]);
}
double exp_ref(double x) { return std::exp(x); }
double tanh_ref(double x) { return std::tanh(x); }
float exp_kernel(float x) { return m::impl::exp_f(x); }
float tanh_kernel(float x) { return m::impl::tanh_f(x); }
}  // namespace

int main() {
  const bool exp_ok = sweep::run({"exp", exp_loop, exp_kernel, exp_ref, 0.81});
  const bool tanh_ok = sweep::run({"tanh", tanh_loop, tanh_kernel, tanh_ref, SINTER_DETAIL_HOST_FMA ? 1.46 : 1.76});
  return exp_ok && tanh_ok ? 0 : 1;
}
