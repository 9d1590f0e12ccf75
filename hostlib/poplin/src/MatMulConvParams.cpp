// matMulGetConvPlanParams: a product A {G, m, k} * B {G, k, n} as the 1-D convolution whose forward product is the
// same (batch m of a one-element field, k input and n output channels in G groups, a one-element kernel), and its
// matMul options as the convolution options that make the convolution planner plan that product as matMul does.
#include <string>
#include <tuple>

#include "poplin/MatMul.hpp"
#include "poputil/exceptions.hpp"

#include "MatMulPlan.hpp"

namespace poplin {

namespace {

const char *const kWhat = "poplin::matMulGetConvPlanParams";

poplar::OptionFlags convOptionsOf(const poplar::OptionFlags *matmulOptions) {
  poplar::OptionFlags conv;
  if (!matmulOptions) {
    conv.set("pass", "NONE_MATMUL");
    return conv;
  }
  detail::parseMatMulOptions(*matmulOptions, kWhat); // refuses what matMul refuses
  std::string pass = "NONE_MATMUL";
  for (const auto &o : *matmulOptions) {
    if (o.first == "fullyConnectedPass")
      pass = o.second == "NONE" ? "NONE_MATMUL" : "FC_" + o.second;
    else if (o.first == "gatherOutput")
      conv.set("gatherConvOutput", o.second);
    else if (o.first != "inputRHSIsPreArranged") // a matMul argument, not a planning choice
      conv.set(o.first, o.second);
  }
  conv.set("pass", pass);
  return conv;
}

ConvParams convParamsOf(const MatMulParams &p) {
  std::vector<std::size_t> a = p.aShape, b = p.bShape;
  if (a.size() == 2 && b.size() == 2) { // an ungrouped product is one group
    a.insert(a.begin(), 1);
    b.insert(b.begin(), 1);
  }
  if (a.size() != 3 || b.size() != 3 || a[0] != b[0] || a[2] != b[1])
    throw poputil::poplibs_error(std::string(kWhat) + ": aShape and bShape must be {m, k} and {k, n}, or {G, m, k} "
                                 "and {G, k, n}; the shapes given do not multiply");
  return ConvParams(p.inputType, p.outputType, a[1], {1}, {1}, a[2], b[2], a[0]);
}

} // namespace

std::set<ConvPlanParams> matMulGetConvPlanParams(const std::set<MatMulPlanParams> &matmuls,
                                                 MatMulToConvOptions &matmulToConvOpts) {
  std::set<ConvPlanParams> convs;
  for (const MatMulPlanParams &m : matmuls) {
    const poplar::OptionFlags *options = std::get<2>(m);
    auto entry = matmulToConvOpts.find(options);
    if (entry == matmulToConvOpts.end())
      entry = matmulToConvOpts.emplace(options, convOptionsOf(options)).first;
    // The map's values stay where they are while it grows, so the pointer outlives later insertions.
    convs.emplace(std::get<0>(m), convParamsOf(std::get<1>(m)), &entry->second);
  }
  return convs;
}

} // namespace poplin
