// float exp through the vector variants of core/math/hw_exp.hpp: each
// variant the vectoriser may call, run directly on the lanes where this CPU
// has its ISA, and exp in loops the compiler vectorises, at odd lengths and
// offsets; tanh (vectorised by GCC from the scalar kernel)
// in the same loops. Every result must have the bits of the scalar kernel
// (impl::exp_f, impl::tanh_f) and lie within the stated error bound of the
// double-precision std::exp/std::tanh.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sinter/core/math/exp_log.hpp>
#include <vector>

namespace {

namespace m = sinter::detail::math;

// Random bit patterns (every kind of float), uniform values over the ranges
// where the kernels switch paths (exp: overflow, subnormal results, the
// underflow to 0; tanh: the 1.25 switch, the clamp at 9.02), then specials.
std::vector<float> hw_inputs(std::size_t n) {
  std::vector<float> v(n);
  std::uint64_t s = 0x243f6a8885a308d3ull;
  for (std::size_t i = 0; i < n; ++i) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    const double u = static_cast<double>(s >> 11) * 0x1p-53;  // [0, 1)
    switch (i % 4) {
      case 0: {
        const auto b = static_cast<std::uint32_t>(s >> 32);
        std::memcpy(&v[i], &b, sizeof b);
        break;
      }
      case 1: v[i] = static_cast<float>(-110.0 + 205.0 * u); break;  // exp's whole range
      case 2: v[i] = static_cast<float>(-12.0 + 24.0 * u); break;    // tanh's
      default: v[i] = static_cast<float>((u - 0.5) * std::ldexp(1.0, static_cast<int>(s % 40) - 30));
    }
  }
  using L = std::numeric_limits<float>;
  const float sp[] = {0.0f, -0.0f, 1.0f, -1.0f, 1.25f, -1.25f, 0x1.3ffffep+0f, 9.02f, 9.011f,
                      88.72283f, 88.72284f, -87.33655f, -103.97207f, -103.97208f, -104.0f, 89.0f,
                      L::infinity(), -L::infinity(), L::quiet_NaN(), -L::quiet_NaN(), L::denorm_min(),
                      L::max(), L::lowest(), -L::denorm_min()};
  for (std::size_t i = 0; i < n && i < sizeof sp / sizeof sp[0]; ++i) v[(i * 7) % n] = sp[i];
  return v;
}

bool same_bits(float a, float b) {
  return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0;
}

// Error of `got` in units of the last place of the double reference
// (subnormal spacing below the normal range); 0 for matching inf/NaN.
double ulps(float got, double ref) {
  if (std::isnan(ref)) return std::isnan(got) ? 0.0 : 1e9;
  if (std::isinf(static_cast<float>(ref))) return got == static_cast<float>(ref) ? 0.0 : 1e9;
  int e = 0;
  std::frexp(ref == 0.0 ? 1e-45 : ref, &e);
  return std::fabs(static_cast<double>(got) - ref) / std::ldexp(1.0, e - 24 < -149 ? -149 : e - 24);
}

// The stated bounds (docs/math.md, over every float; tanh's depends on FMA).
constexpr double exp_bound = 0.81, tanh_bound = SINTER_DETAIL_HOST_FMA ? 1.46 : 1.76;

// Counts results that differ from the scalar kernel's bits or exceed the bound.
struct tally {
  long not_scalar = 0, over_bound = 0;
};
void check_exp(tally& t, float x, float got) {
  t.not_scalar += !same_bits(got, m::impl::exp_f(x));
  t.over_bound += ulps(got, std::exp(static_cast<double>(x))) > exp_bound;
}
void check_tanh(tally& t, float x, float got) {
  t.not_scalar += !same_bits(got, m::impl::tanh_f(x));
  t.over_bound += ulps(got, std::tanh(static_cast<double>(x))) > tanh_bound;
}

// out[i] = f(in[i]) in loops GCC vectorises (calling the variants of its
// ISA, then the scalar function for the remainder).
__attribute__((noinline)) void exp_loop(float* __restrict out, const float* __restrict in, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = m::exp(in[i]);
}
__attribute__((noinline)) void tanh_loop(float* __restrict out, const float* __restrict in, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = m::tanh(in[i]);
}

TEST_CASE("math: float exp and tanh in vectorised loops match the scalar kernels at every length and offset") {
  const std::vector<float> in = hw_inputs(4099);
  std::vector<float> out(in.size());
  tally te, tt;
  long checked = 0;
  for (std::size_t n : {0u, 1u, 2u, 3u, 5u, 7u, 15u, 16u, 17u, 31u, 33u, 63u, 65u, 1009u, 4096u}) {
    for (std::size_t off : {0u, 1u, 3u}) {  // misaligned starts
      if (off + n > in.size()) continue;
      exp_loop(out.data() + off, in.data() + off, n);
      for (std::size_t i = off; i < off + n; ++i) check_exp(te, in[i], out[i]);
      tanh_loop(out.data() + off, in.data() + off, n);
      for (std::size_t i = off; i < off + n; ++i) check_tanh(tt, in[i], out[i]);
      checked += static_cast<long>(n);
    }
  }
  CHECK(checked > 15000);
  CHECK(te.not_scalar == 0);
  CHECK(te.over_bound == 0);
  CHECK(tt.not_scalar == 0);
  CHECK(tt.over_bound == 0);
}

