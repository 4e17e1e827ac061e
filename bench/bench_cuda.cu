// sinter on a GPU: one fused kernel per expression, compared on the same
// device arrays in the same run with
//  - thrust:  one thrust::transform per operation, every intermediate
//             materialised in a temporary (the temporaries are allocated once,
//             outside the timing, as a caching allocator would);
//  - hand:    a hand-written fused kernel (grid-stride loop, one element per
//             step, as BabelStream's CUDA kernels are written);
//  - sinter:  `out = expression` on sinter::cuda arrays.
// Kernels: BabelStream copy, mul, add, triad; exp(a + b) * 2; a 10-op chain.
// Sizes 2^20 .. 2^26 floats. Each timing is CUDA events around one
// evaluation after warm-up (UseManualTime). Counters: GB/s of the minimum
// traffic (inputs read once, output written once) and that rate as a
// fraction of the device's theoretical peak (memory clock x bus width x 2).
// Needs a GPU: with none it prints "no CUDA device: <reason>" and exits 0.
// Build and run: bench/README_cuda.md.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/transform.h>

#include <cstdio>
#include <cstdlib>
#include <sinter/sinter.hpp>
#include <string>

namespace st = sinter;

namespace {

using farray = st::array<float, 1, st::cuda>;
constexpr float scalar = 0.4f;  // BabelStream's startScalar

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

/// Theoretical peak DRAM bandwidth of the current device in GB/s. CUDA 13
/// removed cudaDeviceProp::memoryClockRate; the attribute remains.
double peak_gbs() {
  int dev = 0, clock_khz = 0, bus_bits = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, dev), "memory clock");
  check(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev), "bus width");
  return 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;  // double data rate
}

/// The arrays of one benchmark size, shared by the three implementations.
struct data {
  farray a, b, c, out, t1, t2;  // t1, t2: thrust's intermediates
  explicit data(st::index_t n) : a({n}), b({n}), c({n}), out({n}), t1({n}), t2({n}) {
    a = 0.1f;  // BabelStream's start values
    b = 0.2f;
    c = 0.0f;
    st::synchronize(st::cuda{});
  }
};

// ---- element functions shared by thrust and the hand kernels ---------------
struct identity_op {
  __host__ __device__ float operator()(float x) const { return x; }
};
struct scale_op {
  float s;
  __host__ __device__ float operator()(float x) const { return s * x; }
};
struct add_scalar_op {
  float s;
  __host__ __device__ float operator()(float x) const { return x + s; }
};
struct exp_op {
  __host__ __device__ float operator()(float x) const { return expf(x); }
};
struct abs_op {
  __host__ __device__ float operator()(float x) const { return fabsf(x); }
};
struct sqrt_op {
  __host__ __device__ float operator()(float x) const { return sqrtf(x); }
};
struct neg_op {
  __host__ __device__ float operator()(float x) const { return -x; }
};

// ---- the kernels, three ways ------------------------------------------------
// Each `kernel` struct: bytes per element of minimum traffic, and run(impl).
enum class impl { thrust, hand, sinter };

__global__ void hand_copy(const float* __restrict__ a, float* __restrict__ c, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) c[i] = a[i];
}
__global__ void hand_mul(const float* __restrict__ c, float* __restrict__ b, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    b[i] = scalar * c[i];
}
__global__ void hand_add(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                         int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    c[i] = a[i] + b[i];
}
__global__ void hand_triad(const float* __restrict__ b, const float* __restrict__ c, float* __restrict__ a,
                           int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    a[i] = b[i] + scalar * c[i];
}
__global__ void hand_exp(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                         int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    c[i] = expf(a[i] + b[i]) * 2.f;
}
// chain10 = exp(-sqrt(abs(((a + b) * 0.5 - c) * 1.5 + 0.25))) * 2: 10 operations.
__global__ void hand_chain(const float* __restrict__ a, const float* __restrict__ b,
                           const float* __restrict__ c, float* __restrict__ o, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    o[i] = expf(-sqrtf(fabsf(((a[i] + b[i]) * 0.5f - c[i]) * 1.5f + 0.25f))) * 2.f;
}

/// Launch a hand kernel over n elements: one thread per element, 256 per block.
template <class... P, class... A>
void launch_hand(void (*kernel)(P...), st::index_t n, A... args) {
  kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(args..., static_cast<int>(n));
}

// Raw device pointers: with an explicit CUDA execution policy Thrust takes them as is.
float* tp(farray& x) { return x.data(); }
const auto nosync = thrust::cuda::par_nosync;  // one kernel per op, no host sync between

