// Run-time ISA dispatch of the maths kernels (policy/host/dispatch.hpp,
// policy/host/cpu_isa.hpp), in a build without -march: every dispatched
// function of float and double against a long double reference, at the
// level the process runs (ctest runs this file with SINTER_ISA=sse2, avx2
// and avx512 where the CPU has them), on odd sizes, views and a strided
// output; the tile kernels of every level the CPU has, called directly; the
// trace's and sinter::devices()' report of the level; and, where ctest names
// the reference programs (environment SINTER_ISA_REFERENCE_V3/_V4: the same
// cases compiled with -march=x86-64-v3 / -v4), the results' bits against theirs.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sinter/device.hpp>
#include <sinter/factories.hpp>
#include <sinter/trace.hpp>
#include <sinter/tie.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "isa_dispatch/cases.hpp"

namespace isa_dispatch_test {

namespace st = sinter;
namespace d = sinter::detail;
using isa_cases::fn_case;
using st::index_t;

/// got within `ulps` units in the last place of T of the reference r (NaN
/// where r is NaN, infinities exactly, results below T's normal range
/// measured in its smallest normal's ulp).
template <class T>
bool within_ulps(T got, long double r, double ulps) {
  if (std::isnan(r)) return std::isnan(got);
  if (std::isnan(got)) return false;
  const long double big = static_cast<long double>(std::numeric_limits<T>::max());
  if (std::fabs(r) > big * (1 + 1e-6L) || std::isinf(got)) return std::isinf(got) ? std::fabs(r) >= big : false;
  const int e = std::max(std::ilogb(static_cast<double>(r == 0 ? std::numeric_limits<T>::min() : r)),
                         std::numeric_limits<T>::min_exponent - 1);
  const long double ulp = std::ldexp(1.0L, e - std::numeric_limits<T>::digits + 1);
  return std::fabs(static_cast<long double>(got) - r) <= ulps * ulp;
}

/// Every element of got against c's reference on `in`; reports the first miss.
template <class T>
void check_values(const fn_case& c, const std::vector<T>& in, const std::vector<T>& got, const char* where) {
  REQUIRE(got.size() == in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const long double r = c.ref(static_cast<long double>(in[i]));
    if (!within_ulps<T>(got[i], r, 4.0)) {
      INFO(where, " ", c.name, (sizeof(T) == 4 ? " f32" : " f64"), " x=", static_cast<double>(in[i]),
           " got=", static_cast<double>(got[i]), " want=", static_cast<double>(r));
      CHECK(false);
      return;
    }
  }
}

TEST_CASE("isa dispatch: the level, SINTER_ISA and where it is reported") {
  CHECK(d::isa_from_env(d::isa_level::avx512, "avx2") == d::isa_level::avx2);
  CHECK(d::isa_from_env(d::isa_level::avx512, "sse2") == d::isa_level::sse2);
  CHECK(d::isa_from_env(d::isa_level::avx2, "avx512") == d::isa_level::avx2);  // never raised
  CHECK(d::isa_from_env(d::isa_level::avx2, "avx9") == d::isa_level::avx2);
  CHECK(d::isa_from_env(d::isa_level::sse2, nullptr) == d::isa_level::sse2);
  const d::isa_level level = d::host_isa();
  CHECK(static_cast<int>(level) <= static_cast<int>(d::detect_isa()));
  if (const char* env = std::getenv("SINTER_ISA")) {
    if (static_cast<int>(d::isa_from_env(d::isa_level::avx512, env)) <= static_cast<int>(d::detect_isa()))
      CHECK(std::string(st::host_isa_name()) == env);
  }
  CHECK(st::cpu_dispatch == (SINTER_CPU_DISPATCH != 0));
  const std::string cpu = st::devices().at(0).name;
  CHECK(cpu.find(std::string("maths ") + d::isa_name(level)) != std::string::npos);

  // The launch log: a maths pass says it was dispatched, and at which level.
  st::array<double, 1> x({1001}), y({1001});
  x = st::linspace(0.5, 3.0, 1001);
  st::trace_scope t;
  y = st::log(x) * 2.0;
  REQUIRE(t.passes().size() == 1);
  const std::string detail = t.passes()[0].detail;
  // Above sse2 the kernel runs dispatched; at sse2 the double log is the C
  // library's (dispatch.hpp, libm_at_sse2_v).
  const std::string note = std::string(", maths ") + d::isa_name(level) +
                           (level == d::isa_level::sse2 ? " (C library)" : " (dispatched)");
  if (SINTER_DETAIL_DISPATCH_LANES) CHECK(detail.find(note) != std::string::npos);
  else CHECK(detail.find("maths") == std::string::npos);  // no dispatch, or Clang's (trigonometry only)
  CHECK(y(7) == doctest::Approx(2 * std::log(x(7))).epsilon(1e-15));
}

TEST_CASE("isa dispatch: every function at the process's level, odd sizes") {
  for (const fn_case& c : isa_cases::cases()) {
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{17}, std::size_t{511},
                                std::size_t{512}, std::size_t{513}, isa_cases::case_size}) {
      const auto inf = isa_cases::inputs<float>(c, n, n + 3);
      check_values(c, inf, isa_cases::run(c, inf), "array");
      const auto ind = isa_cases::inputs<double>(c, n, n + 3);
      check_values(c, ind, isa_cases::run(c, ind), "array");
    }
  }
}

