// The cuda policy end to end, compiled by nvcc into sinter_cuda_tests.
//
// Two kinds of cases:
//  - "no device needed": discovery, soft placement, the errors a missing
//    device produces (device_error / cuda_error with CUDA's own text), memory
//    accounting and limits. These run for real everywhere, including on the
//    GPU-less machines of development and CI.
//  - "device": kernels, transfers, printing, memory statistics. Each starts by
//    reporting "skipped: no CUDA device" where none answers; they are compiled
//    (warning-free, by nvcc) on every machine and run where a GPU is present.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <sinter/sinter.hpp>
#include <sstream>
#include <string>
#include <type_traits>

namespace st = sinter;
using st::index_t;

namespace test_cuda_policy {

/// Largest |x - ref| / max(|ref|, tiny) over two host arrays of one shape.
template <class T, std::size_t R>
double max_rel_err(const st::array<T, R>& x, const st::array<T, R>& ref) {
  REQUIRE(x.shape() == ref.shape());
  double worst = 0;
  auto r = ref.begin();
  for (const T& v : x) {
    const double a = static_cast<double>(static_cast<float>(v));
    const double b = static_cast<double>(static_cast<float>(*r++));
    if (std::isnan(a) && std::isnan(b)) continue;
    const double e = std::abs(a - b) / std::max(std::abs(b), 1e-30);
    worst = std::max(worst, std::isnan(e) ? 1e30 : e);
  }
  return worst;
}

/// Whether two host arrays (or views) hold the same values, in row-major order.
template <class A, class B>
bool same_values(const A& a, const B& b) {
  if (a.shape() != b.shape()) return false;
  auto j = b.begin();
  for (const auto& v : a)
    if (!(v == *j++)) return false;
  return true;
}

/// What `os << x` prints.
template <class X>
std::string printed(const X& x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

/// Restores the device-0 memory limit on scope exit.
struct limit_guard {
  ~limit_guard() { st::set_cuda_memory_limit(std::numeric_limits<std::size_t>::max(), 0); }
};

}  // namespace test_cuda_policy

// ---- no device needed -------------------------------------------------------

TEST_CASE("cuda: devices() lists the cpu first and says why there is no GPU") {
  using namespace test_cuda_policy;
  const auto devs = st::devices();
  REQUIRE(!devs.empty());
  CHECK(devs[0].kind == "cpu");
  CHECK(devs[0].units >= 1);
  CHECK(printed(devs[0]).rfind("cpu (", 0) == 0);
  index_t n_cuda = 0;
  for (const auto& d : devs)
    if (d.kind == "cuda") ++n_cuda;
  int runtime_count = 0;
  const cudaError_t e = cudaGetDeviceCount(&runtime_count);
  (void)cudaGetLastError();
  if (st::cuda_available()) {
    CHECK(e == cudaSuccess);
    CHECK(n_cuda == runtime_count);
    CHECK(st::cuda_unavailable_reason().empty());
  } else {
    CHECK(n_cuda == 0);
    const std::string reason = st::cuda_unavailable_reason();
    MESSAGE("no CUDA device: " << reason);
    REQUIRE(!reason.empty());
    if (e != cudaSuccess) {
      // The reason names the runtime's error, as the runtime itself does.
      CHECK(reason.find(cudaGetErrorName(e)) != std::string::npos);
      CHECK(reason.find(cudaGetErrorString(e)) != std::string::npos);
    } else {
      CHECK(reason.find("0 devices") != std::string::npos);
    }
    // Asked again: the cached census, the same answer.
    CHECK(st::cuda_unavailable_reason() == reason);
  }
}

TEST_CASE("cuda: dispatch passes cuda when a device answers, else par") {
  using namespace test_cuda_policy;
  const std::string chosen = st::dispatch([](auto pol) -> std::string {
    if constexpr (std::is_same_v<decltype(pol), st::cuda>) return "cuda";
    else if constexpr (std::is_same_v<decltype(pol), st::par>) return "par";
    else return "other";
  });
  CHECK(chosen == (st::cuda_available() ? "cuda" : "par"));
  // What f returns comes back; a generic f runs on the chosen policy.
  const float total = st::dispatch([](auto pol) {
    auto a = st::full<float>({1000}, 0.5f, pol);
    auto h = st::to<st::host>(a * 2.f);
    float s = 0;
    for (float v : h) s += v;
    return s;
  });
  CHECK(total == 1000.f);
}

TEST_CASE("cuda: without a device, asking for one throws device_error with the reason") {
  using namespace test_cuda_policy;
  if (st::cuda_available()) {
    MESSAGE("skipped: a CUDA device answers");
    return;
  }
  const std::string reason = st::cuda_unavailable_reason();
  auto contains_reason = [&](const st::device_error& e) {
    return std::string(e.what()).find(reason) != std::string::npos;
  };
  try {
    st::array<float, 1, st::cuda> a({16});
    FAIL("constructing a cuda array succeeded without a device");
  } catch (const st::device_error& e) {
    CHECK(contains_reason(e));
    CHECK(std::string(e.what()).find("cuda:0") != std::string::npos);
  }
  CHECK_THROWS_AS((st::array<float, 2, st::cuda>({2, 3}, st::cuda{1})), st::device_error);
  const st::array<float, 2> h = st::reshape(st::arange<float>(6), {2, 3});
  try {
    (void)st::to<st::cuda>(h);
    FAIL("to<cuda> succeeded without a device");
  } catch (const st::device_error& e) {
    CHECK(contains_reason(e));
  }
  CHECK_THROWS_AS((void)st::to<st::cuda>(h * 2.f, st::cuda{0}), st::device_error);
  CHECK_THROWS_AS(st::synchronize(st::cuda{}), st::cuda_error);
  // Empty arrays allocate nothing: no device is asked for.
  const st::array<float, 1, st::cuda> empty;
  CHECK(empty.size() == 0);
  CHECK(printed(empty) == "[]");
  CHECK(st::to<st::host>(empty).size() == 0);
  // The accounting saw nothing.
  CHECK(st::cuda_memory_stats(0).in_use == 0);
}

TEST_CASE("cuda: without a device, transfers and printing fail with CUDA's error text") {
  using namespace test_cuda_policy;
  if (st::cuda_available()) {
    MESSAGE("skipped: a CUDA device answers");
    return;
  }
  // A cuda view over memory the runtime cannot reach: the first runtime call
  // of each path fails, and the failure is reported, never ignored.
  float fake[8] = {};
  const st::view<float, 1, st::cuda> v(fake, {8});
  auto is_cuda_text = [](const st::cuda_error& e) {
    const std::string w = e.what();
    return e.code != 0 && w.find(": cudaError") != std::string::npos;
  };
  // Device -> host, contiguous: straight to the copy.
  try {
    (void)st::to<st::host>(v);
    FAIL("to<host> of device memory succeeded without a device");
  } catch (const st::cuda_error& e) {
    CHECK(is_cuda_text(e));
  }
  // Host -> device: one copy into the destination.
  const st::array<float, 1> h = st::arange<float>(8);
  try {
    st::copy(v, h);
    FAIL("copy to device memory succeeded without a device");
  } catch (const st::cuda_error& e) {
    CHECK(is_cuda_text(e));
  }
  // Strided source or destination: a device scratch buffer is needed first.
  CHECK_THROWS_AS((void)st::to<st::par>(v(st::slice(st::none, st::none, 2))), st::device_error);
  CHECK_THROWS_AS(st::copy(v(st::slice(st::none, st::none, -1)), h), st::device_error);
  CHECK_THROWS_AS(st::copy(v, h(st::slice(0, 1))), st::device_error);  // broadcast: a device pass
  // Printing: the fetch fails; an expression needs a device temporary.
  try {
    (void)printed(v);
    FAIL("printing device memory succeeded without a device");
  } catch (const st::cuda_error& e) {
    CHECK(is_cuda_text(e));
  }
  CHECK_THROWS_AS((void)st::to_string(v + 1.f), st::device_error);
  // Nothing was allocated along the way.
  CHECK(st::cuda_memory_stats(0).in_use == 0);
}

TEST_CASE("cuda: pool_accounting reserves, releases, tracks the peak and refuses past the limit") {
  using namespace test_cuda_policy;
  st::detail::pool_accounting acct;
  acct.set_limit(1000);
  acct.reserve(400, "cuda:0");
  acct.reserve(500, "cuda:0");
  auto s = acct.stats();
  CHECK(s.in_use == 900);
  CHECK(s.peak == 900);
  CHECK(s.limit == 1000);
  CHECK(s.cached == 0);
  try {
    acct.reserve(200, "cuda:0");
    FAIL("reserve past the limit succeeded");
  } catch (const st::out_of_memory& e) {
    CHECK(e.requested == 200);
    CHECK(e.available == 100);
    const std::string w = e.what();
    CHECK(w.find("cuda:0") != std::string::npos);
    CHECK(w.find("200") != std::string::npos);
  }
  // Refused: nothing changed.
  s = acct.stats();
  CHECK(s.in_use == 900);
  CHECK(s.peak == 900);
  acct.release(500);
  s = acct.stats();
  CHECK(s.in_use == 400);
  CHECK(s.peak == 900);
  acct.reset_peak();
  CHECK(acct.stats().peak == 400);
  acct.reserve(600, "cuda:0");  // exactly up to the limit
  CHECK(acct.stats().in_use == 1000);
  CHECK_THROWS_AS(acct.reserve(1, "cuda:0"), st::out_of_memory);
  // Lowering the limit under what is in use refuses any new reservation.
  acct.set_limit(10);
  try {
    acct.reserve(1, "cuda:0");
    FAIL("reserve under a lowered limit succeeded");
  } catch (const st::out_of_memory& e) {
    CHECK(e.available == 0);
  }
  acct.release(5000);  // more than in use: clamps at zero
  CHECK(acct.stats().in_use == 0);
  CHECK(acct.stats().peak == 1000);
  // out_of_memory is a sinter::error, hence a std::exception.
  CHECK_THROWS_AS(acct.reserve(11, "cuda:0"), st::error);
}

TEST_CASE("cuda: parse_memory_size and SINTER_CUDA_MEMORY_LIMIT") {
  using namespace test_cuda_policy;
  using st::detail::parse_memory_size;
  CHECK(parse_memory_size("123") == 123);
  CHECK(parse_memory_size("7B") == 7);
  CHECK(parse_memory_size("64K") == 64u << 10);
  CHECK(parse_memory_size("1KiB") == 1024);
  CHECK(parse_memory_size("512M") == std::size_t{512} << 20);
  CHECK(parse_memory_size("3MiB") == std::size_t{3} << 20);
  CHECK(parse_memory_size("4G") == std::size_t{4} << 30);
  CHECK(parse_memory_size("2GiB") == std::size_t{2} << 30);
  CHECK_THROWS_AS(parse_memory_size(""), st::value_error);
  CHECK_THROWS_AS(parse_memory_size("G"), st::value_error);
  CHECK_THROWS_AS(parse_memory_size("12X"), st::value_error);
  CHECK_THROWS_AS(parse_memory_size("4 G"), st::value_error);
  CHECK_THROWS_AS(parse_memory_size("4g"), st::value_error);
  CHECK_THROWS_AS(parse_memory_size("99999999999999G"), st::value_error);  // past size_t: refused, not wrapped
  try {
    (void)parse_memory_size("12T");
  } catch (const st::value_error& e) {
    CHECK(std::string(e.what()).find("'T'") != std::string::npos);
  }
  // The environment sets the limit of accounting created afterwards.
  const char* old = std::getenv("SINTER_CUDA_MEMORY_LIMIT");
  const std::string saved = old ? old : "";
  ::setenv("SINTER_CUDA_MEMORY_LIMIT", "256M", 1);
  CHECK(st::detail::pool_accounting().stats().limit == std::size_t{256} << 20);
  ::setenv("SINTER_CUDA_MEMORY_LIMIT", "lots", 1);
  CHECK_THROWS_AS(st::detail::pool_accounting(), st::value_error);
  if (old) ::setenv("SINTER_CUDA_MEMORY_LIMIT", saved.c_str(), 1);
  else ::unsetenv("SINTER_CUDA_MEMORY_LIMIT");
}

TEST_CASE("cuda: set_cuda_memory_limit sets the limit of one device") {
  using namespace test_cuda_policy;
  const limit_guard restore{};
  st::set_cuda_memory_limit(std::size_t{1} << 20);
  CHECK(st::detail::device_accounting(0).stats().limit == std::size_t{1} << 20);
  CHECK(st::cuda_memory_stats(0).limit == std::size_t{1} << 20);
  st::set_cuda_memory_limit(std::size_t{5} << 20, 3);
  CHECK(st::detail::device_accounting(3).stats().limit == std::size_t{5} << 20);
  CHECK(st::detail::device_accounting(0).stats().limit == std::size_t{1} << 20);
  st::set_cuda_memory_limit(std::numeric_limits<std::size_t>::max(), 3);
  CHECK_THROWS_AS(st::set_cuda_memory_limit(1, -1), st::device_error);
  CHECK_THROWS_AS(st::set_cuda_memory_limit(1, st::detail::max_cuda_devices), st::device_error);
}

TEST_CASE("cuda: allocation_registry finds the device and stream of any address inside a live allocation") {
  using namespace test_cuda_policy;
  st::detail::allocation_registry reg;
  alignas(64) static char mem[1024];  // addresses only; never dereferenced
  char* const base = mem + 64;
  auto* s1 = reinterpret_cast<CUstream_st*>(std::uintptr_t{0x1000});
  auto* s2 = reinterpret_cast<CUstream_st*>(std::uintptr_t{0x2000});
  reg.add(base, 256, {0, s1});
  reg.add(base + 256, 128, {3, s2});
  reg.add(base + 512, 0, {1, s1});  // empty: not recorded
  reg.add(nullptr, 64, {1, s1});    // nothing allocated: not recorded
  CHECK(reg.size() == 2);
  CHECK(!reg.find(mem + 63));  // just before
  for (const char* p : {base, base + 100, base + 255}) {
    const auto o = reg.find(p);
    REQUIRE(o);
    CHECK(o->device == 0);
    CHECK(o->stream == s1);
  }
  for (const char* p : {base + 256, base + 383}) {
    const auto o = reg.find(p);
    REQUIRE(o);
    CHECK(o->device == 3);
    CHECK(o->stream == s2);
  }
  CHECK(!reg.find(base + 384));  // one past the end
  CHECK(!reg.find(base + 512));
  reg.remove(base);
  CHECK(!reg.find(base + 100));
  CHECK(reg.find(base + 300));
  reg.remove(base + 256);
  CHECK(reg.size() == 0);
}

TEST_CASE("cuda: an expression's policy is its first array's device and stream") {
  using namespace test_cuda_policy;
  // expr_policy<cuda> reads the allocation registry, no device call: fake
  // "device" allocations (host addresses, never dereferenced) registered as
  // backend<cuda>::allocate does.
  alignas(64) static float mem_a[64], mem_b[64];
  auto* s = reinterpret_cast<CUstream_st*>(std::uintptr_t{0x5000});
  auto* s_other = reinterpret_cast<CUstream_st*>(std::uintptr_t{0x6000});
  auto& reg = st::detail::cuda_allocations();
  reg.add(mem_a, sizeof mem_a, {2, s});
  reg.add(mem_b, sizeof mem_b, {2, s_other});
  const st::view<float, 1, st::cuda> a(mem_a, {64}, st::cuda{2, s});
  const st::view<float, 1, st::cuda> b(mem_b, {64}, st::cuda{2, s_other});
  using st::detail::as_expr;
  using st::detail::expr_policy;
  CHECK(expr_policy<st::cuda>::get(as_expr(st::exp(a + b) * 2.f)) == st::cuda{2, s});
  CHECK(expr_policy<st::cuda>::get(as_expr(2.f * b + a)) == st::cuda{2, s_other});  // the first leaf's
  CHECK(expr_policy<st::cuda>::get(as_expr(a(st::slice(3, 40)) + 1.f)) == st::cuda{2, s});  // inside the allocation
  CHECK(expr_policy<st::cuda>::get(as_expr(a)) == st::cuda{2, s});
  reg.remove(mem_a);
  reg.remove(mem_b);
}

// ---- device -----------------------------------------------------------------

TEST_CASE("cuda: exp(a + b) * 2 is one kernel on cuda:0 and matches the host") {
  using namespace test_cuda_policy;
  if (!st::cuda_available()) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  const index_t n = 100003;  // not a multiple of the vector width: a scalar tail
  const st::array<float, 1> ha = st::linspace<float>(-3.f, 3.f, n);
  const st::array<float, 1> hb = st::arange<float>(n) * 1e-5f;
  const auto a = st::to<st::cuda>(ha);
  const auto b = st::to<st::cuda>(hb);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(a)>, st::array<float, 1, st::cuda>>);
  // The host's pass, for its expression label and as the reference.
  st::array<float, 1> ref({n});
  std::string host_label;
  {
    st::trace_scope t;
    ref = st::exp(ha + hb) * 2.f;
    REQUIRE(t.passes().size() == 1);
    host_label = t.passes()[0].expression;
  }
  st::array<float, 1, st::cuda> c({n});
  {
    st::trace_scope t;
    c = st::exp(a + b) * 2.f;
    st::synchronize(c.policy());
    const auto p = t.passes();
    REQUIRE(p.size() == 1);
    CHECK(p[0].policy == "cuda:0");
    CHECK(p[0].expression == host_label);  // one fused kernel for the whole expression
    CHECK(p[0].elements == n);
    CHECK(p[0].bytes_read == 2 * static_cast<std::size_t>(n) * sizeof(float));
    CHECK(p[0].detail.rfind("vector grid=", 0) == 0);
    CHECK(p[0].detail.find(" block=256") != std::string::npos);
    CHECK(t.allocations() == 0);
  }
  // CUDA's expf is within 2 ULP of the correctly rounded result.
  CHECK(max_rel_err(st::to<st::host>(c), ref) < 1e-6);
  // The same on a stream of its own.
  cudaStream_t s{};
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  {
    const st::cuda on_s{0, s};
    const auto as = st::to<st::cuda>(ha, on_s);
    const auto bs = st::to<st::cuda>(hb, on_s);
    st::array<float, 1, st::cuda> cs(st::exp(as + bs) * 2.f, on_s);
    CHECK(max_rel_err(st::to<st::host>(cs), ref) < 1e-6);
  }
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
}

