// How Graph::addVariable maps a new variable to tiles.
#ifndef POPLAR_VARIABLE_MAPPING_METHOD_HPP
#define POPLAR_VARIABLE_MAPPING_METHOD_HPP

namespace poplar {

/// How Graph::addVariable maps a new variable to tiles.
enum class VariableMappingMethod {
  NONE,  ///< unmapped: map it with setTileMapping before compiling
  LINEAR ///< spread over the graph's tiles in contiguous, equal runs (as setTileMapping(t, linear) would)
};

} // namespace poplar

#endif
