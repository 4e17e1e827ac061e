// The PTX fusion proof's expressions: compiled by check_ptx.py with
// -DSINTER_PTX_CASE=N (nvcc -ptx, nothing is run; the fused-kernel cases all
// in one compile, see below), each instantiating exactly the kernel sinter
// launches for `out = expression`.
//
// Every case carries its expectation in a `// @case` line, read by
// check_ptx.py:
//   expr     the expression, as shown in the table
//   loads    vector loads per step on the vector path, per index width: one
//            16-byte access per memory leaf per W = 16 / sizeof(out) elements,
//            so a leaf of a wider type needs more (a float expression reading
//            a double array loads 32 bytes per step: two v2.f64), a narrower
//            one a smaller vector (half read by a float expression: v4.u16)
//   stores   vector stores per step per index width (one 16-byte chunk)
//   max_regs optional register ceiling (ptxas -v)
//   path     `strided` when the operands take the strided path at run time
//            (broadcast, strided views; choose_plan in kernel_body.hpp, and
//            tests/policy/test_cuda_kernel_body.cpp checks it for these
//            cases): the vector loop is still compiled and counted, but never
//            runs for them. Default: vector (every pointer 16-byte aligned,
//            as sinter's allocations are, or aligned after a scalar head;
//            contiguous scalar when no head aligns them all).
//   vector_bytes  allowed bytes per vector access (default 16; a leaf
//            narrower than the output, e.g. half read by a float expression,
//            would load 8 bytes per step: v4.u16)
//   dedup    when two memory leaves have one type: the file also holds the
//            dedup kernel (launched only when the host finds an array used
//            twice, policy/cuda/leaf_dedup.hpp), and N is its fewest vector
//            loads per step when every leaf that can repeat an earlier one
//            does: one per leaf type's first leaf (check_ptx.py checks the
//            fewest is at most N, the most `loads`)
// The kernel holds both index widths (32-bit and 64-bit), so the script
// expects twice `loads` and `stores`.
//
// The arrays are never allocated: proof() is compiled, never called.
//
// check_ptx.py compiles the cases without a `kind` together: one file that
// includes this one once per case (SINTER_PTX_CASE redefined before each,
// SINTER_PTX_MARK set); each case's instantiate() then also emits an empty
// marker kernel whose template arguments name its kernels' ones.
#ifndef SINTER_PTX_CASES_PREAMBLE
#define SINTER_PTX_CASES_PREAMBLE
#include <sinter/sinter.hpp>

#include <utility>

namespace st = sinter;

#ifndef SINTER_PTX_CASE
#error "compile with -DSINTER_PTX_CASE=N (see check_ptx.py)"
#endif

#ifdef SINTER_PTX_MARK
/// Emitted beside case Case's kernels: check_ptx.py finds them by its arguments.
template <int Case, class T, std::size_t R, class Bound>
__global__ void sinter_ptx_case_marker() {}
#endif

namespace {

template <class T, std::size_t R = 1>
using dev = st::array<T, R, st::cuda>;

/// Instantiate the kernels a launch of `out = e` can use (taking an address
/// emits the kernel), as sinter::detail::cuda_detail::launch does: the fused
/// kernel, and the dedup kernel when two memory leaves have one type.
template <int Case, class Out, class E>
void instantiate(const Out& out, E&& e) {
  namespace cd = st::detail::cuda_detail;
  using T = std::remove_const_t<typename Out::value_type>;
  constexpr std::size_t R = Out::rank;
  const auto x = st::detail::as_expr(std::forward<E>(e));
  using bound = decltype(x.node().bind(out.shape()));
  (void)&cd::fused_kernel<T, R, bound>;
  if constexpr (cd::has_twins_v<bound>) (void)&cd::fused_dedup_kernel<T, R, bound>;
#ifdef SINTER_PTX_MARK
  (void)&sinter_ptx_case_marker<Case, T, R, bound>;
#endif
}

}  // namespace

