#pragma once
/// \file sinter.hpp
/// Umbrella header: everything a user of sinter needs.
#include "config.hpp"
#include "array.hpp"
#include "expression.hpp"
#include "factories.hpp"
#include "functions.hpp"
#include "io.hpp"
#include "policy/host.hpp"
#include "policy/par.hpp"
#include "policy/cuda.hpp"
#include "device.hpp"
#include "reduce.hpp"
#include "slice.hpp"
#include "trace.hpp"
#include "transfer.hpp"
#include "view.hpp"
#include "view_ops.hpp"
