// popnn::ctc::Plan, popnn::ctc::plan and popnn::ctc_infer::plan: the plans of the CTC operations. Each sequence's
// recursion runs whole on one tile (it is sequential in time), so a plan only chooses how many tiles the batch is
// spread over: as many as there are sequences (up to the tiles) unless a constraint says otherwise, checked
// against the memory the options allow.
#include "ctc_plan.hpp"

#include <algorithm>
#include <ostream>
#include <sstream>

#include <nlohmann/json.hpp>
#include <poplar/exceptions.hpp>
#include <popnn/CTCInference.hpp>
#include <popnn/CTCLoss.hpp>
#include <popnn/LogSoftmax.hpp>
#include <popops/Cast.hpp>
#include <poputil/exceptions.hpp>

#include "vertices.hpp"

namespace popnn {
namespace ctc {

Plan::Plan() : impl(new Impl) {}
Plan::~Plan() = default;
Plan::Plan(const Plan &other) : impl(new Impl(*other.impl)) {}
Plan::Plan(Plan &&other) : impl(new Impl(*other.impl)) {}
Plan &Plan::operator=(const Plan &other) {
  *impl = *other.impl;
  return *this;
}
Plan &Plan::operator=(Plan &&other) {
  *impl = *other.impl;
  return *this;
}
Plan::Plan(std::unique_ptr<Impl> i) : impl(std::move(i)) {}

bool operator<(const Plan &a, const Plan &b) { return a.impl->key() < b.impl->key(); }
bool operator==(const Plan &a, const Plan &b) { return a.impl->key() == b.impl->key(); }
bool operator!=(const Plan &a, const Plan &b) { return !(a == b); }

std::string Plan::Impl::toString() const {
  std::ostringstream os;
  os << "CTC " << (kind == Kind::Loss ? "loss" : kind == Kind::Inference ? "inference" : "empty") << " plan: batch "
     << batchSize << ", maxTime " << maxTime << ", classes " << numClasses;
  if (kind == Kind::Loss)
    os << ", maxLabelLength " << maxLabelLength;
  if (kind == Kind::Inference)
    os << ", beamwidth " << beamwidth;
  os << ", partials " << partialsType.toString() << "; parallel: batch " << batchTiles
     << ", time 1, label 1, alphabet 1; about " << bytesPerTile << " bytes on the busiest tile";
  return os.str();
}

std::ostream &operator<<(std::ostream &o, const Plan &p) { return o << p.impl->toString(); }

namespace {

// The options both plans take, and the loss plan's constraints.
struct PlanOptions {
  poplar::Type partialsType = poplar::FLOAT;
  double availableMemoryProportion = 0.6;
  nlohmann::json constraints = nlohmann::json::object();
};

PlanOptions parseOptions(const poplar::OptionFlags &options, bool constraintsAllowed, const std::string &what) {
  PlanOptions o;
  for (const auto &kv : options) {
    if (kv.first == "partialsType") {
      if (kv.second == "float" || kv.second == "FLOAT")
        o.partialsType = poplar::FLOAT;
      else if (kv.second == "half" || kv.second == "HALF")
        o.partialsType = poplar::HALF;
      else
        throw poplar::invalid_option(what + ": partialsType '" + kv.second + "' is not float or half");
    } else if (kv.first == "availableMemoryProportion") {
      o.availableMemoryProportion = detail::optionNumber(kv.second, 0.0, 1.0, what, kv.first);
    } else if (kv.first == "planConstraints" && constraintsAllowed) {
      try {
        o.constraints = nlohmann::json::parse(kv.second.empty() ? std::string("{}") : kv.second);
      } catch (const nlohmann::json::exception &e) {
        throw poputil::poplibs_error(what + ": planConstraints is not JSON: " + e.what());
      }
      if (!o.constraints.is_object())
        throw poputil::poplibs_error(what + ": planConstraints must be a JSON object");
    } else {
      throw poplar::invalid_option(what + ": unknown option '" + kv.first + "' (known: partialsType, " +
                                   "availableMemoryProportion" + (constraintsAllowed ? ", planConstraints)" : ")"));
    }
  }
  return o;
}

// The number of batch tiles the constraints ask for (0 when they leave it free); throws on an unknown name or
// an unsatisfiable value.
unsigned constrainedBatchTiles(const nlohmann::json &c, unsigned maxTiles, const std::string &what) {
  unsigned batch = 0;
  for (const auto &top : c.items()) {
    if (top.key() != "parallel" || !top.value().is_object())
      throw poputil::poplibs_error(what + ": unknown plan constraint '" + top.key() + "' (known: parallel)");
    for (const auto &p : top.value().items()) {
      const std::string &k = p.key();
      if (k != "batch" && k != "time" && k != "label" && k != "alphabet")
        throw poputil::poplibs_error(what + ": unknown plan constraint 'parallel." + k +
                                     "' (known: batch, time, label, alphabet)");
      if (!p.value().is_number_unsigned())
        throw poputil::poplibs_error(what + ": plan constraint 'parallel." + k + "' must be a count");
      const unsigned v = p.value().get<unsigned>();
      if (k == "batch") {
        if (v == 0 || v > maxTiles)
          throw poputil::poplibs_error(what + ": no plan has parallel.batch = " + std::to_string(v) +
                                       " (it must be 1 to " + std::to_string(maxTiles) + ")");
        batch = v;
      } else if (v != 1) {
        throw poputil::poplibs_error(what + ": no plan has parallel." + k + " = " + std::to_string(v) +
                                     " (each sequence runs whole on one tile, so it must be 1)");
      }
    }
  }
  return batch;
}

// Fills in the tiles and the memory estimate, and throws when the busiest tile would need more than allowed.
void place(const poplar::Graph &graph, Plan::Impl &p, unsigned constrained, std::size_t bytesPerSequence,
           double proportion, const std::string &what) {
  p.numTiles = graph.getTarget().getNumTiles();
  const unsigned maxTiles = std::max(1u, std::min(p.batchSize, p.numTiles));
  p.batchTiles = constrained ? constrained : maxTiles;
  const std::size_t perTile = (p.batchSize + p.batchTiles - 1) / p.batchTiles;
  p.bytesPerTile = perTile * bytesPerSequence;
  const double allowed = proportion * double(graph.getTarget().getBytesPerTile());
  if (double(p.bytesPerTile) > allowed)
    throw poputil::poplibs_error(what + ": no plan fits: " + std::to_string(perTile) + " sequence(s) per tile need " +
                                 std::to_string(p.bytesPerTile) + " bytes, availableMemoryProportion allows " +
                                 std::to_string(std::size_t(allowed)));
}

void checkType(const poplar::Type &t, const char *role, const std::string &what) {
  if (t != poplar::FLOAT && t != poplar::HALF)
    throw poputil::poplibs_error(what + ": " + role + " " + t.toString() + " is not FLOAT or HALF");
}

} // namespace

Plan plan(const poplar::Graph &graph, const poplar::Type &inType, const poplar::Type &outType, unsigned batchSize,
          unsigned maxTime, unsigned maxLabelLength, unsigned numClasses, const poplar::OptionFlags &options) {
  const std::string what = "popnn::ctc::plan";
  checkType(inType, "inType", what);
  checkType(outType, "outType", what);
  if (batchSize == 0 || maxTime == 0 || numClasses < 2)
    throw poputil::poplibs_error(what + ": batchSize and maxTime must be at least 1 and numClasses at least 2 "
                                        "(a blank and a symbol)");
  const PlanOptions o = parseOptions(options, true, what);
  std::unique_ptr<Plan::Impl> p(new Plan::Impl);
  p->kind = Plan::Impl::Kind::Loss;
  p->batchSize = batchSize;
  p->maxTime = maxTime;
  p->maxLabelLength = maxLabelLength;
  p->numClasses = numClasses;
  p->inType = inType;
  p->outType = outType;
  p->partialsType = o.partialsType;
  const unsigned maxTiles = std::max(1u, std::min(batchSize, unsigned(graph.getTarget().getNumTiles())));
  const unsigned constrained = constrainedBatchTiles(o.constraints, maxTiles, what);
  // Per sequence: its data and gradient (and partial gradient in float), the alphas of every step and two rows of
  // betas, the label and the two lengths.
  const std::size_t extended = 2 * std::size_t(maxLabelLength) + 1, steps = std::size_t(maxTime) * numClasses;
  const std::size_t bytes = steps * (graph.getTarget().getTypeSize(inType) + graph.getTarget().getTypeSize(outType) +
                                     4) +
                            (std::size_t(maxTime) + 2) * extended * 4 + std::size_t(maxLabelLength) * 4 + 16;
  place(graph, *p, constrained, bytes, o.availableMemoryProportion, what);
  return Plan(std::move(p));
}

namespace detail {

double optionNumber(const std::string &text, double lo, double hi, const std::string &what, const std::string &key) {
  std::size_t used = 0;
  double v = lo - 1;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception &) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !(v >= lo && v <= hi))
    throw poplar::invalid_option(what + ": option " + key + "='" + text + "' is not a number from " +
                                 std::to_string(lo) + " to " + std::to_string(hi));
  return v;
}

const Plan::Impl &lossPlan(const Plan &plan, const std::string &what) {
  const Plan::Impl &p = plan.getImpl();
  if (p.kind != Plan::Impl::Kind::Loss)
    throw poputil::poplibs_error(what + ": the plan is not a CTC loss plan (make it with popnn::ctc::plan)");
  return p;
}

const Plan::Impl &inferencePlan(const Plan &plan, const std::string &what) {
  const Plan::Impl &p = plan.getImpl();
  if (p.kind != Plan::Impl::Kind::Inference)
    throw poputil::poplibs_error(what + ": the plan is not a CTC inference plan (make it with "
                                        "popnn::ctc_infer::plan)");
  return p;
}

void checkData(const Plan::Impl &p, const poplar::Tensor &data, const std::string &what) {
  popnn::detail::checkFloatOrHalf(data, what, "the data");
  const std::vector<std::size_t> dataShape = {p.maxTime, p.batchSize, p.numClasses};
  if (data.shape() != dataShape)
    throw poputil::poplibs_error(what + ": the data has shape " + data.shapeToString() +
                                 "; the plan wants [maxTime, batchSize, numClasses] = {" +
                                 std::to_string(p.maxTime) + "," + std::to_string(p.batchSize) + "," +
                                 std::to_string(p.numClasses) + "}");
}

poplar::Tensor asUnsigned(poplar::Graph &graph, const poplar::Tensor &t, poplar::program::Sequence &prog,
                          const std::string &name) {
  return t.elementType() == poplar::UNSIGNED_INT ? t : popops::cast(graph, t, poplar::UNSIGNED_INT, prog, name);
}

poplar::Tensor logProbsOf(poplar::Graph &graph, const poplar::Tensor &logits, poplar::program::Sequence &prog,
                          const std::string &name) {
  popnn::detail::checkFloatOrHalf(logits, name, "logits");
  poplar::Tensor lp = graph.clone(logits, name + "/logProbs");
  prog.add(poplar::program::Copy(logits, lp));
  logSoftmaxInPlace(graph, lp, prog, name + "/logSoftmax");
  return lp;
}

poplar::Tensor createSequenceData(poplar::Graph &graph, const Plan::Impl &p, const poplar::Type &type,
                                  const std::string &name) {
  poplar::Tensor t = graph.addVariable(type, {p.maxTime, p.batchSize, p.numClasses}, name);
  for (std::size_t b = 0; b < p.batchSize; ++b)
    graph.setTileMapping(t.slice(b, b + 1, 1), p.tileOf(b));
  return t;
}

} // namespace detail

