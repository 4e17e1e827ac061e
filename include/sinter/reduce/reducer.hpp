#pragma once
/// \file reducer.hpp
/// The reduction hook of the backend contract, declared below the headers
/// that define it (reduce.hpp: host and par; reduce/cuda.hpp: cuda) so that
/// each compiles alone. `reducer<P>` reduces on policy P; `pol` is the policy
/// value the reduction runs on (an operand's own, e.g. a cuda array's device
/// and stream):
///  - full<Op>(pol, e): the accumulator of all elements;
///  - along<Op>(pol, out, permuted, pshape, outputs, len, finish): out[o] =
///    finish(fold of flat positions [o*len, (o+1)*len) of pshape, len), the
///    elements entering with their index within the segment (argmin/argmax).
///    `finish` is a trivially copyable SINTER_HD functor (a device runs it).

namespace sinter::detail {

/// The reducer of policy P (primary template: the CPU's, reduce.hpp).
template <class P>
struct reducer;

}  // namespace sinter::detail
