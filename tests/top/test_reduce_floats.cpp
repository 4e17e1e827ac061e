// Reductions of float and double arrays, host and par:
// every reduction in full and along every axis choice of ranks 1-3 against a
// double reference (tolerances justified in support/reduce_check.hpp).
#include <doctest/doctest.h>

#include "support/reduce_check.hpp"
#include "support/scale.hpp"

#include <sinter/sinter.hpp>

namespace st = sinter;
using sinter_test::check_dtype;

// > 2 * par_grain elements, so par's parallel axis path runs (Release only).
#define SINTER_TEST_BIG3 {sinter_test::scale == 1 ? 41 : 5, 43, 47}

TEST_CASE_TEMPLATE("reduce: float, every reduction and axis choice", P, st::host, st::par) {
  check_dtype<float, P>(SINTER_TEST_BIG3);
}
TEST_CASE_TEMPLATE("reduce: double, every reduction and axis choice", P, st::host, st::par) {
  check_dtype<double, P>(SINTER_TEST_BIG3);
}
