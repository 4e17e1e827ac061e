// Reductions of unsigned integer arrays (uint8..uint64), host and
// par (par on the dtypes given a shape large enough for its threads):
// every reduction in full and along every axis choice of ranks 1-3, exact
// against a plain-loop reference (support/reduce_check.hpp).
#include <doctest/doctest.h>

#include "support/reduce_check.hpp"
#include "support/scale.hpp"

#include <cstdint>
#include <sinter/sinter.hpp>

namespace st = sinter;
using sinter_test::check_dtype;

// > 2 * par_grain elements, so par's parallel axis path runs (Release only).
// par is checked on the dtypes given this shape; on small shapes alone it
// runs host's code (support/reduce_check.hpp, check_dtype).
#define SINTER_TEST_BIG3 {sinter_test::scale == 1 ? 41 : 5, 43, 47}

TEST_CASE_TEMPLATE("reduce: uint8, every reduction and axis choice", P, st::host, st::par) {
  check_dtype<std::uint8_t, P>(SINTER_TEST_BIG3);
}
TEST_CASE_TEMPLATE("reduce: uint16, every reduction and axis choice", P, st::host) {
  check_dtype<std::uint16_t, P>();
}
TEST_CASE_TEMPLATE("reduce: uint32, every reduction and axis choice", P, st::host) {
  check_dtype<std::uint32_t, P>();
}
TEST_CASE_TEMPLATE("reduce: uint64, every reduction and axis choice", P, st::host) {
  check_dtype<std::uint64_t, P>();
}
