#pragma once
/// \file functions.hpp
/// All of core/math: branch-free float/double implementations that the host
/// loop vectorises (docs/math.md, docs/math_trig.md), CUDA's own maths in
/// device code. fmod and fma are the two exceptions, noted below.
#include <cmath>

#include "../../config.hpp"
#include "exp_log.hpp"
#include "pow_erf.hpp"
#include "sqrt_round.hpp"
#include "trig.hpp"

namespace sinter::detail::math {

/// C fmod. Exact fmod needs a loop as long as the exponent gap (up to ~2100
/// steps), so this one calls libm and does not vectorise on the host.
template <class T>
SINTER_HD SINTER_FORCEINLINE T fmod(T x, T y) {
  return ::fmod(x, y);
}
SINTER_HD SINTER_FORCEINLINE float fmod(float x, float y) { return ::fmodf(x, y); }

/// a * b + c with one rounding: the hardware instruction where the target
/// has FMA (CUDA always; x86 with -mfma or -march supporting it), else libm.
template <class T>
SINTER_HD SINTER_FORCEINLINE T fma(T a, T b, T c) {
  return ::fma(a, b, c);
}
SINTER_HD SINTER_FORCEINLINE float fma(float a, float b, float c) { return ::fmaf(a, b, c); }

}  // namespace sinter::detail::math
