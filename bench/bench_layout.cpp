// The suite's kernels that are about layout rather than arithmetic: a fused
// reduction sum((a - b) * (a - b)), a row broadcast over a matrix, and an
// expression over strided views; every implementation of suite.hpp, float and
// double, 2^10 to 2^26 elements. Run through bench/run.py, or alone:
//   ./build/bench/bench_layout --benchmark_filter='row_broadcast/f32' --benchmark_min_time=0.1
#include "suite.hpp"

namespace bench {

// result = sum((a - b) * (a - b))
struct sum_sq_diff : positive_inputs {
  static constexpr const char* name = "sum_sq_diff";
  static constexpr int inputs = 2, outputs = 0;
  static constexpr bool reduction = true;
  static index_t min_bytes(index_t n) { return 2 * n; }
  template <class T>
  static double ref_total(const args<T>& x) {
    long double s = 0;
    for (index_t i = 0; i < x.n; ++i) {
      const long double d = static_cast<long double>(x.in[0][i] - x.in[1][i]);
      s += d * d;
    }
    return static_cast<double>(s);
  }

  template <class T> static void sinter_host(args<T>& x) {
    const auto a = sv(x.in[0], x.n), b = sv(x.in[1], x.n);
    x.result = st::sum((a - b) * (a - b));
  }
  template <class T> static void sinter_par(args<T>& x) {
    const auto a = sv<st::par>(x.in[0], x.n), b = sv<st::par>(x.in[1], x.n);
    x.result = st::sum((a - b) * (a - b));
  }
  template <class T> static void hand(args<T>& x) {
    const T *__restrict a = x.in[0], *__restrict b = x.in[1];
    T s = 0;
    for (index_t i = 0; i < x.n; ++i) s += (a[i] - b[i]) * (a[i] - b[i]);
    x.result = s;
  }
  template <class T> static void hand_omp(args<T>& x) {
    const T *__restrict a = x.in[0], *__restrict b = x.in[1];
    T s = 0;
    SINTER_BENCH_OMP_SUM(s)
    for (index_t i = 0; i < x.n; ++i) s += (a[i] - b[i]) * (a[i] - b[i]);
    x.result = s;
  }
  // Materialises a - b, then its square, then sums.
  template <class T> static void unfused(args<T>& x) {
    auto t0 = sv(x.tmp[0], x.n);
    t0 = sv(x.in[0], x.n) - sv(x.in[1], x.n);
    t0 = t0 * t0;
    x.result = st::sum(t0);
  }
#if SINTER_BENCH_HAS_EIGEN
  template <class T> static void eigen(args<T>& x) { x.result = (em(x.in[0], x.n) - em(x.in[1], x.n)).square().sum(); }
  template <class T> static void eigen_tensor(args<T>& x) {
    Eigen::Tensor<T, 0> r = (tm(x.in[0], x.n) - tm(x.in[1], x.n)).square().sum();
    x.result = r();
  }
  template <class T> static void eigen_tensor_pool(args<T>& x) {
    Eigen::Tensor<T, 0> r;
    r.device(pool_device()) = (tm(x.in[0], x.n) - tm(x.in[1], x.n)).square().sum();
    x.result = r();
  }
#endif
#if SINTER_BENCH_HAS_XTENSOR
  template <class T> static void xtensor(args<T>& x) {
    const auto a = xa(x.in[0], x.n), b = xa(x.in[1], x.n);
    x.result = xt::sum((a - b) * (a - b), xt::evaluation_strategy::immediate)();
  }
#endif
};

// out[r, c] = m[r, c] * 0.5 + row[c]: an (n / cols) x cols row-major matrix
// plus a row of `cols` elements broadcast over it.
struct row_broadcast : positive_inputs {
  static constexpr const char* name = "row_broadcast";
  static constexpr int inputs = 2, outputs = 1;
  static constexpr index_t cols = 1000;  // not a multiple of any vector width
  static index_t in_count(int k, index_t n) { return k == 0 ? n : cols; }
  static index_t rows(index_t n) { return n / cols; }
  static index_t used(index_t n) { return rows(n) * cols; }  // the matrix covers n rounded down to whole rows
  static index_t min_bytes(index_t n) { return 2 * used(n) + cols; }
  template <class T>
  static double ref(const args<T>& x, index_t i, int) {
    if (i >= used(x.n)) return -1;  // past the matrix: never written
    return static_cast<double>(x.in[0][i] * T(0.5) + x.in[1][i % cols]);
  }

