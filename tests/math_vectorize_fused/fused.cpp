// One fused sinter expression per case (-DCASE=N); check.sh asserts that the
// host policy's contiguous loop (policy/host/loop.hpp, store_range) is
// vectorised for each: transcendental functions, mixed types, where, casts,
// plain arithmetic, a row broadcast.
#include <sinter/sinter.hpp>

namespace st = sinter;
using F = st::array<float, 1>;
using D = st::array<double, 1>;

#if CASE == 1  // the tour: exp(a + b) * 2
void f(F& c, const F& a, const F& b) { c = st::exp(a + b) * 2.f; }
#elif CASE == 2  // a long chain
void f(F& c, const F& a, const F& b, const F& d) { c = st::tanh(a * 0.5f + b) * d - st::sqrt(st::abs(a)); }
#elif CASE == 3  // Black-Scholes-like: log, sqrt, erf, exp
void f(F& c, const F& s, const F& k, const F& t) {
  c = s * (0.5f + 0.5f * st::erf((st::log(s / k) + 0.02f * t) / (0.3f * st::sqrt(t)))) - k * st::exp(-0.01f * t);
}
#elif CASE == 4  // double trigonometry and pow
void f(D& c, const D& a, const D& b) { c = st::sin(a) * st::cos(b) + st::pow(st::abs(a), 1.5) + st::atan2(a, b); }
#elif CASE == 5  // where, comparisons, mixed int/float, cast
void f(F& c, const F& a, const st::array<int, 1>& i) { c = st::where(a > 0.f, a, st::cast<float>(i) * 0.5f) + st::floor(a); }
#elif CASE == 6  // half storage computed in float
void f(st::array<st::half, 1>& c, const st::array<st::half, 1>& a, const F& b) { c = st::exp(st::cast<float>(a)) + b; }
#elif CASE == 7  // hyperbolic and inverse functions, double
void f(D& c, const D& a) { c = st::asinh(a) + st::log1p(st::abs(a)) + st::expm1(a) + st::cbrt(a); }
#elif CASE == 8  // BabelStream add, float
void f(F& c, const F& a, const F& b) { c = a + b; }
#elif CASE == 9  // BabelStream triad, double
void f(D& c, const D& a, const D& b) { c = a + 0.4 * b; }
#elif CASE == 10  // a row broadcast over a matrix (the strided pass's unit-stride rows)
void f(st::array<float, 2>& c, const st::array<float, 2>& a, const F& row) { c = a * row + 1.f; }
#elif CASE == 11  // narrow integers widened
void f(st::array<int, 1>& c, const st::array<std::int8_t, 1>& a, const st::array<std::int16_t, 1>& b) {
  c = st::cast<int>(a) * st::cast<int>(b);
}
#endif
