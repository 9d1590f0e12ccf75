// popops::cast: a map with expr::Cast for the types the map interpreter knows; for QUARTER the
// popops::CastToQuarter / CastFromQuarter / CastQuarterToQuarter vertices (codelets/quarter_codelets.h), each
// reading the one-byte metadata when the program runs; for the 8- and 16-bit integer types the popops::CastInt
// vertices (codelets/cast_int_codelets.h). Vertices sit on the tile of their output elements, split over its
// workers.
#include "popops/Cast.hpp"

#include <functional>

#include <poplar/CSRFunctions.hpp>

#include "broadcast.hpp"
#include "map_internal.hpp"
#include "op_name.hpp"
#include "poplibs_support.hpp"
#include "poputil/exceptions.hpp"
#include "vertex_names.hpp"

namespace popops {

using poplar::Tensor;
using poputil::poplibs_error;

namespace {

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

// The types a QUARTER converts to and from (as Graphcore's PopLibs has them).
bool castsWithQuarter(const poplar::Type &t) {
  return t == poplar::FLOAT || t == poplar::HALF || t == poplar::CHAR || t == poplar::SIGNED_CHAR ||
         t == poplar::UNSIGNED_CHAR || t == poplar::QUARTER;
}

// Checks that src can be cast into dst (one shape, distinct output elements) and adds to `cs` one `vertex` per
// worker's run of each tile's output elements (dst's mapping), connecting its "in" and "out" to those elements of
// `in` and `out` (src and dst or byte views of them) and anything else with `more`.
void addCastVertices(poplar::Graph &graph, const Tensor &src, const Tensor &dst, const Tensor &in, const Tensor &out,
                     const std::string &vertex, poplar::ComputeSet cs, const std::string &name,
                     const std::function<void(poplar::VertexRef)> &more) {
  if (src.shape() != dst.shape())
    throw poplibs_error(name + ": the source has shape " + detail::shapeString(src.shape()) +
                        " but the output has shape " + detail::shapeString(dst.shape()) + "; pass tensors of one shape");
  if (!dst.isParallelWriteable())
    throw poplibs_error(name + ": the output has aliased elements; write into a tensor whose elements are distinct");
  if (dst.numElements() == 0)
    return;
  const unsigned workers = graph.getTarget().getNumWorkerContexts();
  const poplar::TileToTensorMapping mapping = detail::outputMapping(graph, dst, name);
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const auto &group : poplibs_support::splitForWorkers(mapping[tile], workers))
      for (const poplar::Interval &iv : group) {
        poplar::VertexRef v = graph.addVertex(cs, vertex);
        graph.setTileMapping(v, tile);
        graph.connect(v["in"], in.slice(iv));
        graph.connect(v["out"], out.slice(iv));
        more(v);
      }
}

// Adds to `cs` the vertices that convert src into dst, one or both of them QUARTER: a QUARTER source is read with
// `srcMetadata`, a QUARTER output written with `dstMetadata` (each invalid for a side that is not QUARTER).
void castQuarter(poplar::Graph &graph, const Tensor &src, const Tensor &dst, const Tensor &srcMetadata,
                 const Tensor &dstMetadata, poplar::ComputeSet cs, const std::string &name) {
  const bool toQuarter = dst.elementType() == poplar::QUARTER, fromQuarter = src.elementType() == poplar::QUARTER;
  const poplar::Type other = toQuarter ? src.elementType() : dst.elementType();
  if (!castsWithQuarter(other))
    throw poplibs_error(name + ": QUARTER converts to and from FLOAT, HALF, CHAR, SIGNED_CHAR, UNSIGNED_CHAR and "
                               "QUARTER only, not " + other.toString() + "; cast through HALF");
  if (fromQuarter)
    checkMetadata(srcMetadata, name);
  if (toQuarter)
    checkMetadata(dstMetadata, name);
  // The tiles have no QUARTER fields: the vertices take the bytes as UNSIGNED_CHAR.
  const auto bytes = [](const Tensor &t) {
    return t.elementType() == poplar::QUARTER || t.elementType() == poplar::QUARTER_METADATA
               ? t.flatten().reinterpret(poplar::UNSIGNED_CHAR)
               : t.flatten();
  };
  const std::string vertex = toQuarter && fromQuarter ? std::string("popops::CastQuarterToQuarter")
                             : poputil::detail::templateVertex(
                                   toQuarter ? "popops::CastToQuarter" : "popops::CastFromQuarter", {other});
  // An overflow to QUARTER is NaN or saturates as the program's setFloatingPointBehaviour last said (nanoo).
  const Tensor fpControl = toQuarter ? poplar::getFloatingPointControlTensor(graph)[0] : Tensor();
  addCastVertices(graph, src, dst, bytes(src), bytes(dst), vertex, cs, name, [&](poplar::VertexRef v) {
    if (toQuarter)
      graph.connect(v["fpControl"], fpControl);
    if (toQuarter && fromQuarter) {
      graph.connect(v["inMetadata"], bytes(srcMetadata));
      graph.connect(v["outMetadata"], bytes(dstMetadata));
    } else {
      graph.connect(v["metadata"], bytes(fromQuarter ? srcMetadata : dstMetadata));
    }
  });
}

// The 8- and 16-bit integer types, which the map interpreter does not hold: their casts have vertices of their own.
bool isSmallInt(const poplar::Type &t) {
  return t == poplar::CHAR || t == poplar::SIGNED_CHAR || t == poplar::UNSIGNED_CHAR || t == poplar::SHORT ||
         t == poplar::UNSIGNED_SHORT;
}

bool involvesSmallInt(const Tensor &src, const Tensor &dst) {
  return src.valid() && dst.valid() && (isSmallInt(src.elementType()) || isSmallInt(dst.elementType()));
}

// Adds to `cs` the popops::CastInt vertices (codelets/cast_int_codelets.h) converting src into dst, one of them an
// 8- or 16-bit integer type and the other FLOAT, HALF, INT or UNSIGNED_INT.
void castSmallInt(poplar::Graph &graph, const Tensor &src, const Tensor &dst, poplar::ComputeSet cs,
                  const std::string &name) {
  const poplar::Type from = src.elementType(), to = dst.elementType();
  const poplar::Type other = isSmallInt(from) ? to : from;
  if (other != poplar::FLOAT && other != poplar::HALF && other != poplar::INT && other != poplar::UNSIGNED_INT)
    throw poplibs_error(name + ": a cast from " + from.toString() + " to " + to.toString() +
                        " is not supported; CHAR, SIGNED_CHAR, UNSIGNED_CHAR, SHORT and UNSIGNED_SHORT convert to "
                        "and from FLOAT, HALF, INT and UNSIGNED_INT: cast through INT");
  addCastVertices(graph, src, dst, src.flatten(), dst.flatten(),
                  poputil::detail::templateVertex("popops::CastInt", {from, to}), cs, name,
                  [](poplar::VertexRef) {});
}

bool involvesQuarter(const Tensor &src, const Tensor &dst) {
  return src.valid() && dst.valid() && (src.elementType() == poplar::QUARTER || dst.elementType() == poplar::QUARTER);
}

// The metadata `t`'s elements are read or written with when it is QUARTER (its own), else an invalid tensor.
Tensor sideMetadata(const Tensor &t, const char *role, const std::string &name) {
  return t.elementType() == poplar::QUARTER ? metadataOf(t, role, name) : Tensor();
}

// Adds to `cs` the vertices of any cast from src into dst.
void castInto(poplar::Graph &graph, const Tensor &src, const Tensor &dst, const Tensor &srcMetadata,
              const Tensor &dstMetadata, poplar::ComputeSet cs, const std::string &name) {
  if (involvesQuarter(src, dst))
    castQuarter(graph, src, dst, srcMetadata, dstMetadata, cs, name);
  else if (involvesSmallInt(src, dst))
    castSmallInt(graph, src, dst, cs, name);
  else
    detail::mapIntoComputeSet(graph, expr::Cast(expr::_1, dst.valid() ? dst.elementType() : poplar::FLOAT), {src},
                              dst, cs, name);
}

// Appends to `prog` one compute set casting src into dst (nothing to run for an empty dst).
void castProgram(poplar::Graph &graph, const Tensor &src, const Tensor &dst, const Tensor &srcMetadata,
                 const Tensor &dstMetadata, poplar::program::Sequence &prog, const std::string &name) {
  poplar::ComputeSet cs = graph.addComputeSet(name);
  castInto(graph, src, dst, srcMetadata, dstMetadata, cs, name);
  if (dst.numElements() > 0)
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

// The output of a cast of `src` to a new tensor of `dstType`, and what its QUARTER sides are read or written with:
// `given` for a QUARTER result (required), src's own for a QUARTER source, invalid otherwise.
Tensor newCastOutput(poplar::Graph &graph, const Tensor &src, const poplar::Type &dstType, const Tensor &given,
                     Tensor &srcMetadata, Tensor &dstMetadata, const std::string &name) {
  if (!src.valid())
    throw poplibs_error(name + ": the source is an invalid (default-constructed) tensor");
  srcMetadata = sideMetadata(src, "source", name);
  if (dstType == poplar::QUARTER && given.valid()) {
    checkMetadata(given, name);
    dstMetadata = given;
  } else if (dstType == poplar::QUARTER && srcMetadata.valid()) {
    // QUARTER to QUARTER without metadata is a copy (as the reference says of a cast to the source's type): the
    // result is read with the source's metadata.
    dstMetadata = srcMetadata;
  }
  Tensor out = newOutputLike(graph, src, dstType, dstMetadata, name);
  if (dstType == poplar::QUARTER && !dstMetadata.valid()) {
    // No metadata given: the result gets one of its own (Graph::addVariable makes it) and, as every cast to
    // QUARTER does, is written with its destination's metadata. It starts as F143 with scale 0 (QuarterMetadata's
    // default, our choice) and can be rewritten before the program runs, as any metadata variable can.
    dstMetadata = out.getMetadata();
    graph.setInitialValue(dstMetadata, unsigned(poplar::QuarterMetadata().getBinary()));
  }
  return out;
}

} // namespace

Tensor cast(poplar::Graph &graph, const Tensor &src, const poplar::Type &dstType, poplar::program::Sequence &prog,
            const poplar::DebugContext &debugContext) {
  return cast(graph, src, dstType, Tensor(), prog, debugContext);
}

Tensor cast(poplar::Graph &graph, const Tensor &src, const poplar::Type &dstType, const Tensor &metadata,
            poplar::program::Sequence &prog, const poplar::DebugContext &debugContext) {
  const bool byVertex = dstType == poplar::QUARTER || isSmallInt(dstType) ||
                        (src.valid() && (src.elementType() == poplar::QUARTER || isSmallInt(src.elementType())));
  if (!byVertex)
    return map(graph, expr::Cast(expr::_1, dstType), {src}, prog, debugContext); // map's placement and checks
  const std::string name = opName(debugContext, "cast");
  Tensor srcMd, dstMd;
  Tensor out = newCastOutput(graph, src, dstType, metadata, srcMd, dstMd, name);
  castProgram(graph, src, out, srcMd, dstMd, prog, name);
  return out;
}

void cast(poplar::Graph &graph, const Tensor &src, const Tensor &dst, poplar::program::Sequence &prog,
          const poplar::DebugContext &debugContext) {
  if (!involvesQuarter(src, dst) && !involvesSmallInt(src, dst)) {
    mapWithOutput(graph, expr::Cast(expr::_1, dst.valid() ? dst.elementType() : poplar::FLOAT), {src}, dst, prog,
                  debugContext);
    return;
  }
  const std::string name = opName(debugContext, "cast");
  castProgram(graph, src, dst, sideMetadata(src, "source", name), sideMetadata(dst, "output", name), prog, name);
}

void castWithOutput(poplar::Graph &graph, const Tensor &src, const Tensor &dst, poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext) {
  cast(graph, src, dst, prog, debugContext);
}

poplar::program::Program cast(poplar::Graph &graph, Tensor src, Tensor dst,
                              const poplar::DebugContext &debugContext) {
  poplar::program::Sequence prog;
  cast(graph, src, dst, prog, debugContext);
  return prog;
}

void cast(poplar::Graph &graph, Tensor src, Tensor dst, poplar::ComputeSet cs) {
  const std::string name = "popops::cast";
  const bool quarter = involvesQuarter(src, dst);
  castInto(graph, src, dst, quarter ? sideMetadata(src, "source", name) : Tensor(),
           quarter ? sideMetadata(dst, "output", name) : Tensor(), cs, name);
}

Tensor cast(poplar::Graph &graph, Tensor src, const poplar::Type &dstType, poplar::ComputeSet cs,
            const poplar::DebugContext &debugContext) {
  return cast(graph, src, dstType, Tensor(), cs, debugContext);
}

Tensor cast(poplar::Graph &graph, Tensor src, const poplar::Type &dstType, const Tensor &metadata,
            poplar::ComputeSet cs, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "cast");
  Tensor srcMd, dstMd;
  Tensor out = newCastOutput(graph, src, dstType, metadata, srcMd, dstMd, name);
  castInto(graph, src, out, srcMd, dstMd, cs, name);
  return out;
}

Tensor checkAccuracyWhenCast(poplar::Graph &graph, const Tensor &input, poplar::Type outputType, double tolerance,
                             poplar::program::Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "checkAccuracyWhenCast");
  if (!input.valid() || input.elementType() != poplar::FLOAT || outputType != poplar::HALF)
    throw poplibs_error(name + ": only a FLOAT input cast to HALF is checked; pass a FLOAT tensor and HALF");
  if (input.numElements() != 1)
    throw poplibs_error(name + ": the input has " + std::to_string(input.numElements()) +
                        " elements; pass a tensor of one element");
  // |x| * tolerance > |float(half(x)) - x|: false for 0, for NaN and for a value half makes infinite.
  namespace e = expr;
  const e::Any error = e::Abs(e::Sub(e::Cast(e::Cast(e::_1, poplar::HALF), poplar::FLOAT), e::_1));
  return map(graph, e::Gt(e::Mul(e::Abs(e::_1), e::Const(float(tolerance))), error), {input}, prog, name);
}

} // namespace popops
