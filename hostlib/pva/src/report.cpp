// libpva: the report directory read back into ProfileValues, and views over them.
#include <fstream>
#include <iterator>

#include "pva/pva.hpp"

namespace pva {

namespace {

using poplar::ProfileValue;

bool readFile(const std::string &path, std::string &out) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    return false;
  out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return true;
}

/// Reads `<dir>/<stem>.json`, else `<dir>/<stem>.cbor`; false when neither exists.
/// A reader's error says what and where in the document; this adds which file.
bool readProfile(const std::string &dir, const std::string &stem, ProfileValue &out) {
  std::string text;
  for (const char *ext : {".json", ".cbor"}) {
    const std::string path = dir + "/" + stem + ext;
    if (!readFile(path, text))
      continue;
    try {
      out = ext[1] == 'j' ? poplar::parseProfileJSON(text) : poplar::parseProfileCBOR(text);
    } catch (const poplar::profiling_error &e) {
      throw poplar::profiling_error("pva: " + path + ": " + e.what() +
                                    "; write the report again (autoReport.all=true)");
    }
    return true;
  }
  return false;
}

} // namespace

Report Report::open(const std::string &directory) {
  Report r;
  if (!readProfile(directory, "profile", r.graph_))
    throw poplar::profiling_error("pva: no profile.json or profile.cbor in '" + directory +
                                  "'; write one with the engine option autoReport.all=true and "
                                  "autoReport.directory=" + directory);
  readProfile(directory, "execution", r.execution_);
  return r;
}

std::string Report::targetType() const { return graph_["target"]["type"].asString(); }
unsigned Report::numTiles() const { return unsigned(graph_["target"]["numTiles"].asUInt()); }
double Report::clockFrequency() const { return graph_["target"]["clockFrequency"].asDouble(); }

std::vector<TileMemory> Report::tiles() const {
  const auto &total = graph_["memory"]["byTile"]["total"];
  const auto &gaps = graph_["memory"]["byTile"]["totalIncludingGaps"];
  std::vector<TileMemory> out;
  for (std::size_t t = 0; t < total.size(); ++t)
    out.push_back(TileMemory{unsigned(t), total[t].asUInt(), gaps[t].asUInt()});
  return out;
}

std::map<std::string, double> Report::optimizationInfo() const {
  std::map<std::string, double> out;
  for (const auto &kv : graph_["optimizationInfo"].asMap())
    out[kv.first] = kv.second.asDouble();
  return out;
}

std::map<std::string, std::uint64_t> Report::memoryByCategory() const {
  std::map<std::string, std::uint64_t> out;
  for (const auto &kv : graph_["memory"]["byCategory"].asMap())
    out[kv.first] = kv.second["total"].sumUInt();
  return out;
}

std::map<std::string, std::uint64_t> Report::memoryByVertexType() const {
  std::map<std::string, std::uint64_t> out;
  const auto &names = graph_["vertexTypes"]["names"];
  const auto &bytes = graph_["memory"]["byVertexType"]["vertexDataBytes"];
  for (std::size_t i = 0; i < names.size(); ++i)
    out[names[i].asString()] = bytes[i].sumUInt();
  return out;
}

std::vector<ComputeSet> Report::computeSets() const {
  std::vector<ComputeSet> out;
  const auto &cs = graph_["computeSets"];
  for (std::size_t i = 0; i < cs["names"].size(); ++i)
    out.push_back(ComputeSet{unsigned(i), cs["names"][i].asString(), cs["vertexCounts"][i].sumUInt()});
  return out;
}

std::vector<Program> Report::programs() const {
  std::vector<Program> out;
  const auto &ps = graph_["programs"];
  for (std::size_t i = 0; i < ps.size(); ++i) {
    Program p;
    p.id = unsigned(i);
    p.type = ps[i]["type"].asString();
    p.name = ps[i].contains("name") ? ps[i]["name"].asString() : "";
    if (ps[i].contains("children"))
      for (const auto &c : ps[i]["children"].asVector())
        p.children.push_back(unsigned(c.asUInt()));
    out.push_back(p);
  }
  return out;
}

std::vector<Liveness> Report::liveness() const {
  std::vector<Liveness> out;
  for (const auto &p : graph_["memory"]["liveness"]["byProgram"].asVector()) {
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

std::vector<Step> Report::steps() const {
  std::vector<Step> out;
  if (!hasExecution())
    return out;
  for (const auto &s : execution_["simulation"]["steps"].asVector()) {
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
  return hasExecution() ? execution_["simulation"]["cycles"].asUInt() : 0;
}

std::map<std::string, std::uint64_t> Report::tileCycles() const {
  std::map<std::string, std::uint64_t> out;
  if (hasExecution())
    for (const auto &kv : execution_["simulation"]["tileCycles"].asMap())
      out[kv.first] = kv.second.asUInt();
  return out;
}

} // namespace pva
