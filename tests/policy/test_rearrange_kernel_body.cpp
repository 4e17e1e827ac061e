// Rearranging, comparing and the lazy factories (rearrange.hpp, compare.hpp,
// factories.hpp, meshgrid.hpp) in the CUDA kernel body
// (policy/cuda/kernel_body.hpp), run on the CPU by a grid emulator as
// tests/policy/test_random_kernel_body.cpp does: every (block, thread) of a
// grid runs the SINTER_HD body, 32- and 64-bit indices, outputs aligned and
// one element past alignment. roll and pad are generator leaves that read
// memory; their values must be the host policy's bit for bit.
#include <doctest/doctest.h>

#include "support/grid_emulator.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <sinter/sinter.hpp>
#include <vector>

namespace st = sinter;
namespace rcd = st::detail::cuda_detail;
using st::index_t;

using grid_emulator::emulated_mismatches;

TEST_CASE("roll, pad, flip, eye, meshgrid and isclose in the CUDA kernel body (grid emulator)") {
  for (index_t n : {index_t{0}, index_t{1}, index_t{5}, index_t{1031}, index_t{40000}}) {
    for (std::size_t off : {std::size_t{0}, std::size_t{1}}) {
      CAPTURE(n);
      CAPTURE(off);
      st::array<float, 1> a(st::extents<1>{{n}});
      for (index_t i = 0; i < n; ++i) a(i) = std::sin(static_cast<float>(i)) * 10.f;
      const st::extents<1> s{{n}};
      CHECK(emulated_mismatches<float>(st::roll(a, 3, 0), s, off) == 0);
      CHECK(emulated_mismatches<float>(st::roll(a, -7) * 2.f + a, s, off) == 0);
      CHECK(emulated_mismatches<float>(st::flip(a, 0), s, off) == 0);
      CHECK(emulated_mismatches<bool>(st::isclose(a, st::roll(a, 1, 0), 0.5, 1.0), s, off) == 0);
      if (n > 2) {
        const st::extents<1> p{{n + 3}};
        CHECK(emulated_mismatches<float>(st::pad(a(st::slice(1, n - 1)), {st::pad_width{2, 3}}, "edge"), p, off) == 0);
        CHECK(emulated_mismatches<float>(st::pad(a, {st::pad_width{1, 2}}, "constant", 4.f), p, off) == 0);
      }
    }
  }
  // rank 2: a roll along each axis, a transposed pad, eye, meshgrid.
  st::array<double, 2> m(st::extents<2>{{37, 61}});
  for (index_t i = 0; i < 37; ++i)
    for (index_t j = 0; j < 61; ++j) m(i, j) = static_cast<double>(i * 100 + j);
  const st::extents<2> s2{{37, 61}};
  CHECK(emulated_mismatches<double>(st::roll(m, 5, 0), s2, 0) == 0);
  CHECK(emulated_mismatches<double>(st::roll(m, {-9, 4}, {1, 0}), s2, 1) == 0);
  CHECK(emulated_mismatches<double>(st::transpose(st::pad(m, {st::pad_width{1, 0}, st::pad_width{0, 2}}, "edge")),
                              st::extents<2>{{63, 38}}, 0) == 0);
  CHECK(emulated_mismatches<double>(st::eye(37, 61, 3) + m, s2, 1) == 0);
  const st::array<double, 1> x = st::arange<double>(61), y = st::arange<double>(37) * 0.5;
  auto [gx, gy] = st::meshgrid(x, y);
  CHECK(emulated_mismatches<double>(gx * gy, s2, 0) == 0);
}
