// popops::map, mapInPlace and mapWithOutput of several expressions. Each expression is one device map into a
// new tensor; the in-place and with-output forms then copy those results into their destinations, so that every
// expression reads the operands as they were before the call even when a destination is also an operand.
#include <string>

#include "poplibs_support.hpp"
#include "popops/ElementWise.hpp"
#include "poputil/exceptions.hpp"

namespace popops {

using poplar::Tensor;
using poputil::poplibs_error;

namespace {

/// One new tensor per expression, named <name>/<i>.
std::vector<Tensor> mapEach(poplar::Graph &graph, const std::vector<expr::Any> &exprs, const std::vector<Tensor> &ts,
                            poplar::program::Sequence &prog, const std::string &name,
                            const poplar::OptionFlags &options) {
  std::vector<Tensor> results;
  for (std::size_t i = 0; i < exprs.size(); ++i)
    results.push_back(map(graph, exprs[i].get(), ts, prog, name + "/" + std::to_string(i), options));
  return results;
}

/// Checks that the results fit their destinations (shape and type) and copies them there.
void copyInto(const std::vector<Tensor> &results, const std::vector<Tensor> &dsts, poplar::program::Sequence &prog,
              const std::string &name, const char *what) {
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (!dsts[i].valid())
      throw poplibs_error(name + ": " + what + " " + std::to_string(i) + " is an invalid (default-constructed) tensor");
    if (dsts[i].shape() != results[i].shape() || dsts[i].elementType() != results[i].elementType())
      throw poplibs_error(name + ": expression " + std::to_string(i) + " gives " + results[i].elementType().toString() +
                          " of " + std::to_string(results[i].numElements()) +
                          " elements in another shape or type than " + what + " " + std::to_string(i) + " (" +
                          dsts[i].elementType().toString() +
                          "); pass a tensor of the broadcast shape and the expression's type");
    if (!dsts[i].isParallelWriteable())
      throw poplibs_error(name + ": " + what + " " + std::to_string(i) +
                          " has aliased elements; write into a tensor whose elements are distinct");
  }
  for (std::size_t i = 0; i < results.size(); ++i)
    prog.add(poplar::program::Copy(results[i], dsts[i]));
}

} // namespace

std::vector<Tensor> map(poplar::Graph &graph, const std::vector<expr::Any> &exprs, const std::vector<Tensor> &ts,
                        poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                        const poplar::OptionFlags &options) {
  return mapEach(graph, exprs, ts, prog, poplibs_support::operationName(debugContext, "popops::", "map"), options);
}

void mapInPlace(poplar::Graph &graph, const std::vector<expr::Any> &exprs, const std::vector<Tensor> &ts,
                poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                const poplar::OptionFlags &options) {
  const std::string name = poplibs_support::operationName(debugContext, "popops::", "mapInPlace");
  if (exprs.size() > ts.size())
    throw poplibs_error(name + ": " + std::to_string(exprs.size()) + " expressions but " + std::to_string(ts.size()) +
                        " tensors; expression i is written into tensor i");
  copyInto(mapEach(graph, exprs, ts, prog, name, options), ts, prog, name, "tensor");
}

void mapWithOutput(poplar::Graph &graph, const std::vector<expr::Any> &exprs, const std::vector<Tensor> &ts,
                   const std::vector<Tensor> &outs, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext, const poplar::OptionFlags &options) {
  const std::string name = poplibs_support::operationName(debugContext, "popops::", "mapWithOutput");
  if (exprs.size() != outs.size())
    throw poplibs_error(name + ": " + std::to_string(exprs.size()) + " expressions but " + std::to_string(outs.size()) +
                        " outputs; pass one output per expression");
  copyInto(mapEach(graph, exprs, ts, prog, name, options), outs, prog, name, "output");
}

} // namespace popops
