// popops/PerformanceEstimation.hpp and poputil/cyclesTables.hpp as a user program includes them (C++11, linked
// with -lpopops -lpoputil -lpoplar), on the ipu2 IPU Model (six workers, 64-bit data path):
// - the estimate functions give what the IPU Model charges popops' own vertices (Graph::getPerfEstimate of a
//   vertex built by hand): a 1-byte Fill, a CHAR to FLOAT cast, one worker's share of a cast of six;
// - the map-based figures follow the formula of the map interpreter: getBinaryOp1DInPlaceEstimate of 12 floats is
//   29 + ceil(11 / 6) per worker plus one 2-float vector at 3 cycles = 34; a scalar broadcast costs less per
//   element than a two-operand operation; basicOpLoopCycles and binaryOpInnerLoopCycles by hand;
// - cyclesTables: a table built with CYCLE_ESTIMATOR_ENTRY for a templated vertex (its name as templateVertex
//   spells it) and registered with registerPerfFunctions replaces popops' estimate; the unpack costs per layout,
//   and a layout with no cost refused by name.
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/VertexIntrospector.hpp>
#include <popops/PerformanceEstimation.hpp>
#include <popops/codelets.hpp>
#include <poputil/cyclesTables.hpp>

#include <iostream>
#include <string>
#include <vector>

#include "sdk_check.hpp"

using namespace poplar;
namespace pi = popops::internal;

namespace {

// An estimator of the form CYCLE_ESTIMATOR_ENTRY expects: the vertex, the target and the template arguments.
VertexPerfEstimate MAKE_PERF_ESTIMATOR_NAME(CastInt)(const VertexIntrospector &vertex, const Target &target,
                                                      const Type &from, const Type &to) {
  CODELET_FIELD(out);
  (void)target;
  (void)from;
  (void)to;
  return VertexPerfEstimate(1000 + out.size());
}

// A hand-built vertex `name` on tile 0 with "in" of `inType` (when valid) and "out" of `outType` of n elements.
VertexRef vertexOf(Graph &graph, const std::string &name, const Type &inType, const Type &outType, std::size_t n) {
  ComputeSet cs = graph.addComputeSet(name);
  VertexRef v = graph.addVertex(cs, name);
  graph.setTileMapping(v, 0);
  Tensor out = graph.addVariable(outType, {n});
  graph.setTileMapping(out, 0);
  graph.connect(v["out"], out);
  if (inType == FLOAT || inType == CHAR) {
    Tensor in = graph.addVariable(inType, {n});
    graph.setTileMapping(in, 0);
    graph.connect(v["in"], in);
  }
  return v;
}

} // namespace

