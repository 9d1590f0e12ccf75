// libpva, our own views over a report (popvis draws them): tiles, memory, compute sets, liveness, steps.
#include "report_data.hpp"

namespace pva {

const poplar::ProfileValue &Report::graphProfile() const { return data_->graph; }
const poplar::ProfileValue &Report::executionProfile() const { return data_->execution; }
bool Report::hasExecution() const { return data_->hasExecution(); }

std::string Report::targetType() const { return data_->graph["target"]["type"].asString(); }
unsigned Report::numTiles() const { return unsigned(data_->graph["target"]["numTiles"].asUInt()); }
double Report::clockFrequency() const { return data_->graph["target"]["clockFrequency"].asDouble(); }

std::vector<Report::TileMemory> Report::tiles() const {
  const auto &total = data_->graph["memory"]["byTile"]["total"];
  const auto &gaps = data_->graph["memory"]["byTile"]["totalIncludingGaps"];
  std::vector<TileMemory> out;
  for (std::size_t t = 0; t < total.size(); ++t)
    out.push_back(TileMemory{unsigned(t), total[t].asUInt(), gaps[t].asUInt()});
  return out;
}

std::map<std::string, double> Report::optimizationInfo() const {
  std::map<std::string, double> out;
  for (const auto &kv : data_->graph["optimizationInfo"].asMap())
    out[kv.first] = kv.second.asDouble();
  return out;
}

std::map<std::string, std::uint64_t> Report::memoryByCategory() const {
  std::map<std::string, std::uint64_t> out;
  for (const auto &kv : data_->graph["memory"]["byCategory"].asMap())
    out[kv.first] = kv.second["total"].sumUInt();
  return out;
}

std::map<std::string, std::uint64_t> Report::memoryByVertexType() const {
  std::map<std::string, std::uint64_t> out;
  const auto &names = data_->graph["vertexTypes"]["names"];
  const auto &bytes = data_->graph["memory"]["byVertexType"]["vertexDataBytes"];
  for (std::size_t i = 0; i < names.size(); ++i)
    out[names[i].asString()] = bytes[i].sumUInt();
  return out;
}

std::vector<Report::ComputeSet> Report::computeSets() const {
  std::vector<ComputeSet> out;
  const auto &cs = data_->graph["computeSets"];
  for (std::size_t i = 0; i < cs["names"].size(); ++i)
    out.push_back(ComputeSet{unsigned(i), cs["names"][i].asString(), cs["vertexCounts"][i].sumUInt()});
  return out;
}

std::vector<Report::Liveness> Report::liveness() const {
  std::vector<Liveness> out;
  for (const auto &p : data_->graph["memory"]["liveness"]["byProgram"].asVector()) {
    Liveness l;
    l.program = unsigned(p["program"].asUInt());
    for (const auto &n : p["stepNames"].asVector())
      l.stepNames.push_back(n.asString());
    for (const auto &b : p["liveBytes"].asVector())
      l.liveBytes.push_back(b.asUInt());
    out.push_back(l);
  }
  return out;
}

std::vector<Report::Step> Report::steps() const {
  std::vector<Step> out;
  if (!hasExecution())
    return out;
  for (const auto &s : data_->execution["simulation"]["steps"].asVector()) {
    Step st;
    st.type = s["type"].asString();
    st.name = s.contains("name") ? s["name"].asString() : "";
    st.program = unsigned(s["program"].asUInt());
    st.cycles = s["cycles"].asUInt();
    st.cyclesFrom = s["cyclesFrom"].asUInt();
    st.cyclesTo = s["cyclesTo"].asUInt();
    st.activeTiles = s["activeTiles"].asUInt();
    st.tileBalance = s["tileBalance"].asDouble();
    out.push_back(st);
  }
  return out;
}

std::uint64_t Report::totalCycles() const {
  return hasExecution() ? data_->execution["simulation"]["cycles"].asUInt() : 0;
}

std::map<std::string, std::uint64_t> Report::tileCycles() const {
  std::map<std::string, std::uint64_t> out;
  if (hasExecution())
    for (const auto &kv : data_->execution["simulation"]["tileCycles"].asMap())
      out[kv.first] = kv.second.asUInt();
  return out;
}

} // namespace pva