TEST_CASE("cuda: an array used twice runs the dedup kernel and matches the host") {
  using namespace test_cuda_policy;
  if (!st::cuda_available()) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  // tanh(a*0.5+b)*d + sqrt(abs(a)) + 4 (the PTX proof's case 10, kept away
  // from 0 for a relative error): `a` is two leaves of one array, so the
  // launch takes the dedup kernel (3 loads per vector step; the grid
  // emulator test counts them); four arrays do not.
  const index_t n = 100003;
  const st::array<float, 1> ha = st::linspace<float>(-3.f, 3.f, n);
  const st::array<float, 1> hb = st::arange<float>(n) * 1e-5f;
  const st::array<float, 1> hd = st::linspace<float>(0.f, 2.f, n);
  const auto a = st::to<st::cuda>(ha);
  const auto b = st::to<st::cuda>(hb);
  const auto d = st::to<st::cuda>(hd);
  const st::array<float, 1> ref = st::tanh(ha * 0.5f + hb) * hd + st::sqrt(st::abs(ha)) + 4.f;
  st::array<float, 1, st::cuda> c({n});
  {
    st::trace_scope t;
    c = st::tanh(a * 0.5f + b) * d + st::sqrt(st::abs(a)) + 4.f;
    st::synchronize(c.policy());
    REQUIRE(t.passes().size() == 1);
    CHECK(t.passes()[0].detail.rfind("vector grid=", 0) == 0);
    CHECK(t.passes()[0].detail.find(" repeats=1") != std::string::npos);
  }
  CHECK(max_rel_err(st::to<st::host>(c), ref) < 1e-5);
  {
    st::trace_scope t;
    c = st::tanh(a * 0.5f + b) * d + st::sqrt(st::abs(b)) + 4.f;
    st::synchronize(c.policy());
    REQUIRE(t.passes().size() == 1);
    CHECK(t.passes()[0].detail.find(" repeats=") == std::string::npos);
  }
}