namespace {

void checkSizes(const Plan::Impl &p, std::size_t batchSize, std::size_t maxTime, std::size_t numClasses,
                const std::string &what) {
  if (batchSize != p.batchSize || maxTime != p.maxTime || numClasses != p.numClasses)
    throw poputil::poplibs_error(what + ": sizes (batch " + std::to_string(batchSize) + ", time " +
                                 std::to_string(maxTime) + ", classes " + std::to_string(numClasses) +
                                 ") differ from the plan's: " + p.toString());
}

} // namespace

poplar::Tensor createDataInput(poplar::Graph &graph, const poplar::Type &type, const std::size_t batchSize,
                               const std::size_t maxTime, const std::size_t numClasses, const Plan &plan,
                               const poplar::DebugContext &debugContext) {
  const std::string what = "popnn::ctc::createDataInput";
  const Plan::Impl &p = detail::lossPlan(plan, what);
  checkSizes(p, batchSize, maxTime, numClasses, what);
  checkType(type, "type", what);
  return detail::createSequenceData(graph, p, type, debugContext.getPathName() + "/data");
}

poplar::Tensor createLabelsInput(poplar::Graph &graph, const poplar::Type &type, const std::size_t batchSize,
                                 const std::size_t maxLabelLength, const Plan &plan,
                                 const poplar::DebugContext &debugContext) {
  const std::string what = "popnn::ctc::createLabelsInput";
  const Plan::Impl &p = detail::lossPlan(plan, what);
  if (batchSize != p.batchSize || maxLabelLength != p.maxLabelLength)
    throw poputil::poplibs_error(what + ": sizes differ from the plan's: " + p.toString());
  if (type != poplar::UNSIGNED_INT && type != poplar::INT)
    throw poputil::poplibs_error(what + ": labels must be UNSIGNED_INT or INT, not " + type.toString());
  poplar::Tensor t = graph.addVariable(type, {p.batchSize, p.maxLabelLength}, debugContext.getPathName() + "/labels");
  for (std::size_t b = 0; b < p.batchSize; ++b)
    graph.setTileMapping(t[b], p.tileOf(b));
  return t;
}

} // namespace ctc

