// Poplar's exception classes, with the SDK's hierarchy: every class derives from poplar_error (itself a
// std::runtime_error); the run-time ones are the host runtime's own classes under Poplar's names, so that they are
// poplar_errors too. Each class sets the public field `type` to its own name.
#ifndef POPLAR_EXCEPTIONS_HPP
#define POPLAR_EXCEPTIONS_HPP

#include <cstddef>
#include <ostream>
#include <stdexcept>
#include <string>

#include "poplar/detail/PoplarError.hpp"
#include "poplar/detail/StandardHeaders.hpp"
#include "poplar/ProfileValue.hpp"
#include "ipu_runtime/errors.hpp"
// runtime_error::ErrorInfo::code is a poplar::ErrorCode: a program that catches the exception compares it with the
// enumerators without having to know which header declares them.
#include "poplar/Error.hpp"

namespace poplar {

// Declares an error class that derives from poplar_error and takes a message as std::string or as const char *.
#define POPLAR_DECLARE_ERROR(name)                                                                                 \
  struct name : poplar_error {                                                                                     \
    explicit name(const std::string &s);                                                                           \
    explicit name(const char *s);                                                                                  \
  }

/// A graph element (tensor, vertex, field) is used in a way the graph does not allow, for example a vertex input
/// with no edge or with two edges.
POPLAR_DECLARE_ERROR(graph_connection_error);
/// The graph has a cycle that no recurrent edge breaks.
POPLAR_DECLARE_ERROR(graph_cycle_error);
/// A graph object (tensor, vertex, compute set) could not be created.
POPLAR_DECLARE_ERROR(graph_object_creation_error);
/// The graph or program could not be compiled (unmapped data, bad codelet, impossible exchange).
POPLAR_DECLARE_ERROR(graph_program_compilation_error);
/// A function or program calls itself.
POPLAR_DECLARE_ERROR(graph_recursion_error);
/// A replicated graph was used in a way replication does not allow.
POPLAR_DECLARE_ERROR(graph_replication_error);
/// The construction of a control program is invalid.
POPLAR_DECLARE_ERROR(control_program_error);
/// A parameter or option value is out of range or unknown.
POPLAR_DECLARE_ERROR(invalid_option);
/// The IPU Model or target description is invalid.
POPLAR_DECLARE_ERROR(invalid_machine_model);
/// A tile mapping names tiles the graph does not have, or does not cover the tensor.
POPLAR_DECLARE_ERROR(invalid_tile_mapping);
/// A tensor's elements cannot be placed to meet their memory-element constraints.
POPLAR_DECLARE_ERROR(memory_elem_constraints_error);
/// A graph profile was asked for but none was recorded.
POPLAR_DECLARE_ERROR(missing_graph_profile);
/// A vertex has no cycle estimate (no estimator registered and none set with Graph::setPerfEstimate).
POPLAR_DECLARE_ERROR(missing_perf_estimate);
/// Profile data was asked for that the run did not record.
POPLAR_DECLARE_ERROR(missing_profile_data);
/// A required environment (variable or device) is absent.
POPLAR_DECLARE_ERROR(no_environment);
/// A value does not fit the type it is stored in.
POPLAR_DECLARE_ERROR(overflow_error);
/// A text input (a profile, an option string, a JSON document) could not be parsed.
POPLAR_DECLARE_ERROR(parse_error);
/// A data stream is used in a way its connection does not allow (unconnected, wrong direction, wrong size).
POPLAR_DECLARE_ERROR(stream_connection_error);
/// Host memory for a data stream's buffer could not be allocated.
POPLAR_DECLARE_ERROR(stream_memory_allocation_error);
/// A tensor could not be created (bad shape, type or mapping).
POPLAR_DECLARE_ERROR(tensor_creation_error);
/// A tensor was read or written from the host in a state that does not allow it.
POPLAR_DECLARE_ERROR(tensor_io_state_error);
/// A tensor's metadata (quarter-precision scale and format) is missing or inconsistent.
POPLAR_DECLARE_ERROR(tensor_metadata_error);
/// A value has the wrong element type for the operation.
POPLAR_DECLARE_ERROR(type_error);
/// A vertex type name names no codelet that was added to the graph.
POPLAR_DECLARE_ERROR(unknown_vertex_type);

#undef POPLAR_DECLARE_ERROR

/// A codelet did not compile or a .gp file could not be read; the message holds the compiler's output.
struct graph_object_load_error : poplar_error {
  explicit graph_object_load_error(const std::string &s);
  explicit graph_object_load_error(const char *s);
  /// "cannot load `path`: `reason`", the SDK's form for a file that could not be loaded.
  graph_object_load_error(const std::string &path, const std::string &reason);
};

/// A vertex field's size was never given.
struct no_size_specified : poplar_error {
  explicit no_size_specified(const std::string &s);
  explicit no_size_specified(const char *s);
  /// Names the field and the vertex and says how to give the size.
  no_size_specified(const std::string &fieldName, const std::string &vertexName);
};

/// Profiling was asked for while it is disabled by the engine options.
struct profiling_disabled : poplar_error {
  /// Says which engine options turn profiling on.
  profiling_disabled();
  explicit profiling_disabled(const std::string &s);
  explicit profiling_disabled(const char *s);
};

/// A stream, handle, field or tensor name is unknown.
struct unknown_field : poplar_error {
  explicit unknown_field(const std::string &s);
  explicit unknown_field(const char *s);
  /// Field `fieldName` is not a field of vertex type `vertexTypeName`.
  unknown_field(const std::string &fieldName, const std::string &vertexTypeName);
};

/// The Poplar 2.x name of missing_perf_estimate.
typedef missing_perf_estimate missing_cycle_estimate;

/// A tensor operation (slice, reshape, ...) was given impossible arguments, or a vertex field was indexed out of
/// range.
struct index_error : poplar_error {
  explicit index_error(const std::string &s);
  explicit index_error(const char *s);
  /// "Index `index` out of range in `vertexDotField`", with the vertex field written as "Vertex.field".
  index_error(const std::string &vertexDotField, std::size_t index);
};

/// A tile ran out of memory: what() names the tile, the shortfall and the largest items on it. `graphProfile`
/// holds the graph profile when one was recorded, and `profilePath` the file it was written to (empty when the
/// engine options asked for no report).
struct graph_memory_allocation_error : poplar_error {
  explicit graph_memory_allocation_error(const std::string &s);
  explicit graph_memory_allocation_error(const char *s);
  /// The graph profile of the failed compilation, or an empty value.
  ProfileValue graphProfile;
  /// Where that profile was written, or empty.
  std::string profilePath;
};

/// A file (a graph, an executable, a profile) could not be opened or read; what() names the path.
struct file_load_error : poplar_error {
  explicit file_load_error(const std::string &path);
};

/// Linking a tile program failed; `output` holds the linker's own output.
struct link_error : poplar_error {
  explicit link_error(const std::string &s, const std::string &out = "");
  explicit link_error(const char *s, const char *out = "");
  /// The linker's output.
  std::string output;
};

/// A symbol a tile program needs is not defined on the tile it is placed on.
struct symbol_error : poplar_error {
  /// The symbol `name` is missing on tile `tile`.
  symbol_error(const std::string &name, unsigned tile);
  /// The missing symbol.
  std::string name;
  /// The tile it is missing on.
  unsigned tile;
};

/// Run-time errors: the host runtime's classes (ipu::runtime) under Poplar's names, all poplar_errors.
typedef ipu::runtime::runtime_error runtime_error;
typedef ipu::runtime::application_runtime_error application_runtime_error;
typedef ipu::runtime::system_runtime_error system_runtime_error;
typedef ipu::runtime::recoverable_runtime_error recoverable_runtime_error;
typedef ipu::runtime::unrecoverable_runtime_error unrecoverable_runtime_error;
typedef ipu::runtime::unknown_runtime_error unknown_runtime_error;
typedef ipu::runtime::RecoveryAction RecoveryAction;

/// toString(RecoveryAction): the action's name ("IPU_RESET", "PARTITION_RESET", "FULL_RESET"); operator<< writes
/// it. Declared once, in the runtime, so that a call found by argument-dependent lookup is not ambiguous.
using ipu::runtime::toString;
using ipu::runtime::operator<<;

} // namespace poplar

#endif // POPLAR_EXCEPTIONS_HPP