TEST_CASE("cuda: tie runs one kernel per output, through temporaries when an output is read") {
  using namespace test_cuda_policy;
  if (!st::cuda_available()) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  // sinter::tie on cuda arrays takes the general path (tie.hpp): each
  // output its own kernel, a swap through two temporaries; the values are
  // the host's.
  const index_t n = 100003;
  const st::array<float, 1> ha = st::linspace<float>(-3.f, 3.f, n);
  const st::array<float, 1> hb = st::arange<float>(n) * 1e-5f;
  auto a = st::to<st::cuda>(ha);
  auto b = st::to<st::cuda>(hb);
  st::array<float, 1, st::cuda> e({n}), f({n});
  {
    st::trace_scope t;
    st::tie(e, f) = std::tuple(st::exp(a + b) * 2.f, a - b);
    st::synchronize(e.policy());
    REQUIRE(t.passes().size() == 2);
    CHECK(t.passes()[0].policy == "cuda:0");
  }
  const st::array<float, 1> he = st::exp(ha + hb) * 2.f, hf = ha - hb;
  CHECK(max_rel_err(st::to<st::host>(e), he) < 1e-6);
  CHECK(max_rel_err(st::to<st::host>(f), hf) < 1e-6);
  {
    st::trace_scope t;
    st::tie(a, b) = std::tie(b, a);
    st::synchronize(a.policy());
    CHECK(t.passes().size() == 4);
  }
  CHECK(max_rel_err(st::to<st::host>(a), hb) == 0);
  CHECK(max_rel_err(st::to<st::host>(b), ha) == 0);
}

