// popops::fill and popops::zero: a constant written into a tensor, or into listed regions of it on the tiles the
// caller names. FLOAT, HALF, INT, UNSIGNED_INT and BOOL are written by map's vertices (a constant expression);
// the integers of 1, 2 and 8 bytes and QUARTER, which the map interpreter has no code for, by popops::Fill vertices
// given the value's bits.
#include "popops/Fill.hpp"

#include <cmath>

#include "map_internal.hpp"
#include "poplibs_support.hpp"
#include "poputil/exceptions.hpp"
#include "vertex_names.hpp"

namespace popops::detail {

namespace {

using poputil::poplibs_error;

std::string fillName(const poplar::DebugContext &debugContext) {
  const std::string path = debugContext.getPathName();
  return path.empty() ? std::string("popops::fill") : path;
}

bool isUnsigned(const poplar::Type &t) {
  return t == poplar::UNSIGNED_CHAR || t == poplar::UNSIGNED_SHORT || t == poplar::UNSIGNED_LONG ||
         t == poplar::UNSIGNED_LONGLONG;
}

// The fill value converted to `t` (an integral type of 1, 2 or 8 bytes, or QUARTER), as the bits of t's width:
// an integral value wraps modulo 2^width as C++'s conversion does; a floating one truncates toward zero and must
// lie in t's range (converting one outside it has no defined result, so it is refused).
unsigned long long fillBits(const FillScalar &value, const poplar::Type &t, const std::string &name) {
  if (t == poplar::QUARTER) {
    // A quarter's value depends on its metadata, which fill is not given; zero is zero in every format and scale.
    if (value.real != 0.0)
      throw poplibs_error(name + ": a QUARTER tensor can only be filled with 0 (its values depend on metadata fill "
                                 "is not given); fill a HALF tensor and cast it to QUARTER with metadata");
    return 0;
  }
  const unsigned width = 8 * unsigned(t.getSize());
  if (value.integral)
    return value.bits; // the vertex keeps the low `width` bits
  const double v = std::trunc(value.real);
  const double lo = isUnsigned(t) ? 0.0 : -std::ldexp(1.0, int(width) - 1);
  const double end = isUnsigned(t) ? std::ldexp(1.0, int(width)) : std::ldexp(1.0, int(width) - 1);
  if (!(v >= lo && v < end)) // NaN fails too
    throw poplibs_error(name + ": the fill value " + std::to_string(value.real) + " is outside the range of " +
                        t.toString() + " [" + std::to_string(lo) + ", " + std::to_string(end) +
                        "); pass a value the type holds");
  return v < 0 ? static_cast<unsigned long long>(static_cast<long long>(v)) : static_cast<unsigned long long>(v);
}

// The value's bits for `t`, after the checks map makes of its output (the map path's own checks cover the rest).
unsigned long long checkedBits(const poplar::Tensor &t, const FillScalar &scalar, const std::string &name) {
  if (!t.isParallelWriteable())
    throw poplibs_error(name + ": the tensor has aliased elements; fill a tensor whose elements are distinct");
  return fillBits(scalar, t.elementType(), name);
}

} // namespace

bool filledByBits(const poplar::Type &t) {
  const std::size_t size = t.getSize();
  return t == poplar::QUARTER || (size != 4 && t != poplar::HALF && t != poplar::BOOL && t != poplar::QUARTER_METADATA);
}

void fillRegions(poplar::Graph &graph, const poplar::Tensor &t,
                 const std::vector<std::vector<poplar::Interval> > &regions, poplar::ComputeSet cs,
                 const expr::Expr &value, const FillScalar &scalar, const poplar::DebugContext &debugContext) {
  const std::string name = debugContext.getPathName();
  if (!t.valid())
    throw poplibs_error(name + ": the tensor is an invalid (default-constructed) tensor");
  if (!filledByBits(t.elementType())) {
    mapRegionsIntoComputeSet(graph, value, t, regions, cs, name);
    return;
  }
  const unsigned long long bits = checkedBits(t, scalar, name);
  fillNarrowRegions(graph, t, checkedRegions(graph, t, regions, name), cs, bits, name);
}

void fillProgram(poplar::Graph &graph, const poplar::Tensor &t, poplar::program::Sequence &prog,
                 const expr::Expr &value, const FillScalar &scalar, const poplar::DebugContext &debugContext) {
  const std::string name = fillName(debugContext);
  if (!t.valid() || !filledByBits(t.elementType())) {
    mapWithOutput(graph, value, {}, t, prog, name);
    return;
  }
  const unsigned long long bits = checkedBits(t, scalar, name);
  if (t.numElements() == 0)
    return;
  poplar::ComputeSet cs = graph.addComputeSet(name);
  fillNarrowRegions(graph, t, outputMapping(graph, t, name), cs, bits, name);
  prog.add(poplar::program::Execute(cs, name));
}

void fillNarrowRegions(poplar::Graph &graph, const poplar::Tensor &out, const poplar::TileToTensorMapping &regions,
                       poplar::ComputeSet cs, unsigned long long bits, const std::string &name) {
  const std::size_t size = out.elementType().getSize();
  if (size != 1 && size != 2 && size != 8)
    throw poplibs_error(name + ": element type " + out.elementType().toString() +
                        " is not an integral type of 1, 2 or 8 bytes");
  // The vertex sees the elements as the unsigned type of their size, so signed values are passed as their bits.
  const poplar::Type as = size == 1 ? poplar::UNSIGNED_CHAR : size == 2 ? poplar::UNSIGNED_SHORT
                                                                        : poplar::UNSIGNED_LONGLONG;
  const poplar::Tensor flat = out.flatten().reinterpret(as);
  const unsigned workers = graph.getTarget().getNumWorkerContexts();
  for (unsigned tile = 0; tile < regions.size(); ++tile)
    for (const auto &group : poplibs_support::splitForWorkers(regions[tile], workers)) {
      std::vector<poplar::Tensor> pieces;
      for (const poplar::Interval &iv : group)
        pieces.push_back(flat.slice(iv));
      // One region: popops::Fill over it; several: one popops::Fill2d over the list (a vertex per worker either way).
      poplar::VertexRef v =
          graph.addVertex(cs, poputil::detail::templateVertex(pieces.size() == 1 ? "popops::Fill" : "popops::Fill2d", {as}));
      graph.setTileMapping(v, tile);
      if (pieces.size() == 1) {
        graph.connect(v["out"], pieces[0]);
      } else {
        graph.setFieldSize(v["out"], pieces.size());
        for (std::size_t i = 0; i < pieces.size(); ++i)
          graph.connect(v["out"][i], pieces[i]);
      }
      if (size == 1)
        graph.setInitialValue(v["in"], static_cast<unsigned char>(bits));
      else if (size == 2)
        graph.setInitialValue(v["in"], static_cast<unsigned short>(bits));
      else
        graph.setInitialValue(v["in"], bits);
    }
}

} // namespace popops::detail
