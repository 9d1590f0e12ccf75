// Internal: an engine's recorded runs in bounded memory (RunHistory), so a program run a million times keeps a
// profile of the last kKept runs plus one summed record per program, not a million records.
#include <algorithm>

#include "profiles.hpp"

namespace poplar::detail {

void RunHistory::add(RunRecord run) {
  kept_.push_back(std::move(run));
  if (kept_.size() <= kKept)
    return;
  // Fold the oldest run into its program's sum: cycles add up, and so do its steps' cycles, step by step (a
  // program's runs have the same top-level steps), which is what the tile cycles by activity are made of.
  RunRecord &old = kept_.front();
  auto sum =
      std::find_if(earlier_.begin(), earlier_.end(), [&](const RunRecord &r) { return r.program == old.program; });
  if (sum == earlier_.end()) {
    earlier_.push_back(std::move(old));
  } else {
    auto addSteps = [](std::vector<std::uint64_t> &to, const std::vector<std::uint64_t> &from) {
      to.resize(std::max(to.size(), from.size()), 0);
      for (std::size_t k = 0; k < from.size(); ++k)
        to[k] += from[k];
    };
    sum->cycles += old.cycles;
    sum->measuredCycles += old.measuredCycles;
    addSteps(sum->stepCycles, old.stepCycles);
    addSteps(sum->measuredStepCycles, old.measuredStepCycles);
    sum->estimated = sum->estimated || old.estimated;
  }
  kept_.pop_front();
  ++earlierCount_;
}

void RunHistory::clear() {
  kept_.clear();
  earlier_.clear();
  earlierCount_ = 0;
}

} // namespace poplar::detail
