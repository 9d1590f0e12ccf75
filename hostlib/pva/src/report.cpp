// libpva: the report directory read back into ProfileValues, and the program tree built over them.
#include <fstream>
#include <iterator>
#include <new>
#include <sys/stat.h>

#include "report_data.hpp"

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

Program::Type programType(const std::string &t) {
  static const std::pair<const char *, Program::Type> types[] = {
      {"Sequence", Program::Type::Sequence},
      {"Repeat", Program::Type::Repeat},
      {"RepeatWhileTrue", Program::Type::RepeatWhileTrue},
      {"RepeatWhileFalse", Program::Type::RepeatWhileFalse},
      {"If", Program::Type::If},
      {"Switch", Program::Type::Switch},
      {"OnTileExecute", Program::Type::OnTileExecute},
      {"DoExchange", Program::Type::DoExchange},
      {"StreamCopy", Program::Type::StreamCopyMid}, // one host transfer: the SDK's middle part of a stream copy
      {"Sync", Program::Type::Sync},
      {"PrintTensor", Program::Type::PrintTensor},
  };
  for (const auto &[name, type] : types)
    if (t == name)
      return type;
  return Program::Type::Unknown;
}

bool isDirectory(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

} // namespace

namespace detail {

ReportDataPtr ReportData::read(const std::string &directory) {
  auto data = std::make_shared<ReportData>();
  if (!readProfile(directory, "profile", data->graph))
    throw poplar::profiling_error("pva: no profile.json or profile.cbor in '" + directory +
                                  "'; write one with the engine option autoReport.all=true and "
                                  "autoReport.directory=" + directory);
  readProfile(directory, "execution", data->execution);
  data->buildPrograms();
  return data;
}

ReportDataPtr ReportData::fromProfiles(const poplar::ProfileValue &graph, const poplar::ProfileValue &execution) {
  auto data = std::make_shared<ReportData>();
  data->graph = graph;
  data->execution = execution;
  data->buildPrograms();
  return data;
}

void ReportData::buildPrograms() {
  if (!graph.contains("programs"))
    return;
  const auto &ps = graph["programs"].asVector();
  // Two passes: every node first (children may have higher or lower ids), then the child links.
  std::vector<std::shared_ptr<Program>> nodes;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    const ProfileValue &p = ps[i];
    const std::string name = p.contains("name") ? p["name"].asString() : "";
    const Program::Type type = programType(p["type"].asString());
    if (type == Program::Type::OnTileExecute) {
      std::vector<Variable> vars;
      if (p.contains("vars"))
        for (const auto &v : p["vars"].asVector())
          vars.emplace_back(v.asString());
      const std::uint64_t cs = p.contains("computeSet") ? p["computeSet"].asUInt() : 0;
      nodes.emplace_back(new OnTileExecuteProgram(i, name, cs, std::move(vars)));
    } else if (type == Program::Type::DoExchange) {
      std::uint64_t bytes = 0;
      if (p.contains("exchange") && graph.contains("exchanges")) {
        const auto &rows = graph["exchanges"]["bytesReceivedByTile"];
        const std::uint64_t x = p["exchange"].asUInt();
        if (x < rows.size())
          bytes = rows[x].sumUInt();
      }
      nodes.emplace_back(new DoExchangeProgram(i, name, bytes));
    } else {
      nodes.emplace_back(new Program(i, name, type));
    }
  }
  for (std::size_t i = 0; i < ps.size(); ++i)
    if (ps[i].contains("children"))
      for (const auto &c : ps[i]["children"].asVector()) {
        const std::uint64_t id = c.asUInt();
        if (id >= nodes.size())
          throw poplar::profiling_error("pva: program " + std::to_string(i) + " names child " + std::to_string(id) +
                                        " but the profile has " + std::to_string(nodes.size()) +
                                        " programs; write the report again");
        nodes[i]->children_.push_back(nodes[id]);
      }
  programs.assign(nodes.begin(), nodes.end());
}

} // namespace detail

Report Report::open(const std::string &directory) { return Report(detail::ReportData::read(directory)); }

Report Report::fromProfiles(const poplar::ProfileValue &graphProfile, const poplar::ProfileValue &executionProfile) {
  return Report(detail::ReportData::fromProfiles(graphProfile, executionProfile));
}

// The entry libpoplar's Engine::getReport looks up by name (libpoplar cannot link libpva, which links libpoplar):
// constructs the report over the two profiles in `out`, storage for one pva::Report.
extern "C" __attribute__((visibility("default"))) void
ipu_emu_pva_report_from_profiles(const poplar::ProfileValue *graph, const poplar::ProfileValue *execution, void *out) {
  new (out) Report(Report::fromProfiles(*graph, *execution));
}

Report openReport(const std::string &path) {
  if (isDirectory(path))
    return Report(detail::ReportData::read(path));
  // A file of the report (the SDK's profile.pop, or our profile.json/.cbor): its directory holds the report. The
  // SDK's name is accepted though autoReport writes our files; any other name must be an existing file, so that a
  // mistyped name is refused rather than silently reading its directory's report.
  const std::size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  struct stat st;
  if (base != "profile.pop" && base != "profile.json" && base != "profile.cbor" &&
      !(::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)))
    throw poplar::profiling_error("pva::openReport(\"" + path + "\"): no such file; give the report's directory, "
                                  "its profile.pop (the SDK's name), or the profile.json/profile.cbor that autoReport "
                                  "writes");
  try {
    return Report(detail::ReportData::read(dir));
  } catch (const poplar::profiling_error &e) {
    throw poplar::profiling_error("pva::openReport(\"" + path + "\"): " + e.what());
  }
}

Report openReport(const std::string &path, const std::string &) { return openReport(path); }

} // namespace pva
