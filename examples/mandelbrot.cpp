// The Mandelbrot set: escape counts by a user function (sinter::map) over a
// 2-D grid made by broadcasting a row of x against a column of y, on the GPU
// when one answers (else the CPU thread pool), saved as a PNG and checked
// against a plain scalar loop.
//   mandelbrot [out.png [width height [max_iter]]]     defaults: mandelbrot.png 300 240 200
// The picture in docs/images/mandelbrot.png: mandelbrot docs/images/mandelbrot.png 750 600 500
#include <sinter/sinter.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "png.hpp"

namespace st = sinter;

constexpr double re_lo = -2.2, re_hi = 0.8, im_lo = -1.2, im_hi = 1.2;  // the window of the complex plane

// Escape counts of an h x w grid, row 0 at im_lo.
template <class P>
st::array<int, 2> escape_counts(P policy, st::index_t w, st::index_t h, int max_iter) {
  std::printf("mandelbrot: %lld x %lld, up to %d iterations on %s\n", static_cast<long long>(w),
              static_cast<long long>(h), max_iter, std::is_same_v<P, st::par> ? "the CPU thread pool" : "the GPU");
  // Lazy coordinates (no memory): x as a (1, w) row, y as an (h, 1) column.
  auto x = st::reshape(st::linspace<double>(re_lo, re_hi, w), {1, w});
  auto y = st::reshape(st::linspace<double>(im_lo, im_hi, h), {h, 1});
  // Iterate z <- z^2 + c from 0 until |z| > 2; SINTER_HD lets a GPU run it.
  auto count = [max_iter] SINTER_HD(double cx, double cy) {
    double zx = 0, zy = 0;
    int k = 0;
    for (; k < max_iter && zx * zx + zy * zy <= 4.0; ++k) {
      const double t = zx * zx - zy * zy + cx;
      zy = 2.0 * zx * zy + cy;
      zx = t;
    }
    return k;
  };
  // One pass over the (h, w) broadcast of x against y.
  st::array<int, 2, P> counts(st::map(count, x, y), policy);
  return st::to<st::host>(counts);
}

bool parse(const char* s, long lo, long hi, long& v) {
  char* end = nullptr;
  errno = 0;
  v = std::strtol(s, &end, 10);
  return *s != '\0' && *end == '\0' && errno == 0 && v >= lo && v <= hi;
}

int main(int argc, char** argv) {
  std::string out = "mandelbrot.png";
  long w = 300, h = 240, max_iter = 200;
  if (argc > 5 || argc == 3 || (argc > 1 && (argv[1][0] == '\0' || argv[1][0] == '-')) ||
      (argc > 3 && (!parse(argv[2], 2, 8192, w) || !parse(argv[3], 2, 8192, h))) ||
      (argc > 4 && !parse(argv[4], 1, 100000, max_iter))) {
    std::fprintf(stderr, "usage: %s [out.png [width height [max_iter]]]\n  width, height: 2 to 8192 (default 300 240)\n"
                         "  max_iter: 1 to 100000 (default 200)\n", argv[0]);
    return 2;
  }
  if (argc > 1) out = argv[1];
  const int iters = static_cast<int>(max_iter);

  const st::array<int, 2> counts = st::dispatch([&](auto policy) { return escape_counts(policy, w, h, iters); });

  // Check: the same iteration, one pixel at a time, coordinates computed here.
  long differ = 0;
  for (long i = 0; i < h; ++i)
    for (long j = 0; j < w; ++j) {
      const double cx = re_lo + (re_hi - re_lo) * static_cast<double>(j) / static_cast<double>(w - 1);
      const double cy = im_lo + (im_hi - im_lo) * static_cast<double>(i) / static_cast<double>(h - 1);
      double zx = 0, zy = 0;
      int k = 0;
      while (k < iters && zx * zx + zy * zy <= 4.0) {
        const double t = zx * zx - zy * zy + cx;
        zy = 2.0 * zx * zy + cy;
        zx = t;
        ++k;
      }
      differ += counts(i, j) != k;
    }
  // Near the set's boundary the orbit is chaotic: a last-bit difference in c
  // (linspace computes start + i * step) or in z (a GPU fuses a*b + c into
  // one rounding) can change a count there. Allow 1 pixel in 1000.
  const long allowed = w * h / 1000;
  std::printf("pixels whose count differs from the scalar loop: %ld (allowed %ld)\n", differ, allowed);

  // The PNG: counts through a colour map (log scale for contrast); the set itself black.
  auto palette = png::jet();
  palette[255] = {0, 0, 0};
  std::vector<std::uint8_t> pixels(static_cast<std::size_t>(w * h));
  for (std::size_t k = 0; k < pixels.size(); ++k) {
    const int c = counts.data()[k];
    pixels[k] = c >= iters ? 255 : static_cast<std::uint8_t>(254.0 * std::log1p(c) / std::log1p(iters));
  }
  if (!png::write_indexed(out, static_cast<std::uint32_t>(w), static_cast<std::uint32_t>(h), pixels, palette)) {
    std::fprintf(stderr, "mandelbrot: cannot write %s: %s\n", out.c_str(), std::strerror(errno));
    return 1;
  }
  std::printf("wrote %s\n", out.c_str());
  if (differ > allowed) {
    std::fprintf(stderr, "mandelbrot: FAILED: %ld pixels differ from the reference\n", differ);
    return 1;
  }
}
