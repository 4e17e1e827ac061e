#pragma once
/// \file policy/host/isa_lanes.hpp
/// The maths kernels' lanes for run-time dispatch (policy/host/dispatch.hpp):
/// AVX2 + FMA and AVX-512 vectors of float and double, for a build whose own
/// ISA is below them (SINTER_CPU_DISPATCH). They are hw_exp.hpp's and
/// kernels_f64.hpp's lanes with each intrinsic written as the GCC builtin it
/// wraps: an intrinsic is a function of its ISA, which GCC refuses to inline
/// into the kernels (templates compiled at the build's ISA), while a builtin
/// is expanded only once the kernel is inlined into dispatch.hpp's tile
/// function, compiled for the ISA (target attribute). The same instructions
/// on every lane: the same bits as those lanes, where GCC fuses the same
/// products (tests/policy/test_isa_dispatch.cpp).
#include "cpu_isa.hpp"

#if SINTER_DETAIL_DISPATCH_LANES
#include "../../core/math/kernels_f64.hpp"

// A vector argument of a width the build lacks warns of an ABI change; these
// functions are always inlined into a function of that ISA. Not popped: GCC
// reports the kernels' instances at the end of the including file.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace sinter::detail::isa {

/// Eight floats of AVX2 + FMA (hw_exp.hpp's lane_avx_ops).
struct avx2_f_ops {
  using V = __v8sf;
  using U = __v8su;
  static constexpr bool fused = true;
  static SINTER_DETAIL_LANE_OP V c(float x) { return x - V{}; }
  static SINTER_DETAIL_LANE_OP U bits(V x) { return reinterpret_cast<U>(x); }
  static SINTER_DETAIL_LANE_OP V from(U u) { return reinterpret_cast<V>(u); }
  static SINTER_DETAIL_LANE_OP U lt(V a, V b) { return reinterpret_cast<U>(a < b); }
  static SINTER_DETAIL_LANE_OP V vmax(V lo, V x) { return __builtin_ia32_maxps256(lo, x); }
  static SINTER_DETAIL_LANE_OP V vmin(V hi, V x) { return __builtin_ia32_minps256(hi, x); }
  static SINTER_DETAIL_LANE_OP V fma(V a, V b, V x) { return __builtin_ia32_vfmaddps256(a, b, x); }
  static SINTER_DETAIL_LANE_OP V blend(U m, V a, V b) { return __builtin_ia32_blendvps256(b, a, reinterpret_cast<V>(m)); }
  static SINTER_DETAIL_LANE_OP V select_lt(V a, V b, V x, V y) { return blend(lt(a, b), x, y); }
};
/// The float kernels on eight floats.
using avx2_f = math::impl::exp_f32_kernels<avx2_f_ops>;

/// Four doubles of AVX2 + FMA (kernels_f64.hpp's lane_avx2_d_ops).
struct avx2_d_ops {
  using V = __v4df;
  using U = __v4du;
  using M = U;
  static SINTER_DETAIL_LANE_OP V c(double x) { return x - V{}; }
  static SINTER_DETAIL_LANE_OP U bits(V x) { return reinterpret_cast<U>(x); }
  static SINTER_DETAIL_LANE_OP V from(U u) { return reinterpret_cast<V>(u); }
  static SINTER_DETAIL_LANE_OP U lt(V a, V b) { return reinterpret_cast<U>(a < b); }
  static SINTER_DETAIL_LANE_OP V blend(U m, V a, V b) { return __builtin_ia32_blendvpd256(b, a, reinterpret_cast<V>(m)); }
  static SINTER_DETAIL_LANE_OP V clamp(V x, double lo, double hi) {
    return __builtin_ia32_minpd256(c(hi), __builtin_ia32_maxpd256(c(lo), x));
  }
  static SINTER_DETAIL_LANE_OP U nan_mask(V x) { return reinterpret_cast<U>(__builtin_ia32_cmppd256(x, x, 3)); }
  static SINTER_DETAIL_LANE_OP U sign_mask(V x) { return U{} - (bits(x) >> 63); }
  static SINTER_DETAIL_LANE_OP V vsqrt(V x) { return __builtin_ia32_sqrtpd256(x); }
};
/// The double kernels on four doubles.
using avx2_d = math::impl::log_erf_f32_kernels<avx2_d_ops>;

