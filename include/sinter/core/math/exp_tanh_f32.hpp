#pragma once
/// \file exp_tanh_f32.hpp
/// exp and tanh for float, computed in float (twice the lanes of the double
/// kernels per vector, and no conversions): impl::exp_f and impl::tanh_f.
/// The exp kernel is written once, in exp_f32.inl, over a *lane type*: one
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

/// The kernels are always inlined, also at -O0: hw_exp.hpp instantiates them
/// inside functions built for one ISA, the only place where that ISA's
/// instructions may be used.
#if defined(__GNUC__) && !defined(__CUDA_ARCH__)
#define SINTER_DETAIL_LANE_INLINE inline __attribute__((always_inline))
#else
#define SINTER_DETAIL_LANE_INLINE SINTER_FORCEINLINE
#endif

namespace sinter::detail::math::impl {

/// The kernels on one float: exp_f32.inl (exp and tanh).
namespace lane_f32 {
using V = float;
using U = std::uint32_t;
#define SINTER_DETAIL_LANE_FN SINTER_HD SINTER_DETAIL_LANE_INLINE
SINTER_DETAIL_LANE_FN V c(float x) { return x; }
SINTER_DETAIL_LANE_FN V fma(V a, V b, V x) { return madd(a, b, x); }
SINTER_DETAIL_LANE_FN V vmax(V lo, V x) { return select(x < lo, lo, x); }
SINTER_DETAIL_LANE_FN V vmin(V hi, V x) { return select(hi < x, hi, x); }
SINTER_DETAIL_LANE_FN U bits(V x) { return to_bits(x); }
SINTER_DETAIL_LANE_FN V from(U u) { return from_bits<float>(u); }
SINTER_DETAIL_LANE_FN U lt(V a, V b) { return lt_mask(a, b); }
SINTER_DETAIL_LANE_FN V blend(U m, V a, V b) { return math::blend(m, a, b); }
SINTER_DETAIL_LANE_FN V select_lt(V a, V b, V x, V y) { return select(a < b, x, y); }
SINTER_DETAIL_LANE_FN V exp_scale(V p, V kt, V xc);
#define SINTER_DETAIL_LANE_FMA SINTER_DETAIL_HOST_FMA
#include "exp_f32.inl"
SINTER_DETAIL_LANE_FN V exp_scale(V p, V kt, V xc) { return exp_f_scale(p, kt, xc); }

#undef SINTER_DETAIL_LANE_FMA
#undef SINTER_DETAIL_LANE_FN
}  // namespace lane_f32

/// e^x for float: max error 0.81 ulp over every float with FMA, 0.78
/// without (docs/math.md); inf above 88.72283, 0 below -103.97208, NaN kept.
SINTER_HD SINTER_DETAIL_LANE_INLINE float exp_f(float x) { return lane_f32::exp_f(x); }
/// tanh for float: max error 1.46 ulp over every float with FMA, 1.76
/// without; NaN and -0 kept.
SINTER_HD SINTER_DETAIL_LANE_INLINE float tanh_f(float x) { return lane_f32::tanh_f(x); }

}  // namespace sinter::detail::math::impl
