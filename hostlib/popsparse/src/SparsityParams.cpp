// SparsityParams, FullyConnectedParams and the planning caches: plain values with ordering and printing.
#include "popsparse/FullyConnectedParams.hpp"
#include "popsparse/PlanningCache.hpp"
#include "popsparse/SparsityParams.hpp"

#include <cmath>
#include <string>
#include <tuple>

#include "params_check.hpp"
#include "poputil/exceptions.hpp"

namespace popsparse {
namespace dynamic {

std::ostream &operator<<(std::ostream &os, const SparsityType &t) {
  return os << (t == SparsityType::Element ? "Element" : "Block");
}

std::ostream &operator<<(std::ostream &os, const SparsityStructure &) { return os << "Unstructured"; }

namespace {
auto key(const SparsityParams &p) { return std::tie(p.type, p.structure, p.blockDimensions); }
} // namespace

bool operator<(const SparsityParams &a, const SparsityParams &b) { return key(a) < key(b); }
bool operator==(const SparsityParams &a, const SparsityParams &b) { return key(a) == key(b); }
bool operator!=(const SparsityParams &a, const SparsityParams &b) { return !(a == b); }

std::ostream &operator<<(std::ostream &os, const SparsityParams &p) {
  return os << "{type: " << p.type << ", structure: " << p.structure << ", block: " << p.blockDimensions[0] << "x"
            << p.blockDimensions[1] << "}";
}

namespace detail {

std::size_t checkedGridBlocks(const char *who, const SparsityParams &sp, std::size_t dense, std::size_t groups,
                              std::size_t rows, std::size_t cols) {
  const std::size_t br = sp.blockDimensions[0], bc = sp.blockDimensions[1];
  if (br == 0 || bc == 0 || groups == 0 || rows == 0 || cols == 0 || dense == 0)
    throw poputil::poplibs_error(std::string(who) + ": every size and block dimension must be non-zero");
  if (rows % br || cols % bc)
    throw poputil::poplibs_error(std::string(who) + ": the sparse " + std::to_string(rows) + " x " +
                                 std::to_string(cols) + " matrix per group is not whole " + std::to_string(br) +
                                 "x" + std::to_string(bc) + " blocks");
  return groups * (rows / br) * (cols / bc);
}

void checkNzRatio(const char *who, double nzRatio) {
  if (!(nzRatio >= 0.0 && nzRatio <= 1.0))
    throw poputil::poplibs_error(std::string(who) + ": nzRatio " + std::to_string(nzRatio) + " is not in [0, 1]");
}

double nzRatioFromCount(const char *who, const SparsityParams &sp, std::size_t numNonZeroElems, std::size_t blocks) {
  const std::size_t area = sp.blockDimensions[0] * sp.blockDimensions[1];
  if (numNonZeroElems % area || numNonZeroElems > blocks * area)
    throw poputil::poplibs_error(std::string(who) + ": " + std::to_string(numNonZeroElems) +
                                 " non-zero values are not a whole number of blocks of at most the " +
                                 std::to_string(blocks * area) + " elements of the sparse operand");
  return double(numNonZeroElems / area) / double(blocks);
}

std::size_t nzValuesFromRatio(const SparsityParams &sp, double nzRatio, std::size_t blocks) {
  // The rounding tolerates the ratio's binary error (a ratio made from a count gives that count back).
  const double want = nzRatio * double(blocks);
  const std::size_t nzBlocks = std::size_t(std::ceil(want - 1e-9 * want));
  return nzBlocks * sp.blockDimensions[0] * sp.blockDimensions[1];
}

} // namespace detail

namespace {
const char *const kFcParams = "popsparse::FullyConnectedParams";
} // namespace

FullyConnectedParams FullyConnectedParams::createWithNzRatio(const SparsityParams &sparsityParams, double nzRatio,
                                                             std::size_t batchSize, std::size_t numGroups,
                                                             std::size_t inputChannels, std::size_t outputChannels) {
  detail::checkedGridBlocks(kFcParams, sparsityParams, batchSize, numGroups, outputChannels, inputChannels);
  detail::checkNzRatio(kFcParams, nzRatio);
  FullyConnectedParams p;
  p.sparsityParams = sparsityParams;
  p.nzRatio = nzRatio;
  p.batchSize = batchSize;
  p.numGroups = numGroups;
  p.inputChannelsPerGroup = inputChannels;
  p.outputChannelsPerGroup = outputChannels;
  return p;
}

FullyConnectedParams FullyConnectedParams::createWithNumNonZeroValues(const SparsityParams &sparsityParams,
                                                                      std::size_t numNonZeroElems,
                                                                      std::size_t batchSize, std::size_t numGroups,
                                                                      std::size_t inputChannels,
                                                                      std::size_t outputChannels) {
  const std::size_t blocks =
      detail::checkedGridBlocks(kFcParams, sparsityParams, batchSize, numGroups, outputChannels, inputChannels);
  return createWithNzRatio(sparsityParams, detail::nzRatioFromCount(kFcParams, sparsityParams, numNonZeroElems, blocks),
                           batchSize, numGroups, inputChannels, outputChannels);
}

double FullyConnectedParams::getNzRatio() const { return nzRatio; }

std::size_t FullyConnectedParams::getNumNonZeroValues() const {
  const std::size_t br = sparsityParams.blockDimensions[0], bc = sparsityParams.blockDimensions[1];
  return detail::nzValuesFromRatio(sparsityParams, nzRatio,
                                   numGroups * (outputChannelsPerGroup / br) * (inputChannelsPerGroup / bc));
}

namespace {
auto key(const FullyConnectedParams &p) {
  return std::make_tuple(p.getSparsityParams(), p.getNzRatio(), p.getBatchSize(), p.getNumGroups(),
                         p.getInputChannelsPerGroup(), p.getOutputChannelsPerGroup());
}
} // namespace

bool operator<(const FullyConnectedParams &a, const FullyConnectedParams &b) { return key(a) < key(b); }
bool operator==(const FullyConnectedParams &a, const FullyConnectedParams &b) { return key(a) == key(b); }
bool operator!=(const FullyConnectedParams &a, const FullyConnectedParams &b) { return !(a == b); }

std::ostream &operator<<(std::ostream &os, const FullyConnectedParams &p) {
  return os << "{sparsity: " << p.getSparsityParams() << ", nzRatio: " << p.getNzRatio()
            << ", batchSize: " << p.getBatchSize() << ", numGroups: " << p.getNumGroups()
            << ", inputChannelsPerGroup: " << p.getInputChannelsPerGroup()
            << ", outputChannelsPerGroup: " << p.getOutputChannelsPerGroup() << "}";
}

} // namespace dynamic

// What both planning caches hold: the poplin cache they were given; nothing of popsparse's own is planned.
struct PoplinCacheRef {
  poplin::PlanningCache *poplinCache = nullptr;
};

class dynamic::PlanningCacheImpl : public PoplinCacheRef {};
class static_::PlanningCacheImpl : public PoplinCacheRef {};

dynamic::PlanningCache::PlanningCache() : impl(new PlanningCacheImpl) {}
dynamic::PlanningCache::PlanningCache(poplin::PlanningCache *c) : impl(new PlanningCacheImpl) { impl->poplinCache = c; }
dynamic::PlanningCache::~PlanningCache() = default;
static_::PlanningCache::PlanningCache() : impl(new PlanningCacheImpl) {}
static_::PlanningCache::PlanningCache(poplin::PlanningCache *c) : impl(new PlanningCacheImpl) { impl->poplinCache = c; }
static_::PlanningCache::~PlanningCache() = default;

} // namespace popsparse
