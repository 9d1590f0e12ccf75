// Internal: one report as read, shared by every view of it (pva.hpp's classes hold a ReportDataPtr).
#pragma once

#include <string>
#include <vector>

#include "pva/pva.hpp"

namespace pva::detail {

struct ReportData {
  poplar::ProfileValue graph, execution;
  std::vector<ProgramPtr> programs; ///< the graph profile's programs array, by id

  /// Reads `directory`'s profiles and builds the program tree; throws poplar::profiling_error naming the file.
  static ReportDataPtr read(const std::string &directory);
  /// The same over profiles held in memory.
  static ReportDataPtr fromProfiles(const poplar::ProfileValue &graph, const poplar::ProfileValue &execution);

  bool hasExecution() const { return execution.isMap() && execution.size() != 0; }
  /// The program with id `id`, or null when the profile names no such program.
  ProgramPtr program(std::uint64_t id) const { return id < programs.size() ? programs[id] : nullptr; }

private:
  void buildPrograms();
};

} // namespace pva::detail
