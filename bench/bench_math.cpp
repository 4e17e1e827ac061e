// Compute-bound kernels: the tour's exp(a + b) * 2, a long chain
// tanh(a * 0.5 + b) * c - sqrt(abs(a)), and Black-Scholes call and put
// prices (exp, log, sqrt, erfc), in every implementation of the suite
// (suite.hpp), float and double, 2^10 to 2^26 elements.
// Run through bench/run.py, or alone:
//   ./build/bench/bench_math --benchmark_filter='exp_add/f32' --benchmark_min_time=0.1
#include "suite.hpp"

namespace bench {

// out = exp(a + b) * 2
struct exp_add : positive_inputs {
  static constexpr const char* name = "exp_add";
  static constexpr int inputs = 2, outputs = 1;
  static index_t min_bytes(index_t n) { return 3 * n; }
  template <class T>
  static double ref(const args<T>& x, index_t i, int) {
    return std::exp(static_cast<double>(x.in[0][i]) + static_cast<double>(x.in[1][i])) * 2;
  }

  template <class T> static void sinter_host(args<T>& x) {
    sv(x.out[0], x.n) = st::exp(sv(x.in[0], x.n) + sv(x.in[1], x.n)) * T(2);
  }
  template <class T> static void sinter_par(args<T>& x) {
    sv<st::par>(x.out[0], x.n) = st::exp(sv<st::par>(x.in[0], x.n) + sv<st::par>(x.in[1], x.n)) * T(2);
  }
  template <class T> static void hand(args<T>& x) {
    const T *__restrict a = x.in[0], *__restrict b = x.in[1];
    T* __restrict o = x.out[0];
    for (index_t i = 0; i < x.n; ++i) o[i] = std::exp(a[i] + b[i]) * T(2);
  }
  template <class T> static void hand_omp(args<T>& x) {
    const T *__restrict a = x.in[0], *__restrict b = x.in[1];
    T* __restrict o = x.out[0];
    SINTER_BENCH_OMP
    for (index_t i = 0; i < x.n; ++i) o[i] = std::exp(a[i] + b[i]) * T(2);
  }
  // Three passes: a + b, exp, * 2.
  template <class T> static void unfused(args<T>& x) {
    auto t = sv(x.tmp[0], x.n);
    t = sv(x.in[0], x.n) + sv(x.in[1], x.n);
    t = st::exp(t);
    sv(x.out[0], x.n) = t * T(2);
  }
#if SINTER_BENCH_HAS_EIGEN
  template <class T> static void eigen(args<T>& x) {
    em(x.out[0], x.n) = (em(x.in[0], x.n) + em(x.in[1], x.n)).exp() * T(2);
  }
  template <class T> static void eigen_tensor(args<T>& x) {
    tm(x.out[0], x.n) = (tm(x.in[0], x.n) + tm(x.in[1], x.n)).exp() * T(2);
  }
  template <class T> static void eigen_tensor_pool(args<T>& x) {
    tm(x.out[0], x.n).device(pool_device()) = (tm(x.in[0], x.n) + tm(x.in[1], x.n)).exp() * T(2);
  }
#endif
#if SINTER_BENCH_HAS_XTENSOR
  template <class T> static void xtensor(args<T>& x) {
    auto o = xa(x.out[0], x.n);
    xt::noalias(o) = xt::exp(xa(x.in[0], x.n) + xa(x.in[1], x.n)) * T(2);
  }
#endif
};

// out = tanh(a * 0.5 + b) * c - sqrt(abs(a))
struct tanh_chain : positive_inputs {
  static constexpr const char* name = "tanh_chain";
  static constexpr int inputs = 3, outputs = 1;
  static index_t min_bytes(index_t n) { return 4 * n; }
  static double lo(int) { return -1.5; }
  template <class T>
  static double ref(const args<T>& x, index_t i, int) {
    const double a = x.in[0][i], b = x.in[1][i], c = x.in[2][i];
    return std::tanh(a * 0.5 + b) * c - std::sqrt(std::abs(a));
  }

