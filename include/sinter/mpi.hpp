#pragma once
/// \file mpi.hpp
/// sinter's distributed arrays over MPI, in one header (not included by
/// sinter.hpp: link the CMake target sinter::mpi). A distributed array is a
/// sinter::array of policy sinter::mpi::dist<Local>: global shape, rows
/// block-distributed over a communicator, every expression, view and
/// reduction of sinter working on it unchanged. Local blocks: host, par, or
/// (in files compiled as CUDA) cuda.
#include "sinter.hpp"
#include "mpi/blocks.hpp"
#include "mpi/comm.hpp"
#include "mpi/dist_array.hpp"
#include "mpi/pass.hpp"
#include "mpi/policy.hpp"
#include "mpi/reduce.hpp"
#include "mpi/region.hpp"
#include "mpi/unsupported.hpp"
#if SINTER_HAS_CUDA()
#include "mpi/cuda_dist.hpp"  // dist<cuda>: compiled as CUDA only
#endif
