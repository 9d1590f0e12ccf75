// Internal: what every profile summary shares: counts printed grouped, and the summary options.
#include "profile.hpp"

#include <string>
#include <utility>

#include "poplar/exceptions.hpp"

namespace poplar::detail {

std::string grouped(std::uint64_t v) {
  std::string s = std::to_string(v), out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i && (s.size() - i) % 3 == 0)
      out += ',';
    out += s[i];
  }
  return out;
}

SummaryOptions parseSummaryOptions(const OptionFlags &opts) {
  SummaryOptions o;
  const std::pair<const char *, bool *> known[] = {{"showExecutionSteps", &o.showExecutionSteps},
                                                   {"showVarStorage", &o.showVarStorage},
                                                   {"showOptimizations", &o.showOptimizations},
                                                   {"showPerIpuMemoryUsage", &o.showPerIpuMemoryUsage},
                                                   {"colours", &o.colours}};
  for (const auto &[name, value] : opts) {
    bool *target = nullptr;
    std::string names;
    for (const auto &k : known) {
      names += std::string(names.empty() ? "" : ", ") + k.first;
      if (name == k.first)
        target = k.second;
    }
    if (!target)
      throw invalid_option("printProfileSummary: unknown option '" + name + "' (known: " + names + ")");
    if (value != "true" && value != "false")
      throw invalid_option("printProfileSummary: option '" + name + "' must be true or false, not '" + value +
                           "'");
    *target = value == "true";
  }
  return o;
}

} // namespace poplar::detail