TEST_CASE("isa dispatch: views, a strided output and a tree of several functions") {
  constexpr index_t n = 1031;  // prime: partial tiles and vectors
  const fn_case& erfc = isa_cases::cases().back();
  const auto in = isa_cases::inputs<double>(erfc, 2 * n + 1, 5);
  st::array<double, 1> x({2 * n + 1}), o({2 * n + 1});
  for (index_t i = 0; i < 2 * n + 1; ++i) x(i) = in[static_cast<std::size_t>(i)];
  o = 0.0;
  // Step 2 in (from 1), reversed in, and the output at step 2: the
  // step-2 and buffered routes, which run the contiguous loop on rows.
  o(st::slice(0, 2 * n, 2)) = st::erfc(x(st::slice(1, st::end, 2))) + st::exp(-st::abs(x(st::slice(2 * n, 0, -2))));
  for (index_t i = 0; i < n; ++i) {
    const long double a = in[static_cast<std::size_t>(2 * i + 1)], b = in[static_cast<std::size_t>(2 * n - 2 * i)];
    const long double want = std::erfc(a) + std::exp(-std::fabs(b));
    REQUIRE(within_ulps<double>(o(2 * i), want, 8.0));
    REQUIRE(o(2 * i + 1) == 0.0);
  }
  // Nested functions of float, with arithmetic between them, a scalar and
  // a 2-D operand broadcast along rows.
  st::array<float, 2> m({37, 29}), r({37, 29});
  st::array<float, 1> row({29});
  for (index_t i = 0; i < 37; ++i)
    for (index_t j = 0; j < 29; ++j) m(i, j) = static_cast<float>(i - 18) * 0.25f + static_cast<float>(j) * 0.01f;
  for (index_t j = 0; j < 29; ++j) row(j) = 1.0f + static_cast<float>(j) * 0.5f;
  r = st::tanh(st::log(st::exp(m) + row) * 0.5f) - st::erf(m);
  for (index_t i = 0; i < 37; ++i)
    for (index_t j = 0; j < 29; ++j) {
      const long double v = m(i, j);
      const long double want = std::tanh(std::log(std::exp(v) + row(j)) * 0.5L) - std::erf(v);
      REQUIRE(std::fabs(r(i, j) - want) <= 4e-7L * (1 + std::fabs(want)));
    }
}

