// Data from NumPy and back: loads points.npy (200 points in 3-D, float64,
// written by NumPy: examples/data/make_points.py), computes each point's
// distance from the origin and the unit vectors in fused passes, writes both
// as .npy files NumPy reads (radii.npy, unit.npy, and both in points.npz),
// reads them back, and checks them against a double loop over the input.
//   npy_roundtrip [points.npy [out_dir]]   defaults: examples/data/points.npy, .
#include <sinter/sinter.hpp>
#include <sinter/npz.hpp>

#include <cmath>
#include <cstdio>
#include <string>
#include <type_traits>

namespace st = sinter;

int main(int argc, char** argv) {
  // The input beside this source file, wherever the program runs from.
  std::string in = __FILE__;
  in = in.substr(0, in.find_last_of("/\\") + 1) + "data/points.npy";
  std::string out = ".";
  if (argc > 3 || (argc > 1 && argv[1][0] == '-') || (argc > 2 && argv[2][0] == '-')) {
    std::fprintf(stderr, "usage: %s [points.npy [out_dir]]\n  points.npy: an (n, 3) float64 array "
                         "(default %s)\n  out_dir: where radii.npy, unit.npy and points.npz go (default .)\n",
                 argv[0], in.c_str());
    return 2;
  }
  if (argc > 1) in = argv[1];
  if (argc > 2) out = argv[2];

  try {
    st::dispatch([&](auto policy) {
      using P = decltype(policy);
      std::printf("npy_roundtrip: %s on %s\n", in.c_str(), std::is_same_v<P, st::par> ? "the CPU thread pool" : "the GPU");
      const auto pts = st::load_npy<double, 2, P>(in, policy);  // a type or rank mismatch throws value_error
      const auto x = pts(st::all, 0), y = pts(st::all, 1), z = pts(st::all, 2);
      const st::array<double, 1, P> r = st::sqrt(x * x + y * y + z * z);  // one pass
      st::save_npy(out + "/radii.npy", r);
      // The unit vectors are never stored: the expression is written block by block.
      st::save_npy(out + "/unit.npy", pts / r(st::all, st::newaxis));
      st::save_npz(out + "/points.npz", {{"points", pts}, {"radii", r}});
    });
  } catch (const st::error& e) {  // io_error (missing or damaged file) or value_error
    std::fprintf(stderr, "npy_roundtrip: %s\n", e.what());
    return 1;
  }

  // Check: read the files back and compare with a double loop over the input.
  const auto pts = st::load_npy<double, 2>(in);
  const auto radii = st::load_npy<double, 1>(out + "/radii.npy");
  const auto unit = st::load_npy<double, 2>(out + "/unit.npy");
  const auto again = st::load_npz<double, 1>(out + "/points.npz", "radii");
  double err = 0;
  bool same_shapes = radii.size() == pts.shape(0) && unit.shape() == pts.shape() && again.size() == radii.size();
  for (st::index_t i = 0; same_shapes && i < pts.shape(0); ++i) {
    const double ref = std::sqrt(pts(i, 0) * pts(i, 0) + pts(i, 1) * pts(i, 1) + pts(i, 2) * pts(i, 2));
    double e = std::abs(radii(i) - ref) / ref + std::abs(again(i) - radii(i));
    for (int k = 0; k < 3; ++k) e += std::abs(unit(i, k) - pts(i, k) / ref);
    err = std::isnan(e) || e > err ? e : err;
  }
  std::printf("%lld points, max error against a double loop %.2e, mean radius %.6f\n",
              static_cast<long long>(pts.shape(0)), err, st::mean(radii));
  const bool ok = same_shapes && err <= 1e-14;
  std::printf("%s\n", ok ? "OK" : "MISMATCH");
  return ok ? 0 : 1;
}
