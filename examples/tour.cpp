// A tour of sinter: lazy expressions fused into one pass, slicing,
// broadcasting, printing, a user function, two outputs from one pass — on
// the GPU when one answers, else on the CPU's thread pool. Run it: see
// README ("Run the tour"). No arguments.
#include <sinter/sinter.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <vector>

namespace st = sinter;

// The larger of two errors; a NaN wins, so that it fails the check.
double worse(double a, double b) { return std::isnan(a) || a > b ? a : b; }

// The same code for every policy: P is st::cuda or st::par. Returns
// whether c matches a plain double loop.
template <class P>
bool tour(P policy) {
  const st::index_t n = 1 << 20;

  // linspace and full: a is computed on the device from a lazy generator.
  st::array<float, 1, P> a(st::linspace<float>(-1, 1, n), policy);
  st::array<float, 1, P> b = st::full<float>({n}, 0.5f, policy);

  // The classic GPU-tutorial expression: nothing runs here...
  auto e = st::exp(a + b) * 2.0f;
  // ...and this assignment is ONE pass (one kernel on a GPU): a and b read
  // once, c written once, no temporaries.
  st::trace_scope trace;
  st::array<float, 1, P> c(e, policy);
  std::cout << "c = exp(a + b) * 2 ->\n" << c << "\n";
  for (const auto& pass : trace.passes())
    std::printf("  one pass on %s: %s, %lld elements, %zu bytes read, %zu written (%s)\n",
                pass.policy.c_str(), pass.expression.c_str(), static_cast<long long>(pass.elements),
                pass.bytes_read, pass.bytes_written, pass.detail.c_str());

  // Checked against a plain loop: copy c back to host memory first.
  std::vector<float> got(static_cast<std::size_t>(n));
  st::copy(st::as_view(got), c);
  double worst = 0;
  for (st::index_t i = 0; i < n; ++i) {
    const double want = 2 * std::exp(-1 + 2 * static_cast<double>(i) / (n - 1) + 0.5);
    worst = worse(worst, std::fabs(got[static_cast<std::size_t>(i)] - want) / want);
  }
  std::printf("  largest relative error against a double loop: %.2g\n", worst);

  // Slicing: views write into their parent. One Jacobi smoothing step; the
  // right side reads u shifted, so it is evaluated before u is written.
  st::array<double, 1, P> u = st::to<P>(st::asarray<double>({0, 1, 0, 1, 0, 1, 0, 1}), policy);
  u(st::slice(1, -1)) = 0.5 * (u(st::slice(0, -2)) + u(st::slice(2, st::end)));
  std::cout << "\nsmoothed u =\n" << u << "\n";

  // Broadcasting, numpy rules: a row over a matrix, then ReLU with where.
  st::array<float, 2, P> m(st::reshape(st::arange<float>(-6, 6), {3, 4}), policy);
  st::array<float, 1, P> bias = st::to<P>(st::asarray<float>({0.5f, -0.5f, 1.f, -1.f}), policy);
  m = st::where(m + bias > 0.f, m + bias, 0.f);
  std::cout << "\nrelu(m + bias) =\n" << m << "\n";

  // A user function, fused like the built-ins (SINTER_HD: host and device).
  auto leaky = [] SINTER_HD(float x) { return x > 1.f ? x * x : 0.1f * x; };
  st::array<float, 2, P> s(st::map(leaky, m - 1.f), policy);
  std::cout << "\nleaky(m - 1) =\n" << s << "\n";

  // Two outputs from one pass: sinter::tie. On the CPU the inputs are read
  // once and the sqrt written twice is computed once per element.
  st::array<float, 1, P> lo({n}, policy), hi({n}, policy);
  const auto r = st::sqrt(st::abs(a)) * 0.5f;
  st::trace_scope tied;
  st::tie(lo, hi) = std::tuple(b - r, b + r);
  std::cout << "\nb -/+ sqrt(|a|) / 2 ->\n" << lo << "\n" << hi << "\n";
  for (const auto& pass : tied.passes()) std::printf("  pass on %s: %s\n", pass.policy.c_str(), pass.detail.c_str());
  return worst < 1e-6;  // float: a few roundings of about 6e-8 each
}

int main(int argc, char** argv) {
  if (argc > 1) {
    std::fprintf(stderr, "usage: %s\n  (no arguments: lists the devices and runs the tour)\n", argv[0]);
    return 2;
  }
  std::cout << "devices:\n";
  for (const auto& d : st::devices()) std::cout << "  " << d << "\n";
  if (!st::cuda_available())
    std::cout << "no GPU (" << st::cuda_unavailable_reason() << "): running on the CPU, "
              << st::get_num_threads() << " threads\n\n";
  else
    std::cout << "running on cuda:0\n\n";
  // Soft placement: tour(st::cuda{}) when a GPU answers, tour(st::par{}) otherwise.
  if (!st::dispatch([](auto policy) { return tour(policy); })) {
    std::fprintf(stderr, "tour: FAILED: c differs from the double loop\n");
    return 1;
  }
}
