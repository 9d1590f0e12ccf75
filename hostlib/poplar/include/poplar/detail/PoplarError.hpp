// poplar::poplar_error, the root of every Poplar error, apart from the other exception classes so that
// ProfileValue.hpp (whose profiling_error derives from it) and exceptions.hpp (whose graph_memory_allocation_error
// carries a ProfileValue) can both use it without including each other.
#ifndef POPLAR_DETAIL_POPLARERROR_HPP
#define POPLAR_DETAIL_POPLARERROR_HPP

#include "ipu_runtime/errors.hpp"

namespace poplar {

/// The root of every error Poplar and PopLibs throw, the run-time errors included. what() names the problem and
/// the fix; the public field `type` names the most-derived class ("poplar_error", "graph_cycle_error", ...).
/// It is the host runtime's root error class, so that failures raised below libpoplar are poplar_errors too.
typedef ipu::runtime::error poplar_error;

} // namespace poplar

#endif // POPLAR_DETAIL_POPLARERROR_HPP
