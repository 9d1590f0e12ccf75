// Tensors of QUARTER_METADATA: the format and scale a QUARTER tensor is read with (Graph::addVariable with
// metadata, popops::cast to QUARTER).
#ifndef POPLAR_METADATA_CREATION_HPP
#define POPLAR_METADATA_CREATION_HPP

#include "poplar/DebugContext.hpp"
#include "poplar/Graph.hpp"
#include "poplar/Quarter.hpp"
#include "poplar/Tensor.hpp"

namespace poplar {

/// A one-element QUARTER_METADATA variable on tile 0 whose initial value is (fp8Format, fp8Scale); programs may
/// change it. Throws poplar_error when the scale is outside [-32, 31].
Tensor createVariableMetadataTensor(Graph &graph, QuarterMetadata::Format fp8Format, int fp8Scale,
                                    const DebugContext &debugContext = {});
/// A one-element QUARTER_METADATA constant on tile 0 holding (fp8Format, fp8Scale). Throws poplar_error when the
/// scale is outside [-32, 31].
Tensor createConstantMetadataTensor(Graph &graph, QuarterMetadata::Format fp8Format, int fp8Scale,
                                    const DebugContext &debugContext = {});

} // namespace poplar

#endif
