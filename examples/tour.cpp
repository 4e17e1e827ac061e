// A tour of sinter: lazy expressions fused into one pass, slicing,
// broadcasting, printing, a user function. Run: see README ("Run the tour").
#include <sinter/sinter.hpp>

#include <cstdio>
#include <iostream>

namespace st = sinter;

int main() {
  // The policy is part of the type: par runs each pass over all cores.
  using P = st::par;
  const st::index_t n = 1 << 20;

  // arange and linspace are lazy generators: no memory until assigned.
  st::array<float, 1, P> a = st::linspace<float>(-1, 1, n);
  st::array<float, 1, P> b = st::full<float>({n}, 0.5f, P{});

  // The classic GPU-tutorial expression: nothing runs here...
  auto e = st::exp(a + b) * 2.0f;
  // ...and this assignment runs ONE pass: reads a and b once, writes c once.
  st::trace_scope trace;
  st::array<float, 1, P> c = e;
  std::cout << "c = exp(a + b) * 2 ->\n" << c << "\n";
  for (const auto& pass : trace.passes())
    std::printf("  %zu pass: %s on %s, %lld elements, %zu bytes read, %zu written\n",
                trace.passes().size(), pass.expression.c_str(), pass.policy.c_str(),
                static_cast<long long>(pass.elements), pass.bytes_read, pass.bytes_written);

  // Slicing: views write into their parent. One Jacobi smoothing step:
  st::array<double, 1> u = st::asarray<double>({0, 1, 0, 1, 0, 1, 0, 1});
  u(st::slice(1, -1)) = 0.5 * (u(st::slice(0, -2)) + u(st::slice(2, st::end)));
  std::cout << "\nsmoothed u =\n" << u << "\n";

  // Broadcasting, numpy rules: a row over a matrix, then ReLU with where.
  st::array<float, 2> m = st::reshape(st::arange<float>(-6, 6), {3, 4});
  st::array<float, 1> bias = st::asarray<float>({0.5f, -0.5f, 1.f, -1.f});
  m = st::where(m + bias > 0.f, m + bias, 0.f);
  std::cout << "\nrelu(m + bias) =\n" << m << "\n";

  // A user function, fused like the built-ins.
  auto softplus = [](float x) { return x > 20.f ? x : std::log1p(std::exp(x)); };
  st::array<float, 2> s = st::map(softplus, m - 1.f);
  std::cout << "\nsoftplus(m - 1) =\n" << s << "\n";
}