TEST_CASE("cuda: expressions and copies of arrays on user streams are ordered on those streams") {
  using namespace test_cuda_policy;
  if (!st::cuda_available()) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  // Non-blocking streams: nothing orders them with the legacy default stream,
  // so a pass on the wrong stream would read unfinished data.
  cudaStream_t s{}, s2{};
  REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
  REQUIRE(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking) == cudaSuccess);
  {
    const index_t n = index_t{1} << 22;
    const st::cuda on_s{0, s}, on_s2{0, s2};
    st::array<float, 1, st::cuda> a({n}, on_s), b({n}, on_s);
    a = st::linspace<float>(0.f, 1.f, n);  // queued on s
    b = st::sqrt(a) * 2.f + a;
    CHECK(st::detail::expr_policy<st::cuda>::get(st::detail::as_expr(a + b)) == on_s);
    // to<host> of an expression: its pass and the copy run on s, after a and b.
    const auto h = st::to<st::host>(a * 3.f + b);
    const st::array<float, 1> ha = st::linspace<float>(0.f, 1.f, n);
    const st::array<float, 1> ref = ha * 3.f + (st::sqrt(ha) * 2.f + ha);
    CHECK(max_rel_err(h, ref) < 1e-5);
    // A same-device copy from s to s2: s2 waits for s, then s waits for the
    // copy, so the source freed on s right after is not reused while read.
    st::array<float, 1, st::cuda> d({n}, on_s2);
    {
      const st::array<float, 1, st::cuda> tmp(a + 1.f, on_s);
      st::copy(d, tmp);
    }
    st::array<float, 1, st::cuda> reuse({n}, on_s);  // may take tmp's block
    reuse = 0.f;
    const st::array<float, 1> ref_d = ha + 1.f;
    CHECK(max_rel_err(st::to<st::host>(d), ref_d) < 1e-6);
    const auto reuse_h = st::to<st::host>(reuse);
    CHECK(reuse_h(n - 1) == 0.f);
  }
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaStreamDestroy(s2) == cudaSuccess);
}

