// Poplar's exception classes; the runtime ones are the host runtime's own classes under Poplar's names.
#ifndef POPLAR_EXCEPTIONS_HPP
#define POPLAR_EXCEPTIONS_HPP

#include <stdexcept>
#include <string>

#include "poplar/detail/StandardHeaders.hpp"
#include "ipu_runtime/errors.hpp"

namespace poplar {

/// Base of the graph-construction and compilation errors; the message names the problem and the fix.
struct poplar_error : std::runtime_error {
  /// Why the call failed.
  explicit poplar_error(const std::string &s);
  /// Poplar's field with the same text as what().
  std::string type;
};

/// A graph element (tensor, vertex, field) is used in a way the graph does not allow.
struct graph_connection_error : poplar_error {
  explicit graph_connection_error(const std::string &s);
};
/// The graph or program could not be compiled (unmapped data, out of memory, bad codelet).
struct graph_program_compilation_error : poplar_error {
  explicit graph_program_compilation_error(const std::string &s);
};
/// A codelet did not compile or a .gp file could not be read; the message holds the compiler's output.
struct graph_object_load_error : poplar_error {
  explicit graph_object_load_error(const std::string &s);
};
/// A tile ran out of memory: the message names the tile, the shortfall and the largest items on it.
struct graph_memory_allocation_error : graph_program_compilation_error {
  explicit graph_memory_allocation_error(const std::string &s);
};
/// A parameter value is out of range.
struct invalid_option : poplar_error {
  explicit invalid_option(const std::string &s);
};
/// A tensor operation (slice, reshape, ...) was given impossible arguments.
struct index_error : poplar_error {
  explicit index_error(const std::string &s);
};
/// A stream, handle or tensor name is unknown.
struct unknown_field : poplar_error {
  explicit unknown_field(const std::string &s);
};

/// Runtime errors: the host runtime's classes (ipu::runtime) under Poplar's names.
typedef ipu::runtime::runtime_error runtime_error;
typedef ipu::runtime::application_runtime_error application_runtime_error;
typedef ipu::runtime::recoverable_runtime_error recoverable_runtime_error;
typedef ipu::runtime::unrecoverable_runtime_error unrecoverable_runtime_error;
typedef ipu::runtime::RecoveryAction RecoveryAction;

} // namespace poplar

#endif // POPLAR_EXCEPTIONS_HPP
