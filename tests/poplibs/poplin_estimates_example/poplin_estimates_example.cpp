// poplin's estimate functions as a user of Graphcore's SDK calls them (C++11, linked with -lpoplin -lpopops
// -lpoputil -lpoplar), on the ipu2 IPU Model, checked against their documented definitions computed on the host:
// - getFwd/Bwd/WuPerfectCycleCount: the pass's multiply-accumulates (flops / 2) over every tile's conv units, each
//   doing one per weight it holds, the units for the input and output types;
// - reportPlanEstimatedCosts: the cycles reportPlanInfo prints for the same plan, the memory of its tiles;
// - hash_value of the input and output transforms: equal transforms hash equal, a changed field changes it.
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/ConvParams.hpp>
#include <poplin/Convolution.hpp>

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>

#include "sdk_check.hpp"

using namespace poplar;

namespace {

// flops / 2 over tiles x units x weights per unit.
double perfect(const Target &t, const poplin::ConvParams &p, uint64_t flops) {
  const unsigned units = p.inputType == FLOAT ? t.getFp32InFp32OutConvUnitsPerTile()
                         : p.outputType == HALF ? t.getFp16InFp16OutConvUnitsPerTile()
                                                : t.getFp16InFp32OutConvUnitsPerTile();
  return double(flops / 2) / (double(t.getNumTiles()) * units * t.getWeightsPerConvUnit(p.inputType));
}

bool near(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::fabs(b); }

} // namespace

int main() {
  Device device = IPUModel("ipu2").createDevice();
  const Target &target = device.getTarget();
  Graph graph(target);
  // Batch 2, 16 to 32 channels, 3x3 kernel over 10x10 with padding 1 and stride 2.
  for (int half = 0; half < 2; ++half) {
    const Type type = half ? HALF : FLOAT;
    poplin::ConvParams p(type, 2, {10, 10}, {3, 3}, 16, 32, 1);
    p.inputTransform.paddingLower = {1, 1};
    p.inputTransform.paddingUpper = {1, 1};
    p.outputTransform.stride = {2, 2};
    const std::string t = half ? "half" : "float";
    check(near(poplin::getFwdPerfectCycleCount(graph, p), perfect(target, p, poplin::getFwdFlops(p))) &&
              near(poplin::getBwdPerfectCycleCount(graph, p), perfect(target, p, poplin::getBwdFlops(p))) &&
              near(poplin::getWuPerfectCycleCount(graph, p), perfect(target, p, poplin::getWuFlops(p))) &&
              poplin::getFwdPerfectCycleCount(graph, p) > 0,
          t + ": the perfect cycle counts are the passes' multiply-accumulates over the conv units");
    const poplin::PlanCosts costs = poplin::reportPlanEstimatedCosts(graph, p);
    std::ostringstream info;
    poplin::reportPlanInfo(info, graph, p);
    const std::string line = info.str();
    const std::size_t at = line.find("estimate ");
    const long printed = at == std::string::npos ? -1 : std::strtol(line.c_str() + at + 9, 0, 10);
    check(costs.cycles == std::size_t(printed) && costs.memory > 0 && costs.memory != poplin::PlanCosts::unknown,
          t + ": reportPlanEstimatedCosts gives the plan's estimated cycles and its memory");
  }
  poplin::ConvParams::InputTransform a(2), b(2);
  poplin::ConvParams::OutputTransform c(2), d(2);
  const bool equal = poplin::hash_value(a) == poplin::hash_value(b) && poplin::hash_value(c) == poplin::hash_value(d);
  b.dilation[1] = 2;
  d.stride[0] = 3;
  check(equal && poplin::hash_value(a) != poplin::hash_value(b) && poplin::hash_value(c) != poplin::hash_value(d),
        "hash_value: equal transforms hash equal, a changed field changes the hash");
  return checksDone("poplin estimates example: all checks passed");
}
