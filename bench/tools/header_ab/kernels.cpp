// One header version's kernels for header_ab (see run.sh). Compiled twice,
// with -Dsinter=sinter_A -DVNAME=A and -Dsinter=sinter_B -DVNAME=B, so the
// two versions' instantiations have different names and link into one
// program without clashing.
#include <sinter/sinter.hpp>
#include <chrono>
#include <tuple>

namespace st = sinter;
#define HAB_CAT2(a, b) a##b
#define HAB_CAT(a, b) HAB_CAT2(a, b)

namespace {
template <class T> __attribute__((noinline)) void add(st::array<T, 1>& c, const st::array<T, 1>& a, const st::array<T, 1>& b) { c = a + b; }
template <class T> __attribute__((noinline)) void triad(st::array<T, 1>& c, const st::array<T, 1>& a, const st::array<T, 1>& b) { c = a + T(3) * b; }
template <class T> __attribute__((noinline)) void chain(st::array<T, 1>& c, const st::array<T, 1>& a, const st::array<T, 1>& b) { c = (a - b) * (a + b) * T(0.5) + a; }
template <class T> __attribute__((noinline)) void tanh_chain(st::array<T, 1>& c, const st::array<T, 1>& a, const st::array<T, 1>& b) { c = st::tanh(a * T(0.5) + b) * b - st::sqrt(st::abs(a)); }
// bench_math's Black-Scholes (both prices in one tied pass) on s = a, k = b, t = b.
template <class T> __attribute__((noinline)) void black_scholes(st::array<T, 1>& call, st::array<T, 1>& put, const st::array<T, 1>& s, const st::array<T, 1>& k) {
  const auto& t = k;
  const T vv = T(0.3), hr = T(0.02 + 0.5 * 0.3 * 0.3), c = T(0.70710678118654752440);
  const auto vs = st::sqrt(t) * vv;
  const auto d1 = (st::log(s / k) + t * hr) / vs;
  const auto d2 = d1 - vs;
  const auto ke = k * st::exp(t * T(-0.02));
  st::tie(call, put) = std::tuple(s * T(0.5) * st::erfc(d1 * -c) - ke * T(0.5) * st::erfc(d2 * -c),
                                  ke * T(0.5) * st::erfc(d2 * c) - s * T(0.5) * st::erfc(d1 * c));
}
template <class T> __attribute__((noinline)) void exp_add(st::array<T, 1>& c, const st::array<T, 1>& a, const st::array<T, 1>& b) { c = st::exp(a + b) * T(2); }
template <class T> __attribute__((noinline)) T dot(const st::array<T, 1>& a, const st::array<T, 1>& b) { return st::sum(a * b); }

// Strided layouts on n elements seen as a matrix with rows of w: the
// transpose of a (w, n / w) matrix plus b; a + a column broadcast (one
// value per row); the reverse of a, rank 1; a + b into the transpose of c.
template <class T> st::view<const T, 2> mat(const st::array<T, 1>& x, long w) { return {x.data(), {x.size() / w, w}}; }
template <class T> __attribute__((noinline)) void transposed(st::array<T, 1>& c, const st::array<T, 1>& a, const st::array<T, 1>& b, long w) {
  st::view<T, 2>(c.data(), {c.size() / w, w}) = st::transpose(st::view<const T, 2>(a.data(), {w, a.size() / w})) + mat(b, w);
}
template <class T> __attribute__((noinline)) void column(st::array<T, 1>& c, const st::array<T, 1>& a, const st::array<T, 1>& b, long w) {
  st::view<T, 2>(c.data(), {c.size() / w, w}) = mat(a, w) * T(2) + st::view<const T, 2>(b.data(), {a.size() / w, 1});
}
template <class T> __attribute__((noinline)) void reversed(st::array<T, 1>& c, const st::array<T, 1>& a, const st::array<T, 1>& b) {
  c = a(st::slice(st::none, st::none, -1)) * T(2) + b;
}
template <class T> __attribute__((noinline)) void transposed_out(st::array<T, 1>& c, const st::array<T, 1>& a, const st::array<T, 1>& b, long w) {
  st::transpose(st::view<T, 2>(c.data(), {w, c.size() / w})) = mat(a, w) + mat(b, w);
}

template <class T> __attribute__((noinline)) void transposed_both(st::array<T, 1>& c, const st::array<T, 1>& a, const st::array<T, 1>& b, long w) {
  const long h = c.size() / w;
  st::transpose(st::view<T, 2>(c.data(), {w, h})) =
      st::transpose(st::view<const T, 2>(a.data(), {w, h})) * T(2) + st::transpose(st::view<const T, 2>(b.data(), {w, h}));
}
template <class T> __attribute__((noinline)) void step2(st::array<T, 1>& c, const st::array<T, 1>& a, const st::array<T, 1>& b) {
  st::view<T, 1>(c.data(), {c.size() / 2}) = a(st::slice(0, st::end, 2)) * T(2) + b(st::slice(1, st::end, 2));
}

// bench_layout's row_broadcast on rows of w (n / w of them; w = 16: the
// 2-D pass's fixed cost, w = 1000: the benchmark's rows).
template <class T> __attribute__((noinline)) void row_bcast(st::array<T, 1>& c, const st::array<T, 1>& a, const st::array<T, 1>& b, long w) {
  st::view<T, 2>(c.data(), {c.size() / w, w}) = mat(a, w) * T(0.5) + st::view<const T, 1>(b.data(), {w});
}
// A rank-2 pass of whole matrices with rows of w: contiguous, one row.
template <class T> __attribute__((noinline)) void matrix_add(st::array<T, 1>& c, const st::array<T, 1>& a, const st::array<T, 1>& b, long w) {
  st::view<T, 2>(c.data(), {c.size() / w, w}) = mat(a, w) + mat(b, w);
}
template <class T>
struct bufs {
  st::array<T, 1> a, b, c, d;
  explicit bufs(st::index_t n) : a({n}), b({n}), c({n}), d({n}) {
    for (st::index_t i = 0; i < n; ++i) {
      a.data()[i] = T(1 + i % 7);
      b.data()[i] = T(1 + i % 5);
    }
  }
};
volatile double sink;

template <class T, class F>
double batch(F f, bufs<T>& B, int reps) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r) {
    f(B);
    asm volatile("" ::: "memory");
  }
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / reps;
}
}  // namespace