// tanh's shape: odd bit for bit, x itself below 2^-12 (where x^3/3 is under
// half an ulp), exactly +-1 from the clamp up, and within the bound on both
// sides of the switch at 1 between its two forms (a - a u (n^2 - 4pq) / D
// below, 1 - e^2 / D from there), where its error peaks.
TEST_CASE("math: float tanh is odd, exact for tiny x, 1 from 9.02, within its bound around the switch") {
  std::uint64_t s = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < 20000; ++i) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    const float x = static_cast<float>(12.0 * static_cast<double>(s >> 11) * 0x1p-53);
    const double mant = static_cast<double>(s >> 40) * 0x1p-24;  // [0, 1)
    const auto tiny = static_cast<float>(std::ldexp(mant, -12 - static_cast<int>(s % 120)));
    CHECK(same_bits(m::impl::tanh_f(-x), -m::impl::tanh_f(x)));
    CHECK(same_bits(m::impl::tanh_f(tiny), tiny));
    CHECK(same_bits(m::impl::tanh_f(-tiny), -tiny));
  }
  for (const float saturating : {9.02f, 9.5f, 30.0f, 1e30f, std::numeric_limits<float>::infinity()}) {
    CHECK(m::impl::tanh_f(saturating) == 1.0f);
    CHECK(m::impl::tanh_f(-saturating) == -1.0f);
  }
  float x = 1.0f;
  for (int i = 0; i < 4096; ++i) x = std::nextafter(x, 0.0f);
  for (int i = 0; i < 8192; ++i, x = std::nextafter(x, 2.0f))
    CHECK(ulps(m::impl::tanh_f(x), std::tanh(static_cast<double>(x))) <= tanh_bound);
  CHECK(same_bits(m::impl::tanh_f(-0.0f), -0.0f));
  CHECK(std::isnan(m::impl::tanh_f(std::numeric_limits<float>::quiet_NaN())));
}

#if SINTER_HW_EXP
// Runs a variant on every full vector of the inputs and checks each lane.
template <class V, class Fn, class Check>
tally variant_tally(Fn fn, Check check) {
  constexpr std::size_t lanes = sizeof(V) / sizeof(float);
  const std::vector<float> in = hw_inputs(lanes * 2048);
  std::vector<float> out(in.size());
  for (std::size_t i = 0; i < in.size(); i += lanes) fn(out.data() + i, in.data() + i);
  tally t;
  for (std::size_t i = 0; i < in.size(); ++i) check(t, in[i], out[i]);
  return t;
}

// One caller per ISA, compiled for it: a variant takes its vector in registers.
#define SINTER_TEST_HW_CALL(caller, isa, V, fn)                                    \
  __attribute__((target(isa))) void caller(float* out, const float* in) {          \
    V v;                                                                           \
    std::memcpy(&v, in, sizeof v);                                                 \
    v = fn(v);                                                                     \
    std::memcpy(out, &v, sizeof v);                                                \
  }
SINTER_TEST_HW_CALL(call_eb, "sse2", __m128, sinter_detail_expf_b)
SINTER_TEST_HW_CALL(call_ec, "avx", __m256, sinter_detail_expf_c)
SINTER_TEST_HW_CALL(call_ed, "avx2", __m256, sinter_detail_expf_d)
SINTER_TEST_HW_CALL(call_ee, "avx512f", __m512, sinter_detail_expf_e)
#undef SINTER_TEST_HW_CALL

// The variant of one ISA: no lane may exceed the bound, nor (if `bitwise`)
// differ from the scalar kernel.
template <class V>
void check_isa(void (*variant)(float*, const float*), bool bitwise = true) {
  const tally t = variant_tally<V>(variant, check_exp);
  if (bitwise) CHECK(t.not_scalar == 0);
  CHECK(t.over_bound == 0);
}

TEST_CASE("math: each float exp vector variant matches the scalar kernel (the ISAs this CPU has)") {
  const tally ts = variant_tally<float>([](float* o, const float* i) { *o = sinter_detail_expf(*i); }, check_exp);
  CHECK(ts.not_scalar == 0);
  CHECK(ts.over_bound == 0);
  check_isa<__m128>(call_eb);
  if (__builtin_cpu_supports("avx")) {
    check_isa<__m256>(call_ec);
  } else {
    MESSAGE("no AVX on this CPU: the AVX variant is not run");
  }
  if (__builtin_cpu_supports("avx2")) {
    check_isa<__m256>(call_ed);
  } else {
    MESSAGE("no AVX2 on this CPU: the AVX2 variant is not run");
  }
  if (__builtin_cpu_supports("avx512f")) {
    // The AVX-512 variant always fuses (only code built for AVX-512, which
    // has FMA, calls it): bit for bit it matches the scalar kernel of a
    // translation unit with FMA, checked where this file is built with it
    // (tests/fma, -march=x86-64-v3).
    check_isa<__m512>(call_ee, SINTER_DETAIL_HOST_FMA == 1);
    if (!SINTER_DETAIL_HOST_FMA) MESSAGE("AVX-512 variant: bound checked here, bits in the FMA build");
  } else {
    MESSAGE("no AVX-512 on this CPU: the AVX-512 variant is not run");
  }
}
#endif

}  // namespace