  template <class T, class P>
  static void sinter_with(args<T>& x) {
    const st::view<const T, 2, P> m(x.in[0], {rows(x.n), cols});
    const st::view<const T, 1, P> row(x.in[1], {cols});
    st::view<T, 2, P>(x.out[0], {rows(x.n), cols}) = m * T(0.5) + row;
  }
  template <class T> static void sinter_host(args<T>& x) { sinter_with<T, st::host>(x); }
  template <class T> static void sinter_par(args<T>& x) { sinter_with<T, st::par>(x); }
  template <class T> static void hand(args<T>& x) {
    const T *__restrict m = x.in[0], *__restrict row = x.in[1];
    T* __restrict o = x.out[0];
    const index_t R = rows(x.n);
    for (index_t r = 0; r < R; ++r)
      for (index_t c = 0; c < cols; ++c) o[r * cols + c] = m[r * cols + c] * T(0.5) + row[c];
  }
  template <class T> static void hand_omp(args<T>& x) {
    const T *__restrict m = x.in[0], *__restrict row = x.in[1];
    T* __restrict o = x.out[0];
    const index_t R = rows(x.n);
#if SINTER_BENCH_HAS_OPENMP
#pragma omp parallel for num_threads(2) schedule(static)
#endif
    for (index_t r = 0; r < R; ++r)
      for (index_t c = 0; c < cols; ++c) o[r * cols + c] = m[r * cols + c] * T(0.5) + row[c];
  }
  // Materialises m * 0.5, then adds the row.
  template <class T> static void unfused(args<T>& x) {
    const st::view<const T, 2> m(x.in[0], {rows(x.n), cols});
    const st::view<const T, 1> row(x.in[1], {cols});
    st::view<T, 2> t(x.tmp[0], {rows(x.n), cols});
    t = m * T(0.5);
    st::view<T, 2>(x.out[0], {rows(x.n), cols}) = t + row;
  }
#if SINTER_BENCH_HAS_EIGEN
  // Eigen is column-major: our row-major matrix is its cols x rows matrix,
  // and our row is one of its columns, added to every column.
  template <class T>
  using emat = Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic>;
  template <class T> static void eigen(args<T>& x) {
    const Eigen::Map<const emat<T>> m(x.in[0], cols, rows(x.n));
    Eigen::Map<emat<T>> o(x.out[0], cols, rows(x.n));
    o = (m * T(0.5)).colwise() + em(x.in[1], cols);
  }
  template <class T>
  using tmat = Eigen::TensorMap<Eigen::Tensor<T, 2, Eigen::RowMajor>>;
  // Eigen's expressions hold maps by reference: build them where they are used.
  template <class T, class F>
  static void with_tensor_expr(const args<T>& x, F&& assign) {
    const Eigen::TensorMap<Eigen::Tensor<const T, 2, Eigen::RowMajor>> m(x.in[0], rows(x.n), cols);
    const Eigen::TensorMap<Eigen::Tensor<const T, 2, Eigen::RowMajor>> row(x.in[1], 1, cols);
    const Eigen::array<index_t, 2> bcast{rows(x.n), 1};
    assign(m * T(0.5) + row.broadcast(bcast));
  }
  template <class T> static void eigen_tensor(args<T>& x) {
    tmat<T> o(x.out[0], rows(x.n), cols);
    with_tensor_expr(x, [&](const auto& e) { o = e; });
  }
  template <class T> static void eigen_tensor_pool(args<T>& x) {
    tmat<T> o(x.out[0], rows(x.n), cols);
    with_tensor_expr(x, [&](const auto& e) { o.device(pool_device()) = e; });
  }
#endif
#if SINTER_BENCH_HAS_XTENSOR
  template <class T> static void xtensor(args<T>& x) {
    const auto R = static_cast<std::size_t>(rows(x.n)), C = static_cast<std::size_t>(cols);
    const auto m = xt::adapt(x.in[0], R * C, xt::no_ownership(), std::array<std::size_t, 2>{R, C});
    const auto row = xt::adapt(x.in[1], C, xt::no_ownership(), std::array<std::size_t, 1>{C});
    auto o = xt::adapt(x.out[0], R * C, xt::no_ownership(), std::array<std::size_t, 2>{R, C});
    xt::noalias(o) = m * T(0.5) + row;
  }
#endif
};

// out[i] = a[2 i] * 2 + b[2 i + 1]: every other element of two arrays of 2n
// (numpy's a[::2] * 2 + b[1::2]).
struct strided : positive_inputs {
  static constexpr const char* name = "strided";
  static constexpr int inputs = 2, outputs = 1;
  static index_t in_count(int, index_t n) { return 2 * n; }
  static index_t min_bytes(index_t n) { return 3 * n; }  // the elements used, not the lines they sit in
  template <class T>
  static double ref(const args<T>& x, index_t i, int) {
    return static_cast<double>(x.in[0][2 * i] * T(2) + x.in[1][2 * i + 1]);
  }

