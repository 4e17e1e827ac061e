// sinter::random in the CUDA kernel body (policy/cuda/kernel_body.hpp), run
// on the CPU by a grid emulator as tests/policy/test_cuda_kernel_body.cpp
// does: every (block, thread) of a grid runs the SINTER_HD body with its own
// global thread index, 32- and 64-bit indices, vector and strided paths,
// outputs aligned and one element past alignment. The values must be the
// host policy's bit for bit: element i of a generator depends on (key, i)
// only, not on which thread or vector step computes it. (On a GPU, normal
// and exponential go through CUDA's logf/cosf, within their ULP bounds of
// the host maths; uniform, integers and bernoulli are integer-exact.)
#include <doctest/doctest.h>

#include "support/grid_emulator.hpp"

#include <cstdint>
#include <cstring>
#include <memory>
#include <sinter/sinter.hpp>
#include <vector>

namespace st = sinter;
namespace sr = sinter::random;
namespace rcd = st::detail::cuda_detail;
using st::index_t;

using grid_emulator::emulated_mismatches;

TEST_CASE("random in the CUDA kernel body (grid emulator): the host's bits") {
  const sr::key k{2026};
  for (index_t n : {index_t{0}, index_t{1}, index_t{5}, index_t{1031}, index_t{40000}}) {
    for (std::size_t off : {std::size_t{0}, std::size_t{1}}) {
#if defined(SINTER_TEST_SANITIZED)
      if (n == 40000 && off == 0) continue;  // sanitizer builds: the largest size once, misaligned
#endif
      CAPTURE(n);
      CAPTURE(off);
      st::array<float, 1> a = sr::uniform<float>(sr::fold_in(k, 9), {n + 1}, -1, 1);
      const auto av = a(st::slice(static_cast<index_t>(off), static_cast<index_t>(off) + n));
      const st::extents<1> s{n};
      rcd::kernel_path path{};
      CHECK(emulated_mismatches<float>(av + 0.1f * sr::normal<float>(k, s), s, off, &path) == 0);
      if (n >= 5) CHECK(path == rcd::kernel_path::vector);
      CHECK(emulated_mismatches<double>(sr::uniform<double>(k, s, -2, 3), s, off) == 0);
      CHECK(emulated_mismatches<double>(sr::exponential<double>(k, s, 2) * sr::normal<double>(k, s), s, off) == 0);
      CHECK(emulated_mismatches<std::int64_t>(sr::integers<std::int64_t>(k, s, -7, 1LL << 50), s, off) == 0);
      CHECK(emulated_mismatches<std::int8_t>(sr::integers<std::int8_t>(k, s, -128, 128), s, off) == 0);
      CHECK(emulated_mismatches<bool>(sr::bernoulli(k, s, 0.4), s, off) == 0);
      CHECK(emulated_mismatches<st::half>(sr::uniform<st::half>(k, s), s, off) == 0);
      // a reversed view of a generator takes the strided path
      CHECK(emulated_mismatches<float>(sr::uniform<float>(k, s)(st::slice(st::none, st::none, -1)), s, off) == 0);
    }
  }
  // rank 2, a transposed generator, broadcast against a column
  const st::extents<2> s2{37, 61};
  const st::array<float, 2> col = sr::uniform<float>(k, {37, 1});
  CHECK(emulated_mismatches<float>(st::transpose(sr::normal<float>(k, {61, 37})) + col, s2, 0) == 0);
}
