// DLPack on the cuda policy (sinter/dlpack.hpp), compiled by nvcc into
// sinter_cuda_tests: the device checks run everywhere (a CUDA tensor on
// another device, or CPU memory, refused with device_error, the deleter run
// once); the round trip of device memory (to_dlpack hands the buffer over
// after waiting for its stream, from_dlpack views it in place) reports
// "skipped: no CUDA device" where none answers.
#include <doctest/doctest.h>

#include <sinter/dlpack.hpp>
#include <sinter/sinter.hpp>
#include <string>

namespace test_cuda_dlpack {
namespace st = sinter;
using st::index_t;

/// A hand-made tensor whose deleter counts its calls.
struct counted {
  int deleted = 0;
  std::int64_t shape[1] = {4};
  DLManagedTensor m{};
  counted(void* data, DLDevice dev) {
    m.dl_tensor.data = data;
    m.dl_tensor.device = dev;
    m.dl_tensor.ndim = 1;
    m.dl_tensor.dtype = {kDLFloat, 32, 1};
    m.dl_tensor.shape = shape;
    m.manager_ctx = this;
    m.deleter = [](DLManagedTensor* t) { ++static_cast<counted*>(t->manager_ctx)->deleted; };
  }
};
}  // namespace test_cuda_dlpack

TEST_CASE("cuda dlpack: device type and id are checked against the policy") {
  using namespace test_cuda_dlpack;
  float host[4] = {1, 2, 3, 4};
  counted on1(host, {kDLCUDA, 1});
  std::string what;
  try {
    (void)st::from_dlpack<float, 1, st::cuda>(&on1.m, st::cuda(0));
  } catch (const st::device_error& e) {
    what = e.what();
  }
  CHECK(what.find("cuda:1 found") != std::string::npos);
  CHECK(what.find("cuda:0 expected") != std::string::npos);
  CHECK(on1.deleted == 1);
  counted cpu(host, {kDLCPU, 0});
  CHECK_THROWS_AS(((void)st::from_dlpack<float, 1, st::cuda>(&cpu.m)), st::device_error);
  CHECK(cpu.deleted == 1);
  // A tensor on device 1 views as cuda(1) without touching the device.
  counted ok(host, {kDLCUDA, 1});
  {
    auto v = st::from_dlpack<float, 1, st::cuda>(&ok.m, st::cuda(1));
    CHECK(v.policy().device == 1);
    CHECK(v.data() == host);
  }
  CHECK(ok.deleted == 1);
}

TEST_CASE("cuda dlpack: device memory round trips without a copy") {
  using namespace test_cuda_dlpack;
  if (!st::cuda_available()) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  st::array<float, 1> h({1001});
  for (index_t i = 0; i < 1001; ++i) h(i) = float(i) * 0.5f;
  auto d = st::to<st::cuda>(h);
  const float* buffer = d.data();
  DLManagedTensor* t = st::to_dlpack(std::move(d));
  CHECK(t->dl_tensor.device.device_type == kDLCUDA);
  CHECK(t->dl_tensor.data == buffer);
  auto v = st::from_dlpack<float, 1, st::cuda>(t);
  st::array<float, 1, st::cuda> r = v * 2.f;
  const auto back = st::to<st::host>(r);
  bool same = true;
  for (index_t i = 0; i < 1001; ++i) same = same && back(i) == float(i);
  CHECK(same);
}
