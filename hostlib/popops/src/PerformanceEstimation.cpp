// popops/PerformanceEstimation.hpp: the cycle figures of popops' operations on one tile, computed by the same
// formulas as the estimators popops registers (perf_estimators.hpp), so both give one figure for one piece of work.
#include "popops/PerformanceEstimation.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "perf_estimate.hpp"
#include "perf_estimators.hpp"
#include "poputil/exceptions.hpp"
#include "poputil/cyclesTables.hpp"

namespace popops {
namespace internal {

namespace {

using poplibs_support::dataPathElements;
using poplibs_support::elementLoopCycles;

// The cycles per data-path vector of a MapInterpreter running `ops` operations of its expression over `operands`
// input elements per output element (as perf_estimators.cpp's mapInterpreter prices them: one per operation, one
// per operand load, at least one for the store).
std::uint64_t mapPerVector(std::uint64_t ops, std::uint64_t operands) { return ops + std::max<std::uint64_t>(1, operands); }

// The types the map interpreter holds; the others are cast by vertices of their own (elementLoopCycles).
bool mapHolds(const poplar::Type &t) {
  return t == poplar::FLOAT || t == poplar::HALF || t == poplar::INT || t == poplar::UNSIGNED_INT || t == poplar::BOOL;
}

// The cast of `numElems` elements over `workers` workers: a map of one CAST (one operand) when the map interpreter
// holds both types, else the busiest worker's CastInt or quarter cast vertex (the basic loop over its share).
std::uint64_t castCycles(const CastTargetParameters &p, const poplar::Type &fromType, const poplar::Type &toType,
                         std::uint64_t numElems, unsigned workers) {
  if (mapHolds(fromType) && mapHolds(toType))
    return popops::detail::mapCycles(workers, p.dataPathWidth, p.toTypeSize, numElems, mapPerVector(1, 1));
  const unsigned share = std::max(1u, workers);
  // The vertex's loop runs at the output's width (perf_estimate.hpp's fieldTotals: "out" is its last field).
  return elementLoopCycles((numElems + share - 1) / share, dataPathElements(p.dataPathWidth, std::max(1u, p.toTypeSize)));
}

std::uint64_t vectorsOf(std::uint64_t elems, std::uint64_t width) { return (elems + width - 1) / width; }

} // namespace

std::uint64_t basicOpSupervisorOverhead(const bool isScaledPtr64Type) {
  return 11 + (isScaledPtr64Type ? poputil::internal::getUnpackCost(poplar::layout::Vector::ScaledPtr64) : 0);
}

std::uint64_t basicOpLoopCycles(const unsigned numElems, const unsigned vectorSize, const unsigned cyclesPerVector) {
  return poplibs_support::loopCycles(0, numElems, std::max(1u, vectorSize), cyclesPerVector);
}

std::uint64_t binaryOpInnerLoopCycles(const poplar::Target &target, const poplar::Type &type,
                                      const unsigned cyclesPerVector, const bool vectorize, const unsigned numElems,
                                      const std::uint64_t overheadPerLoop) {
  const unsigned width = vectorize ? unsigned(dataPathElements(target, unsigned(target.getTypeSize(type)))) : 1u;
  return overheadPerLoop + basicOpLoopCycles(numElems, width, cyclesPerVector);
}

std::uint64_t getDynamicSlice1DEstimate(const poplar::Target &target, const poplar::Type &type,
                                        const unsigned regionSize, const unsigned numSubElements) {
  const unsigned bytes = unsigned(target.getTypeSize(type));
  const std::vector<std::uint64_t> vectors = {vectorsOf(regionSize, dataPathElements(target, bytes))};
  return popops::detail::dynamicSliceCycles(vectors, target.getNumWorkerContexts(), bytes,
                                            std::max(1u, numSubElements));
}

std::uint64_t getBinaryOp1DInPlaceEstimate(const poplar::Target &target, const poplar::Type &type,
                                           const popops::expr::BinaryOpType, const unsigned numElems) {
  // One BINARY operation over the two operands (the in-place one and the other).
  return popops::detail::mapCycles(target.getNumWorkerContexts(), target.getDataPathWidth(),
                                   unsigned(target.getTypeSize(type)), numElems, mapPerVector(1, 2));
}

std::uint64_t getMultiSliceCycleEstimate(const MultiSliceTargetParameters &p, const unsigned elemsPerSlice,
                                         const unsigned numOffsets, const unsigned, const unsigned, const bool isUpdate,
                                         const bool, const bool) {
  const std::uint64_t width = dataPathElements(p.dataPathWidth, p.bytesPerElem);
  if (isUpdate) // MultiUpdate: the offsets edge, one base item and one slice item per region
    return popops::detail::multiUpdateCycles({vectorsOf(elemsPerSlice, width)}, p.numWorkerContexts, 1, 2,
                                             std::max(1u, numOffsets));
  // The offsets edge, the base and the slices, each one run.
  return popops::detail::multiSliceCycles(3, std::uint64_t(elemsPerSlice) * numOffsets, width);
}

std::uint64_t getMultiUpdateOpCycleEstimate(const MultiUpdateOpTargetParameters &p, bool, const unsigned elemsPerSlice,
                                            const unsigned numOffsets, const unsigned, const unsigned, const Operation op,
                                            const bool scaled, const bool, const bool) {
  if (op != Operation::ADD && op != Operation::MAX && op != Operation::MUL)
    throw poputil::poplibs_error("getMultiUpdateOpCycleEstimate: popops has multiUpdate vertices for ADD, MAX and "
                                 "MUL only; pass one of them");
  if (scaled && op != Operation::ADD)
    throw poputil::poplibs_error("getMultiUpdateOpCycleEstimate: only a multiUpdateAdd is scaled; pass scaled = "
                                 "false for MAX and MUL");
  // The target's data path is the IPU's 64 bits here: the parameters carry no width.
  const std::uint64_t width = dataPathElements(0u, p.bytesPerElem);
  return popops::detail::multiUpdateCycles({vectorsOf(elemsPerSlice, width)}, p.numWorkerContexts, scaled ? 2 : 1, 2,
                                           std::max(1u, numOffsets));
}

std::uint64_t getCast2DCycleEstimate(const CastTargetParameters &p, const poplar::Type &fromType,
                                     const poplar::Type &toType, std::vector<unsigned> &elemCounts) {
  // popops::cast makes one vertex set per tile whatever the regions: the total is what counts.
  const std::uint64_t total = std::accumulate(elemCounts.begin(), elemCounts.end(), std::uint64_t(0));
  return castCycles(p, fromType, toType, total, p.numWorkerContexts);
}

std::uint64_t getCast1DSingleWorkerCycleEstimate(const CastTargetParameters &p, const poplar::Type &fromType,
                                                 const poplar::Type &toType, const unsigned numElems) {
  return castCycles(p, fromType, toType, numElems, 1);
}

std::uint64_t getCast1DCycleEstimate(const CastTargetParameters &p, const poplar::Type &fromType,
                                     const poplar::Type &toType, const unsigned numElems) {
  return castCycles(p, fromType, toType, numElems, p.numWorkerContexts);
}

std::uint64_t getFill1DCycleEstimate(const FillTargetParameters &p, const poplar::Type &type,
                                     const unsigned numElems) {
  return getFill2DCycleEstimate(p, type, {numElems});
}

std::uint64_t getFill2DCycleEstimate(const FillTargetParameters &p, const poplar::Type &type,
                                     const std::vector<unsigned> &numElems) {
  const std::uint64_t total = std::accumulate(numElems.begin(), numElems.end(), std::uint64_t(0));
  // The parameters carry no worker count: the IPU's six (Fill.cpp splits a tile's elements over them).
  const unsigned workers = 6;
  if (mapHolds(type)) // a map of a constant: one operation, no operand
    return popops::detail::mapCycles(workers, p.dataPathWidth, type == poplar::BOOL ? 1 : (type == poplar::HALF ? 2 : 4),
                                     total, mapPerVector(1, 0));
  const unsigned bytes = type == poplar::UNSIGNED_LONGLONG || type == poplar::LONGLONG ? 8
                         : type == poplar::SHORT || type == poplar::UNSIGNED_SHORT    ? 2
                                                                                      : 1;
  return elementLoopCycles((total + workers - 1) / workers, dataPathElements(p.dataPathWidth, bytes));
}

std::uint64_t getScaledArithmeticSupervisorCycleEstimate(const ScaledArithmeticTargetParameters &p,
                                                         const poplar::Type &dataType, const poplar::Type &,
                                                         const bool, const ScaledArithmeticOp operation,
                                                         const poplar::layout::Vector &,
                                                         const poplar::layout::Vector &, const unsigned numElems) {
  // popops' scaled updates are one map (ScaledAdd.cpp): A and B cast to the compute type, each multiplied by its
  // scale, added or subtracted, cast back: 6 operations, plus one cast per scale held in a tensor (b, or a and b),
  // over two operands per element.
  const bool twoScales = operation == ScaledArithmeticOp::AXPLUSBY || operation == ScaledArithmeticOp::AXMINUSBY;
  const unsigned elemBytes = dataType == poplar::HALF ? 2 : 4;
  const unsigned dataPathBits = p.vectorWidth * 8 * elemBytes; // the parameters carry the width in elements
  return popops::detail::mapCycles(p.numWorkerContexts, dataPathBits, elemBytes, numElems,
                                   mapPerVector(twoScales ? 8 : 7, 2));
}

poplar::VertexPerfEstimate broadcastArithmetic1DCycleEstimate(const poplar::Target &target,
                                                              popops::expr::BinaryOpType op,
                                                              const poplar::Type &inType,
                                                              const poplar::Type &outType, bool inPlace,
                                                              std::size_t dataSize) {
  return broadcastArithmeticCycleEstimate(target, op, inType, outType, inPlace, true, {dataSize});
}

poplar::VertexPerfEstimate broadcastArithmeticCycleEstimate(const poplar::Target &target, popops::expr::BinaryOpType,
                                                            const poplar::Type &, const poplar::Type &outType, bool,
                                                            bool, const std::vector<std::size_t> &data) {
  // One map per tile over all regions; a scalar is one element however many regions read it, so each output
  // element loads one operand (its data element) and runs one BINARY operation.
  const std::uint64_t total = std::accumulate(data.begin(), data.end(), std::uint64_t(0));
  return poplar::VertexPerfEstimate(popops::detail::mapCycles(target.getNumWorkerContexts(), target.getDataPathWidth(),
                                                              unsigned(target.getTypeSize(outType)), total,
                                                              mapPerVector(1, 1)));
}

} // namespace internal
} // namespace popops
