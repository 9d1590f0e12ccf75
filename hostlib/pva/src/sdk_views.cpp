// libpva, Graphcore's API: versions, instrumentation, target, graph, programs and execution over one report.
#include <algorithm>
#include <sstream>

#include "report_data.hpp"

namespace pva {

namespace {

using poplar::ProfileValue;

/// `m[key]` when `m` is a map holding it, else null: reports from older writers lack the newer entries.
const ProfileValue *find(const ProfileValue &m, const char *key) {
  return m.isMap() && m.contains(key) ? &m[key] : nullptr;
}

std::uint64_t uintOr(const ProfileValue &m, const char *key, std::uint64_t dflt) {
  const ProfileValue *v = find(m, key);
  return v ? v->asUInt() : dflt;
}

std::string stringOr(const ProfileValue &m, const char *key, const std::string &dflt) {
  const ProfileValue *v = find(m, key);
  return v ? v->asString() : dflt;
}

const ProfileValue &section(const detail::ReportData &d, const char *key) {
  static const ProfileValue empty{ProfileValue::Map{}};
  const ProfileValue *v = find(d.graph, key);
  return v ? *v : empty;
}

} // namespace

// --- versions and settings -------------------------------------------------------------------------------------

std::string PoplarVersion::string() const { return stringOr(section(*data_, "poplarVersion"), "string", "unknown"); }
std::string PoplarVersion::packageHash() const { return stringOr(section(*data_, "poplarVersion"), "packageHash", ""); }
std::uint32_t PoplarVersion::majorVer() const { return std::uint32_t(uintOr(section(*data_, "poplarVersion"), "major", 0)); }
std::uint32_t PoplarVersion::minorVer() const { return std::uint32_t(uintOr(section(*data_, "poplarVersion"), "minor", 0)); }
std::uint32_t PoplarVersion::pointVer() const { return std::uint32_t(uintOr(section(*data_, "poplarVersion"), "point", 0)); }
std::ostream &operator<<(std::ostream &out, const PoplarVersion &v) { return out << v.string(); }

std::uint32_t ProfileReportVersion::majorVer() const { return std::uint32_t(uintOr(section(*data_, "version"), "major", 0)); }
std::uint32_t ProfileReportVersion::minorVer() const { return std::uint32_t(uintOr(section(*data_, "version"), "minor", 0)); }
std::uint32_t ProfileReportVersion::pointVer() const { return std::uint32_t(uintOr(section(*data_, "version"), "point", 0)); }
bool ProfileReportVersion::isUnstableFormat() const {
  const ProfileValue *v = find(section(*data_, "version"), "unstable");
  return v && v->asBool();
}
std::ostream &operator<<(std::ostream &out, const ProfileReportVersion &v) {
  return out << v.majorVer() << "." << v.minorVer() << "." << v.pointVer() << (v.isUnstableFormat() ? " (unstable)" : "");
}

InstrumentationSettings::ComputeInstrumentationLevel InstrumentationSettings::compute() const {
  const std::string level = stringOr(section(*data_, "instrumentation"), "compute", "");
  using L = ComputeInstrumentationLevel;
  return level == "off" ? L::Off : level == "vertex" ? L::Vertex : level == "tile" ? L::Tile
         : level == "ipu" ? L::Ipu : level == "device" ? L::Device : L::Unknown;
}

InstrumentationSettings::ExternalExchangeInstrumentationLevel InstrumentationSettings::externalExchange() const {
  const std::string level = stringOr(section(*data_, "instrumentation"), "externalExchange", "");
  using L = ExternalExchangeInstrumentationLevel;
  return level == "off" ? L::Off : level == "tile" ? L::Tile : L::Unknown;
}

// --- target and graph -------------------------------------------------------------------------------------------

Target::Type Target::type() const {
  const std::string t = stringOr(section(*data_, "target"), "type", "");
  return t == "IPU" ? Type::IPU : t == "IPU_MODEL" ? Type::IPU_MODEL : t == "CPU" ? Type::CPU : Type::Unknown;
}
std::uint64_t Target::numTiles() const { return uintOr(section(*data_, "target"), "numTiles", 0); }
std::uint64_t Target::numIPUs() const { return uintOr(section(*data_, "target"), "numIPUs", 0); }
std::uint64_t Target::tilesPerIpu() const { return uintOr(section(*data_, "target"), "tilesPerIPU", 0); }
std::uint64_t Target::bytesPerTile() const { return uintOr(section(*data_, "target"), "bytesPerTile", 0); }
std::uint64_t Target::bytesPerIPU() const { return uintOr(section(*data_, "target"), "bytesPerIPU", 0); }
std::uint64_t Target::totalMemory() const { return uintOr(section(*data_, "target"), "totalMemory", 0); }
std::uint64_t Target::numWorkerContexts() const { return uintOr(section(*data_, "target"), "numWorkerContexts", 0); }
double Target::clockFrequency() const {
  const ProfileValue *v = find(section(*data_, "target"), "clockFrequency");
  return v ? v->asDouble() : 0.0;
}

std::uint64_t Graph::numComputeSets() const { return uintOr(section(*data_, "graph"), "numComputeSets", 0); }
std::uint64_t Graph::numVertices() const { return uintOr(section(*data_, "graph"), "numVertices", 0); }
std::uint64_t Graph::numEdges() const { return uintOr(section(*data_, "graph"), "numEdges", 0); }
std::uint64_t Graph::numVars() const { return uintOr(section(*data_, "graph"), "numVars", 0); }

// --- programs ---------------------------------------------------------------------------------------------------

void Program::accept(ProgramVisitor &v) const {
  switch (type_) {
  case Type::Sequence: v.visitSequence(*this); break;
  case Type::Repeat: v.visitRepeat(*this); break;
  case Type::RepeatWhileTrue: v.visitRepeatWhileTrue(*this); break;
  case Type::RepeatWhileFalse: v.visitRepeatWhileFalse(*this); break;
  case Type::If: v.visitIf(*this); break;
  case Type::Switch: v.visitSwitch(*this); break;
  case Type::StreamCopyMid: v.visitStreamCopyMid(*this); break;
  case Type::Sync: v.visitSync(*this); break;
  case Type::PrintTensor: v.visitPrintTensor(*this); break;
  default: v.visitProgram(*this); break; // OnTileExecute and DoExchange have their own classes
  }
}

void OnTileExecuteProgram::accept(ProgramVisitor &v) const { v.visitOnTileExecute(*this); }
void DoExchangeProgram::accept(ProgramVisitor &v) const { v.visitDoExchange(*this); }

const std::vector<ProgramPtr> &CompilationReport::programs() const { return data_->programs; }

std::vector<ProgramPtr> CompilationReport::controlPrograms() const {
  std::vector<ProgramPtr> out;
  if (const ProfileValue *roots = find(data_->graph, "controlPrograms"))
    for (const auto &r : roots->asVector())
      if (ProgramPtr p = data_->program(r.asUInt()))
        out.push_back(p);
  return out;
}

// --- execution --------------------------------------------------------------------------------------------------

namespace {

const ProfileValue *simulationSteps(const detail::ReportData &d) {
  if (!d.hasExecution())
    return nullptr;
  const ProfileValue *sim = find(d.execution, "simulation");
  return sim ? find(*sim, "steps") : nullptr;
}

/// Whether `tile` took part in `step`: it ran vertices of the compute set, or sent or received bytes.
bool tileInStep(const detail::ReportData &d, const ProfileValue &step, unsigned tile) {
  if (const ProfileValue *cs = find(step, "computeSet")) {
    const ProfileValue *est = find(section(d, "computeSets"), "cycleEstimates");
    if (est && find(*est, "cyclesByTile")) {
      const auto &rows = (*est)["cyclesByTile"];
      const std::uint64_t c = cs->asUInt();
      return c < rows.size() && tile < rows[c].size() && rows[c][tile].asUInt() > 0;
    }
    return true; // no per-tile record: every tile in use computes
  }
  for (const char *kind : {"exchange", "hostExchange"})
    if (const ProfileValue *x = find(step, kind)) {
      const auto &area = section(d, kind[0] == 'e' ? "exchanges" : "hostExchanges");
      const std::uint64_t id = x->asUInt();
      for (const char *dir : {"bytesReceivedByTile", "bytesSentByTile"})
        if (const ProfileValue *rows = find(area, dir))
          if (id < rows->size() && tile < (*rows)[id].size() && (*rows)[id][tile].asUInt() > 0)
            return true;
      return false;
    }
  return true; // syncs and control steps involve every tile
}

} // namespace

std::vector<ExecutionStep> ExecutionReport::steps() const {
  std::vector<ExecutionStep> out;
  if (const ProfileValue *steps = simulationSteps(*data_))
    for (const auto &s : steps->asVector())
      out.emplace_back(data_->program(s["program"].asUInt()), s["cyclesFrom"].asUInt(), s["cyclesTo"].asUInt(),
                       uintOr(s, "activeTiles", 0));
  return out;
}

std::vector<Run> ExecutionReport::runs() const {
  std::vector<Run> out;
  const ProfileValue *trace = data_->hasExecution() ? find(data_->execution, "programTrace") : nullptr;
  if (!trace)
    return out;
  // Steps come in run order; a run's steps are the descendants of its root program.
  std::vector<ExecutionStep> all = steps();
  std::size_t next = 0;
  for (const auto &root : trace->asVector()) {
    ProgramPtr rootProgram = data_->program(root.asUInt());
    std::vector<ExecutionStep> mine;
    auto under = [&](const ProgramPtr &p) {
      std::vector<ProgramPtr> stack{rootProgram};
      while (!stack.empty() && p) {
        ProgramPtr q = stack.back();
        stack.pop_back();
        if (!q)
          continue;
        if (q == p)
          return true;
        for (const auto &c : q->children())
          stack.push_back(c);
      }
      return false;
    };
    while (next < all.size() && under(all[next].program()))
      mine.push_back(all[next++]);
    out.emplace_back(rootProgram, std::move(mine));
  }
  return out;
}

std::vector<Block> ExecutionReport::blocks(unsigned tile) const {
  std::vector<Block> out;
  if (const ProfileValue *steps = simulationSteps(*data_))
    for (const auto &s : steps->asVector())
      if (tileInStep(*data_, s, tile))
        out.emplace_back(data_->program(s["program"].asUInt()), s["cyclesFrom"].asUInt(), s["cyclesTo"].asUInt(),
                         uintOr(s, "activeTiles", 0));
  return out;
}

std::uint64_t ExecutionReport::totalCycles() const {
  if (!data_->hasExecution())
    return 0;
  const ProfileValue *sim = find(data_->execution, "simulation");
  return sim ? uintOr(*sim, "cycles", 0) : 0;
}

} // namespace pva
