// libpva, Graphcore's API: the compiled graph's tiles (memory by category and by vertex type) and compute sets,
// read from the graph profile's "memory", "vertexTypes" and "computeSets" sections.
#include "report_data.hpp"

namespace pva {

namespace {

using poplar::ProfileValue;

/// `v[i]` as a number when `v` is a vector that long, else 0 (a category or tile the profile does not record).
std::uint64_t at(const ProfileValue &v, std::size_t i) { return v.isVector() && i < v.size() ? v[i].asUInt() : 0; }

const ProfileValue *child(const ProfileValue &m, const char *key) {
  return m.isMap() && m.contains(key) ? &m[key] : nullptr;
}

const ProfileValue &memorySection(const detail::ReportData &d, const char *key) {
  static const ProfileValue empty{ProfileValue::Map{}};
  const ProfileValue *mem = child(d.graph, "memory");
  const ProfileValue *v = mem ? child(*mem, key) : nullptr;
  return v ? *v : empty;
}

MemoryOverlap overlap(const ProfileValue *region, unsigned tile) {
  if (!region)
    return MemoryOverlap(0, 0);
  const ProfileValue *non = child(*region, "nonOverlapped"), *over = child(*region, "overlapped");
  return MemoryOverlap(non ? at(*non, tile) : 0, over ? at(*over, tile) : 0);
}

std::vector<VertexType> vertexTypes(const detail::ReportData &d) {
  std::vector<VertexType> out;
  const ProfileValue *vt = child(d.graph, "vertexTypes");
  if (!vt || !child(*vt, "names"))
    return out;
  const ProfileValue &names = (*vt)["names"];
  const ProfileValue *sizes = child(*vt, "sizes");
  for (std::size_t i = 0; i < names.size(); ++i)
    out.emplace_back(names[i].asString(), sizes ? at(*sizes, i) : 0);
  return out;
}

} // namespace

std::uint64_t MemoryCategory::total() const {
  return interleaved_.nonOverlapped() + interleaved_.overlapped() + nonInterleaved_.nonOverlapped() +
         nonInterleaved_.overlapped() + overflowed_.nonOverlapped() + overflowed_.overlapped();
}

MemoryCategory MemoryCategories::byName(const std::string &name) const {
  const ProfileValue &cats = memorySection(*data_, "byCategory");
  const ProfileValue *c = cats.isMap() && cats.contains(name) ? &cats[name] : nullptr;
  if (!c)
    return MemoryCategory(MemoryOverlap(0, 0), MemoryOverlap(0, 0), MemoryOverlap(0, 0));
  return MemoryCategory(overlap(child(*c, "interleaved"), tile_), overlap(child(*c, "nonInterleaved"), tile_),
                        overlap(child(*c, "overflowed"), tile_));
}

MemoryTotal TileMemory::total() const {
  const ProfileValue &byTile = memorySection(*data_, "byTile");
  const ProfileValue *total = child(byTile, "total"), *gaps = child(byTile, "totalIncludingGaps");
  return MemoryTotal(total ? at(*total, tile_) : 0, gaps ? at(*gaps, tile_) : 0);
}

std::vector<VertexMemory> TileMemory::vertices() const {
  // The profile records each type's state bytes per tile; the count is those bytes over one vertex's size.
  std::vector<VertexMemory> out;
  const std::vector<VertexType> types = vertexTypes(*data_);
  const ProfileValue *bytes = child(memorySection(*data_, "byVertexType"), "vertexDataBytes");
  if (!bytes)
    return out;
  for (std::size_t i = 0; i < types.size() && i < bytes->size(); ++i) {
    const std::uint64_t b = at((*bytes)[i], tile_);
    if (b != 0 && types[i].size() != 0)
      out.emplace_back(types[i], b / types[i].size());
  }
  return out;
}

std::vector<Tile> CompilationReport::tiles() const {
  std::vector<Tile> out;
  const ProfileValue *total = child(memorySection(*data_, "byTile"), "total");
  const std::size_t n = total && total->isVector() ? total->size() : 0;
  for (std::size_t t = 0; t < n; ++t)
    out.emplace_back(data_, unsigned(t));
  return out;
}

std::vector<ComputeSet> CompilationReport::computeSets() const {
  std::vector<ComputeSet> out;
  const ProfileValue *cs = child(data_->graph, "computeSets");
  if (!cs || !child(*cs, "names"))
    return out;
  const std::vector<VertexType> types = vertexTypes(*data_);
  const ProfileValue *counts = child(*cs, "vertexCounts"), *typeIds = child(*cs, "vertexTypes");
  for (std::size_t c = 0; c < (*cs)["names"].size(); ++c) {
    std::vector<VertexMemory> vertices;
    if (counts && typeIds && c < counts->size() && c < typeIds->size())
      for (std::size_t k = 0; k < (*typeIds)[c].size(); ++k) {
        const std::uint64_t type = (*typeIds)[c][k].asUInt();
        if (type < types.size())
          vertices.emplace_back(types[type], at((*counts)[c], k));
      }
    out.emplace_back((*cs)["names"][c].asString(), std::move(vertices));
  }
  return out;
}

} // namespace pva
