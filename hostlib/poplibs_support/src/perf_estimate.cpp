// The estimator pieces the PopLibs libraries share: see perf_estimate.hpp.
#include "perf_estimate.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace poplibs_support {

FieldTotals fieldTotals(const poplar::VertexIntrospector &v, const poplar::Target &target,
                        const std::vector<EstimateField> &fields) {
  // Connected fields in poplar's order (edges by name, then lists by name): the order decides the element size.
  std::vector<std::pair<EstimateField, poplar::FieldData>> connected;
  for (const EstimateField &f : fields) {
    try {
      connected.emplace_back(f, v.getFieldInfo(f.name));
    } catch (const poplar::unknown_field &) {
      // not connected: no data, no loop
    }
  }
  std::sort(connected.begin(), connected.end(), [](const auto &a, const auto &b) {
    const bool aList = a.second.rank() == 2, bList = b.second.rank() == 2;
    return aList != bList ? bList : std::string(a.first.name) < std::string(b.first.name);
  });
  FieldTotals t;
  auto add = [&](const EstimateField &f, std::uint64_t n) {
    if (f.in)
      t.in += n;
    if (f.out)
      t.out += n;
    if (n > 1)
      t.elemBytes = std::max<unsigned>(1, unsigned(target.getTypeSize(f.type)));
    t.runs++;
  };
  for (const auto &[f, d] : connected) {
    if (d.rank() == 2)
      for (std::size_t i = 0; i < d.size(); ++i)
        add(f, d.getSizeAtIndex(i));
    else if (d.rank() == 1)
      add(f, d.size());
  }
  return t;
}

std::uint64_t plainU32(const poplar::VertexIntrospector &v, const poplar::Target &target, const char *name) {
  try {
    return v.getFieldInfo(name).getInitialValue<std::uint32_t>(target);
  } catch (const poplar::unknown_field &) {
    return 0;
  }
}

std::uint64_t loopCycles(std::uint64_t overhead, std::uint64_t elems, std::uint64_t vectorWidth,
                         std::uint64_t cyclesPerVector) {
  vectorWidth = std::max<std::uint64_t>(1, vectorWidth);
  return overhead + (elems + vectorWidth - 1) / vectorWidth * cyclesPerVector;
}

std::uint64_t dataPathElements(const poplar::Target &target, unsigned elemBytes) {
  return dataPathElements(target.getDataPathWidth(), elemBytes);
}

std::uint64_t dataPathElements(unsigned dataPathBits, unsigned elemBytes) {
  const unsigned bits = dataPathBits ? dataPathBits : 64;
  return std::max(1u, bits / (8 * std::max(1u, elemBytes)));
}

unsigned workersOf(const poplar::Target &target) { return std::max(1u, target.getNumWorkerContexts()); }

std::uint64_t elementLoopCycles(std::uint64_t elems, std::uint64_t vectorWidth) {
  return loopCycles(20, elems, vectorWidth, 2);
}

poplar::PerfEstimateFunc elementLoopEstimator(const std::vector<EstimateField> &fields) {
  return [fields](const poplar::VertexIntrospector &v, const poplar::Target &target) {
    const FieldTotals e = fieldTotals(v, target, fields);
    return poplar::VertexPerfEstimate(elementLoopCycles(std::max(e.in, e.out), dataPathElements(target, e.elemBytes)));
  };
}

} // namespace poplibs_support
