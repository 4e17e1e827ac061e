// DLPack (sinter/dlpack.hpp) and mdspan-style views (sinter/mdspan.hpp):
// round trips sinter -> DLPack -> sinter compared bit for bit for every
// dtype; tensors built here by hand (an independent producer with a
// counting deleter) with strides, negative strides and byte offsets, read
// against plain index loops; every error case, each with the deleter run
// exactly once; lifetimes (copies, expressions, shared arrays); an
// mdspan-like type written here, row-major, column-major and reversed.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <sinter/dlpack.hpp>
#include <sinter/mdspan.hpp>
#include <sinter/sinter.hpp>
#include <string>
#include <vector>

namespace test_interop {

namespace st = sinter;
using st::index_t;

/// Random bits (bool: 0 or 1) for n elements of T (not a vector: vector<bool>).
template <class T>
std::unique_ptr<T[]> random_values(index_t n, std::uint32_t seed) {
  std::mt19937_64 g(seed);
  auto v = std::make_unique<T[]>(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) {
    T& x = v[static_cast<std::size_t>(i)];
    if constexpr (std::is_same_v<T, bool>) {
      x = (g() & 1) != 0;
    } else {
      const std::uint64_t bits = g();
      std::memcpy(&x, &bits, sizeof(T));
    }
  }
  return v;
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// A tensor made here, not by sinter: counts its deleter's calls.
struct producer {
  int deleted = 0;
  std::vector<std::int64_t> shape, strides;
  DLManagedTensor m{};
  DLManagedTensorVersioned mv{};
  static void del(DLManagedTensor* t) { ++static_cast<producer*>(t->manager_ctx)->deleted; }
  static void del_v(DLManagedTensorVersioned* t) { ++static_cast<producer*>(t->manager_ctx)->deleted; }
  producer(void* data, DLDataType dt, std::vector<std::int64_t> sh, std::vector<std::int64_t> sd,
           std::uint64_t byte_offset = 0, DLDevice dev = {kDLCPU, 0})
      : shape(std::move(sh)), strides(std::move(sd)) {
    DLTensor t{};
    t.data = data;
    t.device = dev;
    t.ndim = static_cast<std::int32_t>(shape.size());
    t.dtype = dt;
    t.shape = shape.data();
    t.strides = strides.empty() ? nullptr : strides.data();
    t.byte_offset = byte_offset;
    m.dl_tensor = t;
    m.manager_ctx = this;
    m.deleter = &del;
    mv.dl_tensor = t;
    mv.manager_ctx = this;
    mv.deleter = &del_v;
    mv.version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
  }
};

/// The export's fields (not a template: compiled once for every dtype).
inline void check_export(const DLTensor& t, const void* buffer, DLDataType expect, index_t n) {
  CHECK(t.data == buffer);  // handed over, not copied
  CHECK(t.dtype.code == expect.code);
  CHECK(t.dtype.bits == expect.bits);
  CHECK(t.dtype.lanes == 1);
  CHECK(t.device.device_type == kDLCPU);
  CHECK(t.ndim == 2);
  CHECK(t.shape[0] == n);
  CHECK(t.shape[1] == 3);
  CHECK(t.strides[0] == 3);
  CHECK(t.strides[1] == 1);
}

template <class T>
void round_trip(DLDataType expect, std::uint32_t seed) {
  for (index_t n : {0, 1, 7, 37}) {
    const auto ref = random_values<T>(n * 3, seed + static_cast<std::uint32_t>(n));
    st::array<T, 2> a({n, 3});
    for (index_t i = 0; i < 3 * n; ++i) a.data()[i] = ref[static_cast<std::size_t>(i)];
    const void* buffer = a.data();
    const auto in_use = st::host_memory_stats().in_use;
    DLManagedTensor* t = st::to_dlpack(std::move(a));
    CHECK(a.data() == nullptr);
    check_export(t->dl_tensor, buffer, expect, n);
    bool same = true, flagged = false, refused = false;
    const void* const_data = nullptr;
    {
      auto v = st::from_dlpack<T, 2>(t);
      same = v.data() == buffer;
      // Read in place through the imported view's indexing (no pass per dtype: compile time).
      for (index_t i = 0; i < n; ++i)
        for (index_t j = 0; j < 3; ++j) same = same && same_bits(v(i, j), ref[static_cast<std::size_t>(3 * i + j)]);
      // Versioned, through a const view of the import: flagged read-only, refused as non-const.
      DLManagedTensorVersioned* tv = st::to_dlpack_versioned(st::view<const T, 2>(v.view()), v.owner());
      flagged = (tv->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
      try {
        (void)st::from_dlpack<T, 2>(tv);
      } catch (const st::value_error&) {
        refused = true;
      }
      tv = st::to_dlpack_versioned(st::view<const T, 2>(v.view()), v.owner());
      const_data = st::from_dlpack<const T, 2>(tv).data();
    }
    CHECK(same);
    CHECK(flagged);
    CHECK(refused);
    CHECK(const_data == buffer);
    // The last handle gone, the deleter ran and gave the buffer back.
    CHECK(st::host_memory_stats().in_use + static_cast<std::size_t>(3 * n) * sizeof(T) == in_use);
  }
}

}  // namespace test_interop

TEST_CASE("dlpack: every dtype round trips bit for bit, the buffer handed over") {
  using namespace test_interop;
  round_trip<bool>({kDLBool, 8, 1}, 1);
  round_trip<std::int8_t>({kDLInt, 8, 1}, 2);
  round_trip<std::int16_t>({kDLInt, 16, 1}, 3);
  round_trip<std::int32_t>({kDLInt, 32, 1}, 4);
  round_trip<std::int64_t>({kDLInt, 64, 1}, 5);
  round_trip<std::uint8_t>({kDLUInt, 8, 1}, 6);
  round_trip<std::uint16_t>({kDLUInt, 16, 1}, 7);
  round_trip<std::uint32_t>({kDLUInt, 32, 1}, 8);
  round_trip<std::uint64_t>({kDLUInt, 64, 1}, 9);
  round_trip<float>({kDLFloat, 32, 1}, 10);
  round_trip<double>({kDLFloat, 64, 1}, 11);
  round_trip<st::half>({kDLFloat, 16, 1}, 12);
  round_trip<st::bfloat16>({kDLBfloat, 16, 1}, 13);
}

TEST_CASE("dlpack: the deleter frees the exported buffer, once") {
  using namespace test_interop;
  const auto before = st::host_memory_stats().in_use;
  st::array<double, 1> a({1000});
  std::fill(a.begin(), a.end(), 2.0);
  DLManagedTensor* t = st::to_dlpack(std::move(a));
  CHECK(st::host_memory_stats().in_use > before);
  t->deleter(t);
  CHECK(st::host_memory_stats().in_use == before);
  // An expression is evaluated first; a shared array is shared, not copied.
  st::array<float, 1> x({5});
  for (int i = 0; i < 5; ++i) x(i) = static_cast<float>(i);
  DLManagedTensor* e = st::to_dlpack(x * 2.f + 1.f);
  for (int i = 0; i < 5; ++i) CHECK(static_cast<const float*>(e->dl_tensor.data)[i] == 2.f * float(i) + 1.f);
  e->deleter(e);
  auto s = std::make_shared<st::array<float, 1>>(st::array<float, 1>({5}));
  DLManagedTensor* ts = st::to_dlpack(s);
  CHECK(s.use_count() == 2);
  CHECK(ts->dl_tensor.data == s->data());
  ts->deleter(ts);
  CHECK(s.use_count() == 1);
}

TEST_CASE("dlpack: strided, reversed and offset tensors read in place") {
  using namespace test_interop;
  std::vector<float> buf(60);
  for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = float(i) * 0.5f - 3.f;
  // Rows 4..0 of a 5 x 12 buffer, every third column from 1: strides (-12, 3), offset to row 4.
  {
    producer p(buf.data(), {kDLFloat, 32, 1}, {5, 4}, {-12, 3}, (4 * 12 + 1) * sizeof(float));
    {
      auto v = st::from_dlpack<float, 2>(&p.m);
      CHECK(v.strides()[0] == -12);
      st::array<float, 2> r = v + 1.f;  // the same pass as below: one instantiation (compile time)
      for (index_t i = 0; i < 5; ++i)
        for (index_t j = 0; j < 4; ++j)
          CHECK(r(i, j) == buf[static_cast<std::size_t>((4 - i) * 12 + 1 + 3 * j)] + 1.f);
      v.view()(0, 0) = 100.f;  // writes land in the producer's memory
      CHECK(buf[4 * 12 + 1] == 100.f);
      auto copy = v;  // shares: the deleter waits for both
      CHECK(p.deleted == 0);
    }
    CHECK(p.deleted == 1);
  }
  // No strides: compact row-major; moved into an expression, the tensor lives with it.
  {
    producer p(buf.data(), {kDLFloat, 32, 1}, {3, 20}, {});
    auto e = st::from_dlpack<float, 2>(&p.m) + 1.f;
    CHECK(p.deleted == 0);
    st::array<float, 2> r = e;
    CHECK(r(2, 19) == buf[59] + 1.f);
    CHECK(r(1, 0) == buf[20] + 1.f);
    {
      auto gone = std::move(e);
    }
    CHECK(p.deleted == 1);
  }
  // Export of a reversed view with its owner: the strides travel as they are.
  {
    auto owner = std::make_shared<st::array<int, 1>>(st::array<int, 1>({11}));
    for (int i = 0; i < 11; ++i) (*owner)(i) = i * i;
    st::view<int, 1> rev((*owner).data() + 10, {11}, {-1});
    DLManagedTensor* t = st::to_dlpack(rev, owner);
    CHECK(t->dl_tensor.strides[0] == -1);
    const int* base = static_cast<const int*>(t->dl_tensor.data);
    for (int i = 0; i < 11; ++i) CHECK(base[-i] == (10 - i) * (10 - i));
    auto back = st::from_dlpack<int, 1>(t);
    for (int i = 0; i < 11; ++i) CHECK(back(i) == (10 - i) * (10 - i));
  }
}

TEST_CASE("dlpack: every mismatch throws naming expected and found, the deleter run once") {
  using namespace test_interop;
  std::vector<double> buf(12, 1.0);
  auto expect_error = [&](auto make, auto load, const char* found, const char* expected) {
    producer p = make();
    std::string what;
    try {
      load(p);
    } catch (const st::error& e) {
      what = e.what();
    }
    INFO(what);
    CHECK(what.find(found) != std::string::npos);
    CHECK(what.find(expected) != std::string::npos);
    CHECK(p.deleted == 1);
  };
  auto plain = [&] { return producer(buf.data(), {kDLFloat, 64, 1}, {3, 4}, {}); };
  expect_error(plain, [](producer& p) { (void)st::from_dlpack<float, 2>(&p.m); }, "float64 found", "float32 expected");
  expect_error(plain, [](producer& p) { (void)st::from_dlpack<std::int64_t, 2>(&p.m); }, "float64", "int64");
  expect_error(plain, [](producer& p) { (void)st::from_dlpack<double, 1>(&p.m); }, "rank 2 found", "1 expected");
  expect_error(plain, [](producer& p) { (void)st::from_dlpack<double, 2, st::cuda>(&p.m); }, "cpu found", "cuda:0");
  auto on_gpu1 = [&] { return producer(buf.data(), {kDLFloat, 64, 1}, {3, 4}, {}, 0, {kDLCUDA, 1}); };
  expect_error(on_gpu1, [](producer& p) { (void)st::from_dlpack<double, 2>(&p.m); }, "cuda:1 found", "cpu expected");
  expect_error(on_gpu1, [](producer& p) { (void)st::from_dlpack<double, 2, st::cuda>(&p.m, st::cuda(0)); },
               "cuda:1 found", "cuda:0 expected");
  expect_error(on_gpu1, [](producer& p) { (void)st::from_dlpack<double, 2, st::par>(&p.mv); }, "cuda:1", "cpu");
  auto misaligned = [&] { return producer(buf.data(), {kDLFloat, 64, 1}, {2}, {}, 4); };
  expect_error(misaligned, [](producer& p) { (void)st::from_dlpack<double, 1>(&p.m); }, "byte_offset 4", "8 bytes");
  auto negative = [&] { return producer(buf.data(), {kDLFloat, 64, 1}, {-2}, {}); };
  expect_error(negative, [](producer& p) { (void)st::from_dlpack<double, 1>(&p.m); }, "negative extent", "-2");
  auto vectors = [&] { return producer(buf.data(), {kDLFloat, 64, 2}, {3}, {}); };
  expect_error(vectors, [](producer& p) { (void)st::from_dlpack<double, 1>(&p.m); }, "float64x2", "float64 expected");
  auto future = [&] {
    producer p(buf.data(), {kDLFloat, 64, 1}, {3, 4}, {});
    return p;
  };
  expect_error(future, [](producer& p) {
    p.mv.version.major = DLPACK_MAJOR_VERSION + 1;
    (void)st::from_dlpack<double, 2>(&p.mv);
  }, "version 2.", "1.x expected");
  expect_error(future, [](producer& p) {
    p.mv.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
    (void)st::from_dlpack<double, 2>(&p.mv);
  }, "read-only", "const");
  CHECK_THROWS_AS(((void)st::from_dlpack<double, 1>(static_cast<DLManagedTensor*>(nullptr))), st::value_error);
  // A versioned tensor of the right kind imports; the deleter waits for the view.
  producer ok(buf.data(), {kDLFloat, 64, 1}, {12}, {});
  {
    auto v = st::from_dlpack<double, 1, st::par>(&ok.mv);
    CHECK(v(11) == 1.0);
  }
  CHECK(ok.deleted == 1);
}

namespace test_interop {
/// An mdspan-like type: data_handle(), extents() with rank()/extent(r), stride(r).
template <class T, std::size_t R>
struct mini_mdspan {
  struct ext {
    index_t e[R];
    static constexpr std::size_t rank() { return R; }
    index_t extent(std::size_t r) const { return e[r]; }
  };
  T* p;
  ext x;
  index_t s[R];
  T* const& data_handle() const { return p; }  // a reference, as std::mdspan's
  const ext& extents() const { return x; }
  index_t stride(std::size_t r) const { return s[r]; }
};
}  // namespace test_interop

TEST_CASE("mdspan-like: row-major, column-major and reversed layouts view in place") {
  using namespace test_interop;
  std::vector<float> buf(35);
  for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = float(i) * 1.25f;
  const mini_mdspan<float, 2> rm{buf.data(), {{5, 7}}, {7, 1}};
  const mini_mdspan<float, 2> cm{buf.data(), {{5, 7}}, {1, 5}};
  const mini_mdspan<const float, 1> rev{buf.data() + 34, {{35}}, {-1}};
  static_assert(st::mdspan_like<mini_mdspan<float, 2>>);
  static_assert(!st::mdspan_like<std::vector<float>>);
  auto a = st::as_view(rm);
  auto b = st::as_view(cm);
  auto c = st::as_view(rev);
  static_assert(std::is_same_v<decltype(c), st::view<const float, 1>>);
  CHECK(a.data() == buf.data());
  st::array<float, 2> sum2 = a + b;
  for (index_t i = 0; i < 5; ++i)
    for (index_t j = 0; j < 7; ++j)
      CHECK(sum2(i, j) == buf[static_cast<std::size_t>(7 * i + j)] + buf[static_cast<std::size_t>(i + 5 * j)]);
  for (index_t i = 0; i < 35; ++i) CHECK(c(i) == buf[static_cast<std::size_t>(34 - i)]);
  b(4, 6) = 0.f;  // writes through the column-major view
  CHECK(buf[34] == 0.f);
#if defined(__cpp_lib_mdspan)
  st::array<float, 2> m({3, 4});
  m = 2.f;
  auto md = st::to_mdspan(m);
  CHECK(md.data_handle() == m.data());
  CHECK(st::as_view(md).shape() == m.shape());
#endif
}
