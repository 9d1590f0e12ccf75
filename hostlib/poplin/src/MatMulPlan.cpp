// Internal: see MatMulPlan.hpp.
#include "MatMulPlan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <vector>

#include <poplar/exceptions.hpp>

#include "log.hpp"
#include "profile_info.hpp"
#include "poputil/exceptions.hpp"

namespace poplin {

namespace matmul {

struct PlanningCache::Impl {
  std::mutex mutex;
  std::map<std::string, detail::MatMulPlan> plans;
};

PlanningCache::PlanningCache() : impl_(new Impl) {}
PlanningCache::~PlanningCache() = default;
std::size_t PlanningCache::size() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->plans.size();
}

} // namespace matmul

namespace detail {

namespace plog = poputil::detail;
using poputil::poplibs_error;

namespace {

// Cost model of the tile code (codelets/poplin_codelets.cpp), in instructions of one worker, measured on the
// IPU Model: the inner loop of MatMul over four outputs (a load of a, four loads of b, four fused multiply-adds,
// two increments and a branch: 3 per multiply-add) and over a row's last outputs one at a time (6), the same
// with half operands (converted in software), the per-output work around it and a vertex's start.
constexpr double kInstrPerMacFloatQuad = 3.0;
constexpr double kInstrPerMacFloat = 6.0;
constexpr double kInstrPerMacHalf = 40.0;
constexpr double kInstrPerOutput = 14.0;
constexpr double kInstrPerPartial = 5.0;
// A half partial is converted to float in software before it is added (RV32IMF has no half arithmetic), so half
// partials cost more instructions to reduce on our tiles, not fewer as on an IPU's accumulators; they halve the
// partials' exchange bytes and memory. The MatMul vertex accumulates in float whatever the partials type.
// Measured on the IPU Model: a first stage of 8 half partials per output took ~36 instructions more per partial.
constexpr double kInstrPerPartialHalf = 40.0;
constexpr double kInstrPerVertex = 60.0;
// Cycles of a compute set beyond its vertices and of an exchange beyond its bytes (the control program's
// dispatch and the sync that ends each step), measured on the IPU Model: a compute set of one tiny vertex takes
// about 2,700 cycles and an exchange of a few bytes about 2,400.
constexpr double kCyclesPerCompute = 2600.0;
constexpr double kCyclesPerExchange = 2400.0;

std::size_t ceilDiv(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

// The split counts of a dimension of `n` elements that give distinct block sizes, up to `maxParts` parts.
std::vector<unsigned> splitCandidates(std::size_t n, unsigned maxParts) {
  std::set<unsigned> parts;
  for (std::size_t block = 1; block <= n; ++block) {
    std::size_t s = ceilDiv(n, block);
    if (s <= maxParts)
      parts.insert(unsigned(s));
    // Beyond sqrt(n), the counts repeat for many block sizes: jump to the next block size with a new count.
    if (s > 1)
      block = std::max(block, ceilDiv(n, s - 1) - 1);
  }
  return std::vector<unsigned>(parts.begin(), parts.end());
}

unsigned stagesFor(unsigned partials) {
  unsigned stages = 0;
  while (partials > 1) {
    partials = unsigned(ceilDiv(partials, kMaxReduceFanIn));
    ++stages;
  }
  return stages;
}

// Instructions of the busiest worker of a block's MatMul vertex: as the codelet does, the block's outputs are
// cut into equal runs, one per worker, and each run is computed row segment by row segment, four outputs at a
// time and the segment's last ones singly.
double slowestWorker(const MatMulProblem &p, const MatMulPlan &pl, unsigned workers) {
  const std::size_t cols = pl.cBlock, total = pl.gBlock * pl.rBlock * pl.cBlock;
  const std::size_t per = ceilDiv(total, workers);
  const double k = double(pl.kBlock);
  const bool half = p.inputType == poplar::HALF;
  double worst = 0;
  for (unsigned w = 0; w < workers; ++w) {
    std::size_t idx = std::min(total, w * per), end = std::min(total, idx + per);
    double instr = kInstrPerVertex;
    while (idx < end) {
      const std::size_t j = idx % cols, segment = std::min(cols - j, end - idx);
      const double quads = half ? 0.0 : double(segment / 4), singles = double(segment) - 4.0 * quads;
      instr += quads * 4.0 * (k * kInstrPerMacFloatQuad + kInstrPerOutput) +
               singles * (k * (half ? kInstrPerMacHalf : kInstrPerMacFloat) + kInstrPerOutput);
      idx += segment;
    }
    worst = std::max(worst, instr);
  }
  return worst;
}

// Fills the estimate of one split; false when it does not fit `memLimit` bytes per tile.
void estimate(const poplar::Target &t, const MatMulProblem &p, const MatMulOptions &o, MatMulPlan &pl) {
  const double inBytes = double(t.getTypeSize(p.inputType));
  const double outBytes = double(t.getTypeSize(p.outputType));
  pl.partialsType = p.inputType == poplar::HALF && o.partialsType == poplar::HALF ? poplar::HALF : poplar::FLOAT;
  const double partBytes = double(t.getTypeSize(pl.partialsType));
  const double workers = double(std::max(1u, t.getNumWorkerContexts()));
  const double exchange = double(std::max(1u, t.getExchangeBytesPerCycle()));
  const double g = double(pl.gBlock), r = double(pl.rBlock), c = double(pl.cBlock), k = double(pl.kBlock);
  const double aBlock = g * r * k * inBytes, bBlock = g * k * c * inBytes;
  const double outputs = g * r * c;
  // Compute: the block's outputs shared by the workers; the barrel issues each worker once per `workers` cycles.
  pl.computeCycles = slowestWorker(p, pl, unsigned(workers)) * workers + kCyclesPerCompute;
  // Exchange: the operand blocks, of which the tile holds its share when the operands were created for the plan
  // (the A block is spread over the cSplit tiles that use it, the B block over the rSplit tiles).
  const double received = aBlock * (1.0 - 1.0 / pl.cSplit) + bBlock * (1.0 - 1.0 / pl.rSplit);
  pl.exchangeCycles = received > 0 ? received / exchange + kCyclesPerExchange : 0.0;
  // Reduction of inner-dimension partials: each stage, every tile sums a 1/kSplit share of a block from up to
  // kMaxReduceFanIn partials, received from the tiles that made them.
  pl.reduceStages = pl.kSplit > 1 ? stagesFor(pl.kSplit) : 0;
  pl.reduceCycles = 0;
  double reduceBuffer = 0;
  unsigned partials = pl.kSplit;
  for (unsigned s = 0; s < pl.reduceStages; ++s) {
    const unsigned fan = std::min(partials, kMaxReduceFanIn);
    const double share = std::ceil(outputs / double(pl.kSplit));
    reduceBuffer = std::max(reduceBuffer, share * fan * partBytes);
    pl.reduceCycles += share * fan * partBytes / exchange + kCyclesPerExchange;
    const double perPartial = pl.partialsType == poplar::HALF ? kInstrPerPartialHalf : kInstrPerPartial;
    pl.reduceCycles += (std::ceil(share / workers) * (fan * perPartial + kInstrPerOutput) + kInstrPerVertex) *
                           workers + kCyclesPerCompute;
    partials = unsigned(ceilDiv(partials, kMaxReduceFanIn));
  }
  // Memory: the tile's operand shares, the gathered operand blocks, the partial (or result) block and the
  // reduction's receive buffer.
  const double resultBlock = outputs * (pl.kSplit > 1 ? partBytes : outBytes);
  const double shares = aBlock / pl.cSplit + bBlock / pl.rSplit + outputs * outBytes / pl.kSplit;
  pl.bytesPerTile = std::size_t(shares + aBlock + bBlock + resultBlock + reduceBuffer);
}

} // namespace

std::string MatMulOptions::key() const {
  std::ostringstream s;
  s << availableMemoryProportion << "/" << partialsType.toString() << "/" << fullyConnectedPass;
  return s.str();
}

MatMulOptions parseMatMulOptions(const poplar::OptionFlags &options, const std::string &what) {
  MatMulOptions o;
  static const char *const kBoolOptions[] = {"inputRHSIsPreArranged", "use128BitConvUnitLoad",
                                             "enableMultiStageReduce", "enableFastReduce", "remapOutputTensor",
                                             "gatherOutput"};
  for (const auto &opt : options) {
    const std::string &name = opt.first, &value = opt.second;
    if (name == "availableMemoryProportion") {
      char *end = nullptr;
      double v = std::strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0' || !(v > 0.0 && v <= 1.0))
        throw poplar::invalid_option(what + ": option availableMemoryProportion='" + value +
                                     "' is not a number in (0, 1]; give the share of a tile's memory, e.g. 0.6");
      o.availableMemoryProportion = v;
    } else if (name == "partialsType") {
      if (value == "float" || value == "FLOAT")
        o.partialsType = poplar::FLOAT;
      else if (value == "half" || value == "HALF")
        o.partialsType = poplar::HALF;
      else
        throw poplar::invalid_option(what + ": option partialsType='" + value + "' is not one of float, half");
    } else if (name == "fullyConnectedPass") {
      if (value != "NONE" && value != "INFERENCE_FWD" && value != "TRAINING_FWD" && value != "TRAINING_BWD" &&
          value != "TRAINING_WU")
        throw poplar::invalid_option(what + ": option fullyConnectedPass='" + value +
                                     "' is not one of NONE, INFERENCE_FWD, TRAINING_FWD, TRAINING_BWD, TRAINING_WU");
      o.fullyConnectedPass = value;
    } else if (std::find(std::begin(kBoolOptions), std::end(kBoolOptions), name) != std::end(kBoolOptions)) {
      if (value != "true" && value != "false")
        throw poplar::invalid_option(what + ": option " + name + "='" + value + "' is not true or false");
    } else {
      throw poplar::invalid_option(what + ": unknown option '" + name +
                                   "' (known: availableMemoryProportion, partialsType, fullyConnectedPass, "
                                   "inputRHSIsPreArranged, use128BitConvUnitLoad, enableMultiStageReduce, "
                                   "enableFastReduce, remapOutputTensor, gatherOutput)");
    }
  }
  return o;
}

std::string MatMulPlan::toString() const {
  std::ostringstream s;
  s << "split groups/rows/cols/inner " << gSplit << "/" << rSplit << "/" << cSplit << "/" << kSplit << " (blocks "
    << gBlock << "x" << rBlock << "x" << cBlock << "x" << kBlock << ") on " << tiles << " tiles, "
    << reduceStages << " reduction stage" << (reduceStages == 1 ? "" : "s") << ", " << bytesPerTile
    << " bytes per tile; estimate " << std::llround(cycles()) << " cycles (compute " << std::llround(computeCycles)
    << ", exchange " << std::llround(exchangeCycles) << ", reduction " << std::llround(reduceCycles) << ")";
  return s.str();
}

namespace {

// Calls visit(plan) for every split of p (estimated) that uses at most the target's tiles.
template <typename Visit>
void forEachSplit(const poplar::Target &target, const MatMulProblem &p, const MatMulOptions &o, Visit visit) {
  const unsigned numTiles = target.getNumTiles();
  const auto gs = splitCandidates(p.groups, numTiles), rs = splitCandidates(p.rows, numTiles),
             cs = splitCandidates(p.cols, numTiles), ks = splitCandidates(p.inner, numTiles);
  for (unsigned g : gs)
    for (unsigned r : rs) {
      if (std::size_t(g) * r > numTiles)
        break;
      for (unsigned c : cs) {
        if (std::size_t(g) * r * c > numTiles)
          break;
        for (unsigned k : ks) {
          if (std::size_t(g) * r * c * k > numTiles)
            break;
          MatMulPlan pl;
          pl.gSplit = g, pl.rSplit = r, pl.cSplit = c, pl.kSplit = k;
          pl.gBlock = ceilDiv(p.groups, g), pl.rBlock = ceilDiv(p.rows, r);
          pl.cBlock = ceilDiv(p.cols, c), pl.kBlock = ceilDiv(p.inner, k);
          pl.tiles = g * r * c * k;
          estimate(target, p, o, pl);
          visit(pl);
        }
      }
    }
}

double memoryLimit(const poplar::Target &target, const MatMulOptions &o) {
  return double(target.getBytesPerTile()) * o.availableMemoryProportion;
}

// The fastest split of p alone that fits; throws naming the smallest need when none does.
MatMulPlan planAlone(const poplar::Target &target, const MatMulProblem &p, const MatMulOptions &o) {
  const double memLimit = memoryLimit(target, o);
  MatMulPlan best, smallest;
  bool found = false, any = false;
  forEachSplit(target, p, o, [&](const MatMulPlan &pl) {
    if (!any || pl.bytesPerTile < smallest.bytesPerTile)
      smallest = pl;
    any = true;
    if (double(pl.bytesPerTile) > memLimit)
      return;
    if (!found || pl.cycles() < best.cycles() || (pl.cycles() == best.cycles() && pl.tiles < best.tiles)) {
      best = pl;
      found = true;
    }
  });
  if (!found)
    throw poplibs_error("matMul: no split of {" + std::to_string(p.groups) + "} x {" + std::to_string(p.rows) + " x " +
                        std::to_string(p.inner) + "} * {" + std::to_string(p.inner) + " x " +
                        std::to_string(p.cols) + "} fits " + std::to_string(std::llround(memLimit)) +
                        " bytes per tile (availableMemoryProportion " + std::to_string(o.availableMemoryProportion) +
                        " of " + std::to_string(target.getBytesPerTile()) + "); the smallest needs " +
                        std::to_string(smallest.bytesPerTile) +
                        ": raise availableMemoryProportion or use a target with more tiles");
  return best;
}

// A fully connected layer's passes: FWD X{m,k} * W{k,n}, BWD dY{m,n} * W^T{n,k}, WU X^T{k,m} * dY{m,n}.
enum class Pass { FWD, BWD, WU };

// The forward product of the layer whose `pass` product is p.
MatMulProblem forwardOf(const MatMulProblem &p, Pass pass) {
  MatMulProblem f = p;
  if (pass == Pass::BWD)
    f.inner = p.cols, f.cols = p.inner;
  else if (pass == Pass::WU)
    f.rows = p.inner, f.inner = p.rows;
  return f;
}

// The `pass` product of the layer whose forward product is f.
MatMulProblem passOf(const MatMulProblem &f, Pass pass) {
  MatMulProblem p = f;
  if (pass == Pass::BWD)
    p.inner = f.cols, p.cols = f.inner;
  else if (pass == Pass::WU)
    p.rows = f.inner, p.inner = f.rows;
  return p;
}

// The plan of `pass` (product p) that keeps the forward plan F's blocks on F's tiles: BWD splits its columns (k)
// as F splits the inner dimension and its inner dimension (n) as F splits the columns; WU splits its rows (k) as
// F's inner dimension and its inner dimension (m) as F's rows. Estimated.
MatMulPlan derive(const poplar::Target &target, const MatMulPlan &F, const MatMulProblem &p, Pass pass,
                  const MatMulOptions &o) {
  MatMulPlan pl;
  pl.gSplit = F.gSplit;
  if (pass == Pass::BWD) {
    pl.rSplit = F.rSplit, pl.cSplit = F.kSplit, pl.kSplit = F.cSplit;
    pl.order = MatMulPlan::TileOrder::RKC;
  } else {
    pl.rSplit = F.kSplit, pl.cSplit = F.cSplit, pl.kSplit = F.rSplit;
    pl.order = MatMulPlan::TileOrder::KCR;
  }
  pl.gBlock = ceilDiv(p.groups, pl.gSplit), pl.rBlock = ceilDiv(p.rows, pl.rSplit);
  pl.cBlock = ceilDiv(p.cols, pl.cSplit), pl.kBlock = ceilDiv(p.inner, pl.kSplit);
  pl.tiles = F.tiles;
  estimate(target, p, o, pl);
  return pl;
}

// The forward split of f whose three passes together are fastest with every pass fitting; false when none does.
bool planTraining(const poplar::Target &target, const MatMulProblem &f, const MatMulOptions &o, MatMulPlan &best) {
  const double memLimit = memoryLimit(target, o);
  const MatMulProblem bwd = passOf(f, Pass::BWD), wu = passOf(f, Pass::WU);
  double bestTotal = 0;
  bool found = false;
  forEachSplit(target, f, o, [&](const MatMulPlan &pl) {
    if (double(pl.bytesPerTile) > memLimit)
      return;
    const MatMulPlan b = derive(target, pl, bwd, Pass::BWD, o), w = derive(target, pl, wu, Pass::WU, o);
    if (double(b.bytesPerTile) > memLimit || double(w.bytesPerTile) > memLimit)
      return;
    const double total = pl.cycles() + b.cycles() + w.cycles();
    if (!found || total < bestTotal || (total == bestTotal && pl.tiles < best.tiles)) {
      best = pl;
      bestTotal = total;
      found = true;
    }
  });
  return found;
}

} // namespace

MatMulPlan planMatMul(const poplar::Target &target, const MatMulProblem &p, const MatMulOptions &o) {
  const std::string &pass = o.fullyConnectedPass;
  if (pass != "TRAINING_FWD" && pass != "TRAINING_BWD" && pass != "TRAINING_WU")
    return planAlone(target, p, o); // NONE, INFERENCE_FWD: the one product
  const Pass which = pass == "TRAINING_FWD" ? Pass::FWD : pass == "TRAINING_BWD" ? Pass::BWD : Pass::WU;
  MatMulPlan fwd;
  if (!planTraining(target, forwardOf(p, which), o, fwd))
    return planAlone(target, p, o); // no layout suits all three passes: plan this one alone
  if (which == Pass::FWD)
    return fwd;
  return derive(target, fwd, p, which, o);
}

MatMulPlan getMatMulPlan(const poplar::Target &target, const MatMulProblem &p, const MatMulOptions &o,
                         matmul::PlanningCache *cache, const std::string &what) {
  std::ostringstream key;
  key << target.getTargetArchString() << "/" << target.getNumTiles() << "/" << target.getBytesPerTile() << "/"
      << target.getNumWorkerContexts() << "/" << p.groups << "x" << p.rows << "x" << p.inner << "x" << p.cols << "/"
      << p.inputType.toString() << "/" << p.outputType.toString() << "/" << o.key();
  MatMulPlan plan;
  bool hit = false;
  if (cache) {
    std::lock_guard<std::mutex> lock(cache->impl().mutex);
    auto it = cache->impl().plans.find(key.str());
    if (it != cache->impl().plans.end()) {
      plan = it->second;
      hit = true;
    }
  }
  if (!hit) {
    plan = planMatMul(target, p, o);
    if (cache) {
      std::lock_guard<std::mutex> lock(cache->impl().mutex);
      cache->impl().plans.emplace(key.str(), plan);
    }
  }
  if (plog::logEnabled(plog::LogLevel::Debug))
    plog::log(plog::LogLevel::Debug, what + ": plan of {" + std::to_string(p.groups) + "} x {" +
                                         std::to_string(p.rows) + " x " + std::to_string(p.inner) + "} * {" +
                                         std::to_string(p.inner) + " x " + std::to_string(p.cols) + "} " +
                                         p.inputType.toString() + " -> " + p.outputType.toString() + ", partials " +
                                         o.partialsType.toString() + ", plan cache " +
                                         (cache ? (hit ? "hit" : "miss") : "not used") + ": " + plan.toString());
  return plan;
}

std::string profileKey(const std::string &name) {
  if (name.rfind("poplin::", 0) == 0)
    return name;
  const std::size_t slash = name.rfind('/');
  if (slash == std::string::npos)
    return "poplin::" + name;
  return "poplin::" + name.substr(slash + 1) + "/" + name.substr(0, slash);
}

void recordPlanInProfile(const poplar::Graph &graph, const std::string &name, const MatMulPlan &plan) {
  poputil::detail::addOptimizationInfo(graph, profileKey(name), plan.cycles());
}

} // namespace detail
} // namespace poplin