  template <class T> static void sinter_host(args<T>& x) {
    const auto a = sv(x.in[0], x.n);
    sv(x.out[0], x.n) = st::tanh(a * T(0.5) + sv(x.in[1], x.n)) * sv(x.in[2], x.n) - st::sqrt(st::abs(a));
  }
  template <class T> static void sinter_par(args<T>& x) {
    const auto a = sv<st::par>(x.in[0], x.n);
    sv<st::par>(x.out[0], x.n) =
        st::tanh(a * T(0.5) + sv<st::par>(x.in[1], x.n)) * sv<st::par>(x.in[2], x.n) - st::sqrt(st::abs(a));
  }
  template <class T> static void hand(args<T>& x) {
    const T *__restrict a = x.in[0], *__restrict b = x.in[1], *__restrict c = x.in[2];
    T* __restrict o = x.out[0];
    for (index_t i = 0; i < x.n; ++i) o[i] = std::tanh(a[i] * T(0.5) + b[i]) * c[i] - std::sqrt(std::abs(a[i]));
  }
  template <class T> static void hand_omp(args<T>& x) {
    const T *__restrict a = x.in[0], *__restrict b = x.in[1], *__restrict c = x.in[2];
    T* __restrict o = x.out[0];
    SINTER_BENCH_OMP
    for (index_t i = 0; i < x.n; ++i) o[i] = std::tanh(a[i] * T(0.5) + b[i]) * c[i] - std::sqrt(std::abs(a[i]));
  }
  // Seven passes, one per operation.
  template <class T> static void unfused(args<T>& x) {
    const auto a = sv(x.in[0], x.n);
    auto t0 = sv(x.tmp[0], x.n), t1 = sv(x.tmp[1], x.n);
    t0 = a * T(0.5);
    t0 = t0 + sv(x.in[1], x.n);
    t0 = st::tanh(t0);
    t0 = t0 * sv(x.in[2], x.n);
    t1 = st::abs(a);
    t1 = st::sqrt(t1);
    sv(x.out[0], x.n) = t0 - t1;
  }
#if SINTER_BENCH_HAS_EIGEN
  template <class T> static void eigen(args<T>& x) {
    const auto a = em(x.in[0], x.n), b = em(x.in[1], x.n), c = em(x.in[2], x.n);
    em(x.out[0], x.n) = (a * T(0.5) + b).tanh() * c - a.abs().sqrt();
  }
  template <class T> static void eigen_tensor(args<T>& x) {
    const auto a = tm(x.in[0], x.n), b = tm(x.in[1], x.n), c = tm(x.in[2], x.n);
    tm(x.out[0], x.n) = (a * T(0.5) + b).tanh() * c - a.abs().sqrt();
  }
  template <class T> static void eigen_tensor_pool(args<T>& x) {
    const auto a = tm(x.in[0], x.n), b = tm(x.in[1], x.n), c = tm(x.in[2], x.n);
    tm(x.out[0], x.n).device(pool_device()) = (a * T(0.5) + b).tanh() * c - a.abs().sqrt();
  }
#endif
#if SINTER_BENCH_HAS_XTENSOR
  template <class T> static void xtensor(args<T>& x) {
    const auto a = xa(x.in[0], x.n), b = xa(x.in[1], x.n), c = xa(x.in[2], x.n);
    auto o = xa(x.out[0], x.n);
    xt::noalias(o) = xt::tanh(a * T(0.5) + b) * c - xt::sqrt(xt::abs(a));
  }
#endif
};

// Black-Scholes: inputs spot S, strike K, time T; outputs call and put.
//   d1 = (log(S / K) + (r + v^2 / 2) T) / (v sqrt(T)),  d2 = d1 - v sqrt(T)
//   call = S N(d1) - K e^(-rT) N(d2),  put = K e^(-rT) N(-d2) - S N(-d1)
//   N(x) = erfc(-x / sqrt(2)) / 2
// Eigen and xtensor evaluate one expression per output (two passes sharing
// the lazy d1, d2); sinter writes both outputs in one pass (sinter::tie);
// the hand loop computes both outputs in one loop.
struct black_scholes {
  static constexpr const char* name = "black_scholes";
  static constexpr int inputs = 3, outputs = 2;
  static constexpr bool reduction = false;
  static constexpr double r = 0.02, v = 0.3, rsqrt2 = 0.70710678118654752440;
  static index_t min_bytes(index_t n) { return 5 * n; }
  static index_t in_count(int, index_t n) { return n; }
  static double lo(int k) { return k == 0 ? 5 : k == 1 ? 1 : 0.25; }
  static double hi(int k) { return k == 0 ? 30 : k == 1 ? 100 : 10; }
  // Prices are differences of terms up to 100: float keeps ~1e-5 of those.
  static double tol(bool f32) { return f32 ? 2e-4 : 1e-11; }
  template <class T>
  static double ref(const args<T>& x, index_t i, int k) {
    const double s = x.in[0][i], kk = x.in[1][i], t = x.in[2][i];
    const double vs = v * std::sqrt(t), d1 = (std::log(s / kk) + (r + 0.5 * v * v) * t) / vs, d2 = d1 - vs;
    const double ke = kk * std::exp(-r * t);
    if (k == 0) return s * 0.5 * std::erfc(-d1 * rsqrt2) - ke * 0.5 * std::erfc(-d2 * rsqrt2);
    return ke * 0.5 * std::erfc(d2 * rsqrt2) - s * 0.5 * std::erfc(d1 * rsqrt2);
  }