TEST_CASE("cuda: strided views, broadcasting and misaligned operands on the device") {
  using namespace test_cuda_policy;
  if (!st::cuda_available()) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  const st::array<float, 2> hm = st::reshape(st::arange<float>(64 * 33), {64, 33});
  const st::array<float, 1> hrow = st::arange<float>(33) * 0.5f;
  const auto m = st::to<st::cuda>(hm);
  const auto row = st::to<st::cuda>(hrow);
  // Every other row, columns reversed, plus a broadcast row: the strided path.
  {
    st::trace_scope t;
    const st::array<float, 2, st::cuda> out =
        m(st::slice(0, st::none, 2), st::slice(st::none, st::none, -1)) + row;
    const st::array<float, 2> ref = hm(st::slice(0, st::none, 2), st::slice(st::none, st::none, -1)) + hrow;
    CHECK(same_values(st::to<st::host>(out), ref));
    REQUIRE(t.passes().size() >= 1);
    CHECK(t.passes()[0].detail.rfind("strided", 0) == 0);
  }
  // A transpose and a column broadcast (stride 0 along rows).
  {
    const st::array<float, 2, st::cuda> out = st::transpose(m) * m(st::all, 0)(st::newaxis, st::all);
    const st::array<float, 2> ref = st::transpose(hm) * hm(st::all, 0)(st::newaxis, st::all);
    CHECK(same_values(st::to<st::host>(out), ref));
  }
  // Misaligned by one element: contiguous but not vector aligned.
  {
    const auto flat = st::to<st::cuda>(st::arange<float>(1001));
    st::array<float, 1, st::cuda> mis({1000});
    st::trace_scope t;
    mis = flat(st::slice(1, st::none)) * 3.f;
    REQUIRE(t.passes().size() == 1);
    CHECK(t.passes()[0].detail.rfind("contiguous", 0) == 0);
    const st::array<float, 1> ref = st::arange<float>(1, 1001) * 3.f;
    CHECK(same_values(st::to<st::host>(mis), ref));
  }
  // A strided destination: every other column of a device array.
  {
    st::array<int, 2, st::cuda> dst = st::zeros<int>({4, 6}, st::cuda{});
    dst(st::all, st::slice(0, st::none, 2)) = st::reshape(st::arange<int>(12), {4, 3});
    st::array<int, 2> ref = st::zeros<int>({4, 6});
    ref(st::all, st::slice(0, st::none, 2)) = st::reshape(st::arange<int>(12), {4, 3});
    CHECK(same_values(st::to<st::host>(dst), ref));
    // Aliasing on the device: reversing in place takes a temporary, as on the host.
    dst = dst(st::all, st::slice(st::none, st::none, -1));
    ref = ref(st::all, st::slice(st::none, st::none, -1));
    CHECK(same_values(st::to<st::host>(dst), ref));
  }
  // Integer division by zero and bool results behave as on the host.
  {
    const st::array<int, 1> hi = st::arange<int>(-5, 5);
    const auto di = st::to<st::cuda>(hi);
    const st::array<int, 1, st::cuda> q = di / (di % 3);
    const st::array<bool, 1, st::cuda> pos = di > 0;
    const st::array<int, 1> qref = hi / (hi % 3);
    const st::array<bool, 1> pref = hi > 0;
    CHECK(same_values(st::to<st::host>(q), qref));
    CHECK(same_values(st::to<st::host>(pos), pref));
  }
}

