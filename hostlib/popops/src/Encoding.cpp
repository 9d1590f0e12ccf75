// encodeOneHot and iota (popops/Encoding.hpp). The one-hot encoding is one popops::map over the encoded tensor
// (so it runs where `encoded` lives, spread over the workers): Select(on, off, index == column), with the column
// numbers a constant broadcast over the rows. iota copies a constant range into the tensor.
#include "popops/Encoding.hpp"

#include <cstdint>
#include <vector>

#include "counting_constant.hpp"
#include "op_name.hpp"
#include "poplibs_support.hpp"
#include "popops/ElementWise.hpp"
#include "poputil/TileMapping.hpp"
#include "poputil/exceptions.hpp"

namespace popops {

using poplar::Tensor;
using poputil::poplibs_error;

namespace {

void checkOneHot(const Tensor &indices, const Tensor &encoded, const std::string &name) {
  if (!indices.valid() || !encoded.valid())
    throw poplibs_error(name + ": the indices or the encoded tensor is invalid (default-constructed)");
  if (indices.elementType() != poplar::UNSIGNED_INT && indices.elementType() != poplar::INT)
    throw poplibs_error(name + ": the indices hold " + indices.elementType().toString() +
                        "; they must be UNSIGNED_INT or INT");
  if (indices.rank() != 1)
    throw poplibs_error(name + ": the indices have rank " + std::to_string(indices.rank()) +
                        "; pass a rank-1 tensor (flatten it)");
  if (encoded.rank() != 2)
    throw poplibs_error(name + ": the encoded tensor has rank " + std::to_string(encoded.rank()) +
                        "; it must be [number of indices, number of classes]");
  if (encoded.dim(0) != indices.dim(0))
    throw poplibs_error(name + ": " + std::to_string(indices.dim(0)) + " indices but the encoded tensor has " +
                        std::to_string(encoded.dim(0)) + " rows; give one row per index");
}

void oneHot(poplar::Graph &graph, const Tensor &indices, const Tensor &encoded, poplar::program::Sequence &prog,
            const Tensor &on, const Tensor &off, const std::string &name) {
  checkOneHot(indices, encoded, name);
  const poplar::Type &et = encoded.elementType();
  for (const Tensor *v : {&on, &off})
    if (!v->valid() || v->numElements() != 1 || v->elementType() != et)
      throw poplibs_error(name + ": the on and off values must be one-element " + et.toString() +
                          " tensors (the encoded tensor's type)");
  const std::size_t n = encoded.dim(0), classes = encoded.dim(1);
  if (n == 0 || classes == 0)
    return;
  Tensor colIds = detail::countingConstant(graph, classes, name + "/columns");
  Tensor rows = indices.reinterpret(poplar::UNSIGNED_INT).expand({1}).broadcast(unsigned(classes), 1);
  Tensor columns = colIds.expand({0}).broadcast(unsigned(n), 0);
  namespace pe = popops::expr;
  mapWithOutput(graph, pe::Select(pe::_3, pe::_4, pe::Equal(pe::_1, pe::_2)),
                {rows, columns, on.flatten(), off.flatten()}, encoded, prog, name);
}

template <typename T> void iotaImpl(poplar::Graph &graph, const Tensor &t, T start, const poplar::Type &want,
                                    poplar::program::Sequence &prog, const std::string &name) {
  if (!t.valid())
    throw poplibs_error(name + ": the tensor is invalid (default-constructed)");
  if (t.rank() != 1)
    throw poplibs_error(name + ": the tensor has rank " + std::to_string(t.rank()) + "; pass a rank-1 tensor");
  if (t.elementType() != want)
    throw poplibs_error(name + ": the tensor holds " + t.elementType().toString() + "; this form fills " +
                        want.toString() + " (pass an " + (want == poplar::INT ? "unsigned" : "int") +
                        " start for the other type)");
  if (t.numElements() == 0)
    return;
  std::vector<T> values(t.numElements());
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = T(start + T(i));
  Tensor c = graph.addConstant(want, {values.size()}, values, name + "/values");
  graph.setTileMapping(c, graph.getTileMapping(t));
  prog.add(poplar::program::Copy(c, t, false, name));
}

} // namespace

void encodeOneHot(poplar::Graph &graph, const Tensor &indices, const Tensor &encoded, poplar::program::Sequence &prog,
                  const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "encodeOneHot");
  checkOneHot(indices, encoded, name);
  Tensor on = graph.addConstant(encoded.elementType(), {1}, 1, name + "/on");
  Tensor off = graph.addConstant(encoded.elementType(), {1}, 0, name + "/off");
  graph.setTileMapping(on, 0);
  graph.setTileMapping(off, 0);
  oneHot(graph, indices, encoded, prog, on, off, name);
}

void encodeOneHot(poplar::Graph &graph, const Tensor &indices, const Tensor &encoded, poplar::program::Sequence &prog,
                  const Tensor &on, const Tensor &off, const poplar::DebugContext &debugContext) {
  oneHot(graph, indices, encoded, prog, on, off, opName(debugContext, "encodeOneHot"));
}

void iota(poplar::Graph &graph, const Tensor &t, unsigned startInteger, poplar::program::Sequence &prog,
          const poplar::DebugContext &debugContext) {
  iotaImpl<unsigned>(graph, t, startInteger, poplar::UNSIGNED_INT, prog, opName(debugContext, "iota"));
}

void iota(poplar::Graph &graph, const Tensor &t, int startInteger, poplar::program::Sequence &prog,
          const poplar::DebugContext &debugContext) {
  iotaImpl<int>(graph, t, startInteger, poplar::INT, prog, opName(debugContext, "iota"));
}

} // namespace popops