  // Same code for sinter (host or par), Eigen arrays and xtensor: the free
  // functions are found by argument-dependent lookup. `store(ce, pe)` writes
  // the call and put expressions: two assignments for Eigen and xtensor,
  // one pass writing both (sinter::tie) for sinter.
  template <class T, class S, class K, class Tm, class Store>
  static void generic(const S& s, const K& k, const Tm& t, Store&& store) {
    const T vv = T(v), hr = T(r + 0.5 * v * v), c = T(rsqrt2);
    const auto vs = sqrt(t) * vv;
    const auto d1 = (log(s / k) + t * hr) / vs;
    const auto d2 = d1 - vs;
    const auto ke = k * exp(t * T(-r));
    store(s * T(0.5) * erfc(d1 * -c) - ke * T(0.5) * erfc(d2 * -c), ke * T(0.5) * erfc(d2 * c) - s * T(0.5) * erfc(d1 * c));
  }
  template <class T, class S, class K, class Tm, class O>
  static void generic(const S& s, const K& k, const Tm& t, O& call, O& put) {
    generic<T>(s, k, t, [&](const auto& ce, const auto& pe) {
      call = ce;
      put = pe;
    });
  }

  template <class P, class T> static void sinter_on(args<T>& x) {
    auto call = sv<P>(x.out[0], x.n), put = sv<P>(x.out[1], x.n);
    generic<T>(sv<P>(x.in[0], x.n), sv<P>(x.in[1], x.n), sv<P>(x.in[2], x.n),
               [&](const auto& ce, const auto& pe) { st::tie(call, put) = std::tuple(ce, pe); });
  }
  template <class T> static void sinter_host(args<T>& x) { sinter_on<st::host>(x); }
  template <class T> static void sinter_par(args<T>& x) { sinter_on<st::par>(x); }
  template <class T> static void hand_body(const args<T>& x, index_t i) {
    const T s = x.in[0][i], k = x.in[1][i], t = x.in[2][i];
    const T vs = T(v) * std::sqrt(t), d1 = (std::log(s / k) + t * T(r + 0.5 * v * v)) / vs, d2 = d1 - vs;
    const T ke = k * std::exp(t * T(-r)), c = T(rsqrt2);
    x.out[0][i] = s * T(0.5) * std::erfc(d1 * -c) - ke * T(0.5) * std::erfc(d2 * -c);
    x.out[1][i] = ke * T(0.5) * std::erfc(d2 * c) - s * T(0.5) * std::erfc(d1 * c);
  }
  template <class T> static void hand(args<T>& x) {
    for (index_t i = 0; i < x.n; ++i) hand_body(x, i);
  }
  template <class T> static void hand_omp(args<T>& x) {
    SINTER_BENCH_OMP
    for (index_t i = 0; i < x.n; ++i) hand_body(x, i);
  }
  // One pass per operation, every intermediate in memory (20 passes).
  template <class T> static void unfused(args<T>& x) {
    const auto s = sv(x.in[0], x.n), k = sv(x.in[1], x.n), t = sv(x.in[2], x.n);
    auto vs = sv(x.tmp[0], x.n), d1 = sv(x.tmp[1], x.n), ke = sv(x.tmp[2], x.n), u = sv(x.tmp[3], x.n);
    auto call = sv(x.out[0], x.n), put = sv(x.out[1], x.n);
    const T c = T(rsqrt2);
    vs = st::sqrt(t);
    vs = vs * T(v);
    d1 = s / k;
    d1 = st::log(d1);
    u = t * T(r + 0.5 * v * v);
    d1 = d1 + u;
    d1 = d1 / vs;  // d1
    vs = d1 - vs;  // d2 (vs no longer needed)
    ke = t * T(-r);
    ke = st::exp(ke);
    ke = k * ke;
    auto half_erfc_times = [&](auto& dst, auto d, T scale, auto w) {
      dst = d * scale;
      dst = st::erfc(dst);
      dst = dst * T(0.5);
      dst = w * dst;
    };
    half_erfc_times(u, d1, -c, s);
    half_erfc_times(call, vs, -c, ke);
    call = u - call;
    half_erfc_times(u, d1, c, s);
    half_erfc_times(put, vs, c, ke);
    put = put - u;
  }
#if SINTER_BENCH_HAS_EIGEN
  template <class T> static void eigen(args<T>& x) {
    auto call = em(x.out[0], x.n), put = em(x.out[1], x.n);
    generic<T>(em(x.in[0], x.n), em(x.in[1], x.n), em(x.in[2], x.n), call, put);
  }
  template <class T, class Dev> static void tensor_on(args<T>& x, const Dev* dev) {
    const auto s = tm(x.in[0], x.n), k = tm(x.in[1], x.n), t = tm(x.in[2], x.n);
    auto call = tm(x.out[0], x.n), put = tm(x.out[1], x.n);
    const T c = T(rsqrt2);
    const auto vs = t.sqrt() * T(v);
    const auto d1 = ((s / k).log() + t * T(r + 0.5 * v * v)) / vs;
    const auto d2 = d1 - vs;
    const auto ke = k * (t * T(-r)).exp();
    const auto ce = s * T(0.5) * (d1 * -c).erfc() - ke * T(0.5) * (d2 * -c).erfc();
    const auto pe = ke * T(0.5) * (d2 * c).erfc() - s * T(0.5) * (d1 * c).erfc();
    if (dev) {
      call.device(*dev) = ce;
      put.device(*dev) = pe;
    } else {
      call = ce;
      put = pe;
    }
  }
  template <class T> static void eigen_tensor(args<T>& x) { tensor_on<T, Eigen::ThreadPoolDevice>(x, nullptr); }
  template <class T> static void eigen_tensor_pool(args<T>& x) { tensor_on<T>(x, &pool_device()); }
#endif
#if SINTER_BENCH_HAS_XTENSOR
  template <class T> static void xtensor(args<T>& x) {
    auto call = xa(x.out[0], x.n), put = xa(x.out[1], x.n);
    auto c = xt::noalias(call);
    auto p = xt::noalias(put);
    generic<T>(xa(x.in[0], x.n), xa(x.in[1], x.n), xa(x.in[2], x.n), c, p);
  }
#endif
};

}  // namespace bench

int main(int argc, char** argv) {
  return bench::main_with(argc, argv, [] {
    using namespace bench;
    register_kernel<exp_add, float>();
    register_kernel<tanh_chain, float>();
    register_kernel<black_scholes, float>();
    register_kernel<exp_add, double>();
    register_kernel<tanh_chain, double>();
    register_kernel<black_scholes, double>();
  });
}