namespace ctc_infer {

ctc::Plan plan(const poplar::Graph &graph, const poplar::Type &inType, unsigned batchSize, unsigned maxTime,
               unsigned numClasses, unsigned beamwidth, const poplar::OptionFlags &options) {
  const std::string what = "popnn::ctc_infer::plan";
  if (inType != poplar::FLOAT && inType != poplar::HALF)
    throw poputil::poplibs_error(what + ": inType " + inType.toString() + " is not FLOAT or HALF");
  if (batchSize == 0 || maxTime == 0 || numClasses < 2 || beamwidth == 0)
    throw poputil::poplibs_error(what + ": batchSize, maxTime and beamwidth must be at least 1 and numClasses at "
                                        "least 2");
  const ctc::PlanOptions o = ctc::parseOptions(options, false, what);
  std::unique_ptr<ctc::Plan::Impl> p(new ctc::Plan::Impl);
  p->kind = ctc::Plan::Impl::Kind::Inference;
  p->batchSize = batchSize;
  p->maxTime = maxTime;
  p->numClasses = numClasses;
  p->beamwidth = beamwidth;
  p->inType = inType;
  p->outType = inType;
  p->partialsType = o.partialsType;
  // Per sequence: its data, and per beam a path of up to maxTime symbols and two scores per class.
  const std::size_t bytes = std::size_t(maxTime) * numClasses * graph.getTarget().getTypeSize(inType) +
                            std::size_t(beamwidth) * (std::size_t(maxTime) * 4 + std::size_t(numClasses) * 8) + 16;
  ctc::place(graph, *p, 0, bytes, o.availableMemoryProportion, what);
  return ctc::Plan(std::move(p));
}

poplar::Tensor createDataInput(poplar::Graph &graph, const poplar::Type &type, const std::size_t batchSize,
                               const std::size_t maxTime, const std::size_t numClasses, const ctc::Plan &plan,
                               const poplar::DebugContext &debugContext) {
  const std::string what = "popnn::ctc_infer::createDataInput";
  const ctc::Plan::Impl &p = ctc::detail::inferencePlan(plan, what);
  ctc::checkSizes(p, batchSize, maxTime, numClasses, what);
  ctc::checkType(type, "type", what);
  return ctc::detail::createSequenceData(graph, p, type, debugContext.getPathName() + "/data");
}

} // namespace ctc_infer
} // namespace popnn

namespace poputil {
template <> poplar::ProfileValue toProfileValue(const popnn::ctc::Plan &p) {
  return poplar::ProfileValue(p.getImpl().toString());
}
} // namespace poputil
