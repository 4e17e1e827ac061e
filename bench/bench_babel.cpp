// BabelStream's kernels (copy, mul, add, triad, dot) in every implementation
// of the suite (suite.hpp), float and double, 2^10 to 2^26 elements.
// Run through bench/run.py, or alone:
//   ./build/bench/bench_babel --benchmark_filter='triad/f32' --benchmark_min_time=0.1
#include "suite.hpp"

namespace bench {

inline constexpr double scalar = 0.4;  // BabelStream's startScalar

// out = a
struct copy : positive_inputs {
  static constexpr const char* name = "copy";
  static constexpr int inputs = 1, outputs = 1;
  static index_t min_bytes(index_t n) { return 2 * n; }
  template <class T>
  static double ref(const args<T>& x, index_t i, int) { return static_cast<double>(x.in[0][i]); }

  template <class T> static void sinter_host(args<T>& x) { sv(x.out[0], x.n) = sv(x.in[0], x.n); }
  template <class T> static void sinter_par(args<T>& x) { sv<st::par>(x.out[0], x.n) = sv<st::par>(x.in[0], x.n); }
  template <class T> static void hand(args<T>& x) {
    const T* __restrict a = x.in[0];
    T* __restrict o = x.out[0];
    for (index_t i = 0; i < x.n; ++i) o[i] = a[i];
  }
  template <class T> static void hand_omp(args<T>& x) {
    const T* __restrict a = x.in[0];
    T* __restrict o = x.out[0];
    SINTER_BENCH_OMP
    for (index_t i = 0; i < x.n; ++i) o[i] = a[i];
  }
#if SINTER_BENCH_HAS_EIGEN
  template <class T> static void eigen(args<T>& x) { em(x.out[0], x.n) = em(x.in[0], x.n); }
  template <class T> static void eigen_tensor(args<T>& x) { tm(x.out[0], x.n) = tm(x.in[0], x.n); }
  template <class T> static void eigen_tensor_pool(args<T>& x) { tm(x.out[0], x.n).device(pool_device()) = tm(x.in[0], x.n); }
#endif
#if SINTER_BENCH_HAS_XTENSOR
  template <class T> static void xtensor(args<T>& x) {
    auto o = xa(x.out[0], x.n);
    xt::noalias(o) = xa(x.in[0], x.n);
  }
#endif
};

// out = scalar * a
struct mul : positive_inputs {
  static constexpr const char* name = "mul";
  static constexpr int inputs = 1, outputs = 1;
  static index_t min_bytes(index_t n) { return 2 * n; }
  template <class T>
  static double ref(const args<T>& x, index_t i, int) { return static_cast<double>(T(scalar) * x.in[0][i]); }

  template <class T> static void sinter_host(args<T>& x) { sv(x.out[0], x.n) = T(scalar) * sv(x.in[0], x.n); }
  template <class T> static void sinter_par(args<T>& x) { sv<st::par>(x.out[0], x.n) = T(scalar) * sv<st::par>(x.in[0], x.n); }
  template <class T> static void hand(args<T>& x) {
    const T* __restrict a = x.in[0];
    T* __restrict o = x.out[0];
    for (index_t i = 0; i < x.n; ++i) o[i] = T(scalar) * a[i];
  }
  template <class T> static void hand_omp(args<T>& x) {
    const T* __restrict a = x.in[0];
    T* __restrict o = x.out[0];
    SINTER_BENCH_OMP
    for (index_t i = 0; i < x.n; ++i) o[i] = T(scalar) * a[i];
  }
#if SINTER_BENCH_HAS_EIGEN
  template <class T> static void eigen(args<T>& x) { em(x.out[0], x.n) = T(scalar) * em(x.in[0], x.n); }
  template <class T> static void eigen_tensor(args<T>& x) { tm(x.out[0], x.n) = tm(x.in[0], x.n) * T(scalar); }
  template <class T> static void eigen_tensor_pool(args<T>& x) { tm(x.out[0], x.n).device(pool_device()) = tm(x.in[0], x.n) * T(scalar); }
#endif
#if SINTER_BENCH_HAS_XTENSOR
  template <class T> static void xtensor(args<T>& x) {
    auto o = xa(x.out[0], x.n);
    xt::noalias(o) = T(scalar) * xa(x.in[0], x.n);
  }
#endif
};

// out = a + b
struct add : positive_inputs {
  static constexpr const char* name = "add";
  static constexpr int inputs = 2, outputs = 1;
  static index_t min_bytes(index_t n) { return 3 * n; }
  template <class T>
  static double ref(const args<T>& x, index_t i, int) { return static_cast<double>(x.in[0][i] + x.in[1][i]); }

