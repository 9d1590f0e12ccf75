// popops::SlicePlan and embedding::plan (popops/DynamicSlice.hpp). A plan records the embedding's parameters and
// options (checked here); the operations lay out and split their work the same way whatever the plan.
#include <map>
#include <sstream>
#include <tuple>

#include <poplar/exceptions.hpp>

#include "log.hpp"
#include "popops/DynamicSlice.hpp"
#include "slice_util.hpp"

namespace popops {

/// The parameters embedding::plan was given; a default plan has none.
class SlicePlanInternal {
public:
  bool planned = false;
  std::string dataType;
  std::size_t groupSize = 1, numEntries = 0, outputSize = 0;
  std::vector<std::size_t> numLookups;
  std::map<std::string, std::string> options;
  auto key() const { return std::tie(planned, dataType, groupSize, numEntries, outputSize, numLookups, options); }
};

SlicePlan::SlicePlan() : internal_(new SlicePlanInternal) {}
SlicePlan::~SlicePlan() = default;
SlicePlan::SlicePlan(const SlicePlan &other) : internal_(new SlicePlanInternal(*other.internal_)) {}
SlicePlan::SlicePlan(SlicePlan &&other) : internal_(new SlicePlanInternal(*other.internal_)) {}
SlicePlan &SlicePlan::operator=(const SlicePlan &other) {
  *internal_ = *other.internal_;
  return *this;
}
SlicePlan &SlicePlan::operator=(SlicePlan &&other) {
  *internal_ = *other.internal_;
  return *this;
}
SlicePlan::SlicePlan(std::unique_ptr<SlicePlanInternal> internal)
    : internal_(internal ? std::move(internal) : std::unique_ptr<SlicePlanInternal>(new SlicePlanInternal)) {}

std::ostream &operator<<(std::ostream &o, const SlicePlan &p) {
  const SlicePlanInternal &i = *p.internal_;
  if (!i.planned)
    return o << "SlicePlan(default)";
  o << "SlicePlan(" << i.dataType << ", groups " << i.groupSize << ", entries " << i.numEntries << ", outputSize " << i.outputSize
    << ", lookups";
  for (std::size_t n : i.numLookups)
    o << " " << n;
  return o << ")";
}
bool operator<(const SlicePlan &a, const SlicePlan &b) { return a.internal_->key() < b.internal_->key(); }
bool operator==(const SlicePlan &a, const SlicePlan &b) { return a.internal_->key() == b.internal_->key(); }
bool operator!=(const SlicePlan &a, const SlicePlan &b) { return !(a == b); }

namespace plog = poputil::detail;

namespace embedding {

SlicePlan plan(const poplar::Graph &graph, const poplar::Type &dataType, std::size_t numEntries,
               std::size_t outputSize, const std::vector<std::size_t> &numLookups,
               const poplar::OptionFlags &options) {
  return plan(graph, dataType, 1, numEntries, outputSize, numLookups, options);
}

SlicePlan plan(const poplar::Graph &, const poplar::Type &dataType, std::size_t groupSize, std::size_t numEntries,
               std::size_t outputSize, const std::vector<std::size_t> &numLookups,
               const poplar::OptionFlags &options) {
  const std::string name = "popops::embedding::plan";
  detail::checkOptions(options, detail::planOptionRules(), name);
  if (options.contains("usedForSlice") && options.contains("usedForUpdate") &&
      options.at("usedForSlice") == "false" && options.at("usedForUpdate") == "false")
    throw poplar::invalid_option(name + ": usedForSlice and usedForUpdate are both false; the plan must be used "
                                        "for one of them");
  std::unique_ptr<SlicePlanInternal> p(new SlicePlanInternal);
  p->planned = true;
  p->dataType = dataType.toString();
  p->groupSize = groupSize;
  p->numEntries = numEntries;
  p->outputSize = outputSize;
  p->numLookups = numLookups;
  for (const auto &[k, v] : options)
    p->options[k] = v;
  SlicePlan result(std::move(p));
  if (plog::logEnabled(plog::LogLevel::Debug)) {
    std::ostringstream os;
    os << result;
    plog::log(plog::LogLevel::Debug, name + ": " + os.str());
  }
  return result;
}

std::vector<SlicePlan> planMultiple(const std::vector<SlicePlanningParameters> &spds) {
  // Planning is cheap here (no search), so the plans are made one after another.
  std::vector<SlicePlan> plans;
  for (const SlicePlanningParameters &p : spds)
    plans.push_back(plan(p.graph, p.dataType, p.groupSize, p.numEntries, p.outputSize, p.numLookups, p.optionFlags));
  return plans;
}

} // namespace embedding

} // namespace popops
