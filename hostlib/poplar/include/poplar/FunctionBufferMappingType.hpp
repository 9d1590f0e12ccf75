// Where Graph::addFunctionBuffer keeps a function's code.
#ifndef POPLAR_FUNCTION_BUFFER_MAPPING_TYPE_HPP
#define POPLAR_FUNCTION_BUFFER_MAPPING_TYPE_HPP

namespace poplar {

/// REMOTE: in remote (host-side) memory, loaded onto the tiles by program::Copy(buffer, function).
enum class FunctionBufferMappingType { REMOTE };

} // namespace poplar

#endif // POPLAR_FUNCTION_BUFFER_MAPPING_TYPE_HPP