/// ns per call of kernel k (0 add f32, 1 add f64, 2 triad f32, 3 triad f64,
/// 4 chain f32, 5 dot f32, 6 dot f64, 7 tanh_chain f32, 8 black_scholes
/// f32, 9 black_scholes f64, 10 tanh_chain f64, 11 exp_add f32, 12 exp_add
/// f64; strided layouts, rows of 256 or 8: 13 transposed f32 /256, 14
/// transposed f32 /8, 15 column f32 /256, 16 column f32 /8, 17 reversed
/// f32, 18 transposed f64 /256, 19 column f64 /256, 20 transposed output
/// f32 /256; n a multiple of 256 for those; 21 bench_layout's strided
/// f32, a[::2] * 2 + b[1::2] into n / 2 elements; 22 transposed output of
/// transposed operands f32 /256; 23 row broadcast f32 /16 and 24 /1000
/// (/n below 1000), over whole rows only; 25 rank-2 add f32 /16; 26 row
/// broadcast f64 /1000) on n elements, one batch of reps calls.
double HAB_CAT(run_, VNAME)(int k, long n, int reps) {
  static bufs<float>* bf = nullptr;
  static bufs<double>* bd = nullptr;
  static long cur = -1;
  if (cur != n) {
    delete bf;
    delete bd;
    bf = new bufs<float>(n);
    bd = new bufs<double>(n);
    cur = n;
  }
  switch (k) {
    case 0: return batch(+[](bufs<float>& B) { add(B.c, B.a, B.b); }, *bf, reps);
    case 1: return batch(+[](bufs<double>& B) { add(B.c, B.a, B.b); }, *bd, reps);
    case 2: return batch(+[](bufs<float>& B) { triad(B.c, B.a, B.b); }, *bf, reps);
    case 3: return batch(+[](bufs<double>& B) { triad(B.c, B.a, B.b); }, *bd, reps);
    case 4: return batch(+[](bufs<float>& B) { chain(B.c, B.a, B.b); }, *bf, reps);
    case 5: return batch(+[](bufs<float>& B) { sink = dot(B.a, B.b); }, *bf, reps);
    case 6: return batch(+[](bufs<double>& B) { sink = dot(B.a, B.b); }, *bd, reps);
    case 7: return batch(+[](bufs<float>& B) { tanh_chain(B.c, B.a, B.b); }, *bf, reps);
    case 8: return batch(+[](bufs<float>& B) { black_scholes(B.c, B.d, B.a, B.b); }, *bf, reps);
    case 9: return batch(+[](bufs<double>& B) { black_scholes(B.c, B.d, B.a, B.b); }, *bd, reps);
    case 10: return batch(+[](bufs<double>& B) { tanh_chain(B.c, B.a, B.b); }, *bd, reps);
    case 11: return batch(+[](bufs<float>& B) { exp_add(B.c, B.a, B.b); }, *bf, reps);
    case 12: return batch(+[](bufs<double>& B) { exp_add(B.c, B.a, B.b); }, *bd, reps);
    case 13: return batch(+[](bufs<float>& B) { transposed(B.c, B.a, B.b, 256); }, *bf, reps);
    case 14: return batch(+[](bufs<float>& B) { transposed(B.c, B.a, B.b, 8); }, *bf, reps);
    case 15: return batch(+[](bufs<float>& B) { column(B.c, B.a, B.b, 256); }, *bf, reps);
    case 16: return batch(+[](bufs<float>& B) { column(B.c, B.a, B.b, 8); }, *bf, reps);
    case 17: return batch(+[](bufs<float>& B) { reversed(B.c, B.a, B.b); }, *bf, reps);
    case 18: return batch(+[](bufs<double>& B) { transposed(B.c, B.a, B.b, 256); }, *bd, reps);
    case 19: return batch(+[](bufs<double>& B) { column(B.c, B.a, B.b, 256); }, *bd, reps);
    case 20: return batch(+[](bufs<float>& B) { transposed_out(B.c, B.a, B.b, 256); }, *bf, reps);
    case 21: return batch(+[](bufs<float>& B) { step2(B.c, B.a, B.b); }, *bf, reps);
    case 23: return batch(+[](bufs<float>& B) { row_bcast(B.c, B.a, B.b, 16); }, *bf, reps);
    case 24: return batch(+[](bufs<float>& B) { row_bcast(B.c, B.a, B.b, B.c.size() < 1000 ? B.c.size() : 1000); }, *bf, reps);
    case 25: return batch(+[](bufs<float>& B) { matrix_add(B.c, B.a, B.b, 16); }, *bf, reps);
    case 26: return batch(+[](bufs<double>& B) { row_bcast(B.c, B.a, B.b, B.c.size() < 1000 ? B.c.size() : 1000); }, *bd, reps);
    default: return batch(+[](bufs<float>& B) { transposed_both(B.c, B.a, B.b, 256); }, *bf, reps);
  }
}