TEST_CASE("cuda: half and bfloat16 on the device") {
  using namespace test_cuda_policy;
  if (!st::cuda_available()) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  const st::array<float, 1> hf = st::linspace<float>(-4.f, 4.f, 1001);
  const st::array<st::half, 1> hh = st::cast<st::half>(hf);
  const st::array<st::bfloat16, 1> hb = st::cast<st::bfloat16>(hf);
  const auto dh = st::to<st::cuda>(hh);
  const auto db = st::to<st::cuda>(hb);
  // Storage round trip is exact.
  CHECK(same_values(st::to<st::host>(dh), hh));
  CHECK(same_values(st::to<st::host>(db), hb));
  // Arithmetic computes in float and rounds once to the storage type.
  const st::array<st::half, 1, st::cuda> rh = dh * dh + st::abs(dh);
  const st::array<st::half, 1> rh_ref = hh * hh + st::abs(hh);
  CHECK(max_rel_err(st::to<st::host>(rh), rh_ref) <= 2e-3);  // one half ULP (FMA contraction)
  const st::array<st::bfloat16, 1, st::cuda> rb = st::sqrt(st::abs(db)) - db;
  const st::array<st::bfloat16, 1> rb_ref = st::sqrt(st::abs(hb)) - hb;
  CHECK(max_rel_err(st::to<st::host>(rb), rb_ref) <= 1e-2);  // one bfloat16 ULP
  // half + bfloat16 promotes to float.
  const auto mixed = st::to<st::host>(dh + db);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(mixed)>, st::array<float, 1, st::host>>);
  const st::array<float, 1> mixed_ref = hh + hb;
  CHECK(same_values(mixed, mixed_ref));
  // Conversions on the transfer itself: a half device array copied into float host memory.
  st::array<float, 1> widened({1001});
  st::copy(widened, dh);
  const st::array<float, 1> widened_ref = st::cast<float>(hh);
  CHECK(same_values(widened, widened_ref));
}

TEST_CASE("cuda: map with a __host__ __device__ lambda") {
  using namespace test_cuda_policy;
  if (!st::cuda_available()) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  const st::array<float, 1> hx = st::linspace<float>(-1.f, 1.f, 4099);
  const st::array<float, 1> hy = st::arange<float>(4099) * 1e-3f - 2.f;
  const auto x = st::to<st::cuda>(hx);
  const auto y = st::to<st::cuda>(hy);
  const float k = 3.f;  // captured by value: the closure stays trivially copyable
  auto f = [k] __host__ __device__(float a, float b) { return a > b ? k * (a - b) : 0.f; };
  st::trace_scope t;
  const st::array<float, 1, st::cuda> r = st::map(f, x, y) + 1.f;
  REQUIRE(t.passes().size() == 1);
  CHECK(t.passes()[0].expression.find("map(") != std::string::npos);
  const st::array<float, 1> ref = st::map(f, hx, hy) + 1.f;
  CHECK(same_values(st::to<st::host>(r), ref));
}

