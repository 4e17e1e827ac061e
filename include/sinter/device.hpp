#pragma once
/// \file device.hpp
/// What the machine has, and soft placement: `sinter::devices()` lists the
/// CPU and every CUDA device; `sinter::dispatch(f)` runs a generic f on the
/// GPU when one answers, else on the CPU thread pool.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "policy/cuda.hpp"
#include "policy/host/cpu_isa.hpp"
#include "policy/par.hpp"

namespace sinter {

/// One device: `kind` is "cpu" or "cuda".
struct device_info {
  std::string kind;        ///< "cpu" or "cuda"
  int index = 0;           ///< cuda:N; 0 for the cpu
  std::string name;        ///< "NVIDIA H100 80GB HBM3", or the CPU's thread count and maths ISA
  std::size_t memory = 0;  ///< bytes of device memory (0 for the cpu: not queried)
  int cc_major = 0;        ///< compute capability (cuda only)
  int cc_minor = 0;
  int units = 0;           ///< multiprocessors (cuda) or hardware threads (cpu)
};

// The functions below differ between files compiled as CUDA and plain C++
// files (which cannot call the CUDA runtime); distinct inline namespaces keep
// both versions apart in one program.
#if SINTER_HAS_CUDA()
inline namespace with_cuda {
#else
inline namespace without_cuda {
#endif

/// Why no CUDA device can be used here ("" when one can): no driver, no
/// device, or this file not compiled as CUDA.
inline std::string cuda_unavailable_reason() {
#if SINTER_HAS_CUDA()
  return detail::cuda_detail::census().reason;
#else
  return "this file was not compiled as CUDA";
#endif
}

/// Whether a CUDA device answers.
inline bool cuda_available() { return cuda_unavailable_reason().empty(); }

/// The CPU and every CUDA device. Never throws for a missing GPU or driver:
/// the reason is in cuda_unavailable_reason().
inline std::vector<device_info> devices() {
  std::vector<device_info> out;
  const unsigned hw = std::thread::hardware_concurrency();
  // The name also says the ISA host maths run at (policy/host/cpu_isa.hpp).
  std::string cpu = std::to_string(hw) + " hardware threads, maths " + host_isa_name();
  if (cpu_dispatch) cpu += " (dispatched at run time)";
  out.push_back({"cpu", 0, cpu, 0, 0, 0, static_cast<int>(hw)});
#if SINTER_HAS_CUDA()
  const auto& c = detail::cuda_detail::census();
  for (std::size_t d = 0; d < c.devices.size(); ++d) {
    const auto& p = c.devices[d];
    out.push_back({"cuda", static_cast<int>(d), p.name, p.memory, p.cc_major, p.cc_minor, p.multiprocessors});
  }
#endif
  return out;
}

/// Soft placement: call `f(sinter::cuda{})` when a CUDA device answers and
/// this file is compiled as CUDA, else `f(sinter::par{})`. The choice is
/// printed to stderr when SINTER_LOG is set. Returns what f returns.
/// Example: `sinter::dispatch([&](auto policy) { run_simulation(policy); });`
template <class F>
decltype(auto) dispatch(F&& f) {
  const char* log = std::getenv("SINTER_LOG");
#if SINTER_HAS_CUDA()
  if (cuda_available()) {
    if (log) std::fprintf(stderr, "sinter: dispatch -> cuda:0 (%s)\n", detail::cuda_detail::props(0).name.c_str());
    return f(cuda{});
  }
#endif
  if (log) std::fprintf(stderr, "sinter: dispatch -> par (no CUDA: %s)\n", cuda_unavailable_reason().c_str());
  return f(par{});
}

}  // inline namespace

/// "cuda:0 NVIDIA H100 (sm_90, 132 SMs, 79.1 GiB)" or "cpu (2 hardware threads)".
inline std::ostream& operator<<(std::ostream& os, const device_info& d) {
  if (d.kind == "cpu") return os << "cpu (" << d.name << ")";
  return os << "cuda:" << d.index << " " << d.name << " (sm_" << d.cc_major << d.cc_minor << ", "
            << d.units << " SMs, " << static_cast<double>(d.memory) / (1 << 30) << " GiB)";
}

}  // namespace sinter
