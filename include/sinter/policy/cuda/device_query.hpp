#pragma once
/// \file device_query.hpp
/// What the CUDA runtime says about the machine, asked once and cached:
/// device count (or why there is none), and per-device properties used to
/// configure launches (never queried per launch).
#include <mutex>
#include <string>
#include <vector>

#include "error.hpp"

namespace sinter::detail::cuda_detail {

/// One CUDA device's properties, as sinter uses them.
struct device_props {
  std::string name;
  std::size_t memory = 0;
  int cc_major = 0, cc_minor = 0;
  int multiprocessors = 0;
  int max_threads_per_sm = 0;
};

/// The machine as the CUDA runtime sees it.
struct cuda_census {
  std::vector<device_props> devices;
  std::string reason;  ///< why there is no usable device ("" when there is one)
};

#if SINTER_HAS_CUDA()
/// Ask the runtime once. No driver or no device is an answer, not a crash.
inline const cuda_census& census() {
  static const cuda_census c = [] {
    cuda_census out;
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      out.reason = std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
      return out;
    }
    if (n == 0) out.reason = "the CUDA runtime reports 0 devices";
    for (int d = 0; d < n; ++d) {
      cudaDeviceProp p{};
      if (cudaGetDeviceProperties(&p, d) != cudaSuccess) {
        (void)cudaGetLastError();
        continue;
      }
      out.devices.push_back({p.name, p.totalGlobalMem, p.major, p.minor, p.multiProcessorCount,
                             p.maxThreadsPerMultiProcessor});
    }
    return out;
  }();
  return c;
}

/// Properties of device d, or device_error with the reason it is not there.
inline const device_props& props(int d) {
  const auto& c = census();
  if (d < 0 || d >= static_cast<int>(c.devices.size()))
    throw device_error("cuda:" + std::to_string(d) + " is not available: " +
                       (c.reason.empty() ? std::to_string(c.devices.size()) + " CUDA device(s) found"
                                         : c.reason));
  return c.devices[static_cast<std::size_t>(d)];
}
#endif

}  // namespace sinter::detail::cuda_detail
