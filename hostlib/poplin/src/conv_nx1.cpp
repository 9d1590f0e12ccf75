// poplin's nx1 convolution: see conv_nx1.hpp.
#include "conv_nx1.hpp"

#include <algorithm>

#include "vertex_names.hpp"

namespace poplin::detail {

namespace {

// The dimensions one vertex works with: output rows and width, kernel height and width, strides (a 1-D
// convolution has one row and a kernel of one row).
struct Nx1Shape {
  std::size_t outRows, outWidth, kernelH, kernelW, strideY, strideX;
};

Nx1Shape shapeOf(const ConvParams &p) {
  auto computed = [&](unsigned d) {
    return p.getOutputSize(d) - p.outputTransform.paddingLower[d] - p.outputTransform.paddingUpper[d];
  };
  if (p.getNumFieldDims() == 1)
    return {1, computed(0), 1, p.getTransformedKernelSize(0), 1, p.outputTransform.stride[0]};
  return {computed(0),
          computed(1),
          p.getTransformedKernelSize(0),
          p.getTransformedKernelSize(1),
          p.outputTransform.stride[0],
          p.outputTransform.stride[1]};
}

// Output rows per vertex: each (batch, group)'s rows cut so that all of them make about one vertex per tile.
std::size_t rowsPerVertex(const poplar::Target &target, const ConvParams &p, std::size_t outRows) {
  const std::size_t all = p.batchSize * p.numConvGroups * outRows, tiles = std::max(1u, target.getNumTiles());
  return std::min(outRows, std::max<std::size_t>(1, (all + tiles - 1) / tiles));
}

} // namespace

bool convNx1Applies(const poplar::Target &target, const ConvParams &p) {
  const unsigned nd = p.getNumFieldDims();
  const bool types = (p.inputType == poplar::FLOAT && p.outputType == poplar::FLOAT) ||
                     (p.inputType == poplar::HALF && (p.outputType == poplar::HALF || p.outputType == poplar::FLOAT));
  if (nd < 1 || nd > 2 || !types)
    return false;
  const Nx1Shape s = shapeOf(p);
  if (s.outRows == 0 || s.outWidth == 0)
    return false;
  const std::size_t rows = rowsPerVertex(target, p, s.outRows);
  const std::size_t inSize = target.getTypeSize(p.inputType), outSize = target.getTypeSize(p.outputType);
  const std::size_t inBytes =
      p.inputChannels * ((rows - 1) * s.strideY + s.kernelH) * ((s.outWidth - 1) * s.strideX + s.kernelW) * inSize;
  const std::size_t weightBytes = p.outputChannels * p.inputChannels * s.kernelH * s.kernelW * inSize;
  const std::size_t outBytes = p.outputChannels * rows * s.outWidth * outSize;
  return inBytes + weightBytes + outBytes <= target.getBytesPerTile() / 8;
}

void buildConvNx1(poplar::Graph &graph, const poplar::Tensor &in, const poplar::Tensor &weights,
                  const poplar::Tensor &out, const ConvParams &p, poplar::program::Sequence &prog,
                  const std::string &name) {
  const poplar::Target &target = graph.getTarget();
  const Nx1Shape s = shapeOf(p);
  const std::size_t Ci = p.inputChannels, Co = p.outputChannels;
  const std::size_t width = (s.outWidth - 1) * s.strideX + s.kernelW; // input columns the output reads
  const std::size_t rows = rowsPerVertex(target, p, s.outRows);
  const std::string vertex = poputil::detail::templateVertex("poplin::ConvPartialnx1", {p.inputType, p.outputType});
  poplar::ComputeSet cs = graph.addComputeSet(name + "/ConvPartialnx1");
  unsigned tile = 0;
  for (std::size_t b = 0; b < p.batchSize; ++b)
    for (std::size_t g = 0; g < p.numConvGroups; ++g)
      for (std::size_t r0 = 0; r0 < s.outRows; r0 += rows) {
        const std::size_t r1 = std::min(s.outRows, r0 + rows), inRows = (r1 - r0 - 1) * s.strideY + s.kernelH;
        poplar::Tensor x = in[b].slice(g * Ci, (g + 1) * Ci, 0).slice(r0 * s.strideY, r0 * s.strideY + inRows, 1);
        poplar::VertexRef v = graph.addVertex(cs, vertex);
        graph.setTileMapping(v, tile);
        tile = (tile + 1) % std::max(1u, target.getNumTiles());
        graph.connect(v["in"], x.slice(0, width, 2).flatten());
        graph.connect(v["weights"], weights[g].flatten());
        graph.connect(v["out"], out[b].slice(g * Co, (g + 1) * Co, 0).slice(r0, r1, 1).flatten());
        graph.setInitialValue(v["inChans"], unsigned(Ci));
        graph.setInitialValue(v["inRows"], unsigned(inRows));
        graph.setInitialValue(v["inWidth"], unsigned(width));
        graph.setInitialValue(v["kernelH"], unsigned(s.kernelH));
        graph.setInitialValue(v["kernelW"], unsigned(s.kernelW));
        graph.setInitialValue(v["outRows"], unsigned(r1 - r0));
        graph.setInitialValue(v["outWidth"], unsigned(s.outWidth));
        graph.setInitialValue(v["strideY"], unsigned(s.strideY));
        graph.setInitialValue(v["strideX"], unsigned(s.strideX));
      }
  prog.add(poplar::program::Execute(cs, name + "/ConvPartialnx1"));
}

} // namespace poplin::detail
