/** \file PerformanceEstimation.hpp
 *
 * Cycle estimates of popops' operations on one tile, as the IPU Model charges popops' vertices (the estimators
 * popops::addCodelets registers compute with these functions; docs/time-model.md gives the formulas). Graphcore
 * marks this header as internal to PopLibs; it is installed because PopLibs' tools and tests include it. C++11.
 *
 * Our vertices differ from Graphcore's (element-wise operations, casts of 32-bit types, fills of 32-bit types and
 * scaled arithmetic run as one map interpreter vertex per tile, a MultiVertex whose workers share the elements), so
 * a parameter that picks between vertex forms of Graphcore's (a layout, memory constraints, sorted indices) is
 * accepted and does not change the figure.
 */
#ifndef popops_PerformanceEstimation_hpp
#define popops_PerformanceEstimation_hpp

#include <cstddef>
#include <cstdint>
#include <vector>

#include <poplar/PerfEstimateFunc.hpp>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <poplar/VectorLayout.hpp>
#include <popops/Expr.hpp>
#include <popops/OperationDef.hpp>

namespace popops {
namespace internal {

/// Cycles the supervisor part of an element-wise MultiVertex spends before its workers start (shared by them);
/// one more when the vector field is a 64-bit-scaled pointer, which must be unpacked.
std::uint64_t basicOpSupervisorOverhead(const bool isScaledPtr64Type = false);

/// Cycles of a loop over `numElems` elements that handles `vectorSize` of them at once, `cyclesPerVector` each
/// time (a part vector costs a whole one). A vectorSize of 0 counts as 1.
std::uint64_t basicOpLoopCycles(const unsigned numElems, const unsigned vectorSize, const unsigned cyclesPerVector);

/// `overheadPerLoop` plus the loop over `numElems` elements of `type`, a data-path vector of them at a time when
/// `vectorize` is true, else one at a time, at `cyclesPerVector` per step.
std::uint64_t binaryOpInnerLoopCycles(const poplar::Target &target, const poplar::Type &type,
                                      const unsigned cyclesPerVector, const bool vectorize, const unsigned numElems,
                                      const std::uint64_t overheadPerLoop);

/// A dynamic slice of `numSubElements` rows out of a region of `regionSize` elements of `type` per row (the
/// DynamicSlice vertex, its workers sharing the region's columns).
std::uint64_t getDynamicSlice1DEstimate(const poplar::Target &target, const poplar::Type &type,
                                        const unsigned regionSize, const unsigned numSubElements);

/// An in-place binary operation `op` over `numElems` elements of `type` on one tile.
std::uint64_t getBinaryOp1DInPlaceEstimate(const poplar::Target &target, const poplar::Type &type,
                                           const popops::expr::BinaryOpType op, const unsigned numElems);

/// The target figures a multiSlice estimate depends on.
struct MultiSliceTargetParameters {
  MultiSliceTargetParameters(const poplar::Target &target, const poplar::Type &type)
      : atomicWriteSize(target.getAtomicStoreGranularity()), dataPathWidth(target.getDataPathWidth()),
        bytesPerElem(target.getTypeSize(type)), numWorkerContexts(target.getNumWorkerContexts()) {}
  unsigned atomicWriteSize;
  unsigned dataPathWidth;
  unsigned bytesPerElem;
  unsigned numWorkerContexts;
};

/// A MultiSlice vertex copying `numOffsets` slices of `elemsPerSlice` elements (or, with `isUpdate`, a
/// MultiUpdate vertex writing them back, `numOffsets` base rows updated).
std::uint64_t getMultiSliceCycleEstimate(const MultiSliceTargetParameters &targetParams, const unsigned elemsPerSlice,
                                         const unsigned numOffsets, const unsigned numOffsetsInRangePerWorker,
                                         const unsigned offsetsPerDictEntry, const bool isUpdate = false,
                                         const bool indicesAreSorted = false, const bool splitSingleRegion = false);

/// The target figures a multiUpdateOp estimate depends on.
struct MultiUpdateOpTargetParameters {
  MultiUpdateOpTargetParameters(const poplar::Target &target, const poplar::Type &type)
      : atomicWriteSize(target.getAtomicStoreGranularity()), numWorkerContexts(target.getNumWorkerContexts()),
        bytesPerElem(target.getTypeSize(type)) {}
  unsigned atomicWriteSize;
  unsigned numWorkerContexts;
  unsigned bytesPerElem;
};

/// A MultiUpdateAdd (with `scaled`), MultiUpdateMax or MultiUpdateMul vertex applying `numOffsets` slices of
/// `elemsPerSlice` elements to as many base rows.
std::uint64_t getMultiUpdateOpCycleEstimate(const MultiUpdateOpTargetParameters &targetParams,
                                            bool subWordWritesRequired, const unsigned elemsPerSlice,
                                            const unsigned numOffsets, const unsigned numOffsetsInRangePerWorker,
                                            const unsigned offsetsPerDictEntry, const Operation op,
                                            const bool scaled, const bool scaleHigherPrecisionThanData = false,
                                            const bool indicesAreSorted = false);

/// The target figures a cast estimate depends on.
struct CastTargetParameters {
  CastTargetParameters(const poplar::Target &target, const poplar::Type &fromType, const poplar::Type &toType)
      : numWorkerContexts(target.getNumWorkerContexts()), dataPathWidth(target.getDataPathWidth()),
        fromTypeSize(target.getTypeSize(fromType)), toTypeSize(target.getTypeSize(toType)) {}
  unsigned numWorkerContexts;
  unsigned dataPathWidth;
  unsigned fromTypeSize;
  unsigned toTypeSize;
};

/// A cast of the regions of `elemCounts` elements (one tile) from `fromType` to `toType`.
std::uint64_t getCast2DCycleEstimate(const CastTargetParameters &targetParams, const poplar::Type &fromType,
                                     const poplar::Type &toType, std::vector<unsigned> &elemCounts);

/// A cast of `numElems` elements done by one worker.
std::uint64_t getCast1DSingleWorkerCycleEstimate(const CastTargetParameters &targetParams,
                                                 const poplar::Type &fromType, const poplar::Type &toType,
                                                 const unsigned numElems);

/// A cast of `numElems` elements shared by the tile's workers.
std::uint64_t getCast1DCycleEstimate(const CastTargetParameters &targetParams, const poplar::Type &fromType,
                                     const poplar::Type &toType, const unsigned numElems);

/// The target figures a fill estimate depends on.
struct FillTargetParameters {
  FillTargetParameters(const poplar::Target &target) : dataPathWidth(target.getDataPathWidth()) {}
  unsigned dataPathWidth;
};

/// A fill of `numElems` elements of `type` on one tile.
std::uint64_t getFill1DCycleEstimate(const FillTargetParameters &targetParams, const poplar::Type &type,
                                     const unsigned numElems);

/// A fill of regions of `numElems` elements of `type` on one tile.
std::uint64_t getFill2DCycleEstimate(const FillTargetParameters &targetParams, const poplar::Type &type,
                                     const std::vector<unsigned> &numElems);

/// The scaled updates: A + bB, A - bB, aA + bB, aA - bB.
enum class ScaledArithmeticOp { ADD, SUBTRACT, AXPLUSBY, AXMINUSBY };

/// The target figures a scaled-arithmetic estimate depends on.
struct ScaledArithmeticTargetParameters {
  ScaledArithmeticTargetParameters(const poplar::Target &target, const poplar::Type &dataType)
      : numWorkerContexts(target.getNumWorkerContexts()), vectorWidth(target.getVectorWidth(dataType)) {}
  unsigned numWorkerContexts;
  unsigned vectorWidth;
};

/// A scaled update `operation` of `numElems` elements of A (`dataType`) by B (`dataBType`) on one tile, the
/// scales held in tensors (popops::scaledAddTo and relatives).
std::uint64_t getScaledArithmeticSupervisorCycleEstimate(const ScaledArithmeticTargetParameters &targetParams,
                                                         const poplar::Type &dataType, const poplar::Type &dataBType,
                                                         const bool memConstrained,
                                                         const ScaledArithmeticOp operation,
                                                         const poplar::layout::Vector &aLayout,
                                                         const poplar::layout::Vector &bLayout,
                                                         const unsigned numElems);

/// A binary operation `op` between `dataSize` elements of `inType` and one scalar, written as `outType` (in
/// place when `inPlace`), on one tile.
poplar::VertexPerfEstimate broadcastArithmetic1DCycleEstimate(const poplar::Target &target,
                                                              popops::expr::BinaryOpType op,
                                                              const poplar::Type &inType,
                                                              const poplar::Type &outType, bool inPlace,
                                                              std::size_t dataSize);

/// The same over several regions of `data` elements each; the scalar is one for all of them (`uniformScalar`)
/// or one per region.
poplar::VertexPerfEstimate broadcastArithmeticCycleEstimate(const poplar::Target &target,
                                                            popops::expr::BinaryOpType op,
                                                            const poplar::Type &inType, const poplar::Type &outType,
                                                            bool inPlace, bool uniformScalar,
                                                            const std::vector<std::size_t> &data);

} // namespace internal
} // namespace popops

#endif // popops_PerformanceEstimation_hpp
