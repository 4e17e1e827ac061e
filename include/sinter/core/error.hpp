#pragma once
/// \file error.hpp
/// The exceptions sinter throws. All derive from sinter::error, itself a
/// std::runtime_error, so `catch (const std::exception&)` sees them too.
#include <stdexcept>
#include <string>

namespace sinter {

/// Base of every sinter exception.
struct error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Shapes that do not broadcast, or a view that does not fit its array.
/// Example: `a + b` with shapes (3) and (4) throws "add: shapes (3) and (4) do not broadcast".
struct shape_error : error {
  using error::error;
};

/// A value outside what an operation accepts (an index out of range, a slice
/// step of 0, a scalar that does not fit the array's element type).
struct value_error : error {
  using error::error;
};

/// A device that was asked for and does not answer.
struct device_error : error {
  using error::error;
};

/// A file that cannot be read or written: missing, unwritable, truncated or
/// corrupt. The message names the path and, for a bad file, the byte offset:
/// "sinter::load_npy: a.npy: truncated at byte 128 ...".
struct io_error : error {
  using error::error;
};

}  // namespace sinter

namespace sinter {
/// An index outside its axis: "index 5 is out of bounds for axis 0 with size 3".
struct index_error : value_error {
  using value_error::value_error;
};
}  // namespace sinter

#include <cstddef>

namespace sinter {
/// A device allocation beyond the memory limit or the device's memory.
/// Nothing was allocated and every existing array is intact.
struct out_of_memory : error {
  std::size_t requested;  ///< bytes asked for
  std::size_t available;  ///< bytes that could still be had under the limit
  out_of_memory(const std::string& what, std::size_t req, std::size_t avail)
      : error(what), requested(req), available(avail) {}
};
}  // namespace sinter
