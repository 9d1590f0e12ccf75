// Poplar's exception classes.
#include "poplar/exceptions.hpp"

namespace poplar {

poplar_error::poplar_error(const std::string &s) : std::runtime_error(s), type("poplar_error") {}
graph_connection_error::graph_connection_error(const std::string &s) : poplar_error(s) {}
graph_program_compilation_error::graph_program_compilation_error(const std::string &s) : poplar_error(s) {}
graph_object_load_error::graph_object_load_error(const std::string &s) : poplar_error(s) {}
graph_memory_allocation_error::graph_memory_allocation_error(const std::string &s)
    : graph_program_compilation_error(s) {}
invalid_option::invalid_option(const std::string &s) : poplar_error(s) {}
index_error::index_error(const std::string &s) : poplar_error(s) {}
unknown_field::unknown_field(const std::string &s) : poplar_error(s) {}

} // namespace poplar