  template <class T, class P>
  static void sinter_with(args<T>& x) {
    const auto a = sv<P>(x.in[0], 2 * x.n), b = sv<P>(x.in[1], 2 * x.n);
    sv<P>(x.out[0], x.n) = a(st::slice(0, st::end, 2)) * T(2) + b(st::slice(1, st::end, 2));
  }
  template <class T> static void sinter_host(args<T>& x) { sinter_with<T, st::host>(x); }
  template <class T> static void sinter_par(args<T>& x) { sinter_with<T, st::par>(x); }
  template <class T> static void hand(args<T>& x) {
    const T *__restrict a = x.in[0], *__restrict b = x.in[1];
    T* __restrict o = x.out[0];
    for (index_t i = 0; i < x.n; ++i) o[i] = a[2 * i] * T(2) + b[2 * i + 1];
  }
  template <class T> static void hand_omp(args<T>& x) {
    const T *__restrict a = x.in[0], *__restrict b = x.in[1];
    T* __restrict o = x.out[0];
    SINTER_BENCH_OMP
    for (index_t i = 0; i < x.n; ++i) o[i] = a[2 * i] * T(2) + b[2 * i + 1];
  }
  // Materialises a[::2] * 2, then adds b[1::2].
  template <class T> static void unfused(args<T>& x) {
    const auto a = sv(x.in[0], 2 * x.n), b = sv(x.in[1], 2 * x.n);
    auto t = sv(x.tmp[0], x.n);
    t = a(st::slice(0, st::end, 2)) * T(2);
    sv(x.out[0], x.n) = t + b(st::slice(1, st::end, 2));
  }
#if SINTER_BENCH_HAS_EIGEN
  template <class T>
  using smap = Eigen::Map<const earr<T>, 0, Eigen::InnerStride<2>>;
  template <class T> static void eigen(args<T>& x) {
    em(x.out[0], x.n) = smap<T>(x.in[0], x.n) * T(2) + smap<T>(x.in[1] + 1, x.n);
  }
  template <class T, class F>
  static void with_tensor_expr(const args<T>& x, F&& assign) {
    const Eigen::array<index_t, 1> two{2};
    const auto a = tm(x.in[0], 2 * x.n), b = tm(x.in[1] + 1, 2 * x.n - 1);
    assign(a.stride(two) * T(2) + b.stride(two));
  }
  template <class T> static void eigen_tensor(args<T>& x) {
    auto o = tm(x.out[0], x.n);
    with_tensor_expr(x, [&](const auto& e) { o = e; });
  }
  template <class T> static void eigen_tensor_pool(args<T>& x) {
    auto o = tm(x.out[0], x.n);
    with_tensor_expr(x, [&](const auto& e) { o.device(pool_device()) = e; });
  }
#endif
#if SINTER_BENCH_HAS_XTENSOR
  template <class T> static void xtensor(args<T>& x) {
    const auto n2 = static_cast<std::ptrdiff_t>(2 * x.n);
    const auto a = xa(x.in[0], 2 * x.n), b = xa(x.in[1], 2 * x.n);
    auto o = xa(x.out[0], x.n);
    xt::noalias(o) = xt::view(a, xt::range(0, n2, 2)) * T(2) + xt::view(b, xt::range(1, n2, 2));
  }
#endif
};

// In place, the 2-D 5-point stencil of a side x side float grid:
// u[1:-1, 1:-1] = 0.25 (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]),
// NumPy's semantics (every read sees the old grid; the lagged-rows route,
// policy/host/lagged.hpp) against the same stencil from u into a second grid
// v (two buffers), a hand loop into v, and the whole temporary the in-place
// assignment took before (eval, then a copy). Not a suite kernel (it writes
// its input): "stencil/f32/<impl>/<side * side>", for bench/run.py.
namespace stencil {
constexpr index_t side = 2048;
template <class P>
using grid = st::view<float, 2, P>;
template <class P>
void two_buffer(float* u, float* v) {
  const grid<P> a(u, {side, side});
  grid<P> o(v, {side, side});
  const auto in = st::slice(1, -1), lo = st::slice(0, -2), hi = st::slice(2, st::end);
  o(in, in) = 0.25f * (a(lo, in) + a(hi, in) + a(in, lo) + a(in, hi));
}
template <class P>
void in_place(float* u, float*) {
  grid<P> a(u, {side, side});
  const auto in = st::slice(1, -1), lo = st::slice(0, -2), hi = st::slice(2, st::end);
  a(in, in) = 0.25f * (a(lo, in) + a(hi, in) + a(in, lo) + a(in, hi));
}
template <class P>
void temporary(float* u, float*) {
  grid<P> a(u, {side, side});
  const auto in = st::slice(1, -1), lo = st::slice(0, -2), hi = st::slice(2, st::end);
  a(in, in) = st::eval(0.25f * (a(lo, in) + a(hi, in) + a(in, lo) + a(in, hi)));
}
void hand(float* __restrict u, float* __restrict v) {
  for (index_t i = 1; i + 1 < side; ++i)
    for (index_t j = 1; j + 1 < side; ++j)
      v[i * side + j] = 0.25f * (u[(i - 1) * side + j] + u[(i + 1) * side + j] + u[i * side + j - 1] + u[i * side + j + 1]);
}

/// Times f(u, v) on a fresh random grid u; first checks that one call
/// leaves the grid the hand loop computes (in u for in-place, else in v).
template <void (*F)(float*, float*), bool InPlace>
void run(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(side * side);
  std::vector<float> start(n), want(n), u(n), v(n);
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  for (float& x : start) x = dist(gen);
  want = start;
  hand(start.data(), want.data());
  u = start;
  v = start;
  F(u.data(), v.data());
  if ((InPlace ? u : v) != want) {
    state.SkipWithError("stencil: result differs from the hand loop's");
    return;
  }
  for (auto _ : state) {
    F(u.data(), v.data());
    benchmark::ClobberMemory();
  }
  // Bytes: the grid read once and written once.
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 2 * static_cast<std::int64_t>(n * sizeof(float)));
}

void register_all() {
  const std::string n = "/" + std::to_string(side * side);
  const auto add = [&](const char* impl, void (*f)(benchmark::State&)) {
    benchmark::RegisterBenchmark(("stencil/f32/" + std::string(impl) + n).c_str(), f)->UseRealTime();
  };
  add("sinter_host_in_place", run<in_place<st::host>, true>);
  add("sinter_host_two_buffer", run<two_buffer<st::host>, false>);
  add("sinter_host_temporary", run<temporary<st::host>, true>);
  add("sinter_par_in_place", run<in_place<st::par>, true>);
  add("sinter_par_two_buffer", run<two_buffer<st::par>, false>);
  add("hand", run<hand, false>);
}
}  // namespace stencil

}  // namespace bench

int main(int argc, char** argv) {
  return bench::main_with(argc, argv, [] {
    using namespace bench;
    register_kernel<sum_sq_diff, float>();
    register_kernel<row_broadcast, float>();
    register_kernel<strided, float>();
    register_kernel<sum_sq_diff, double>();
    register_kernel<row_broadcast, double>();
    register_kernel<strided, double>();
    stencil::register_all();
  });
}
