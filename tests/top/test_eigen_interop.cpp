// Eigen adapters (sinter/eigen.hpp): as_view of column- and row-major
// matrices, vectors, Maps with inner and outer strides, Ref and Block, read
// and written in place and checked element by element against Eigen's own
// indexing; to_eigen_map of contiguous, transposed-layout and reversed
// sinter arrays and views, checked against sinter's indexing. Built in its
// own target where Eigen is found (tests/CMakeLists.txt); elsewhere (the
// nvcc suite's glob) it compiles to nothing.
#include <doctest/doctest.h>

#if __has_include(<Eigen/Dense>)
#include <Eigen/Dense>
#include <sinter/eigen.hpp>
#include <sinter/sinter.hpp>

namespace test_eigen_interop {
namespace st = sinter;
using st::index_t;

template <class E, class V>
bool same_2d(const E& e, const V& v) {
  bool ok = v.shape()[0] == e.rows() && v.shape()[1] == e.cols();
  for (index_t i = 0; ok && i < e.rows(); ++i)
    for (index_t j = 0; j < e.cols(); ++j) ok = ok && v(i, j) == e(i, j);
  return ok;
}
}  // namespace test_eigen_interop

TEST_CASE("eigen: as_view of column- and row-major matrices, maps, refs and blocks") {
  using namespace test_eigen_interop;
  Eigen::MatrixXd cm = Eigen::MatrixXd::Random(5, 7);
  Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rm =
      Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>::Random(3, 11);
  auto vc = st::as_view(cm);
  auto vr = st::as_view(rm);
  CHECK(vc.strides() == st::extents<2>{1, 5});
  CHECK(vr.strides() == st::extents<2>{11, 1});
  CHECK(same_2d(cm, vc));
  CHECK(same_2d(rm, vr));
  CHECK(vc.data() == cm.data());
  // A fused pass over both layouts at once, against Eigen's own arithmetic.
  Eigen::MatrixXd cm2 = Eigen::MatrixXd::Random(5, 7);
  st::array<double, 2> s = st::as_view(cm) * 2.0 + st::as_view(cm2);
  Eigen::MatrixXd want = cm * 2.0 + cm2;
  CHECK(same_2d(want, s));
  // Writes go into Eigen's memory.
  st::as_view(cm)(1, 2) = 42.0;
  CHECK(cm(1, 2) == 42.0);
  // Vectors are 1-D; a Map with an inner stride; a const matrix gives a view of const.
  Eigen::VectorXi vi = Eigen::VectorXi::LinSpaced(13, 0, 12);
  auto v1 = st::as_view(vi);
  static_assert(decltype(v1)::rank == 1);
  CHECK(v1(12) == 12);
  int raw[30];
  for (int i = 0; i < 30; ++i) raw[i] = i * 3;
  Eigen::Map<Eigen::VectorXi, 0, Eigen::InnerStride<3>> every3(raw, 10);
  auto v3 = st::as_view(every3);
  CHECK(v3.strides()[0] == 3);
  for (index_t i = 0; i < 10; ++i) CHECK(v3(i) == raw[3 * i]);
  // Outer and inner stride on a column-major map: rows 4, cols 3 out of a 10-row buffer, step 2 down.
  double buf[60];
  for (int i = 0; i < 60; ++i) buf[i] = i + 0.5;
  Eigen::Map<const Eigen::MatrixXd, 0, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>> strided(
      buf, 4, 3, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(20, 2));
  auto vs = st::as_view(strided);
  static_assert(std::is_same_v<decltype(vs), st::view<const double, 2>>);
  CHECK(same_2d(strided, vs));
  CHECK(vs(3, 2) == buf[3 * 2 + 2 * 20]);
  // Block and Ref.
  auto blk = cm.block(1, 2, 3, 4);
  CHECK(same_2d(blk, st::as_view(blk)));
  Eigen::Ref<Eigen::MatrixXd> ref(cm);
  CHECK(same_2d(cm, st::as_view(ref)));
  const Eigen::MatrixXd& ccm = cm;
  static_assert(std::is_same_v<decltype(st::as_view(ccm)), st::view<const double, 2>>);
}

TEST_CASE("eigen: to_eigen_map of arrays and views, strides kept") {
  using namespace test_eigen_interop;
  st::array<float, 2> a({4, 6});
  for (index_t i = 0; i < 4; ++i)
    for (index_t j = 0; j < 6; ++j) a(i, j) = float(10 * i + j);
  auto m = st::to_eigen_map(a);
  CHECK(m.data() == a.data());
  CHECK(same_2d(m, a));
  m(2, 3) = -1.f;  // writes land in the array
  CHECK(a(2, 3) == -1.f);
  // A transposed layout (strides 1, 6) and a reversed one.
  st::view<float, 2> t(a.data(), {6, 4}, {1, 6});
  CHECK(same_2d(st::to_eigen_map(t), t));
  st::view<float, 2> rev(a.data() + 23, {4, 6}, {-6, -1});
  auto mr = st::to_eigen_map(rev);
  CHECK(same_2d(mr, rev));
  CHECK(mr(0, 0) == a(3, 5));
  // 1-D, and Eigen's arithmetic on a map of sinter memory.
  st::array<double, 1> x({9});
  for (index_t i = 0; i < 9; ++i) x(i) = double(i) - 4.0;
  const auto& cx = x;
  auto mx = st::to_eigen_map(cx);
  CHECK(mx.sum() == 0.0);
  CHECK(mx.squaredNorm() == 60.0);
  st::view<double, 1> odd(x.data() + 7, {4}, {-2});
  auto mo = st::to_eigen_map(odd);
  for (index_t i = 0; i < 4; ++i) CHECK(mo(i) == x(7 - 2 * i));
}
#endif
