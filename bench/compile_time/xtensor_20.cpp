// Compile-time benchmark (bench/compile_time.py): the 20 expressions of
// sinter_20.cpp written with xtensor (compiled with XTENSOR_USE_XSIMD).
#include <xtensor/xmath.hpp>
#include <xtensor/xoperation.hpp>
#include <xtensor/xtensor.hpp>

namespace ct {
using A = xt::xtensor<float, 1>;

void e01(A& c, const A& a, const A& b, const A&) { c = a + b; }
void e02(A& c, const A& a, const A& b, const A& d) { c = a * b + d; }
void e03(A& c, const A& a, const A& b, const A& d) { c = a * 2.f - b / d; }
void e04(A& c, const A& a, const A& b, const A&) { c = xt::exp(a + b) * 2.f; }
void e05(A& c, const A& a, const A& b, const A& d) {
  c = xt::tanh(a * 0.5f + b) * d - xt::sqrt(xt::abs(a));
}
void e06(A& c, const A& a, const A& b, const A&) { c = xt::where(a > b, a, b); }
void e07(A& c, const A& a, const A& b, const A& d) { c = xt::minimum(a, b) + xt::maximum(b, d); }
void e08(A& c, const A& a, const A& b, const A&) { c = xt::pow(a, b); }
void e09(A& c, const A& a, const A& b, const A&) { c = xt::log(xt::abs(a) + 1.f) * b; }
void e10(A& c, const A& a, const A&, const A&) { c = 0.5f * (1.f + xt::erf(a * 0.70710678f)); }
void e11(A& c, const A& a, const A& b, const A& d) { c = xt::sin(a) * xt::cos(b) + d; }
void e12(A& c, const A& a, const A& b, const A& d) { c = a * a * a - 3.f * a * b + d; }
void e13(A& c, const A& a, const A& b, const A&) { c = xt::clip(a, -1.f, 1.f) * b; }
void e14(A& c, const A& a, const A& b, const A& d) { c = xt::sqrt(a * a + b * b + d * d); }
void e15(A& c, const A& a, const A& b, const A&) {
  c = xt::where(xt::abs(a - b) < 1e-3f, 0.f, (a - b) / (xt::abs(a) + xt::abs(b)));
}
void e16(A& c, const A& a, const A& b, const A&) { c = xt::exp(-a * a) * xt::cos(b * 3.f); }
void e17(A& c, const A& a, const A& b, const A& d) { c = (a - b) * (a + b) / (1.f + d * d); }
void e18(A& c, const A& a, const A& b, const A&) { c = xt::log1p(xt::exp(a)) - b; }
void e19(A& c, const A& a, const A& b, const A& d) { c = 1.f / (1.f + xt::exp(-(a * b + d))); }
void e20(A& c, const A& a, const A& b, const A&) { c = xt::floor(a * 10.f) / 10.f + xt::round(b); }
}  // namespace ct
