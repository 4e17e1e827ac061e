// Compile-time benchmark (bench/compile_time.py): the 20 expressions of
// sinter_20.cpp written with Eigen arrays.
#include <Eigen/Core>
#include <unsupported/Eigen/SpecialFunctions>

namespace ct {
using A = Eigen::ArrayXf;

void e01(A& c, const A& a, const A& b, const A&) { c = a + b; }
void e02(A& c, const A& a, const A& b, const A& d) { c = a * b + d; }
void e03(A& c, const A& a, const A& b, const A& d) { c = a * 2.f - b / d; }
void e04(A& c, const A& a, const A& b, const A&) { c = (a + b).exp() * 2.f; }
void e05(A& c, const A& a, const A& b, const A& d) {
  c = (a * 0.5f + b).tanh() * d - a.abs().sqrt();
}
void e06(A& c, const A& a, const A& b, const A&) { c = (a > b).select(a, b); }
void e07(A& c, const A& a, const A& b, const A& d) { c = a.min(b) + b.max(d); }
void e08(A& c, const A& a, const A& b, const A&) { c = a.pow(b); }
void e09(A& c, const A& a, const A& b, const A&) { c = (a.abs() + 1.f).log() * b; }
void e10(A& c, const A& a, const A&, const A&) { c = 0.5f * (1.f + (a * 0.70710678f).erf()); }
void e11(A& c, const A& a, const A& b, const A& d) { c = a.sin() * b.cos() + d; }
void e12(A& c, const A& a, const A& b, const A& d) { c = a * a * a - 3.f * a * b + d; }
void e13(A& c, const A& a, const A& b, const A&) { c = a.max(-1.f).min(1.f) * b; }
void e14(A& c, const A& a, const A& b, const A& d) { c = (a * a + b * b + d * d).sqrt(); }
void e15(A& c, const A& a, const A& b, const A&) {
  c = ((a - b).abs() < 1e-3f).select(0.f, (a - b) / (a.abs() + b.abs()));
}
void e16(A& c, const A& a, const A& b, const A&) { c = (-a * a).exp() * (b * 3.f).cos(); }
void e17(A& c, const A& a, const A& b, const A& d) { c = (a - b) * (a + b) / (1.f + d * d); }
void e18(A& c, const A& a, const A& b, const A&) { c = a.exp().log1p() - b; }
void e19(A& c, const A& a, const A& b, const A& d) { c = 1.f / (1.f + (-(a * b + d)).exp()); }
void e20(A& c, const A& a, const A& b, const A&) { c = (a * 10.f).floor() / 10.f + b.round(); }
}  // namespace ct