TEST_CASE("isa dispatch: Black-Scholes in one tied pass, its shared subexpressions dispatched too") {
  constexpr index_t n = 1031;
  st::array<double, 1> s({n}), k({n}), t({n}), call({n}), put({n});
  for (index_t i = 0; i < n; ++i) {
    s(i) = 5.0 + 25.0 * static_cast<double>((i * 37) % n) / static_cast<double>(n);
    k(i) = 1.0 + 99.0 * static_cast<double>((i * 91) % n) / static_cast<double>(n);
    t(i) = 0.25 + 9.75 * static_cast<double>((i * 53) % n) / static_cast<double>(n);
  }
  const double v = 0.3, r = 0.02, c = 0.70710678118654752440;
  const auto vs = st::sqrt(t) * v;
  const auto d1 = (st::log(s / k) + t * (r + 0.5 * v * v)) / vs;
  const auto d2 = d1 - vs;
  const auto ke = k * st::exp(t * -r);
  st::trace_scope tr;
  st::tie(call, put) = std::tuple(s * 0.5 * st::erfc(d1 * -c) - ke * 0.5 * st::erfc(d2 * -c),
                                  ke * 0.5 * st::erfc(d2 * c) - s * 0.5 * st::erfc(d1 * c));
  REQUIRE(tr.passes().size() == 1);
  if (SINTER_DETAIL_DISPATCH_LANES)
    CHECK(tr.passes()[0].detail.find(std::string(", maths ") + st::host_isa_name()) != std::string::npos);
  for (index_t i = 0; i < n; ++i) {
    const long double S = s(i), K = k(i), T = t(i), VS = 0.3L * std::sqrt(T);
    const long double D1 = (std::log(S / K) + (0.02L + 0.045L) * T) / VS, D2 = D1 - VS;
    const long double KE = K * std::exp(-0.02L * T), rs = 0.70710678118654752440L;
    const long double want_c = S * 0.5L * std::erfc(-D1 * rs) - KE * 0.5L * std::erfc(-D2 * rs);
    const long double want_p = KE * 0.5L * std::erfc(D2 * rs) - S * 0.5L * std::erfc(D1 * rs);
    REQUIRE(std::fabs(call(i) - want_c) <= 1e-12L * (1 + S + K));
    REQUIRE(std::fabs(put(i) - want_p) <= 1e-12L * (1 + S + K));
  }
}

#if SINTER_CPU_DISPATCH
/// The tile kernels of every level the CPU has, called directly: against
/// the reference, and bit for bit against each other (the same kernels,
/// fused alike, on vectors of both widths).
template <class F>
void direct_case(const fn_case& c) {
  for (const bool dbl : {false, true}) {
    const auto run_level = [&](d::dispatch::tile_fn k, auto tag) {
      using T = decltype(tag);
      auto v = isa_cases::inputs<T>(c, isa_cases::case_size, 9);
      for (std::size_t at = 0; at < v.size(); at += d::dispatch::tile)
        k(v.data() + at, static_cast<index_t>(std::min<std::size_t>(d::dispatch::tile, v.size() - at)));
      check_values(c, isa_cases::inputs<T>(c, isa_cases::case_size, 9), v, "direct");
      return isa_cases::hash(v);
    };
    const auto both = [&](auto tag) {
      using T = decltype(tag);
      const auto h2 = run_level(&d::dispatch::tile_avx2<F, T>, tag);
      if (d::detect_isa() == d::isa_level::avx512) CHECK(run_level(&d::dispatch::tile_avx512<F, T>, tag) == h2);
    };
    if (dbl) both(double{});
    else both(float{});
  }
}

TEST_CASE("isa dispatch: the tile kernels of every level the CPU has") {
  if (d::detect_isa() == d::isa_level::sse2) return;
  std::size_t k = 0;
#if SINTER_DETAIL_DISPATCH_LANES
#define ISA_DIRECT(op, fk, fl, dk, pairs) direct_case<d::ops::op>(isa_cases::cases().at(k++));
  SINTER_DETAIL_LANE_KERNEL_OPS(ISA_DIRECT)
#undef ISA_DIRECT
#else
  k = isa_cases::cases().size() - 6;  // Clang: the trigonometric functions only
#endif
#define ISA_DIRECT_AUTO(op) direct_case<d::ops::op>(isa_cases::cases().at(k++));
  SINTER_DETAIL_DISPATCH_AUTO_OPS(ISA_DIRECT_AUTO)
#undef ISA_DIRECT_AUTO
  CHECK(k == isa_cases::cases().size());
}
#endif