#define SINTER_PTX_CAT2(a, b) a##b
#define SINTER_PTX_CAT(a, b) SINTER_PTX_CAT2(a, b)
#define instantiate(...) instantiate<SINTER_PTX_CASE>(__VA_ARGS__)
#endif  // SINTER_PTX_CASES_PREAMBLE

void SINTER_PTX_CAT(proof_, SINTER_PTX_CASE)(dev<float>& a, dev<float>& b, dev<float>& c, dev<float>& out) {
  (void)a, (void)b, (void)c, (void)out;
#if SINTER_PTX_CASE == 1
  // @case expr=exp(a + b) * 2 (the tour) | loads=2 | stores=1 | max_regs=32 | dedup=1
  instantiate(out, st::exp(a + b) * 2.f);
#elif SINTER_PTX_CASE == 2
  // @case expr=20-op chain of a, b, c (sin, cos, exp, tanh, log1p, rsqrt...) | loads=3 | stores=1 | dedup=1
  auto x = st::sqrt(st::abs(st::sin(a * 1.5f + b) - st::cos(c * 0.5f)));  // 8 ops
  auto y = st::tanh(st::exp(x * -0.5f) + 0.25f) * 3.f - 1.f;               // 6 ops
  auto z = st::minimum(st::maximum(st::log1p(st::square(y)) / 2.f, 0.1f), 0.9f);  // 5 ops
  instantiate(out, st::rsqrt(z));                                         // 1 op
#elif SINTER_PTX_CASE == 3
  // The row is broadcast (stride 0): the strided path runs.
  // @case expr=m + row (f32[R, C] + f32[C], rank 2) | loads=2 | stores=1 | path=strided | dedup=1
  dev<float, 2> m({64, 64}), o({64, 64});
  instantiate(o, m + a);
#elif SINTER_PTX_CASE == 4
  // Step-2 slices are not contiguous: the strided path runs.
  // @case expr=a[::2] * 2 + b[1::2] (strided slices) | loads=2 | stores=1 | path=strided | dedup=1
  instantiate(out, a(st::slice(st::none, st::none, 2)) * 2.f + b(st::slice(1, st::none, 2)));
#elif SINTER_PTX_CASE == 5
  // @case expr=where(a > b, c, 0) | loads=3 | stores=1 | dedup=1
  instantiate(out, st::where(a > b, c, 0.f));
#elif SINTER_PTX_CASE == 6
  // @case expr=f32 = a(f32) * d(f64) + i(i32) (mixed) | loads=4 | stores=1
  dev<double> d({64});
  dev<int> i({64});
  instantiate(out, a * d + i);
#elif SINTER_PTX_CASE == 7
  // @case expr=f16 = h1 * h2 + h3 (half storage) | loads=3 | stores=1 | dedup=1
  dev<st::half> h1({64}), h2({64}), h3({64}), ho({64});
  instantiate(ho, h1 * h2 + h3);
#elif SINTER_PTX_CASE == 8
  // @case expr=bf16 = exp(g1) * 0.5 + g2 (bfloat16 storage) | loads=2 | stores=1 | dedup=1
  dev<st::bfloat16> g1({64}), g2({64}), go({64});
  instantiate(go, st::exp(g1) * 0.5f + g2);
#elif SINTER_PTX_CASE == 9
  // @case expr=map(x > y ? x - y : 0, a, b) (user lambda) | loads=2 | stores=1 | dedup=1
  instantiate(out, st::map([] __host__ __device__(float x, float y) { return x > y ? x - y : 0.f; }, a, b));
#elif SINTER_PTX_CASE == 10
  // a is two leaves of the tree: the fused kernel loads 4 chunks per step
  // (it runs when the 4 leaves are 4 arrays); when a is one array the host
  // launches the dedup kernel, which loads 3 (docs/ptx_proof.md).
  // @case expr=tanh(a*0.5+b)*c - sqrt(abs(a)) | loads=4 | stores=1 | distinct=3 | dedup=1
  instantiate(out, st::tanh(a * 0.5f + b) * c - st::sqrt(st::abs(a)));
#elif SINTER_PTX_CASE == 11
  // @case expr=BabelStream copy: c = a | loads=1 | stores=1
  instantiate(out, a);
#elif SINTER_PTX_CASE == 12
  // @case expr=BabelStream mul: b = 0.4 * c | loads=1 | stores=1
  instantiate(out, 0.4f * c);
#elif SINTER_PTX_CASE == 13
  // @case expr=BabelStream add: c = a + b | loads=2 | stores=1 | dedup=1
  instantiate(out, a + b);
#elif SINTER_PTX_CASE == 14
  // @case expr=BabelStream triad: a = b + 0.4 * c | loads=2 | stores=1 | dedup=1
  instantiate(out, b + 0.4f * c);
#elif SINTER_PTX_CASE == 15
  // @case expr=f64: exp(square(x) * -0.5) * y + sqrt(abs(z)) | loads=3 | stores=1 | dedup=1
  dev<double> x({64}), y({64}), z({64}), o({64});
  instantiate(o, st::exp(st::square(x) * -0.5) * y + st::sqrt(st::abs(z)));
#elif SINTER_PTX_CASE == 16
  // @case expr=i32: ((i * 3 + j) % 7) ^ (k >> 2) | loads=3 | stores=1 | dedup=1
  dev<int> i({64}), j({64}), k({64}), o({64});
  instantiate(o, ((i * 3 + j) % 7) ^ (k >> 2));
#elif SINTER_PTX_CASE == 17
  // bool output: W = 16 elements per step, so each float leaf needs 64 bytes.
  // @case expr=bool = a > b (mask) | loads=8 | stores=1 | dedup=4
  dev<bool> o({64});
  instantiate(o, a > b);
#elif SINTER_PTX_CASE == 18
  // Reductions run CUB's kernels (several .entry, no vector-width contract):
  // kind=reduce checks that every kernel's per-element loops load from global
  // memory and store nothing there (no intermediate array; CUB's one partial
  // per block is written after the loop).
  // @case expr=sum(exp(a + b) * 2) (full, CUB DeviceReduce) | kind=reduce | loads=2 | stores=0
  (void)st::sum(st::exp(a + b) * 2.f);
#elif SINTER_PTX_CASE == 19
  // @case expr=sum(m * 2 + row, axis 1) (CUB DeviceSegmentedReduce) | kind=reduce | loads=2 | stores=0
  dev<float, 2> m({64, 64});
  (void)st::sum(m * 2.f + a, st::axis(1));
#elif SINTER_PTX_CASE == 20
  // A random generator fused into the pass: Philox and Box-Muller in
  // registers, nothing loaded for it.
  // @case expr=a + 0.1 * random::normal(k, a.shape()) (fused noise) | loads=1 | stores=1
  instantiate(out, a + 0.1f * st::random::normal<float>(st::random::key{1}, a.shape()));
#elif SINTER_PTX_CASE == 21
  // kind=scatter: sinter's own kernel (the other entries copy and check indices).
  // @case expr=put(a, idx, b) (int64 indices) | kind=scatter | loads=2 | stores=1
  dev<std::int64_t> idx({64});
  st::put(a, idx, b);
#elif SINTER_PTX_CASE == 22
  // @case expr=scatter_add(a, idx, b) (atomicAdd) | kind=scatter | loads=2 | stores=1
  dev<std::int64_t> idx({64});
  st::scatter_add(a, idx, b);
#elif SINTER_PTX_CASE == 23
  // kind=scan: the flat and the by-key (axis) CUB kernels are both compiled.
  // @case expr=cumsum(a * b) (CUB DeviceScan over the fused input) | kind=scan | loads=2 | stores=1
  (void)st::cumsum(a * b);
#elif SINTER_PTX_CASE == 24
  // @case expr=cumsum(m * 2 + row, axis 1) (CUB DeviceScanByKey) | kind=scan | loads=2 | stores=1
  dev<float, 2> m({64, 64});
  (void)st::cumsum(m * 2.f + a, st::axis(1));
#else
#error "unknown SINTER_PTX_CASE"
#endif
}
