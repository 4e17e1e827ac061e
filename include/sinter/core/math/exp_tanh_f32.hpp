#pragma once
/// \file exp_tanh_f32.hpp
/// exp and tanh for float, computed in float (twice the lanes of the double
/// kernels per vector, and no conversions): impl::exp_f and impl::tanh_f.
/// The exp kernel is written once, in exp_f32.hpp, over a *lane type*: one
/// float here (host scalar code, and the bodies GCC vectorises where
/// hw_exp.hpp does not apply), an x86 float vector per ISA in hw_exp.hpp,
/// whose vector variants GCC's vectoriser calls. Every lane type gives the
/// same bits for the same input (their operations differ only where the
/// results cannot: a clamp by `vminps` or by a blend, a scaling by
/// `vscalefps` or by two exact products), so a value does not depend on
/// where in an array it falls. tanh is written once too (a half-argument
/// identity and a rational, no exponential); GCC makes the SIMD clones of
/// its one-float form, and policy/host/simd.hpp inlines its vector forms.
#include <cstdint>

#include "bits.hpp"
#include "exp_f32.hpp"

namespace sinter::detail::math::impl {

/// The lane of one float (host scalar code, the bodies GCC vectorises,
/// and device code).
struct lane_f32_ops {
  using V = float;
  using U = std::uint32_t;
  static constexpr bool fused = SINTER_DETAIL_HOST_FMA;
  static SINTER_DETAIL_LANE_OP V c(float x) { return x; }
  static SINTER_DETAIL_LANE_OP V fma(V a, V b, V x) { return madd(a, b, x); }
  static SINTER_DETAIL_LANE_OP V vmax(V lo, V x) { return select(x < lo, lo, x); }
  static SINTER_DETAIL_LANE_OP V vmin(V hi, V x) { return select(hi < x, hi, x); }
  static SINTER_DETAIL_LANE_OP U bits(V x) { return to_bits(x); }
  static SINTER_DETAIL_LANE_OP V from(U u) { return from_bits<float>(u); }
  static SINTER_DETAIL_LANE_OP U lt(V a, V b) { return lt_mask(a, b); }
  static SINTER_DETAIL_LANE_OP V blend(U m, V a, V b) { return math::blend(m, a, b); }
  static SINTER_DETAIL_LANE_OP V select_lt(V a, V b, V x, V y) { return select(a < b, x, y); }
};
/// The float kernels on one float.
using lane_f32 = exp_f32_kernels<lane_f32_ops>;

/// e^x for float: max error 0.81 ulp over every float with FMA, 0.78
/// without (docs/math.md); inf above 88.72283, 0 below -103.97208, NaN kept.
SINTER_HD SINTER_DETAIL_LANE_INLINE float exp_f(float x) { return lane_f32::exp_f(x); }
/// tanh for float: max error 1.46 ulp over every float with FMA, 1.76
/// without; NaN and -0 kept.
SINTER_HD SINTER_DETAIL_LANE_INLINE float tanh_f(float x) { return lane_f32::tanh_f(x); }

}  // namespace sinter::detail::math::impl