TEST_CASE("cuda: transfers round trip through any strides, broadcasts and types") {
  using namespace test_cuda_policy;
  if (!st::cuda_available()) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  const st::array<float, 2> h = st::reshape(st::arange<float>(5 * 7), {5, 7});
  // Contiguous both ways: one copy each, no pass.
  {
    st::trace_scope t;
    const auto d = st::to<st::cuda>(h);
    const auto back = st::to<st::host>(d);
    CHECK(t.passes().empty());
    CHECK(same_values(back, h));
    CHECK(back.data() != h.data());
  }
  // A strided host source (a host pass into a staging buffer first), a strided
  // device source back (a device pass first).
  {
    const auto dt = st::to<st::cuda>(st::transpose(h));
    CHECK(dt.shape() == st::extents<2>{7, 5});
    const auto back = st::to<st::host>(st::transpose(dt));
    CHECK(same_values(back, h));
    const auto rev = st::to<st::par>(dt(st::slice(st::none, st::none, -2), st::slice(1, 4)));
    static_assert(std::is_same_v<std::remove_cvref_t<decltype(rev)>, st::array<float, 2, st::par>>);
    const st::array<float, 2> rev_ref = st::transpose(h)(st::slice(st::none, st::none, -2), st::slice(1, 4));
    CHECK(same_values(rev, rev_ref));
  }
  // Expressions on either side are evaluated where they live.
  {
    const auto d = st::to<st::cuda>(h * 2.f + 1.f);
    const auto back = st::to<st::host>(st::sqrt(d));
    const st::array<float, 2> ref = st::sqrt(h * 2.f + 1.f);
    CHECK(max_rel_err(back, ref) < 1e-6);
  }
  // copy: into strided device views, broadcasting a host row, converting int to float.
  {
    st::array<float, 2, st::cuda> d = st::zeros<float>({5, 7}, st::cuda{});
    const st::array<int, 1> row = st::arange<int>(100, 107);
    st::copy(d(st::slice(1, st::none, 2), st::all), row);
    st::copy(d(0, st::slice(st::none, st::none, -1)), h(4, st::all));
    st::array<float, 2> ref = st::zeros<float>({5, 7});
    ref(st::slice(1, st::none, 2), st::all) = row;
    ref(0, st::slice(st::none, st::none, -1)) = h(4, st::all);
    CHECK(same_values(st::to<st::host>(d), ref));
    // Device -> strided host view, converting float to double, broadcasting a device column.
    st::array<double, 2> hd = st::zeros<double>({5, 7});
    st::copy(hd(st::all, st::slice(st::none, st::none, 3)), d(st::all, 2)(st::all, st::newaxis));
    st::array<double, 2> hd_ref = st::zeros<double>({5, 7});
    hd_ref(st::all, st::slice(st::none, st::none, 3)) = ref(st::all, 2)(st::all, st::newaxis);
    CHECK(same_values(hd, hd_ref));
    // The destination keeps its shape.
    CHECK_THROWS_AS(st::copy(d, st::zeros<float>({7, 5})), st::shape_error);
    CHECK_THROWS_AS(st::copy(hd, d(st::all, st::slice(0, 3))), st::shape_error);
    // A scalar fill is one device pass.
    st::copy(d(st::all, 0), 9.f);
    const auto col = st::to<st::host>(d(st::all, 0));
    CHECK(col(3) == 9.f);
  }
  // cuda -> cuda on one device: a deep copy by one kernel reading the source.
  {
    const auto d = st::to<st::cuda>(h);
    st::trace_scope t;
    const auto d2 = st::to<st::cuda>(d(st::all, st::slice(st::none, st::none, -1)));
    REQUIRE(t.passes().size() == 1);
    CHECK(t.passes()[0].policy == "cuda:0");
    CHECK(d2.data() != d.data());
    const st::array<float, 2> ref = h(st::all, st::slice(st::none, st::none, -1));
    CHECK(same_values(st::to<st::host>(d2), ref));
  }
  // Across devices, where there are two.
  if (st::devices().size() >= 3) {
    const auto d0 = st::to<st::cuda>(h, st::cuda{0});
    const auto d1 = st::to<st::cuda>(st::transpose(d0), st::cuda{1});
    CHECK(d1.policy().device == 1);
    CHECK(same_values(st::to<st::host>(st::transpose(d1)), h));
    st::array<float, 2, st::cuda> d1b = st::zeros<float>({5, 7}, st::cuda{1});
    st::copy(d1b, d0 + 1.f);
    const st::array<float, 2> ref = h + 1.f;
    CHECK(same_values(st::to<st::host>(d1b), ref));
  }
  // Empty arrays.
  const st::array<float, 2> z(st::extents<2>{0, 3});
  CHECK(st::to<st::host>(st::to<st::cuda>(z)).shape() == st::extents<2>{0, 3});
}