int main() {
  try {
    IPUModel model("ipu2");
    model.tilesPerIPU = 1;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    const Target &target = graph.getTarget();
    popops::addCodelets(graph);

    // A Fill of 1-byte elements: each of the six workers fills 8 of 48 (one 8-byte vector): 20 + 2 = 22.
    VertexRef fill = vertexOf(graph, "popops::Fill<unsigned char>", Type(), UNSIGNED_CHAR, 8);
    graph.setInitialValue(fill["in"], (unsigned char)7);
    const std::uint64_t fillModel = graph.getPerfEstimate(fill).cycles;
    const std::uint64_t fillEstimate = pi::getFill1DCycleEstimate(pi::FillTargetParameters(target), UNSIGNED_CHAR, 48);
    std::cout << "  fill UNSIGNED_CHAR x48: model " << fillModel << ", estimate " << fillEstimate << "\n";
    check(fillModel == fillEstimate && fillEstimate == 22, "getFill1DCycleEstimate is the Fill vertex's charge (22)");

    // A CHAR to FLOAT cast vertex of 10 elements: one worker; six such share a cast of 60.
    VertexRef cast = vertexOf(graph, "popops::CastInt<char,float>", CHAR, FLOAT, 10);
    const std::uint64_t castModel = graph.getPerfEstimate(cast).cycles;
    const pi::CastTargetParameters cp(target, CHAR, FLOAT);
    const std::uint64_t single = pi::getCast1DSingleWorkerCycleEstimate(cp, CHAR, FLOAT, 10);
    const std::uint64_t shared = pi::getCast1DCycleEstimate(cp, CHAR, FLOAT, 60);
    std::vector<unsigned> regions(2, 30);
    const std::uint64_t twoD = pi::getCast2DCycleEstimate(cp, CHAR, FLOAT, regions);
    std::cout << "  cast CHAR->FLOAT x10: model " << castModel << ", single worker " << single << ", x60 shared "
              << shared << ", 2 x 30 " << twoD << "\n";
    check(castModel == single && single == shared && shared == twoD,
          "the cast estimates are the CastInt vertex's charge (one worker's share)");

    // The map formula.
    const std::uint64_t add12 = pi::getBinaryOp1DInPlaceEstimate(target, FLOAT, popops::expr::BinaryOpType::ADD, 12);
    check(add12 == 34, "getBinaryOp1DInPlaceEstimate(FLOAT ADD, 12) is the map interpreter's 34");
    const VertexPerfEstimate scalar = pi::broadcastArithmetic1DCycleEstimate(
        target, popops::expr::BinaryOpType::ADD, FLOAT, FLOAT, true, 1200);
    const std::uint64_t full = pi::getBinaryOp1DInPlaceEstimate(target, FLOAT, popops::expr::BinaryOpType::ADD, 1200);
    std::cout << "  1200 floats: two operands " << full << ", scalar broadcast " << scalar.cycles << "\n";
    check(scalar.cycles < full, "a scalar broadcast costs less than a two-operand operation");
    check(pi::basicOpLoopCycles(10, 4, 3) == 9 && pi::binaryOpInnerLoopCycles(target, HALF, 2, true, 9, 5) == 5 + 3 * 2 &&
              pi::binaryOpInnerLoopCycles(target, HALF, 2, false, 9, 5) == 5 + 9 * 2,
          "basicOpLoopCycles and binaryOpInnerLoopCycles count whole vectors");
    check(pi::basicOpSupervisorOverhead(true) == pi::basicOpSupervisorOverhead() + 1,
          "a ScaledPtr64 vector field costs one more supervisor cycle");
    const pi::ScaledArithmeticTargetParameters sp(target, FLOAT);
    const std::uint64_t axpby = pi::getScaledArithmeticSupervisorCycleEstimate(
        sp, FLOAT, FLOAT, false, pi::ScaledArithmeticOp::AXPLUSBY, layout::Vector::Span, layout::Vector::Span, 120);
    const std::uint64_t add = pi::getScaledArithmeticSupervisorCycleEstimate(
        sp, FLOAT, FLOAT, false, pi::ScaledArithmeticOp::ADD, layout::Vector::Span, layout::Vector::Span, 120);
    check(axpby > add && add > pi::getBinaryOp1DInPlaceEstimate(target, FLOAT, popops::expr::BinaryOpType::ADD, 120),
          "scaled arithmetic costs more than a plain add, aX + bY more than X + bY");
    const pi::MultiSliceTargetParameters ms(target, FLOAT);
    check(pi::getMultiSliceCycleEstimate(ms, 64, 8, 8, 1) > pi::getMultiSliceCycleEstimate(ms, 64, 2, 2, 1) &&
              pi::getDynamicSlice1DEstimate(target, FLOAT, 64, 4) > pi::getDynamicSlice1DEstimate(target, FLOAT, 64, 1),
          "slice estimates grow with the slices taken");
    const pi::MultiUpdateOpTargetParameters mu(target, FLOAT);
    checkThrows([&] { pi::getMultiUpdateOpCycleEstimate(mu, false, 64, 8, 8, 1, popops::Operation::MIN, false); },
                "ADD, MAX and MUL", "a multiUpdate estimate for an operation popops has no vertex for is refused");

    // cyclesTables: an estimator table replaces popops' own estimate of the vertex.
    poputil::internal::PerfEstimatorTable table;
    table.push_back(CYCLE_ESTIMATOR_ENTRY(popops, CastInt, CHAR, FLOAT));
    std::cout << "  table entry: " << table[0].first << "\n";
    poputil::internal::registerPerfFunctions(graph, table);
    check(table[0].first == "popops::CastInt<char,float>" && graph.getPerfEstimate(cast).cycles == 1010,
          "a CYCLE_ESTIMATOR_ENTRY table registered with registerPerfFunctions gives the vertex its estimate");
    check(poputil::internal::getUnpackCost(layout::Vector::ShortSpan) == 2 &&
              poputil::internal::getUnpackCost(layout::Vector::OnePtr) == 0 &&
              poputil::internal::getUnpackCost(layout::VectorList::DeltaNElements) == 5 &&
              poputil::internal::getVectorListDeltaUnpackCost(layout::VectorList::DeltaN) == 3,
          "unpack costs per layout");
    checkThrows([] { poputil::internal::getUnpackCost(layout::VectorList::OnePtr); }, "OnePtr",
                "a vector-list layout with no unpack cost is refused by name");
  } catch (const std::exception &e) {
    std::cout << "FAIL: unexpected exception: " << e.what() << "\n";
    return 1;
  }
  return checksDone("all performance-estimation checks passed");
}
