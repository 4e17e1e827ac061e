#pragma once
// TEMPORARY shim until exp_log.hpp / trig.hpp land.
#include <cmath>
#include "../../config.hpp"
namespace sinter::detail::math {
#define SINTER_TMP1(n) template <class T> SINTER_HD inline T n(T x) { return std::n(x); }
#define SINTER_TMP2(n) template <class T> SINTER_HD inline T n(T x, T y) { return std::n(x, y); }
SINTER_TMP1(sqrt) SINTER_TMP1(cbrt) SINTER_TMP1(exp) SINTER_TMP1(exp2) SINTER_TMP1(expm1)
SINTER_TMP1(log) SINTER_TMP1(log2) SINTER_TMP1(log10) SINTER_TMP1(log1p) SINTER_TMP1(sin)
SINTER_TMP1(cos) SINTER_TMP1(tan) SINTER_TMP1(asin) SINTER_TMP1(acos) SINTER_TMP1(atan)
SINTER_TMP1(sinh) SINTER_TMP1(cosh) SINTER_TMP1(tanh) SINTER_TMP1(asinh) SINTER_TMP1(acosh)
SINTER_TMP1(atanh) SINTER_TMP1(erf) SINTER_TMP1(erfc) SINTER_TMP1(floor) SINTER_TMP1(ceil)
SINTER_TMP1(trunc) SINTER_TMP2(pow) SINTER_TMP2(atan2) SINTER_TMP2(hypot) SINTER_TMP2(fmod)
template <class T> SINTER_HD inline T fma(T a, T b, T c) { return std::fma(a, b, c); }
template <class T> SINTER_HD inline T round(T x) { return std::nearbyint(x); }
template <class T> SINTER_HD inline T rsqrt(T x) { return T(1) / std::sqrt(x); }
}
