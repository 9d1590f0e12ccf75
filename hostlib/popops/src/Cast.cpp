// popops::cast: a map with expr::Cast for the types the map interpreter knows, and for QUARTER the
// popops::CastToQuarter / CastFromQuarter vertices (codelets/quarter_codelets.h), one per output region on the
// region's tile, each reading the one-byte metadata when the program runs.
#include "popops/Cast.hpp"

#include "broadcast.hpp"
#include "map_internal.hpp"
#include "op_name.hpp"
#include "poputil/exceptions.hpp"
#include "vertex_names.hpp"

namespace popops {

using poplar::Tensor;
using poputil::poplibs_error;

namespace {

bool isFloatOrHalf(const poplar::Type &t) { return t == poplar::FLOAT || t == poplar::HALF; }

void checkMetadata(const Tensor &metadata, const std::string &name) {
  if (!metadata.valid() || metadata.elementType() != poplar::QUARTER_METADATA || metadata.numElements() != 1)
    throw poplibs_error(name + ": the metadata must be a one-element QUARTER_METADATA tensor; make one with "
                               "poplar::createVariableMetadataTensor or createConstantMetadataTensor");
}

// The metadata `t` (a QUARTER tensor) was created with, or an error saying how to give it some.
Tensor metadataOf(const Tensor &t, const char *role, const std::string &name) {
  if (!t.hasMetadata())
    throw poplibs_error(name + ": the QUARTER " + role + " has no metadata; create it with "
                               "Graph::addVariable(QUARTER, metadata, shape)");
  return t.getMetadata();
}

// Adds to `prog` the compute set that converts src into dst, one of them QUARTER read or written with `metadata`
// and the other FLOAT or HALF.
void castQuarter(poplar::Graph &graph, const Tensor &src, const Tensor &dst, const Tensor &metadata,
                 poplar::program::Sequence &prog, const std::string &name) {
  const bool toQuarter = dst.elementType() == poplar::QUARTER;
  const poplar::Type other = toQuarter ? src.elementType() : dst.elementType();
  if (!isFloatOrHalf(other) || src.elementType() == dst.elementType())
    throw poplibs_error(name + ": QUARTER converts to and from FLOAT and HALF only, not " + other.toString() +
                        "; cast through HALF");
  if (src.shape() != dst.shape())
    throw poplibs_error(name + ": the source has shape " + detail::shapeString(src.shape()) +
                        " but the output has shape " + detail::shapeString(dst.shape()) + "; pass tensors of one shape");
  checkMetadata(metadata, name);
  if (!dst.isParallelWriteable())
    throw poplibs_error(name + ": the output has aliased elements; write into a tensor whose elements are distinct");
  if (dst.numElements() == 0)
    return;
  // The tiles have no QUARTER fields: the vertices take the bytes as UNSIGNED_CHAR.
  const auto bytes = [](const Tensor &t) {
    return t.elementType() == poplar::QUARTER || t.elementType() == poplar::QUARTER_METADATA
               ? t.flatten().reinterpret(poplar::UNSIGNED_CHAR)
               : t.flatten();
  };
  const Tensor in = bytes(src), out = bytes(dst), md = bytes(metadata);
  const std::string vertex =
      poputil::detail::templateVertex(toQuarter ? "popops::CastToQuarter" : "popops::CastFromQuarter", {other});
  poplar::ComputeSet cs = graph.addComputeSet(name);
  const poplar::TileToTensorMapping mapping = detail::outputMapping(graph, dst, name);
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const poplar::Interval &iv : mapping[tile]) {
      poplar::VertexRef v = graph.addVertex(cs, vertex);
      graph.setTileMapping(v, tile);
      graph.connect(v["in"], in.slice(iv));
      graph.connect(v["out"], out.slice(iv));
      graph.connect(v["metadata"], md);
    }
  prog.add(poplar::program::Execute(cs, name));
}

// A new tensor of `type` (with `metadata` for QUARTER) of src's shape, mapped as src is when src is fully mapped.
Tensor newOutputLike(poplar::Graph &graph, const Tensor &src, const poplar::Type &type, const Tensor &metadata,
                     const std::string &name) {
  Tensor out = type == poplar::QUARTER ? graph.addVariable(type, metadata, src.shape(), name + "/out")
                                       : graph.addVariable(type, src.shape(), name + "/out");
  detail::mapLike(graph, out, {src});
  return out;
}

} // namespace

Tensor cast(poplar::Graph &graph, const Tensor &src, const poplar::Type &dstType, poplar::program::Sequence &prog,
            const poplar::DebugContext &debugContext) {
  if (dstType == poplar::QUARTER)
    throw poplibs_error(opName(debugContext, "cast") + ": a cast to QUARTER needs the result's metadata; use "
                                                       "cast(graph, src, QUARTER, metadata, prog)");
  if (src.valid() && src.elementType() == poplar::QUARTER) {
    const std::string name = opName(debugContext, "cast");
    Tensor out = newOutputLike(graph, src, dstType, Tensor(), name);
    castQuarter(graph, src, out, metadataOf(src, "source", name), prog, name);
    return out;
  }
  return map(graph, expr::Cast(expr::_1, dstType), {src}, prog, debugContext);
}

Tensor cast(poplar::Graph &graph, const Tensor &src, const poplar::Type &dstType, const Tensor &metadata,
            poplar::program::Sequence &prog, const poplar::DebugContext &debugContext) {
  if (dstType != poplar::QUARTER)
    return cast(graph, src, dstType, prog, debugContext);
  const std::string name = opName(debugContext, "cast");
  if (!src.valid())
    throw poplibs_error(name + ": the source is an invalid (default-constructed) tensor");
  checkMetadata(metadata, name);
  Tensor out = newOutputLike(graph, src, dstType, metadata, name);
  castQuarter(graph, src, out, metadata, prog, name);
  return out;
}

void cast(poplar::Graph &graph, const Tensor &src, const Tensor &dst, poplar::program::Sequence &prog,
          const poplar::DebugContext &debugContext) {
  const bool quarter = src.valid() && dst.valid() &&
                       (src.elementType() == poplar::QUARTER || dst.elementType() == poplar::QUARTER);
  if (!quarter) {
    mapWithOutput(graph, expr::Cast(expr::_1, dst.valid() ? dst.elementType() : poplar::FLOAT), {src}, dst, prog,
                  debugContext);
    return;
  }
  const std::string name = opName(debugContext, "cast");
  const bool toQuarter = dst.elementType() == poplar::QUARTER;
  castQuarter(graph, src, dst, metadataOf(toQuarter ? dst : src, toQuarter ? "output" : "source", name), prog,
              name);
}

void castWithOutput(poplar::Graph &graph, const Tensor &src, const Tensor &dst, poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext) {
  cast(graph, src, dst, prog, debugContext);
}

} // namespace popops
