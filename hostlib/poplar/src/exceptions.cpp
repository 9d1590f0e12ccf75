// Poplar's exception classes (see exceptions.hpp). Each constructor records its class name in `type`.
#include "poplar/exceptions.hpp"

namespace poplar {

#define POPLAR_DEFINE_ERROR(name)                                                                                  \
  name::name(const std::string &s) : poplar_error(s) { type = #name; }                                             \
  name::name(const char *s) : poplar_error(s) { type = #name; }

POPLAR_DEFINE_ERROR(graph_connection_error)
POPLAR_DEFINE_ERROR(graph_cycle_error)
POPLAR_DEFINE_ERROR(graph_object_creation_error)
POPLAR_DEFINE_ERROR(graph_object_load_error)
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
POPLAR_DEFINE_ERROR(no_size_specified)
POPLAR_DEFINE_ERROR(overflow_error)
POPLAR_DEFINE_ERROR(parse_error)
POPLAR_DEFINE_ERROR(profiling_disabled)
POPLAR_DEFINE_ERROR(stream_connection_error)
POPLAR_DEFINE_ERROR(stream_memory_allocation_error)
POPLAR_DEFINE_ERROR(tensor_creation_error)
POPLAR_DEFINE_ERROR(tensor_io_state_error)
POPLAR_DEFINE_ERROR(tensor_metadata_error)
POPLAR_DEFINE_ERROR(type_error)
POPLAR_DEFINE_ERROR(unknown_field)
POPLAR_DEFINE_ERROR(unknown_vertex_type)
POPLAR_DEFINE_ERROR(index_error)
POPLAR_DEFINE_ERROR(graph_memory_allocation_error)

#undef POPLAR_DEFINE_ERROR

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

symbol_error::symbol_error(const std::string &symbolName, unsigned tileId)
    : poplar_error("symbol '" + symbolName + "' is not defined on tile " + std::to_string(tileId) +
                   ": add the codelet that defines it to the graph"),
      name(symbolName), tile(tileId) {
  type = "symbol_error";
}

} // namespace poplar
