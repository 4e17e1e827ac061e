// Compile-time benchmark (bench/compile_time.py): 20 distinct element-wise
// expressions, each assigned into an output array by its own function. The
// same 20 expressions are in eigen_20.cpp and xtensor_20.cpp; the inputs
// come in by reference, so nothing can be folded away.
#include <sinter/sinter.hpp>

namespace ct {
using A = sinter::array<float, 1>;

void e01(A& c, const A& a, const A& b, const A&) { c = a + b; }
void e02(A& c, const A& a, const A& b, const A& d) { c = a * b + d; }
void e03(A& c, const A& a, const A& b, const A& d) { c = a * 2.f - b / d; }
void e04(A& c, const A& a, const A& b, const A&) { c = sinter::exp(a + b) * 2.f; }
void e05(A& c, const A& a, const A& b, const A& d) {
  c = sinter::tanh(a * 0.5f + b) * d - sinter::sqrt(sinter::abs(a));
}
void e06(A& c, const A& a, const A& b, const A&) { c = sinter::where(a > b, a, b); }
void e07(A& c, const A& a, const A& b, const A& d) { c = sinter::minimum(a, b) + sinter::maximum(b, d); }
void e08(A& c, const A& a, const A& b, const A&) { c = sinter::pow(a, b); }
void e09(A& c, const A& a, const A& b, const A&) { c = sinter::log(sinter::abs(a) + 1.f) * b; }
void e10(A& c, const A& a, const A&, const A&) { c = 0.5f * (1.f + sinter::erf(a * 0.70710678f)); }
void e11(A& c, const A& a, const A& b, const A& d) { c = sinter::sin(a) * sinter::cos(b) + d; }
void e12(A& c, const A& a, const A& b, const A& d) { c = a * a * a - 3.f * a * b + d; }
void e13(A& c, const A& a, const A& b, const A&) { c = sinter::clip(a, -1.f, 1.f) * b; }
void e14(A& c, const A& a, const A& b, const A& d) { c = sinter::sqrt(a * a + b * b + d * d); }
void e15(A& c, const A& a, const A& b, const A&) {
  c = sinter::where(sinter::abs(a - b) < 1e-3f, 0.f, (a - b) / (sinter::abs(a) + sinter::abs(b)));
}
void e16(A& c, const A& a, const A& b, const A&) { c = sinter::exp(-a * a) * sinter::cos(b * 3.f); }
void e17(A& c, const A& a, const A& b, const A& d) { c = (a - b) * (a + b) / (1.f + d * d); }
void e18(A& c, const A& a, const A& b, const A&) { c = sinter::log1p(sinter::exp(a)) - b; }
void e19(A& c, const A& a, const A& b, const A& d) { c = 1.f / (1.f + sinter::exp(-(a * b + d))); }
void e20(A& c, const A& a, const A& b, const A&) { c = sinter::floor(a * 10.f) / 10.f + sinter::round(b); }
}  // namespace ct
