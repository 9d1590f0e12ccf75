// Poplar's exception classes (see exceptions.hpp). Each constructor records its class name in `type`.
#include "poplar/exceptions.hpp"
#include "poplar/DebugContext.hpp"

namespace poplar {

#define POPLAR_DEFINE_ERROR(name)                                                                                  \
  name::name(const std::string &s) : poplar_error(s) { type = #name; }                                             \
  name::name(const char *s) : poplar_error(s) { type = #name; }

POPLAR_DEFINE_ERROR(graph_connection_error)
POPLAR_DEFINE_ERROR(graph_cycle_error)
POPLAR_DEFINE_ERROR(graph_object_creation_error)
POPLAR_DEFINE_ERROR(graph_program_compilation_error)
POPLAR_DEFINE_ERROR(graph_recursion_error)
POPLAR_DEFINE_ERROR(graph_replication_error)
POPLAR_DEFINE_ERROR(control_program_error)
POPLAR_DEFINE_ERROR(invalid_option)
POPLAR_DEFINE_ERROR(invalid_machine_model)
POPLAR_DEFINE_ERROR(invalid_tile_mapping)
POPLAR_DEFINE_ERROR(memory_elem_constraints_error)
POPLAR_DEFINE_ERROR(missing_graph_profile)
POPLAR_DEFINE_ERROR(missing_perf_estimate)
POPLAR_DEFINE_ERROR(missing_profile_data)
POPLAR_DEFINE_ERROR(no_environment)
POPLAR_DEFINE_ERROR(overflow_error)
POPLAR_DEFINE_ERROR(parse_error)
POPLAR_DEFINE_ERROR(stream_connection_error)
POPLAR_DEFINE_ERROR(stream_memory_allocation_error)
POPLAR_DEFINE_ERROR(tensor_creation_error)
POPLAR_DEFINE_ERROR(tensor_io_state_error)
POPLAR_DEFINE_ERROR(tensor_metadata_error)
POPLAR_DEFINE_ERROR(type_error)
POPLAR_DEFINE_ERROR(unknown_vertex_type)
POPLAR_DEFINE_ERROR(index_error)
POPLAR_DEFINE_ERROR(graph_memory_allocation_error)

POPLAR_DEFINE_ERROR(graph_object_load_error)
POPLAR_DEFINE_ERROR(no_size_specified)
POPLAR_DEFINE_ERROR(profiling_disabled)
POPLAR_DEFINE_ERROR(unknown_field)

#undef POPLAR_DEFINE_ERROR

// The SDK's constructors that build the message from their parts.
graph_object_load_error::graph_object_load_error(const std::string &path, const std::string &reason)
    : poplar_error("cannot load '" + path + "': " + reason) {
  type = "graph_object_load_error";
}

no_size_specified::no_size_specified(const std::string &fieldName, const std::string &vertexName)
    : poplar_error("field '" + fieldName + "' of vertex '" + vertexName + "' has no size: call "
                   "graph.setFieldSize(vertex[\"" + fieldName + "\"], n) before connecting it") {
  type = "no_size_specified";
}

profiling_disabled::profiling_disabled()
    : poplar_error("profiling is disabled: set the engine option autoReport.all (or debug.instrument) to \"true\" "
                   "to record a profile") {
  type = "profiling_disabled";
}

unknown_field::unknown_field(const std::string &fieldName, const std::string &vertexTypeName)
    : poplar_error("vertex type '" + vertexTypeName + "' has no field '" + fieldName +
                   "': use a field the codelet declares") {
  type = "unknown_field";
}

index_error::index_error(const std::string &vertexDotField, std::size_t index)
    : poplar_error("index " + std::to_string(index) + " is out of range for " + vertexDotField +
                   ": index within the field's size") {
  type = "index_error";
}

file_load_error::file_load_error(const std::string &path)
    : poplar_error("cannot load '" + path + "': check that the file exists and is readable") {
  type = "file_load_error";
}

link_error::link_error(const std::string &s, const std::string &out) : poplar_error(s), output(out) {
  type = "link_error";
}

link_error::link_error(const char *s, const char *out) : poplar_error(s), output(out ? out : "") {
  type = "link_error";
}

symbol_error::symbol_error(const std::string &symbolName, unsigned tileId)
    : poplar_error("symbol '" + symbolName + "' is not defined on tile " + std::to_string(tileId) +
                   ": add the codelet that defines it to the graph"),
      name(symbolName), tile(tileId) {
  type = "symbol_error";
}

} // namespace poplar

// poplar_error is the runtime's root error; the member that needs a DebugContext is defined here, with Poplar.
void ipu::runtime::error::attachSourceLocation(const poplar::DebugContext &debugContext) {
  const poplar::SourceLocation &loc = debugContext.getLocation();
  if (!loc.isValid())
    return;
  std::string message = std::string(what()) + " (at " + loc.getFunctionName() + ", " + loc.getFileName() + ":" +
                        std::to_string(loc.getLineNumber()) + ")";
  // std::runtime_error keeps its message in a base subobject: replace that, keeping `type` and derived members.
  static_cast<std::runtime_error &>(*this) = std::runtime_error(message);
}
