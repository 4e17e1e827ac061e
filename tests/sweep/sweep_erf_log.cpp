// The exhaustive sweep behind docs/math.md's float erf, erfc, log, log2 and
// log10 bounds (sweep.hpp; kernels in erf_f32.hpp and log_f32.hpp): the
// loops run GCC's SIMD clones; references the double-precision std::
// functions. Exits 1 above the bounds or on a mismatch. Not a ctest: about
// 3 minutes on 2 cores. Built by tests/CMakeLists.txt (not by default) for
// the baseline target and, as ..._fma, for x86-64-v3.
#include <sinter/core/math/pow_erf.hpp>

#include "sweep.hpp"

namespace m = sinter::detail::math;

// A function's vectorised loop, scalar kernel and reference.
#define SWEEP_FUNCTION(name)                                                                           \
  __attribute__((noinline)) void name##_loop(const float* __restrict x, float* __restrict y, std::size_t n) { \
    for (std::size_t i = 0; i < n; ++i) y[i] = m::name(x[i]);                                          \
  }                                                                                                    \
  float name##_kernel(float x) { return m::impl::name##_f(x); }                                        \
  double name##_ref(double x) { return std::name(x); }

namespace {
SWEEP_FUNCTION(erf)
SWEEP_FUNCTION(erfc)
SWEEP_FUNCTION(log)
SWEEP_FUNCTION(log2)
SWEEP_FUNCTION(log10)
}  // namespace

int main() {
  bool ok = true;
  // Bounds: the measured maxima (docs/math.md), rounded up.
  ok = sweep::run({"erf", erf_loop, erf_kernel, erf_ref, 0.502}) && ok;
  ok = sweep::run({"erfc", erfc_loop, erfc_kernel, erfc_ref, 0.502}) && ok;
  ok = sweep::run({"log", log_loop, log_kernel, log_ref, 0.502}) && ok;
  ok = sweep::run({"log2", log2_loop, log2_kernel, log2_ref, 0.502}) && ok;
  ok = sweep::run({"log10", log10_loop, log10_kernel, log10_ref, 0.502}) && ok;
  return ok ? 0 : 1;
}
