// createVariableMetadataTensor / createConstantMetadataTensor: one-element QUARTER_METADATA tensors on tile 0.
#include "poplar/MetadataCreation.hpp"

#include <string>

#include "poplar/exceptions.hpp"

namespace poplar {

namespace {
/// The metadata byte of (format, scale), naming the function and the scale when it does not fit.
std::uint8_t metadataByte(const char *what, QuarterMetadata::Format format, int scale) {
  if (scale < -32 || scale > 31)
    throw poplar_error(std::string(what) + ": fp8Scale " + std::to_string(scale) +
                       " is outside [-32, 31], the scales a QUARTER_METADATA byte holds");
  return QuarterMetadata(format, std::int8_t(scale)).getBinary();
}
} // namespace

Tensor createVariableMetadataTensor(Graph &graph, QuarterMetadata::Format fp8Format, int fp8Scale,
                                    const DebugContext &debugContext) {
  const std::uint8_t byte = metadataByte("createVariableMetadataTensor", fp8Format, fp8Scale);
  Tensor t = graph.addVariable(QUARTER_METADATA, {1}, debugContext);
  graph.setTileMapping(t, 0);
  graph.setInitialValue(t, byte);
  return t;
}

Tensor createConstantMetadataTensor(Graph &graph, QuarterMetadata::Format fp8Format, int fp8Scale,
                                    const DebugContext &debugContext) {
  const std::uint8_t byte = metadataByte("createConstantMetadataTensor", fp8Format, fp8Scale);
  Tensor t = graph.addConstant(QUARTER_METADATA, {1}, byte, debugContext);
  graph.setTileMapping(t, 0);
  return t;
}

} // namespace poplar