struct copy_kernel {
  static constexpr int bytes = 2 * sizeof(float);
  static void run(impl w, data& d, st::index_t n) {
    if (w == impl::thrust) thrust::transform(nosync, tp(d.a), tp(d.a) + n, tp(d.c), identity_op{});
    else if (w == impl::hand) launch_hand(hand_copy, n, d.a.data(), d.c.data());
    else d.c = d.a;
  }
};
struct mul_kernel {
  static constexpr int bytes = 2 * sizeof(float);
  static void run(impl w, data& d, st::index_t n) {
    if (w == impl::thrust) thrust::transform(nosync, tp(d.c), tp(d.c) + n, tp(d.b), scale_op{scalar});
    else if (w == impl::hand) launch_hand(hand_mul, n, d.c.data(), d.b.data());
    else d.b = scalar * d.c;
  }
};
struct add_kernel {
  static constexpr int bytes = 3 * sizeof(float);
  static void run(impl w, data& d, st::index_t n) {
    if (w == impl::thrust)
      thrust::transform(nosync, tp(d.a), tp(d.a) + n, tp(d.b), tp(d.c), thrust::plus<float>{});
    else if (w == impl::hand) launch_hand(hand_add, n, d.a.data(), d.b.data(), d.c.data());
    else d.c = d.a + d.b;
  }
};
struct triad_kernel {
  static constexpr int bytes = 3 * sizeof(float);
  static void run(impl w, data& d, st::index_t n) {
    if (w == impl::thrust) {
      thrust::transform(nosync, tp(d.c), tp(d.c) + n, tp(d.t1), scale_op{scalar});
      thrust::transform(nosync, tp(d.b), tp(d.b) + n, tp(d.t1), tp(d.a), thrust::plus<float>{});
    } else if (w == impl::hand) {
      launch_hand(hand_triad, n, d.b.data(), d.c.data(), d.a.data());
    } else {
      d.a = d.b + scalar * d.c;
    }
  }
};
struct exp_kernel {
  static constexpr int bytes = 3 * sizeof(float);
  static void run(impl w, data& d, st::index_t n) {
    if (w == impl::thrust) {
      thrust::transform(nosync, tp(d.a), tp(d.a) + n, tp(d.b), tp(d.t1), thrust::plus<float>{});
      thrust::transform(nosync, tp(d.t1), tp(d.t1) + n, tp(d.t2), exp_op{});
      thrust::transform(nosync, tp(d.t2), tp(d.t2) + n, tp(d.out), scale_op{2.f});
    } else if (w == impl::hand) {
      launch_hand(hand_exp, n, d.a.data(), d.b.data(), d.out.data());
    } else {
      d.out = st::exp(d.a + d.b) * 2.f;
    }
  }
};
struct chain_kernel {
  static constexpr int bytes = 4 * sizeof(float);
  static void run(impl w, data& d, st::index_t n) {
    if (w == impl::thrust) {
      auto t1 = tp(d.t1), t2 = tp(d.t2), out = tp(d.out);
      thrust::transform(nosync, tp(d.a), tp(d.a) + n, tp(d.b), t1, thrust::plus<float>{});  // 1
      thrust::transform(nosync, t1, t1 + n, t2, scale_op{0.5f});                             // 2
      thrust::transform(nosync, t2, t2 + n, tp(d.c), t1, thrust::minus<float>{});           // 3
      thrust::transform(nosync, t1, t1 + n, t2, scale_op{1.5f});                             // 4
      thrust::transform(nosync, t2, t2 + n, t1, add_scalar_op{0.25f});                       // 5
      thrust::transform(nosync, t1, t1 + n, t2, abs_op{});                                   // 6
      thrust::transform(nosync, t2, t2 + n, t1, sqrt_op{});                                  // 7
      thrust::transform(nosync, t1, t1 + n, t2, neg_op{});                                   // 8
      thrust::transform(nosync, t2, t2 + n, t1, exp_op{});                                   // 9
      thrust::transform(nosync, t1, t1 + n, out, scale_op{2.f});                             // 10
    } else if (w == impl::hand) {
      launch_hand(hand_chain, n, d.a.data(), d.b.data(), d.c.data(), d.out.data());
    } else {
      d.out = st::exp(-st::sqrt(st::abs(((d.a + d.b) * 0.5f - d.c) * 1.5f + 0.25f))) * 2.f;
    }
  }
};

double g_peak_gbs = 0;

template <class K>
void bench(benchmark::State& state, impl w) {
  const st::index_t n = state.range(0);
  data d(n);
  for (int i = 0; i < 3; ++i) K::run(w, d, n);  // warm-up: pools, caches, clocks
  check(cudaDeviceSynchronize(), "warm-up");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  double total = 0;
  for (auto _ : state) {
    check(cudaEventRecord(start), "cudaEventRecord");
    K::run(w, d, n);
    check(cudaEventRecord(stop), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    state.SetIterationTime(ms * 1e-3);
    total += ms * 1e-3;
  }
  check(cudaGetLastError(), "benchmark kernels");
  check(cudaEventDestroy(start), "cudaEventDestroy");
  check(cudaEventDestroy(stop), "cudaEventDestroy");
  const double gbs = total > 0 ? static_cast<double>(K::bytes) * static_cast<double>(n) *
                                     static_cast<double>(state.iterations()) / total / 1e9
                               : 0;
  state.counters["GB/s"] = gbs;
  state.counters["peak"] = g_peak_gbs > 0 ? gbs / g_peak_gbs : 0;  // fraction of theoretical peak
  state.counters["bytes"] = static_cast<double>(K::bytes) * static_cast<double>(n);
}

template <class K>
void register_kernel(const char* name) {
  const struct {
    impl w;
    const char* label;
  } impls[] = {{impl::thrust, "thrust"}, {impl::hand, "hand"}, {impl::sinter, "sinter"}};
  for (const auto& i : impls)
    benchmark::RegisterBenchmark((std::string(name) + "/" + i.label).c_str(),
                                 [w = i.w](benchmark::State& s) { bench<K>(s, w); })
        ->RangeMultiplier(4)
        ->Range(1 << 20, 1 << 26)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string reason = st::cuda_unavailable_reason();
  if (!reason.empty()) {
    std::printf("no CUDA device: %s\n", reason.c_str());
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
  g_peak_gbs = peak_gbs();
  benchmark::AddCustomContext("device", std::string(p.name) + " (sm_" + std::to_string(p.major) +
                                            std::to_string(p.minor) + ")");
  benchmark::AddCustomContext("peak_GB/s", std::to_string(g_peak_gbs));

  register_kernel<copy_kernel>("copy");
  register_kernel<mul_kernel>("mul");
  register_kernel<add_kernel>("add");
  register_kernel<triad_kernel>("triad");
  register_kernel<exp_kernel>("exp(a+b)*2");
  register_kernel<chain_kernel>("chain10");

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
