// Internal: the graph profile, from the graph and what the compiler laid out on each tile.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <utility>

#include "poplar/Graph.hpp"
#include "poplar/TargetType.hpp"
#include "../target_values.hpp"
#include "compute_set_vars.hpp"
#include "profile_build.hpp"
#include "profiles.hpp"
#include "../time_model.hpp"

namespace poplar::detail {

namespace {

using profile_build::adopt;
using profile_build::mapOf;
using Vec = ProfileValue::Vector;
using Map = ProfileValue::Map;

ProfileValue uints(const std::vector<std::uint64_t> &v) {
  Vec out;
  out.reserve(v.size());
  for (auto x : v)
    out.push_back(ProfileValue((unsigned long long)x));
  return adopt(std::move(out));
}

ProfileValue table(const std::vector<std::vector<std::uint64_t>> &rows) {
  Vec out;
  out.reserve(rows.size());
  for (const auto &r : rows)
    out.push_back(uints(r));
  return adopt(std::move(out));
}

/// The seed's category for each kind of buffer the compiler places.
std::string seedCategory(const std::string &compilerCategory) {
  static const std::map<std::string, std::string> names = {
      {"variable", "variable"},
      {"constant", "constant"},
      {"vertex state", "vertexInstanceState"},
      {"edge buffer", "rearrangement"},
      {"exchange list", "internalExchangeCode"},
      {"host exchange list", "hostExchangeCode"},
      {"compute set table", "controlTable"},
      {"control program", "controlCode"},
      {"predicate copy", "controlId"},
      {"print buffer", "hostMessage"},
      {"print name", "hostMessage"},
      {"instrumentation", "instrumentationResults"},
  };
  auto it = names.find(compilerCategory);
  return it == names.end() ? "multiple" : it->second;
}

/// A program entry's type for a control-flow line of the step list ("Repeat x3" -> "Repeat").
std::string controlType(const std::string &what) {
  for (const char *t : {"RepeatWhileTrue", "RepeatWhileFalse", "Repeat", "If", "Switch"})
    if (what.rfind(t, 0) == 0)
      return t;
  return "Sequence"; // the markers inside a construct: "Else", "Case n", "Default"
}

/// Per step of each program, the graph variables in use there (popvis's liveness view): a variable is in use from
/// the first to the last step that reads or writes it, a compute set (through its vertices' edges), an exchange, a
/// stream copy or a print. Returns the table of variables (names, bytes) and fills `perStep[p][line]` with indices
/// into it.
ProfileValue liveVariables(const GraphImpl &graph, const CompiledGraph &cg, ComputeSetVariables &varsOf,
                           std::vector<std::vector<std::vector<std::uint64_t>>> &perStep) {
  std::map<std::size_t, unsigned> index; // graph variable -> row of the table
  Vec names, bytes;
  perStep.assign(cg.steps.size(), {});
  for (std::size_t p = 0; p < cg.steps.size(); ++p) {
    std::map<std::size_t, std::pair<std::size_t, std::size_t>> range; // variable -> first, last line
    for (std::size_t i = 0; i < cg.steps[p].size(); ++i) {
      const StepInfo &s = cg.steps[p][i];
      auto use = [&](std::size_t v) {
        if (v < graph.vars.size())
          range.emplace(v, std::make_pair(i, i)).first->second.second = i;
      };
      for (std::size_t v : s.variables)
        use(v);
      if (s.kind != "OnTileExecute")
        continue;
      for (std::size_t v : varsOf.ids(s.computeSet))
        use(v);
    }
    perStep[p].assign(cg.steps[p].size(), {});
    for (const auto &[v, r] : range) {
      auto row = index.find(v);
      if (row == index.end()) {
        row = index.emplace(v, unsigned(names.size())).first;
        names.push_back(graph.vars[v].name);
        bytes.push_back((unsigned long long)(graph.vars[v].numElements * graph.vars[v].type.getSize()));
      }
      for (std::size_t i = r.first; i <= r.second; ++i)
        perStep[p][i].push_back(row->second);
    }
  }
  return mapOf("names", adopt(std::move(names)), "bytes", adopt(std::move(bytes)));
}

/// The SDK version that wrote the report ("3.4.0 (hash)" split into its numbers) and the report format's version.
ProfileValue poplarVersion() {
  const std::string s = versionString();
  unsigned v[3] = {0, 0, 0};
  std::sscanf(s.c_str(), "%u.%u.%u", &v[0], &v[1], &v[2]);
  return ProfileValue(Map{{"string", s}, {"packageHash", packageHash()}, {"major", v[0]}, {"minor", v[1]},
                          {"point", v[2]}});
}

ProfileValue target(const Target &t) {
  Map m;
  m["type"] = toString(t.getTargetType());
  m["bytesPerIPU"] = (unsigned long long)(std::uint64_t(t.getBytesPerTile()) * t.getTilesPerIPU());
  m["bytesPerTile"] = t.getBytesPerTile();
  m["clockFrequency"] = t.getTileClockFrequency();
  m["numIPUs"] = t.getNumIPUs();
  m["tilesPerIPU"] = t.getTilesPerIPU();
  m["numTiles"] = t.getNumTiles();
  m["numWorkerContexts"] = t.getNumWorkerContexts();
  m["totalMemory"] = (unsigned long long)t.getMemoryBytes();
  // The card's sync costs the same from every tile (one hardware barrier), so the relative delays are all zero.
  m["relativeSyncDelayByTile"] = uints(std::vector<std::uint64_t>(t.getTilesPerIPU(), 0));
  m["minSyncDelay"] = 0u;
  return adopt(std::move(m));
}

} // namespace

ProfileValue buildGraphProfile(const GraphImpl &graph, const CompiledGraph &cg, const Target &tgt,
                               const ProfilingOptions &opts) {
  const std::size_t numTiles = tgt.getNumTiles();
  Map root;
  root["target"] = target(tgt);
  root["target"]["board"] = cg.board.name; // ours: the board file the target was made from
  root["poplarVersion"] = poplarVersion();
  // The report format: 1.0.0 is the layout docs/profiling.md describes.
  root["version"] = ProfileValue(Map{{"major", 1u}, {"minor", 0u}, {"point", 0u}, {"unstable", false}});
  root["instrumentation"] = ProfileValue(
      Map{{"compute", opts.instrument ? opts.level : std::string("off")}, {"externalExchange", "off"}});
  if (cg.instr.enabled)
    root["instrumentation"]["tile"] = cg.instr.tile; // ours: the tile whose stamps time the steps

  std::uint64_t peakLive = 0;
  for (const auto &p : cg.liveBytes)
    for (auto b : p)
      peakLive = std::max(peakLive, b);
  Map opt;
  opt["tilesInUse"] = double(cg.tiles.size());
  opt["codeBytesPerTile"] = double(cg.image.codeBytes);
  opt["exchangeBytes"] = double(cg.exchangeBytes);
  opt["peakLiveBytes"] = double(peakLive);
  opt["instrumented"] = opts.instrument ? 1.0 : 0.0;
  for (const auto &entry : graph.optimizationInfo) // the libraries' (poplin's plans), never one of the above
    opt[entry.first] = entry.second;
  root["optimizationInfo"] = adopt(std::move(opt));

  Map g;
  g["numComputeSets"] = (unsigned long long)cg.numComputeSets;
  g["numEdges"] = (unsigned long long)cg.numEdges;
  g["numVars"] = (unsigned long long)cg.numVars;
  g["numVertices"] = (unsigned long long)cg.numVertices;
  root["graph"] = adopt(std::move(g));

  // Vertex types actually used, in order of first use.
  std::map<std::string, unsigned> typeIndex;
  std::vector<std::string> typeNames;
  std::vector<std::uint64_t> typeSizes;
  std::vector<unsigned> vertexType(graph.vertices.size());
  for (std::size_t v = 0; v < graph.vertices.size(); ++v) {
    const std::string &name = graph.vertices[v].type;
    auto it = typeIndex.find(name);
    if (it == typeIndex.end()) {
      it = typeIndex.emplace(name, unsigned(typeNames.size())).first;
      typeNames.push_back(name);
      typeSizes.push_back(std::max<std::uint32_t>(graph.vertexClass(unsigned(v)).stateSize, 4));
    }
    vertexType[v] = it->second;
  }
  Vec names;
  for (const auto &n : typeNames)
    names.push_back(n);
  root["vertexTypes"] = mapOf("names", adopt(std::move(names)), "sizes", uints(typeSizes));

  // Compute sets: names, vertex counts by type, and (IPU Model) the cycle estimates the vertices were given.
  const std::size_t numCS = graph.computeSets.size(), numTypes = typeNames.size();
  Vec csNames, csCounts, csTypes;
  std::vector<std::vector<std::uint64_t>> activeByTile(numCS, std::vector<std::uint64_t>(numTiles, 0));
  std::vector<std::vector<std::uint64_t>> cyclesByTile = activeByTile;
  std::vector<std::vector<std::uint64_t>> activeByType(numCS, std::vector<std::uint64_t>(numTypes, 0));
  std::vector<std::vector<std::uint64_t>> vertexBytesCS = activeByTile;
  std::vector<std::vector<std::uint64_t>> vertexBytesType(numTypes, std::vector<std::uint64_t>(numTiles, 0));
  // The compile's own estimates when they belong to this graph (the same figures, computed once).
  CycleEstimates own;
  const CycleEstimates &cycles =
      cg.cycles.vertex.size() == graph.vertices.size() ? cg.cycles : (own = estimateCycles(graph));
  const std::vector<std::vector<std::uint64_t>> &tileCycles = cycles.tile;
  for (std::size_t c = 0; c < numCS; ++c) {
    const auto &cs = graph.computeSets[c];
    csNames.push_back(cs.name);
    std::map<unsigned, std::uint64_t> counts;
    std::vector<std::uint64_t> verticesOnTile(numTiles, 0);
    for (unsigned v : cs.vertices) {
      const auto &vx = graph.vertices[v];
      counts[vertexType[v]]++;
      if (vx.tile >= numTiles)
        continue;
      verticesOnTile[vx.tile]++;
      const std::uint64_t est = cycles.vertex[v];
      activeByTile[c][vx.tile] += est;
      activeByType[c][vertexType[v]] += est;
      vertexBytesCS[c][vx.tile] += typeSizes[vertexType[v]];
      vertexBytesType[vertexType[v]][vx.tile] += typeSizes[vertexType[v]];
    }
    // The time model's barrel (time_model.hpp): the tile's busiest worker slot times the worker contexts.
    if (c < tileCycles.size())
      for (std::size_t t = 0; t < numTiles && t < tileCycles[c].size(); ++t)
        cyclesByTile[c][t] = tileCycles[c][t];
    Vec cnt, typ;
    for (const auto &[type, n] : counts) {
      typ.push_back(type);
      cnt.push_back((unsigned long long)n);
    }
    csCounts.push_back(adopt(std::move(cnt)));
    csTypes.push_back(adopt(std::move(typ)));
  }
  Map css;
  css["names"] = adopt(std::move(csNames));
  css["vertexCounts"] = adopt(std::move(csCounts));
  css["vertexTypes"] = adopt(std::move(csTypes));
  if (tgt.getTargetType() == TargetType::IPU_MODEL)
    css["cycleEstimates"] = mapOf("activeCyclesByTile", table(activeByTile), "activeCyclesByVertexType",
                                  table(activeByType), "cyclesByTile", table(cyclesByTile));
  root["computeSets"] = adopt(std::move(css));

  // Programs: one Sequence per engine program, its steps as children (control flow nests by depth).
  Vec programs;
  std::vector<std::vector<std::uint64_t>> xRecv, xSent, xCycles, hRecv, hSent, hCycles;
  Vec controlPrograms;
  auto perTile = [&](const std::map<std::uint32_t, std::uint64_t> &m) {
    std::vector<std::uint64_t> v(numTiles, 0);
    for (const auto &[t, b] : m)
      if (t < numTiles)
        v[t] = b;
    return v;
  };
  // The card model's time model (docs/architecture.md, "Time model"). Exchange moves getExchangeBytesPerCycle()
  // bytes per cycle per tile: a tile's exchange time is its larger direction over that. A host exchange crosses the
  // board's host link: the link's latency plus the tile's bytes at the link's bandwidth (the tile's own share; all
  // tiles together take the sum of their bytes).
  const std::uint64_t xBytes = std::max(1u, tgt.getExchangeBytesPerCycle());
  const ipu_board &board = tgt.values().board;
  auto exchangeCycles = [&](const std::vector<std::uint64_t> &in, const std::vector<std::uint64_t> &out) {
    std::vector<std::uint64_t> c(numTiles, 0);
    for (std::size_t t = 0; t < numTiles; ++t)
      c[t] = (std::max(in[t], out[t]) + xBytes - 1) / xBytes;
    return c;
  };
  auto hostCycles = [&](const std::vector<std::uint64_t> &in, const std::vector<std::uint64_t> &out) {
    std::vector<std::uint64_t> c(numTiles, 0);
    const double hz = double(board.tile_clock_hz), bw = double(std::max<std::uint64_t>(1, board.host_link_bytes_per_second));
    const double latency = std::ceil(double(board.host_link_latency_ns) * hz / 1e9);
    for (std::size_t t = 0; t < numTiles; ++t)
      if (in[t] + out[t])
        c[t] = std::uint64_t(latency + std::ceil(double(in[t] + out[t]) * hz / bw));
    return c;
  };
  ComputeSetVariables csVars(graph);
  for (std::size_t p = 0; p < cg.steps.size(); ++p) {
    std::size_t rootId = programs.size();
    controlPrograms.push_back((unsigned long long)rootId);
    programs.push_back(ProfileValue(
        Map{{"type", "Sequence"}, {"name", "program " + std::to_string(p)}, {"children", ProfileValue(Vec{})}}));
    std::vector<std::pair<unsigned, std::size_t>> open; // (depth, program id) of the constructs being filled
    for (const auto &s : cg.steps[p]) {
      while (!open.empty() && open.back().first >= s.depth)
        open.pop_back();
      std::size_t parent = open.empty() ? rootId : open.back().second;
      Map node;
      node["name"] = s.what;
      if (s.bytes)
        node["bytes"] = (unsigned long long)s.bytes; // ours: the bytes an exchange or stream copy moves
      if (s.kind.empty()) {
        node["type"] = controlType(s.what);
        node["children"] = ProfileValue(Vec{});
      } else {
        node["type"] = s.kind;
      }
      if (s.kind == "OnTileExecute") {
        node["computeSet"] = s.computeSet;
        node["vars"] = csVars.names(s.computeSet);
      }
      if (s.kind == "DoExchange" || s.kind == "StreamCopy") {
        auto in = perTile(s.receivedByTile), out = perTile(s.sentByTile);
        auto &recv = s.kind == "DoExchange" ? xRecv : hRecv;
        node["exchange"] = (unsigned long long)recv.size();
        recv.push_back(in);
        (s.kind == "DoExchange" ? xSent : hSent).push_back(out);
        (s.kind == "DoExchange" ? xCycles : hCycles).push_back(s.kind == "DoExchange" ? exchangeCycles(in, out)
                                                                                        : hostCycles(in, out));
      }
      std::size_t id = programs.size();
      programs.push_back(adopt(std::move(node)));
      programs[parent]["children"].asVector().push_back((unsigned long long)id);
      if (s.kind.empty())
        open.emplace_back(s.depth, id);
    }
  }
  root["programs"] = adopt(std::move(programs));
  root["controlPrograms"] = ProfileValue(controlPrograms);
  root["functionPrograms"] = ProfileValue(Vec{});
  root["exchanges"] =
      mapOf("bytesReceivedByTile", table(xRecv), "bytesSentByTile", table(xSent), "cyclesByTile", table(xCycles));
  root["externalExchanges"] = mapOf("bytesReceivedByTile", ProfileValue(Vec{}), "bytesSentByTile",
                                    ProfileValue(Vec{}), "estimatedCyclesByTile", ProfileValue(Vec{}));
  root["hostExchanges"] = mapOf("bytesReceivedByTile", table(hRecv), "bytesSentByTile", table(hSent),
                                "estimatedCyclesByTile", table(hCycles));

  // Memory: every tile's code and data as the loader places them; all memory is one non-interleaved region here.
  std::vector<std::uint64_t> total(numTiles, 0), totalGaps(numTiles, 0);
  std::map<std::string, std::pair<std::vector<std::uint64_t>, std::vector<std::uint64_t>>> byCat; // non/overlapped
  auto cat = [&](const std::string &name) -> auto & {
    auto it = byCat.find(name);
    if (it == byCat.end())
      it = byCat.emplace(name, std::make_pair(std::vector<std::uint64_t>(numTiles, 0),
                                              std::vector<std::uint64_t>(numTiles, 0))).first;
    return it->second;
  };
  std::vector<std::vector<std::uint64_t>> tableBytesCS(numCS, std::vector<std::uint64_t>(numTiles, 0));
  const std::uint64_t stackBytes = cg.board.bytes_per_tile - (cg.image.freeEnd - 0x00100000u);
  for (const auto &[t, td] : cg.tileData) {
    if (t >= numTiles)
      continue;
    std::vector<const MemItem *> items;
    for (const auto &it : td.items)
      if (it.size)
        items.push_back(&it);
    std::sort(items.begin(), items.end(), [](const MemItem *a, const MemItem *b) { return a->addr < b->addr; });
    // An item is overlapped when another item shares any of its bytes (liveness let them share memory).
    std::vector<bool> overlapped(items.size(), false);
    std::uint32_t maxEnd = 0, unionBytes = 0, covered = 0;
    std::size_t owner = 0;
    for (std::size_t i = 0; i < items.size(); ++i) {
      std::uint32_t b = items[i]->addr, e = items[i]->addr + items[i]->size;
      if (i && b < maxEnd) {
        overlapped[i] = overlapped[owner] = true;
      }
      if (e > maxEnd) {
        unionBytes += e - std::max(b, std::max(maxEnd, covered));
        maxEnd = e;
        covered = e;
        owner = i;
      }
    }
    for (std::size_t i = 0; i < items.size(); ++i) {
      auto &c = cat(seedCategory(items[i]->category));
      (overlapped[i] ? c.second : c.first)[t] += items[i]->size;
      if (items[i]->category == "compute set table")
        for (std::size_t cs = 0; cs < numCS; ++cs)
          if (graph.computeSets[cs].name == items[i]->name)
            tableBytesCS[cs][t] += items[i]->size;
    }
    cat("vertexCode").first[t] += cg.image.codeBytes;
    cat("stack").first[t] += stackBytes;
    total[t] = cg.image.codeBytes + unionBytes;
    totalGaps[t] = cg.image.codeBytes + td.bytes.size();
  }
  std::vector<std::uint64_t> zeros(numTiles, 0);
  Map byTile;
  byTile["interleaved"] = uints(zeros);
  byTile["interleavedIncludingGaps"] = uints(zeros);
  byTile["nonInterleaved"] = uints(total);
  byTile["nonInterleavedIncludingGaps"] = uints(totalGaps);
  byTile["overflowed"] = uints(zeros);
  byTile["overflowedIncludingGaps"] = uints(zeros);
  byTile["total"] = uints(total);
  byTile["totalIncludingGaps"] = uints(totalGaps);
  Map categories;
  const ProfileValue emptyRegion = mapOf("nonOverlapped", uints(zeros), "overlapped", uints(zeros));
  for (const auto &[name, parts] : byCat) {
    std::vector<std::uint64_t> sum(numTiles);
    for (std::size_t t = 0; t < numTiles; ++t)
      sum[t] = parts.first[t] + parts.second[t];
    categories[name] = mapOf("interleaved", emptyRegion, "nonInterleaved",
                             mapOf("nonOverlapped", uints(parts.first), "overlapped", uints(parts.second)),
                             "overflowed", emptyRegion, "total", uints(sum));
  }
  auto breakdown = [&](const std::vector<std::vector<std::uint64_t>> &vertexData,
                       const std::vector<std::vector<std::uint64_t>> &descriptors) {
    std::vector<std::vector<std::uint64_t>> none(vertexData.size(), zeros), totals = vertexData;
    for (std::size_t i = 0; i < totals.size(); ++i)
      for (std::size_t t = 0; t < numTiles; ++t)
        totals[i][t] += descriptors[i][t];
    const ProfileValue noneTable = table(none);
    return mapOf("codeBytes", noneTable, "copyPtrBytes", noneTable, "descriptorBytes", table(descriptors),
                 "edgePtrBytes", noneTable, "paddingBytes", noneTable, "vertexDataBytes", table(vertexData),
                 "totalBytes", table(totals));
  };
  Map memory;
  memory["byTile"] = adopt(std::move(byTile));
  memory["byCategory"] = adopt(std::move(categories));
  memory["byComputeSet"] = breakdown(vertexBytesCS, tableBytesCS);
  memory["byVertexType"] =
      breakdown(vertexBytesType, std::vector<std::vector<std::uint64_t>>(numTypes, zeros));
  // Liveness: bytes in use on all tiles at each step of each program (indexes match the program's step list).
  std::vector<std::vector<std::vector<std::uint64_t>>> liveVars;
  ProfileValue variables = liveVariables(graph, cg, csVars, liveVars);
  Vec live;
  for (std::size_t p = 0; p < cg.liveBytes.size(); ++p) {
    Vec stepNames, stepVars;
    for (const auto &s : cg.steps[p])
      stepNames.push_back(std::string(2 * s.depth, ' ') + s.what);
    for (std::size_t i = 0; p < liveVars.size() && i < liveVars[p].size(); ++i)
      stepVars.push_back(uints(liveVars[p][i]));
    Map entry;
    entry["program"] = controlPrograms[p];
    entry["liveBytes"] = uints(cg.liveBytes[p]);
    entry["stepNames"] = adopt(std::move(stepNames));
    entry["liveVariables"] = adopt(std::move(stepVars));
    live.push_back(adopt(std::move(entry)));
  }
  Map liveness;
  liveness["byProgram"] = adopt(std::move(live));
  liveness["peakBytes"] = (unsigned long long)peakLive;
  liveness["variables"] = std::move(variables);
  memory["liveness"] = adopt(std::move(liveness));
  // Ours, for the summary (profiling/summary.cpp): each tile's code and stack, and whether the code counts (an IPU
  // Model with compileIPUCode false reports memory without it, as the SDK's model does).
  memory["codeBytesPerTile"] = (unsigned long long)cg.image.codeBytes;
  memory["stackBytesPerTile"] = (unsigned long long)stackBytes;
  memory["codeCounted"] = tgt.getTargetType() != TargetType::IPU_MODEL || tgt.values().compileIPUCode;
  root["memory"] = adopt(std::move(memory));
  return adopt(std::move(root));
}

} // namespace poplar::detail