/// Sixteen floats of AVX-512F (hw_exp.hpp's lane_avx512_ops).
struct avx512_f_ops {
  using V = __v16sf;
  using U = __v16su;
  static constexpr bool fused = true;
  static SINTER_DETAIL_LANE_OP V c(float x) { return x - V{}; }
  static SINTER_DETAIL_LANE_OP U bits(V x) { return reinterpret_cast<U>(x); }
  static SINTER_DETAIL_LANE_OP V from(U u) { return reinterpret_cast<V>(u); }
  static SINTER_DETAIL_LANE_OP U lt(V a, V b) { return reinterpret_cast<U>(a < b); }
  static SINTER_DETAIL_LANE_OP V vmax(V lo, V x) { return __builtin_ia32_maxps512_mask(lo, x, lo, static_cast<__mmask16>(0xffff), 4); }
  static SINTER_DETAIL_LANE_OP V vmin(V hi, V x) { return __builtin_ia32_minps512_mask(hi, x, hi, static_cast<__mmask16>(0xffff), 4); }
  static SINTER_DETAIL_LANE_OP V fma(V a, V b, V x) { return __builtin_ia32_vfmaddps512_mask(a, b, x, static_cast<__mmask16>(0xffff), 4); }
  static SINTER_DETAIL_LANE_OP V blend(U m, V a, V b) { return from((bits(a) & m) | (bits(b) & ~m)); }
  static SINTER_DETAIL_LANE_OP V select_lt(V a, V b, V x, V y) {
    return __builtin_ia32_blendmps_512_mask(y, x, static_cast<__mmask16>(__builtin_ia32_cmpps512_mask(a, b, 1, static_cast<__mmask16>(0xffff), 4)));
  }
  static SINTER_DETAIL_LANE_OP V exp_scale(V p, V kt, V xc) {
    static_cast<void>(xc);
    return __builtin_ia32_scalefps512_mask(p, kt - 0x1.8p23f, p, static_cast<__mmask16>(0xffff), 4);
  }
};
/// The float kernels on sixteen floats.
using avx512_f = math::impl::exp_f32_kernels<avx512_f_ops>;

/// Eight doubles of AVX-512F (kernels_f64.hpp's lane_avx512_d_ops).
struct avx512_d_ops {
  using V = __v8df;
  using U = __v8du;
  using M = __mmask8;
  static SINTER_DETAIL_LANE_OP V c(double x) { return x - V{}; }
  static SINTER_DETAIL_LANE_OP U bits(V x) { return reinterpret_cast<U>(x); }
  static SINTER_DETAIL_LANE_OP V from(U u) { return reinterpret_cast<V>(u); }
  static SINTER_DETAIL_LANE_OP M lt(V a, V b) { return __builtin_ia32_cmppd512_mask(a, b, 1, static_cast<__mmask8>(0xff), 4); }
  static SINTER_DETAIL_LANE_OP V blend(M m, V a, V b) { return __builtin_ia32_blendmpd_512_mask(b, a, m); }
  static SINTER_DETAIL_LANE_OP V clamp(V x, double lo, double hi) {
    return __builtin_ia32_minpd512_mask(c(hi), __builtin_ia32_maxpd512_mask(c(lo), x, c(lo), static_cast<__mmask8>(0xff), 4), c(hi), static_cast<__mmask8>(0xff), 4);
  }
  static SINTER_DETAIL_LANE_OP M nan_mask(V x) { return __builtin_ia32_cmppd512_mask(x, x, 3, static_cast<__mmask8>(0xff), 4); }
  static SINTER_DETAIL_LANE_OP M sign_mask(V x) {
    return __builtin_ia32_ptestmq512(reinterpret_cast<__v8di>(x), reinterpret_cast<__v8di>(U{} + (1ull << 63)), static_cast<__mmask8>(0xff));
  }
  static SINTER_DETAIL_LANE_OP V vsqrt(V x) { return __builtin_ia32_sqrtpd512_mask(x, x, static_cast<__mmask8>(0xff), 4); }
};
/// The double kernels on eight doubles.
using avx512_d = math::impl::log_erf_f32_kernels<avx512_d_ops>;

}  // namespace sinter::detail::isa

#endif
