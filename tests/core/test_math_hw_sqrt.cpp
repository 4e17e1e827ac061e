// sqrt through the hardware instruction (core/math/hw_sqrt.hpp): each vector
// variant the vectoriser may call, run directly on the lanes where this CPU
// has its ISA, and sqrt in loops the compiler vectorises, at odd lengths and
// offsets; all bit-exact against std::sqrt (IEEE: correctly rounded).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sinter/core/math/sqrt_round.hpp>
#include <vector>

namespace {

namespace m = sinter::detail::math;

// Random bit patterns over all floats/doubles (positive, negative, subnormal,
// inf, NaN), then the special values, so every lane position sees some.
template <class F>
std::vector<F> sqrt_inputs(std::size_t n) {
  using U = std::conditional_t<sizeof(F) == 4, std::uint32_t, std::uint64_t>;
  std::vector<F> v(n);
  std::uint64_t s = 0x9e3779b97f4a7c15ull;
  for (auto& x : v) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    const U u = static_cast<U>(s >> (64 - 8 * sizeof(U)));
    std::memcpy(&x, &u, sizeof x);
    // Half the values in a plain range, where most inputs of real code are.
    if (s & 1) x = static_cast<F>(static_cast<double>(s % 1000003) * 0.001);
  }
  using L = std::numeric_limits<F>;
  const F sp[] = {F(0), F(-0.0), F(1), F(4), F(2), F(-1), L::infinity(), -L::infinity(),
                  L::quiet_NaN(), L::denorm_min(), L::min(), L::max(), -L::denorm_min()};
  for (std::size_t i = 0; i < n && i < sizeof sp / sizeof sp[0]; ++i) v[(i * 7) % n] = sp[i];
  return v;
}

template <class F>
bool same(F a, F b) {
  return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b));
}

// out[i] = sqrt(in[i]) in a loop GCC vectorises (calling the variants of its
// ISA, then the scalar function for the remainder).
template <class F>
__attribute__((noinline)) void sqrt_loop(F* __restrict out, const F* __restrict in, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = m::sqrt(in[i]);
}

template <class F>
long loop_mismatches() {
  long bad = 0;
  const std::vector<F> in = sqrt_inputs<F>(4099);
  std::vector<F> out(4099);
  for (std::size_t n : {0, 1, 2, 3, 5, 7, 15, 16, 17, 31, 33, 63, 65, 1009, 4096}) {
    for (std::size_t off : {0, 1, 3}) {  // misaligned starts
      if (off + n > in.size()) continue;
      sqrt_loop(out.data() + off, in.data() + off, n);
      for (std::size_t i = off; i < off + n; ++i) bad += !same(out[i], std::sqrt(in[i]));
    }
  }
  return bad;
}

TEST_CASE("math: sqrt in vectorised loops is bit-exact at every length and offset") {
  CHECK(loop_mismatches<float>() == 0);
  CHECK(loop_mismatches<double>() == 0);
}

#if SINTER_HW_SQRT
// Calls a variant on every full vector of the inputs.
template <class F, class V, class Fn>
long variant_mismatches(Fn fn) {
  constexpr std::size_t lanes = sizeof(V) / sizeof(F);
  const std::vector<F> in = sqrt_inputs<F>(lanes * 512);
  std::vector<F> out(in.size());
  for (std::size_t i = 0; i < in.size(); i += lanes) fn(out.data() + i, in.data() + i);
  long bad = 0;
  for (std::size_t i = 0; i < in.size(); ++i) bad += !same(out[i], std::sqrt(in[i]));
  return bad;
}

// One caller per ISA, compiled for it: a variant takes its vector in registers.
#define SINTER_TEST_HW_CALL(caller, isa, F, V, fn)                                 \
  __attribute__((target(isa))) void caller(F* out, const F* in) {                  \
    V v;                                                                           \
    std::memcpy(&v, in, sizeof v);                                                 \
    v = fn(v);                                                                     \
    std::memcpy(out, &v, sizeof v);                                                \
  }
SINTER_TEST_HW_CALL(call_fb, "sse2", float, __m128, sinter_detail_sqrtf_b)
SINTER_TEST_HW_CALL(call_fc, "avx", float, __m256, sinter_detail_sqrtf_c)
SINTER_TEST_HW_CALL(call_fd, "avx2", float, __m256, sinter_detail_sqrtf_d)
SINTER_TEST_HW_CALL(call_fe, "avx512f", float, __m512, sinter_detail_sqrtf_e)
SINTER_TEST_HW_CALL(call_db, "sse2", double, __m128d, sinter_detail_sqrt_b)
SINTER_TEST_HW_CALL(call_dc, "avx", double, __m256d, sinter_detail_sqrt_c)
SINTER_TEST_HW_CALL(call_dd, "avx2", double, __m256d, sinter_detail_sqrt_d)
SINTER_TEST_HW_CALL(call_de, "avx512f", double, __m512d, sinter_detail_sqrt_e)
#undef SINTER_TEST_HW_CALL

TEST_CASE("math: each hardware sqrt variant is bit-exact (the ISAs this CPU has)") {
  CHECK(variant_mismatches<float, float>([](float* o, const float* i) { *o = sinter_detail_sqrtf(*i); }) == 0);
  CHECK(variant_mismatches<double, double>([](double* o, const double* i) { *o = sinter_detail_sqrt(*i); }) == 0);
  CHECK(variant_mismatches<float, __m128>(call_fb) == 0);
  CHECK(variant_mismatches<double, __m128d>(call_db) == 0);
  if (__builtin_cpu_supports("avx")) {
    CHECK(variant_mismatches<float, __m256>(call_fc) == 0);
    CHECK(variant_mismatches<double, __m256d>(call_dc) == 0);
  } else {
    MESSAGE("no AVX on this CPU: the AVX variants are not run");
  }
  if (__builtin_cpu_supports("avx2")) {
    CHECK(variant_mismatches<float, __m256>(call_fd) == 0);
    CHECK(variant_mismatches<double, __m256d>(call_dd) == 0);
  } else {
    MESSAGE("no AVX2 on this CPU: the AVX2 variants are not run");
  }
  if (__builtin_cpu_supports("avx512f")) {
    CHECK(variant_mismatches<float, __m512>(call_fe) == 0);
    CHECK(variant_mismatches<double, __m512d>(call_de) == 0);
  } else {
    MESSAGE("no AVX-512 on this CPU: the AVX-512 variants are not run");
  }
}
#endif

}  // namespace