TEST_CASE("cuda: printing device memory shows what printing its host copy shows") {
  using namespace test_cuda_policy;
  if (!st::cuda_available()) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  // Small: copied at once.
  const st::array<float, 2> small = st::reshape(st::arange<float>(12), {3, 4}) * 0.25f;
  const auto dsmall = st::to<st::cuda>(small);
  CHECK(printed(dsmall) == printed(small));
  CHECK(printed(dsmall(st::all, st::slice(st::none, st::none, -2))) ==
        printed(small(st::all, st::slice(st::none, st::none, -2))));
  // Large: summarised, only the shown elements fetched (contiguous and strided).
  const st::array<double, 2> big = st::reshape(st::arange<double>(200 * 300), {200, 300}) / 7.0;
  const auto dbig = st::to<st::cuda>(big);
  CHECK(printed(dbig) == printed(big));
  CHECK(printed(st::transpose(dbig)) == printed(st::transpose(big)));
  CHECK(printed(dbig(st::slice(st::none, st::none, -3), st::all)) ==
        printed(big(st::slice(st::none, st::none, -3), st::all)));
  const st::array<int, 3> cube = st::reshape(st::arange<int>(20 * 30 * 40), {20, 30, 40});
  const auto dcube = st::to<st::cuda>(cube);
  CHECK(printed(dcube) == printed(cube));
  // Expressions are evaluated on the device first.
  CHECK(printed(dbig > 1000.0) == printed(big > 1000.0));
  CHECK(st::to_string(dsmall * 2.f) == st::to_string(small * 2.f));
  // bool, half, and the options.
  const st::array<bool, 1> flags = st::arange<int>(2000) % 3 == 0;
  CHECK(printed(st::to<st::cuda>(flags)) == printed(flags));
  const st::array<st::half, 1> hh = st::cast<st::half>(st::linspace<float>(0.f, 1.f, 7));
  CHECK(printed(st::to<st::cuda>(hh)) == printed(hh));
  st::print_options o;
  o.threshold = 5;
  o.edgeitems = 1;
  o.precision = 3;
  CHECK(st::to_string(dsmall, o) == st::to_string(small, o));
  CHECK(st::to_string(dcube, o) == st::to_string(cube, o));
}

TEST_CASE("cuda: memory statistics, and out_of_memory leaves every array intact") {
  using namespace test_cuda_policy;
  if (!st::cuda_available()) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  const limit_guard restore{};
  const st::memory_stats s0 = st::cuda_memory_stats(0);
  const std::size_t mib = std::size_t{1} << 20;
  {
    const st::array<float, 1, st::cuda> a({static_cast<index_t>(mib)});  // 4 MiB
    const st::memory_stats s1 = st::cuda_memory_stats(0);
    CHECK(s1.in_use == s0.in_use + 4 * mib);
    CHECK(s1.peak >= s1.in_use);
  }
  st::synchronize(st::cuda{});
  const st::memory_stats s2 = st::cuda_memory_stats(0);
  CHECK(s2.in_use == s0.in_use);
  CHECK(s2.peak >= s0.in_use + 4 * mib);
  CHECK(s2.cached >= 4 * mib);  // the pool keeps freed blocks

  const st::array<float, 1> hk = st::arange<float>(1000);
  auto kept = st::to<st::cuda>(hk);
  st::set_cuda_memory_limit(st::cuda_memory_stats(0).in_use + mib);
  const std::size_t in_use = st::cuda_memory_stats(0).in_use;
  try {
    st::array<float, 1, st::cuda> too_big({static_cast<index_t>(mib)});
    FAIL("allocation past the limit succeeded");
  } catch (const st::out_of_memory& e) {
    CHECK(e.requested == 4 * mib);
    CHECK(e.available == mib);
  }
  CHECK(st::cuda_memory_stats(0).in_use == in_use);
  // An assignment that needs a temporary past the limit fails before writing.
  const auto n_big = static_cast<index_t>(mib * 3 / 16);  // 768 KiB of the 1 MiB: no room for a copy
  st::array<float, 1, st::cuda> big({n_big});
  big = 1.f;
  CHECK_THROWS_AS(big = big(st::slice(st::none, st::none, -1)) + 1.f, st::out_of_memory);
  CHECK_THROWS_AS((void)st::to<st::cuda>(st::full<float>({1 << 20}, 2.f)), st::out_of_memory);
  // Everything that existed is intact and usable.
  CHECK(same_values(st::to<st::host>(kept), hk));
  const auto hbig = st::to<st::host>(big);
  CHECK(hbig(0) == 1.f);
  CHECK(hbig(n_big - 1) == 1.f);
  kept = kept * 2.f;
  const auto hkept = st::to<st::host>(kept);
  CHECK(hkept(999) == 1998.f);
}