  template <class T> static void sinter_host(args<T>& x) { sv(x.out[0], x.n) = sv(x.in[0], x.n) + sv(x.in[1], x.n); }
  template <class T> static void sinter_par(args<T>& x) {
    sv<st::par>(x.out[0], x.n) = sv<st::par>(x.in[0], x.n) + sv<st::par>(x.in[1], x.n);
  }
  template <class T> static void hand(args<T>& x) {
    const T *__restrict a = x.in[0], *__restrict b = x.in[1];
    T* __restrict o = x.out[0];
    for (index_t i = 0; i < x.n; ++i) o[i] = a[i] + b[i];
  }
  template <class T> static void hand_omp(args<T>& x) {
    const T *__restrict a = x.in[0], *__restrict b = x.in[1];
    T* __restrict o = x.out[0];
    SINTER_BENCH_OMP
    for (index_t i = 0; i < x.n; ++i) o[i] = a[i] + b[i];
  }
#if SINTER_BENCH_HAS_EIGEN
  template <class T> static void eigen(args<T>& x) { em(x.out[0], x.n) = em(x.in[0], x.n) + em(x.in[1], x.n); }
  template <class T> static void eigen_tensor(args<T>& x) { tm(x.out[0], x.n) = tm(x.in[0], x.n) + tm(x.in[1], x.n); }
  template <class T> static void eigen_tensor_pool(args<T>& x) {
    tm(x.out[0], x.n).device(pool_device()) = tm(x.in[0], x.n) + tm(x.in[1], x.n);
  }
#endif
#if SINTER_BENCH_HAS_XTENSOR
  template <class T> static void xtensor(args<T>& x) {
    auto o = xa(x.out[0], x.n);
    xt::noalias(o) = xa(x.in[0], x.n) + xa(x.in[1], x.n);
  }
#endif
};

// out = a + scalar * b
struct triad : positive_inputs {
  static constexpr const char* name = "triad";
  static constexpr int inputs = 2, outputs = 1;
  static index_t min_bytes(index_t n) { return 3 * n; }
  template <class T>
  static double ref(const args<T>& x, index_t i, int) {
    return static_cast<double>(x.in[0][i]) + scalar * static_cast<double>(x.in[1][i]);
  }

