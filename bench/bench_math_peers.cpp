// One maths function per pass (exp, exp2, expm1, log, log2, log10, log1p,
// sinh, cosh, tanh, asinh, acosh, atanh, erf, erfc; float and double) in
// sinter, Eigen arrays and xtensor with xsimd: speed and accuracy side by
// side, to show what each library's kernels trade. Black-Scholes and the
// tanh chain (bench_math.cpp) spend most of their time in exp, log, erfc
// and tanh. Eigen 3.4 has no exp2: that row has no Eigen column.
//
// Speed: `out = f(x)` over 2^14 elements (L1/L2), x spread over a range
// where the function is neither saturated nor trivial (fn_table below;
// log, log2 and log10 log-uniform over [1e-3, 1e3]).
// Accuracy, computed once per function, library and type, before its first
// timing:
//  - `max_ulp`, the largest error in units in the last place of the result
//    type, against libm in long double;
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

// X(name, lo, hi): every function, with the speed range of its inputs.
#define SINTER_BENCH_FNS(X)                                                              \
  X(exp, -10, 10) X(exp2, -14, 14) X(expm1, -5, 5) X(log, 1e-3, 1e3) X(log2, 1e-3, 1e3)   \
  X(log10, 1e-3, 1e3) X(log1p, -0.9, 10) X(sinh, -5, 5) X(cosh, -5, 5) X(tanh, -5, 5)     \
  X(asinh, -10, 10) X(acosh, 1, 100) X(atanh, -0.99, 0.99) X(erf, -3, 3) X(erfc, -5, 5)

#define SINTER_BENCH_ENUM(name, lo, hi) name,
enum class fn { SINTER_BENCH_FNS(SINTER_BENCH_ENUM) };
#undef SINTER_BENCH_ENUM

/// A function's name and the range of its speed inputs.
struct fn_info {
  fn f;
  const char* name;
  double lo, hi;
};
#define SINTER_BENCH_INFO(name, lo, hi) fn_info{fn::name, #name, lo, hi},
constexpr fn_info fn_table[] = {SINTER_BENCH_FNS(SINTER_BENCH_INFO)};
#undef SINTER_BENCH_INFO

const fn_info& info(fn f) { return fn_table[static_cast<int>(f)]; }

/// f(x) in long double, the reference.
long double reference(fn f, long double x) {
  switch (f) {
#define SINTER_BENCH_REF(name, lo, hi) \
  case fn::name: return std::name(x);
    SINTER_BENCH_FNS(SINTER_BENCH_REF)
#undef SINTER_BENCH_REF
  }
  return x;
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
    const double lo = info(f).lo, hi = info(f).hi;
    const bool log_uniform = f == fn::log || f == fn::log2 || f == fn::log10;
    v = static_cast<T>(log_uniform ? lo * std::pow(hi / lo, r) : lo + (hi - lo) * r);
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

/// Whether library L has f (Eigen 3.4 has no exp2).
template <lib L>
bool has(fn f) {
  return L != lib::eigen || f != fn::exp2;
}

/// out[0, n) = f(x[0, n)) with library L.
template <lib L, class T>
void apply(fn f, const T* x, T* out, index_t n) {
  if constexpr (L == lib::sinter) {
    auto o = sv(out, n);
    const auto a = sv(x, n);
    switch (f) {
#define SINTER_BENCH_SINTER(name, lo, hi) \
  case fn::name: o = st::name(a); break;
      SINTER_BENCH_FNS(SINTER_BENCH_SINTER)
#undef SINTER_BENCH_SINTER
    }
#if SINTER_BENCH_HAS_EIGEN
  } else if constexpr (L == lib::eigen) {
    Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>> o(out, n);
    const Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>> a(x, n);
    switch (f) {
#define SINTER_BENCH_EIGEN(name, lo, hi) \
  case fn::name: o = a.name(); break;
      SINTER_BENCH_EIGEN(exp, , ) SINTER_BENCH_EIGEN(expm1, , ) SINTER_BENCH_EIGEN(log, , )
      SINTER_BENCH_EIGEN(log2, , ) SINTER_BENCH_EIGEN(log10, , ) SINTER_BENCH_EIGEN(log1p, , )
      SINTER_BENCH_EIGEN(sinh, , ) SINTER_BENCH_EIGEN(cosh, , ) SINTER_BENCH_EIGEN(tanh, , )
      SINTER_BENCH_EIGEN(asinh, , ) SINTER_BENCH_EIGEN(acosh, , ) SINTER_BENCH_EIGEN(atanh, , )
      SINTER_BENCH_EIGEN(erf, , ) SINTER_BENCH_EIGEN(erfc, , )
#undef SINTER_BENCH_EIGEN
      case fn::exp2: break;  // not in Eigen 3.4 (has<lib::eigen>)
    }
#endif
#if SINTER_BENCH_HAS_XTENSOR
  } else if constexpr (L == lib::xtensor) {
    auto o = xa(out, n);
    const auto a = xa(x, n);
    switch (f) {
#define SINTER_BENCH_XTENSOR(name, lo, hi) \
  case fn::name: xt::noalias(o) = xt::name(a); break;
      SINTER_BENCH_FNS(SINTER_BENCH_XTENSOR)
#undef SINTER_BENCH_XTENSOR
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

/// measure<L, T>(f), once per function, library and type: a benchmark runs
/// once per repetition, and the float sample's long double references take
/// a second or two per function.
template <lib L, class T>
const accuracy& measured(fn f) {
  static std::map<fn, accuracy> done;
  const auto it = done.find(f);
  return it != done.end() ? it->second : done.emplace(f, measure<L, T>(f)).first->second;
}

template <lib L, class T>
void run_fn(benchmark::State& state, fn f) {
  constexpr index_t n = index_t(1) << 14;
  const std::vector<T> x = speed_inputs<T>(f, n, 1);
  std::vector<T> y(static_cast<std::size_t>(n));
  const accuracy& acc = measured<L, T>(f);
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
  for (const fn_info& i : fn_table) {
    if (!has<L>(i.f)) continue;
    const fn f = i.f;
    const std::string title = std::string(i.name) + "/" + dtype_tag<T>() + "/" + name;
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

#undef SINTER_BENCH_FNS

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
