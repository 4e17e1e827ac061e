// One maths function per pass (exp, log, erfc, tanh; float and double) in
// sinter, Eigen arrays and xtensor with xsimd: speed and accuracy side by
// side, to show what each library's kernels trade. Black-Scholes and the
// tanh chain (bench_math.cpp) spend most of their time in these functions.
//
// Speed: `out = f(x)` over 2^14 elements (L1/L2), x spread over the range
// where the function is not saturated (exp [-10, 10], log [1e-3, 1e3]
// log-uniform, erfc and tanh [-5, 5]).
// Accuracy, computed once per benchmark before the timing:
//  - `max_ulp`, the largest error in units in the last place of the result
//    type, against libm in a wider type (double for float, long double for
//    double);
//  - `wrong_special`, how many inputs gave an infinity or NaN where the
//    reference has none, or the reverse (an overflow to a finite value);
// over a sample: for float, every 251st bit pattern of all 2^32 (17.1
// million values, every sign and exponent; NaN inputs skipped); for double,
// 2^20 random values of the speed range. A sample's maximum is a lower
// bound of the true one (sinter's, over every float: docs/math.md).
//   ./build/bench/bench_math_peers --benchmark_min_time=0.2
#include <cstring>
#include <limits>

#include "suite.hpp"

namespace bench {
namespace {

enum class fn { exp, log, erfc, tanh };
const char* fn_name(fn f) {
  switch (f) {
    case fn::exp: return "exp";
    case fn::log: return "log";
    case fn::erfc: return "erfc";
    default: return "tanh";
  }
}

/// f(x) in long double, the reference.
long double reference(fn f, long double x) {
  switch (f) {
    case fn::exp: return std::exp(x);
    case fn::log: return std::log(x);
    case fn::erfc: return std::erfc(x);
    default: return std::tanh(x);
  }
}

/// |got - ref| in units in the last place of T at ref (subnormal spacing
/// below T's smallest normal); -1 for a wrong special value: an infinity
/// (ref rounds to inf in T, or got is inf) or NaN that the other lacks.
template <class T>
double ulp_error(T got, long double ref) {
  if (std::isnan(ref) || std::isnan(got)) return std::isnan(ref) && std::isnan(got) ? 0 : -1;
  const T rounded = static_cast<T>(ref);  // inf where ref is past T's largest finite value
  if (std::isinf(rounded) || std::isinf(got)) return got == rounded ? 0 : -1;
  constexpr int digits = std::numeric_limits<T>::digits, min_exp = std::numeric_limits<T>::min_exponent;
  int e = 0;
  std::frexp(std::fabs(ref), &e);  // |ref| = m 2^e, m in [0.5, 1)
  const long double ulp = std::ldexp(1.0L, std::max(e, min_exp) - digits);
  return static_cast<double>(std::fabs(static_cast<long double>(got) - ref) / ulp);
}

/// The speed range's values, n of them, reproducible.
template <class T>
std::vector<T> speed_inputs(fn f, index_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<T> x(static_cast<std::size_t>(n));
  for (auto& v : x) {
    const double r = u(g);
    v = static_cast<T>(f == fn::exp ? -10 + 20 * r : f == fn::log ? std::pow(10.0, -3 + 6 * r) : -5 + 10 * r);
  }
  return x;
}

/// The accuracy sample (see the file comment).
template <class T>
std::vector<T> accuracy_inputs(fn f) {
  std::vector<T> x;
  if constexpr (sizeof(T) == 4) {
    x.reserve((1ull << 32) / 251 + 1);
    for (std::uint64_t u = 0; u < (1ull << 32); u += 251) {
      const auto b = static_cast<std::uint32_t>(u);
      float v;
      std::memcpy(&v, &b, 4);
      if (!std::isnan(v)) x.push_back(v);
    }
  } else {
    x = speed_inputs<T>(f, index_t(1) << 20, 7);
  }
  return x;
}

enum class lib { sinter, eigen, xtensor };

/// out[0, n) = f(x[0, n)) with library L.
template <lib L, class T>
void apply(fn f, const T* x, T* out, index_t n) {
  if constexpr (L == lib::sinter) {
    auto o = sv(out, n);
    const auto a = sv(x, n);
    switch (f) {
      case fn::exp: o = st::exp(a); break;
      case fn::log: o = st::log(a); break;
      case fn::erfc: o = st::erfc(a); break;
      default: o = st::tanh(a); break;
    }
#if SINTER_BENCH_HAS_EIGEN
  } else if constexpr (L == lib::eigen) {
    Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>> o(out, n);
    const Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>> a(x, n);
    switch (f) {
      case fn::exp: o = a.exp(); break;
      case fn::log: o = a.log(); break;
      case fn::erfc: o = a.erfc(); break;
      default: o = a.tanh(); break;
    }
#endif
#if SINTER_BENCH_HAS_XTENSOR
  } else if constexpr (L == lib::xtensor) {
    auto o = xa(out, n);
    const auto a = xa(x, n);
    switch (f) {
      case fn::exp: xt::noalias(o) = xt::exp(a); break;
      case fn::log: xt::noalias(o) = xt::log(a); break;
      case fn::erfc: xt::noalias(o) = xt::erfc(a); break;
      default: xt::noalias(o) = xt::tanh(a); break;
    }
#endif
  }
}

/// The largest ulp error over the accuracy sample, and how many of its
/// inputs gave a wrong special value (ulp_error -1).
struct accuracy {
  double max_ulp = 0;
  double wrong_special = 0;
};
template <lib L, class T>
accuracy measure(fn f) {
  const std::vector<T> x = accuracy_inputs<T>(f);
  std::vector<T> y(x.size());
  apply<L>(f, x.data(), y.data(), static_cast<index_t>(x.size()));
  accuracy a;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double e = ulp_error(y[i], reference(f, static_cast<long double>(x[i])));
    if (e < 0) ++a.wrong_special;
    else a.max_ulp = std::max(a.max_ulp, e);
  }
  return a;
}

template <lib L, class T>
void run_fn(benchmark::State& state, fn f) {
  constexpr index_t n = index_t(1) << 14;
  const std::vector<T> x = speed_inputs<T>(f, n, 1);
  std::vector<T> y(static_cast<std::size_t>(n));
  const accuracy acc = measure<L, T>(f);
  for (auto _ : state) {
    apply<L>(f, x.data(), y.data(), n);
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.counters["max_ulp"] = acc.max_ulp;
  state.counters["wrong_special"] = acc.wrong_special;
}

template <lib L, class T>
void register_lib(const char* name) {
  for (fn f : {fn::exp, fn::log, fn::erfc, fn::tanh}) {
    const std::string title = std::string(fn_name(f)) + "/" + dtype_tag<T>() + "/" + name;
    benchmark::RegisterBenchmark(title.c_str(), [f](benchmark::State& s) { run_fn<L, T>(s, f); });
  }
}

template <class T>
void register_all() {
  register_lib<lib::sinter, T>("sinter_host");
#if SINTER_BENCH_HAS_EIGEN
  register_lib<lib::eigen, T>("eigen");
#endif
#if SINTER_BENCH_HAS_XTENSOR
  register_lib<lib::xtensor, T>("xtensor");
#endif
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
  bench::register_all<float>();
  bench::register_all<double>();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
