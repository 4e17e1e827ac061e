// Row-wise patterns on a row-major matrix of 1024 columns (n / 1024 rows):
// exp(x) as the baseline, exp(x - m) with m one value per row (a column
// broadcast, m precomputed), row softmax and row standardisation written
// with keepdims reductions. Against a hand loop (std::exp: scalar unless
// the compiler has a vector libm) and Eigen's column-wise forms (our rows
// are its columns). Bytes counted: one read and one write of the matrix.
// rows_copy (out = x) is that read and write alone, the yardstick of the
// one-pass target; sinter_host_rows and sinter_par_rows are sinter::softmax
// and sinter::standardize (rows.hpp, route::row_blocks).
// Run alone, at 4096 x 1024:
//   SINTER_BENCH_MIN_LOG2=22 SINTER_BENCH_MAX_LOG2=22 ./bench_rows --benchmark_repetitions=9
#include <cmath>
#include <cstring>

#include <sinter/rows.hpp>

#include "suite.hpp"

namespace bench {

namespace {

constexpr index_t cols = 1024;
index_t rows_of(index_t n) { return n / cols; }

template <class T>
st::view<const T, 2> mat(const T* p, index_t n) {
  return st::view<const T, 2>(p, {rows_of(n), cols});
}
template <class P, class T>
st::view<const T, 2, P> mat_p(const T* p, index_t n) {
  return st::view<const T, 2, P>(p, {rows_of(n), cols});
}
template <class P, class T>
st::view<T, 2, P> out_p(T* p, index_t n) {
  return st::view<T, 2, P>(p, {rows_of(n), cols});
}

// Row r of the input as doubles, for the references.
template <class T>
std::vector<double> row_of(const T* p, index_t r) {
  std::vector<double> v(static_cast<std::size_t>(cols));
  for (index_t j = 0; j < cols; ++j) v[static_cast<std::size_t>(j)] = static_cast<double>(p[r * cols + j]);
  return v;
}

#if SINTER_BENCH_HAS_EIGEN
template <class T>
using emat = Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic>;
template <class T>
using erow = Eigen::Array<T, 1, Eigen::Dynamic>;
#endif

}  // namespace

struct rows_base : positive_inputs {
  static constexpr int inputs = 1, outputs = 1;
  static index_t min_bytes(index_t n) { return 2 * n; }
};

// out = exp(x): the pass the column broadcast is measured against.
struct rows_exp : rows_base {
  static constexpr const char* name = "rows_exp";
  template <class T>
  static double ref(const args<T>& x, index_t i, int) {
    return std::exp(static_cast<double>(x.in[0][i]));
  }
  template <class T, class P>
  static void with(args<T>& x) {
    out_p<P>(x.out[0], x.n) = st::exp(mat_p<P>(x.in[0], x.n));
  }
  template <class T> static void sinter_host(args<T>& x) { with<T, st::host>(x); }
  template <class T> static void sinter_par(args<T>& x) { with<T, st::par>(x); }
  template <class T> static void hand(args<T>& x) {
    const T* __restrict a = x.in[0];
    T* __restrict o = x.out[0];
    for (index_t i = 0; i < rows_of(x.n) * cols; ++i) o[i] = std::exp(a[i]);
  }
#if SINTER_BENCH_HAS_EIGEN
  template <class T> static void eigen(args<T>& x) {
    const Eigen::Map<const emat<T>> a(x.in[0], cols, rows_of(x.n));
    Eigen::Map<emat<T>> o(x.out[0], cols, rows_of(x.n));
    o = a.exp();
  }
#endif
};

// out = exp(x - m), m[r] one value per row (numpy: m of shape (rows, 1)).
struct rows_exp_sub : rows_base {
  static constexpr const char* name = "rows_exp_sub";
  static constexpr int inputs = 2;
  static index_t in_count(int k, index_t n) { return k == 0 ? n : rows_of(n); }
  static index_t min_bytes(index_t n) { return 2 * n + rows_of(n); }
  template <class T>
  static double ref(const args<T>& x, index_t i, int) {
    return std::exp(static_cast<double>(x.in[0][i]) - static_cast<double>(x.in[1][i / cols]));
  }
  template <class T, class P>
  static void with(args<T>& x) {
    const st::view<const T, 2, P> m(x.in[1], {rows_of(x.n), 1});
    out_p<P>(x.out[0], x.n) = st::exp(mat_p<P>(x.in[0], x.n) - m);
  }
  template <class T> static void sinter_host(args<T>& x) { with<T, st::host>(x); }
  template <class T> static void sinter_par(args<T>& x) { with<T, st::par>(x); }
  template <class T> static void hand(args<T>& x) {
    const T* __restrict a = x.in[0];
    const T* __restrict m = x.in[1];
    T* __restrict o = x.out[0];
    for (index_t r = 0; r < rows_of(x.n); ++r) {
      const T mr = m[r];
      for (index_t j = 0; j < cols; ++j) o[r * cols + j] = std::exp(a[r * cols + j] - mr);
    }
  }
#if SINTER_BENCH_HAS_EIGEN
  template <class T> static void eigen(args<T>& x) {
    const Eigen::Map<const emat<T>> a(x.in[0], cols, rows_of(x.n));
    const Eigen::Map<const erow<T>> m(x.in[1], rows_of(x.n));
    Eigen::Map<emat<T>> o(x.out[0], cols, rows_of(x.n));
    o = (a.rowwise() - m).exp();
  }
#endif
};

// Row softmax: e = exp(x - max(x, axis(1), keepdims)); e / sum(e, axis(1), keepdims).
struct rows_softmax : rows_base {
  static constexpr const char* name = "rows_softmax";
  template <class T>
  static double ref(const args<T>& x, index_t i, int) {
    const auto v = row_of(x.in[0], i / cols);
    double mx = v[0], s = 0;
    for (double e : v) mx = std::max(mx, e);
    for (double e : v) s += std::exp(e - mx);
    return std::exp(v[static_cast<std::size_t>(i % cols)] - mx) / s;
  }
  template <class T, class P>
  static void with(args<T>& x) {
    const auto a = mat_p<P>(x.in[0], x.n);
    const st::array<T, 2, P> e = st::exp(a - st::max(a, st::axis(1), st::keepdims));
    out_p<P>(x.out[0], x.n) = e / st::sum(e, st::axis(1), st::keepdims);
  }
  template <class T> static void sinter_host(args<T>& x) { with<T, st::host>(x); }
  template <class T> static void sinter_par(args<T>& x) { with<T, st::par>(x); }
  template <class T, class P>
  static void rows(args<T>& x) {
    st::softmax(mat_p<P>(x.in[0], x.n), out_p<P>(x.out[0], x.n));
  }
  template <class T> static void sinter_host_rows(args<T>& x) { rows<T, st::host>(x); }
  template <class T> static void sinter_par_rows(args<T>& x) { rows<T, st::par>(x); }
  template <class T> static void hand(args<T>& x) {
    for (index_t r = 0; r < rows_of(x.n); ++r) {
      const T* __restrict a = x.in[0] + r * cols;
      T* __restrict o = x.out[0] + r * cols;
      T mx = a[0], s = 0;
      for (index_t j = 1; j < cols; ++j) mx = std::max(mx, a[j]);
      for (index_t j = 0; j < cols; ++j) s += (o[j] = std::exp(a[j] - mx));
      const T inv = T(1) / s;
      for (index_t j = 0; j < cols; ++j) o[j] *= inv;
    }
  }
#if SINTER_BENCH_HAS_EIGEN
  template <class T> static void eigen(args<T>& x) {
    const Eigen::Map<const emat<T>> a(x.in[0], cols, rows_of(x.n));
    Eigen::Map<emat<T>> o(x.out[0], cols, rows_of(x.n));
    o = (a.rowwise() - a.colwise().maxCoeff()).exp();
    o.rowwise() /= o.colwise().sum();
  }
#endif
};

// Row standardisation: (x - mean(x, axis(1), keepdims)) / std(x, axis(1), keepdims).
struct rows_standardise : rows_base {
  static constexpr const char* name = "rows_standardise";
  template <class T>
  static double ref(const args<T>& x, index_t i, int) {
    const auto v = row_of(x.in[0], i / cols);
    double mean = 0, ss = 0;
    for (double e : v) mean += e;
    mean /= static_cast<double>(cols);
    for (double e : v) ss += (e - mean) * (e - mean);
    return (v[static_cast<std::size_t>(i % cols)] - mean) / std::sqrt(ss / static_cast<double>(cols));
  }
  template <class T, class P>
  static void with(args<T>& x) {
    const auto a = mat_p<P>(x.in[0], x.n);
    out_p<P>(x.out[0], x.n) = (a - st::mean(a, st::axis(1), st::keepdims)) / st::std(a, st::axis(1), st::keepdims);
  }
  template <class T> static void sinter_host(args<T>& x) { with<T, st::host>(x); }
  template <class T> static void sinter_par(args<T>& x) { with<T, st::par>(x); }
  template <class T, class P>
  static void rows(args<T>& x) {
    st::standardize(mat_p<P>(x.in[0], x.n), out_p<P>(x.out[0], x.n));
  }
  template <class T> static void sinter_host_rows(args<T>& x) { rows<T, st::host>(x); }
  template <class T> static void sinter_par_rows(args<T>& x) { rows<T, st::par>(x); }
  template <class T> static void hand(args<T>& x) {
    for (index_t r = 0; r < rows_of(x.n); ++r) {
      const T* __restrict a = x.in[0] + r * cols;
      T* __restrict o = x.out[0] + r * cols;
      T s = 0, ss = 0;
      for (index_t j = 0; j < cols; ++j) s += a[j];
      const T mean = s / T(cols);
      for (index_t j = 0; j < cols; ++j) ss += (a[j] - mean) * (a[j] - mean);
      const T inv = T(1) / std::sqrt(ss / T(cols));
      for (index_t j = 0; j < cols; ++j) o[j] = (a[j] - mean) * inv;
    }
  }
#if SINTER_BENCH_HAS_EIGEN
  template <class T> static void eigen(args<T>& x) {
    const Eigen::Map<const emat<T>> a(x.in[0], cols, rows_of(x.n));
    Eigen::Map<emat<T>> o(x.out[0], cols, rows_of(x.n));
    const erow<T> mean = a.colwise().mean();
    o = a.rowwise() - mean;
    const erow<T> sd = (o.square().colwise().sum() / T(cols)).sqrt();
    o.rowwise() /= sd;
  }
#endif
};

// out = x: one read and one write of the matrix, the one-pass forms' yardstick.
struct rows_copy : rows_base {
  static constexpr const char* name = "rows_copy";
  template <class T>
  static double ref(const args<T>& x, index_t i, int) {
    return static_cast<double>(x.in[0][i]);
  }
  template <class T, class P>
  static void with(args<T>& x) {
    out_p<P>(x.out[0], x.n) = mat_p<P>(x.in[0], x.n);
  }
  template <class T> static void sinter_host(args<T>& x) { with<T, st::host>(x); }
  template <class T> static void sinter_par(args<T>& x) { with<T, st::par>(x); }
  template <class T> static void hand(args<T>& x) {
    std::memcpy(x.out[0], x.in[0], static_cast<std::size_t>(rows_of(x.n) * cols) * sizeof(T));
  }
#if SINTER_BENCH_HAS_EIGEN
  template <class T> static void eigen(args<T>& x) {
    const Eigen::Map<const emat<T>> a(x.in[0], cols, rows_of(x.n));
    Eigen::Map<emat<T>> o(x.out[0], cols, rows_of(x.n));
    o = a;
  }
#endif
};

/// Registers the implementations these kernels have (not the whole suite's
/// list: no OpenMP, Eigen Tensor or xtensor forms).
template <class K, class T>
void register_rows() {
  add_impl<K, T, &K::template sinter_host<T>>("sinter_host");
  add_impl<K, T, &K::template sinter_par<T>>("sinter_par");
  add_impl<K, T, &K::template hand<T>>("hand");
#if SINTER_BENCH_HAS_EIGEN
  add_impl<K, T, &K::template eigen<T>>("eigen");
#endif
}

/// register_rows and the one-pass forms (sinter::softmax, sinter::standardize).
template <class K, class T>
void register_rows_fused() {
  register_rows<K, T>();
  add_impl<K, T, &K::template sinter_host_rows<T>>("sinter_host_rows");
  add_impl<K, T, &K::template sinter_par_rows<T>>("sinter_par_rows");
}

}  // namespace bench

int main(int argc, char** argv) {
  return bench::main_with(argc, argv, [] {
    using namespace bench;
    register_rows<rows_exp, float>();
    register_rows<rows_exp_sub, float>();
    register_rows_fused<rows_softmax, float>();
    register_rows_fused<rows_standardise, float>();
    register_rows<rows_copy, float>();
  });
}
