#pragma once
// The cases of tests/policy/test_isa_dispatch.cpp, shared with the reference
// program isa_dispatch/reference.cpp (compiled with -march=x86-64-v3 and -v4):
// every lane-kernel function of float and double on fixed inputs (an LCG,
// the same in every build) over each function's domain and its special
// values, evaluated through sinter arrays, and an FNV hash of the results'
// bits per case.
#include <sinter/array.hpp>
#include <sinter/functions.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace isa_cases {

namespace st = sinter;

/// One function: its name, its domain [lo, hi], sinter's function on arrays
/// of float and of double, and the reference in long double.
struct fn_case {
  const char* name;
  double lo, hi;
  void (*f32)(st::array<float, 1>&, const st::array<float, 1>&);
  void (*f64)(st::array<double, 1>&, const st::array<double, 1>&);
  long double (*ref)(long double);
  int big = 10;  ///< the log-scale inputs reach 2^big (2^127 at most in float)
};

#define ISA_CASE_BIG(fn, lo, hi, big)                                                                \
  fn_case {                                                                                         \
    #fn, lo, hi, [](st::array<float, 1>& o, const st::array<float, 1>& x) { o = st::fn(x); },     \
        [](st::array<double, 1>& o, const st::array<double, 1>& x) { o = st::fn(x); },            \
        [](long double v) { return std::fn(v); }, big                                                \
  }
#define ISA_CASE(fn, lo, hi) ISA_CASE_BIG(fn, lo, hi, 10)

/// Every function of SINTER_DETAIL_LANE_KERNEL_OPS (core/ops.hpp), then
/// those of SINTER_DETAIL_DISPATCH_AUTO_OPS (policy/host/dispatch.hpp), in
/// their order; sin, cos, tan and atan also on arguments up to 2^127 in
/// float, 2^1000 in double (the Payne-Hanek reductions).
inline const std::vector<fn_case>& cases() {
  static const std::vector<fn_case> c = {
      ISA_CASE(exp, -110, 90),    ISA_CASE(tanh, -12, 12),   ISA_CASE(exp2, -160, 130),
      ISA_CASE(expm1, -40, 90),   ISA_CASE(log, 0, 1e30),    ISA_CASE(log2, 0, 1e30),
      ISA_CASE(log10, 0, 1e30),   ISA_CASE(log1p, -1, 1e6),  ISA_CASE(sinh, -90, 90),
      ISA_CASE(cosh, -90, 90),    ISA_CASE(asinh, -1e6, 1e6), ISA_CASE(acosh, 1, 1e6),
      ISA_CASE(atanh, -1, 1),     ISA_CASE(erf, -6, 6),      ISA_CASE(erfc, -6, 28),
      ISA_CASE_BIG(sin, -100, 100, 1000), ISA_CASE_BIG(cos, -1e4, 1e4, 1000), ISA_CASE_BIG(tan, -100, 100, 1000),
      ISA_CASE(asin, -1, 1),      ISA_CASE(acos, -1, 1),     ISA_CASE_BIG(atan, -50, 50, 1000),
  };
  return c;
}
#undef ISA_CASE
#undef ISA_CASE_BIG

/// n inputs for c: mostly uniform on its domain, some near 0 and 1 on a
/// log scale (where the kernels change range), and the special values.
template <class T>
std::vector<T> inputs(const fn_case& c, std::size_t n, std::uint64_t seed) {
  std::vector<T> v(n);
  std::uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
  const T specials[] = {T(0), -T(0), std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity(),
                        std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::denorm_min(), T(1), T(-1)};
  const int top = sizeof(T) == 4 && c.big > 127 ? 127 : c.big;
  for (std::size_t i = 0; i < n; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const double u = static_cast<double>(s >> 11) * 0x1p-53;
    // std::fma, not a * b + c: GCC would fuse that in the -march builds only,
    // and the inputs would differ between the builds compared.
    if (i % 97 == 13) v[i] = specials[(i / 97) % 8];
    else if (i % 5 == 1)
      v[i] = static_cast<T>((u < 0.5 ? -1 : 1) * std::exp2(std::fma(top + 30.0, 2 * u - std::floor(2 * u), -30.0)));
    else v[i] = static_cast<T>(std::fma(c.hi - c.lo, u, c.lo));
  }
  return v;
}

/// FNV-1a of the bits of v.
template <class T>
std::uint64_t hash(const std::vector<T>& v) {
  std::uint64_t h = 1469598103934665603ull;
  for (const T x : v) {
    unsigned char b[sizeof(T)];
    std::memcpy(b, &x, sizeof x);
    for (unsigned char byte : b) h = (h ^ byte) * 1099511628211ull;
  }
  return h;
}

/// The results of c on the inputs through a sinter array pass.
template <class T>
std::vector<T> run(const fn_case& c, const std::vector<T>& in) {
  const auto n = static_cast<st::index_t>(in.size());
  st::array<T, 1> x({n}), o({n});
  for (st::index_t i = 0; i < n; ++i) x(i) = in[static_cast<std::size_t>(i)];
  if constexpr (std::is_same_v<T, float>) c.f32(o, x);
  else c.f64(o, x);
  std::vector<T> out(in.size());
  for (st::index_t i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = o(i);
  return out;
}

/// Inputs per case (odd: a partial vector and a partial tile at the end).
inline constexpr std::size_t case_size = 4099;

/// One line per case and type: "<name> <f32|f64> <hash>".
inline std::string hash_lines() {
  std::string s;
  for (const fn_case& c : cases()) {
    s += std::string(c.name) + " f32 " + std::to_string(hash(run(c, inputs<float>(c, case_size, 1)))) + "\n";
    s += std::string(c.name) + " f64 " + std::to_string(hash(run(c, inputs<double>(c, case_size, 1)))) + "\n";
  }
  return s;
}

}  // namespace isa_cases
