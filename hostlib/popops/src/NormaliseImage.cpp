// popops/NormaliseImage.hpp. The image is viewed as [pixels, 3]; one element-wise map with the per-channel offsets
// and scales broadcast over the pixels writes channels 0-2 of a [pixels, 4] output laid out pixel for pixel like
// the input (so the map needs no exchange), and a zero fill writes channel 3.
#include "popops/NormaliseImage.hpp"

#include <string>
#include <vector>

#include "popops/ElementWise.hpp"
#include "popops/Zero.hpp"
#include "poputil/TileMapping.hpp"
#include "poputil/exceptions.hpp"

#include "op_name.hpp"

namespace popops {

using poplar::Tensor;
using poputil::poplibs_error;
namespace pe = popops::expr;

namespace {

void checkImageType(const poplar::Type &type, const std::string &name) {
  if (type != poplar::UNSIGNED_CHAR && type != poplar::HALF && type != poplar::FLOAT)
    throw poplibs_error(name + ": the image holds " + type.toString() + "; it must be UNSIGNED_CHAR, HALF or FLOAT");
}

/// `in` (UNSIGNED_CHAR) as a new HALF tensor mapped like it: one UCharToHalf vertex per contiguous region on
/// each tile, since element-wise maps do not take 8-bit types.
Tensor widenUChar(poplar::Graph &graph, const Tensor &in, poplar::program::Sequence &seq, const std::string &name) {
  Tensor out = graph.addVariable(poplar::HALF, in.shape(), name);
  Tensor inF = in.flatten(), outF = out.flatten();
  poplar::ComputeSet cs = graph.addComputeSet(name);
  const auto mapping = graph.getTileMapping(in);
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const poplar::Interval &iv : mapping[tile]) {
      graph.setTileMapping(outF.slice(iv.begin(), iv.end()), tile);
      auto v = graph.addVertex(cs, "popops::UCharToHalf",
                               {{"in", inF.slice(iv.begin(), iv.end())}, {"out", outF.slice(iv.begin(), iv.end())}});
      graph.setTileMapping(v, tile);
    }
  seq.add(poplar::program::Execute(cs));
  return out;
}

} // namespace

Tensor createNormaliseImageInput(poplar::Graph &graph, const poplar::Type &type,
                                 const poplar::ArrayRef<std::size_t> shape, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "createNormaliseImageInput");
  checkImageType(type, name);
  if (shape.size() == 0 || shape[shape.size() - 1] != 3)
    throw poplibs_error(name + ": the innermost dimension must be 3 (the channels)");
  Tensor t = graph.addVariable(type, std::vector<std::size_t>(shape.begin(), shape.end()), name);
  poputil::mapTensorLinearly(graph, t, 0, 3); // grains of one pixel keep pixels whole
  return t;
}

Tensor normaliseImage(poplar::Graph &graph, poplar::program::Sequence &seq, Tensor tIn, float inScale,
                      Tensor offsets, Tensor scales, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "normaliseImage");
  checkImageType(tIn.elementType(), name);
  if (tIn.rank() == 0 || tIn.dim(tIn.rank() - 1) != 3)
    throw poplibs_error(name + ": the image's innermost dimension must be 3 (the channels)");
  const poplar::Type outType = tIn.elementType() == poplar::UNSIGNED_CHAR ? poplar::HALF : tIn.elementType();
  for (const Tensor *v : {&offsets, &scales})
    if (v->shape() != std::vector<std::size_t>{3} || v->elementType() != outType)
      throw poplibs_error(name + ": offsets and scales must be shape {3} of " + outType.toString() +
                          " (the output type)");
  std::vector<std::size_t> outShape = tIn.shape();
  outShape.back() = 4;
  Tensor out = graph.addVariable(outType, outShape, name + "/out");
  const std::size_t pixels = tIn.numElements() / 3;
  Tensor out2 = out.reshape({pixels, 4});
  // Output pixel p goes to the tile of input element 3p: the pixels starting inside [b, e) are [ceil(b/3),
  // ceil(e/3)), which partitions the pixels even when the input splits one across tiles.
  const auto mapping = graph.getTileMapping(tIn);
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const poplar::Interval &iv : mapping[tile]) {
      const std::size_t p0 = (iv.begin() + 2) / 3, p1 = (iv.end() + 2) / 3;
      if (p1 > p0)
        graph.setTileMapping(out2.slice(p0, p1), tile);
    }
  if (pixels == 0)
    return out;
  Tensor in2 = tIn.reshape({pixels, 3});
  if (tIn.elementType() == poplar::UNSIGNED_CHAR)
    in2 = widenUChar(graph, in2, seq, name + "/cast");
  Tensor off = offsets.expand({0}).broadcast(unsigned(pixels), 0);
  Tensor sc = scales.expand({0}).broadcast(unsigned(pixels), 0);
  mapWithOutput(graph, (pe::_1 * pe::Const(inScale) - pe::_2) * pe::_3, {in2, off, sc}, out2.slice(0, 3, 1), seq,
                name + "/normalise");
  zero(graph, out2.slice(3, 4, 1), seq, name + "/pad");
  return out;
}

} // namespace popops