#if SINTER_CPU_DISPATCH
/// At level sse2, op F of T through an array pass: the C library's bits
/// where libm_at_sse2_v says so, else sinter's own function's.
template <class F, class T>
void sse2_case(const fn_case& c) {
  const auto in = isa_cases::inputs<T>(c, 1031, 4);
  const auto got = isa_cases::run(c, in);
  for (std::size_t i = 0; i < in.size(); ++i) {
    const T want = d::dispatch::libm_at_sse2_v<F, T> ? d::dispatch::libm_call<F>(in[i]) : F::apply(in[i]);
    const bool same = std::memcmp(&got[i], &want, sizeof(T)) == 0;
    if (!same) {
      INFO(c.name, (sizeof(T) == 4 ? " f32" : " f64"), " x=", static_cast<double>(in[i]));
      CHECK(same);
      return;
    }
  }
}

TEST_CASE("isa dispatch: level sse2 takes the C library's trigonometry where it is faster") {
  // The measured choice (docs/journal/2026-12-05-trig-dispatch.md).
  CHECK(d::dispatch::libm_at_sse2_v<d::ops::sin, float>);
  CHECK(d::dispatch::libm_at_sse2_v<d::ops::atan, double>);
  CHECK(!d::dispatch::libm_at_sse2_v<d::ops::tan, float>);
  CHECK(d::dispatch::libm_at_sse2_v<d::ops::sin, double>);
  if (d::host_isa() != d::isa_level::sse2) return;
  std::size_t k = 0;
  const std::size_t first = isa_cases::cases().size() - 6;
#define ISA_SSE2_AUTO(op)                                            \
  sse2_case<d::ops::op, float>(isa_cases::cases().at(first + k));  \
  sse2_case<d::ops::op, double>(isa_cases::cases().at(first + k++));
  SINTER_DETAIL_DISPATCH_AUTO_OPS(ISA_SSE2_AUTO)
#undef ISA_SSE2_AUTO
  CHECK(k == 6);
  // The trace says which: float sin from the C library, float tan not.
  st::array<float, 1> x({100}), y({100});
  x = st::linspace(0.5f, 3.0f, 100);
  st::trace_scope t;
  y = st::sin(x);
  y = st::tan(x);
  REQUIRE(t.passes().size() == 2);
  CHECK(t.passes()[0].detail.find(", maths sse2 (C library)") != std::string::npos);
  CHECK(t.passes()[1].detail.find(", maths sse2") != std::string::npos);
  CHECK(t.passes()[1].detail.find("(C library)") == std::string::npos);
}
#endif

/// The reference program's output, or "" if it cannot run here.
std::string reference_lines(const char* path) {
  std::string out;
  if (FILE* p = popen(path, "r")) {
    char buf[256];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    if (pclose(p) != 0) out.clear();
  }
  return out;
}

TEST_CASE("isa dispatch: bit for bit the -march build of the same level") {
  const d::isa_level level = d::host_isa();
  const char* path = nullptr;
  if (level == d::isa_level::avx2) path = std::getenv("SINTER_ISA_REFERENCE_V3");
  if (level == d::isa_level::avx512) path = std::getenv("SINTER_ISA_REFERENCE_V4");
  if (!st::cpu_dispatch || !path) return;
  const std::string want = reference_lines(path);
  REQUIRE(!want.empty());
  const std::string got = isa_cases::hash_lines();
  // Line by line, so that a failure names the function; Clang dispatches
  // the trigonometric functions only (the last 6 cases, 12 lines).
  const std::size_t skip = SINTER_DETAIL_DISPATCH_LANES ? 0 : 2 * (isa_cases::cases().size() - 6);
  std::size_t a = 0, b = 0, line = 0;
  while (a < got.size() && b < want.size()) {
    const std::size_t ea = got.find('\n', a), eb = want.find('\n', b);
    if (line++ >= skip) CHECK(got.substr(a, ea - a) == want.substr(b, eb - b));
    a = ea + 1;
    b = eb + 1;
  }
  CHECK(a == got.size());
  CHECK(b == want.size());
  CHECK(line == 2 * isa_cases::cases().size());
}

}  // namespace isa_dispatch_test