  template <class T> static void sinter_host(args<T>& x) {
    sv(x.out[0], x.n) = sv(x.in[0], x.n) + T(scalar) * sv(x.in[1], x.n);
  }
  template <class T> static void sinter_par(args<T>& x) {
    sv<st::par>(x.out[0], x.n) = sv<st::par>(x.in[0], x.n) + T(scalar) * sv<st::par>(x.in[1], x.n);
  }
  template <class T> static void hand(args<T>& x) {
    const T *__restrict a = x.in[0], *__restrict b = x.in[1];
    T* __restrict o = x.out[0];
    for (index_t i = 0; i < x.n; ++i) o[i] = a[i] + T(scalar) * b[i];
  }
  template <class T> static void hand_omp(args<T>& x) {
    const T *__restrict a = x.in[0], *__restrict b = x.in[1];
    T* __restrict o = x.out[0];
    SINTER_BENCH_OMP
    for (index_t i = 0; i < x.n; ++i) o[i] = a[i] + T(scalar) * b[i];
  }
  // Materialises scalar * b, then adds.
  template <class T> static void unfused(args<T>& x) {
    sv(x.tmp[0], x.n) = T(scalar) * sv(x.in[1], x.n);
    sv(x.out[0], x.n) = sv(x.in[0], x.n) + sv(x.tmp[0], x.n);
  }
#if SINTER_BENCH_HAS_EIGEN
  template <class T> static void eigen(args<T>& x) { em(x.out[0], x.n) = em(x.in[0], x.n) + T(scalar) * em(x.in[1], x.n); }
  template <class T> static void eigen_tensor(args<T>& x) {
    tm(x.out[0], x.n) = tm(x.in[0], x.n) + tm(x.in[1], x.n) * T(scalar);
  }
  template <class T> static void eigen_tensor_pool(args<T>& x) {
    tm(x.out[0], x.n).device(pool_device()) = tm(x.in[0], x.n) + tm(x.in[1], x.n) * T(scalar);
  }
#endif
#if SINTER_BENCH_HAS_XTENSOR
  template <class T> static void xtensor(args<T>& x) {
    auto o = xa(x.out[0], x.n);
    xt::noalias(o) = xa(x.in[0], x.n) + T(scalar) * xa(x.in[1], x.n);
  }
#endif
};

// result = sum(a * b)
struct dot : positive_inputs {
  static constexpr const char* name = "dot";
  static constexpr int inputs = 2, outputs = 0;
  static constexpr bool reduction = true;
  static index_t min_bytes(index_t n) { return 2 * n; }
  template <class T>
  static double ref_total(const args<T>& x) {
    long double s = 0;
    for (index_t i = 0; i < x.n; ++i) s += static_cast<long double>(x.in[0][i]) * x.in[1][i];
    return static_cast<double>(s);
  }

  template <class T> static void sinter_host(args<T>& x) { x.result = st::sum(sv(x.in[0], x.n) * sv(x.in[1], x.n)); }
  template <class T> static void sinter_par(args<T>& x) {
    x.result = st::sum(sv<st::par>(x.in[0], x.n) * sv<st::par>(x.in[1], x.n));
  }
  template <class T> static void hand(args<T>& x) {
    const T *__restrict a = x.in[0], *__restrict b = x.in[1];
    T s = 0;
    for (index_t i = 0; i < x.n; ++i) s += a[i] * b[i];
    x.result = s;
  }
  template <class T> static void hand_omp(args<T>& x) {
    const T *__restrict a = x.in[0], *__restrict b = x.in[1];
    T s = 0;
    SINTER_BENCH_OMP_SUM(s)
    for (index_t i = 0; i < x.n; ++i) s += a[i] * b[i];
    x.result = s;
  }
  // Materialises a * b, then sums it.
  template <class T> static void unfused(args<T>& x) {
    sv(x.tmp[0], x.n) = sv(x.in[0], x.n) * sv(x.in[1], x.n);
    x.result = st::sum(sv(x.tmp[0], x.n));
  }
#if SINTER_BENCH_HAS_EIGEN
  template <class T> static void eigen(args<T>& x) { x.result = (em(x.in[0], x.n) * em(x.in[1], x.n)).sum(); }
  template <class T> static void eigen_tensor(args<T>& x) {
    Eigen::Tensor<T, 0> r = (tm(x.in[0], x.n) * tm(x.in[1], x.n)).sum();
    x.result = r();
  }
  template <class T> static void eigen_tensor_pool(args<T>& x) {
    Eigen::Tensor<T, 0> r;
    r.device(pool_device()) = (tm(x.in[0], x.n) * tm(x.in[1], x.n)).sum();
    x.result = r();
  }
#endif
#if SINTER_BENCH_HAS_XTENSOR
  template <class T> static void xtensor(args<T>& x) {
    x.result = xt::sum(xa(x.in[0], x.n) * xa(x.in[1], x.n), xt::evaluation_strategy::immediate)();
  }
#endif
};

}  // namespace bench

int main(int argc, char** argv) {
  return bench::main_with(argc, argv, [] {
    using namespace bench;
    register_kernel<copy, float>();
    register_kernel<mul, float>();
    register_kernel<add, float>();
    register_kernel<triad, float>();
    register_kernel<dot, float>();
    register_kernel<copy, double>();
    register_kernel<mul, double>();
    register_kernel<add, double>();
    register_kernel<triad, double>();
    register_kernel<dot, double>();
  });
}
