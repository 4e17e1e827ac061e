#pragma once
/// \file policy/cuda.hpp
/// sinter::cuda: the policy (policy/cuda/backend.hpp) and the hooks of the
/// backend contract it specialises for transfers (policy/cuda/transfer.hpp)
/// and printing (policy/cuda/print.hpp). The only way into policy/cuda/
/// from outside it: front-end headers use the contract, policy/backend.hpp.
#include "cuda/backend.hpp"
#include "cuda/print.hpp"
#include "cuda/transfer.hpp"
