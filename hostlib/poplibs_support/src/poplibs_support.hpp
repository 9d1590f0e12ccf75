// Internal to the PopLibs libraries: the helpers they share, each kept here once (see CMakeLists.txt).
#pragma once

#include <string>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>

namespace poplibs_support {

/// Splits the intervals of one tile into at most `workers` groups of about equal element counts, in order (an
/// interval may be cut between groups); each group is one vertex's runs. No elements give no group; 0 workers
/// count as 1.
std::vector<std::vector<poplar::Interval> > splitForWorkers(const std::vector<poplar::Interval> &intervals,
                                                            unsigned workers);

/// Loads <lib>.gp, the codelets popc built for the graph's tile ISA with library `lib` ("popops", ...), into
/// `graph`. It is looked up relative to the shared library that holds `symbolInLib` (the caller's addCodelets):
/// <its dir>/<dataRelDir>/codelets/<isa>/<lib>.gp, which holds in the build tree and in an install tree. Throws
/// poputil::poplibs_error naming the missing file and the ISAs that were built.
void addLibraryCodelets(poplar::Graph &graph, const std::string &lib, const void *symbolInLib,
                        const std::string &dataRelDir);

/// The debug name of operation `fn` under the caller's debug path, or `libraryPrefix` + `fn` (e.g.
/// "poplin::cholesky") when the caller gave none.
inline std::string debugName(const poplar::DebugContext &dc, const std::string &libraryPrefix, const char *fn) {
  const std::string path = dc.getPathName();
  return path.empty() ? libraryPrefix + fn : path + "/" + fn;
}

/// The name an operation uses in its errors and for what it creates: the caller's debug path as given, or
/// `libraryPrefix` + `fn` (e.g. "popops::gather") when the caller gave none.
inline std::string operationName(const poplar::DebugContext &dc, const std::string &libraryPrefix, const char *fn) {
  const std::string path = dc.getPathName();
  return path.empty() ? libraryPrefix + fn : path;
}

} // namespace poplibs_support
