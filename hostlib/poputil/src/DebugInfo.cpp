// poputil/DebugInfo.hpp: the ProfileValue forms of argument types and the PopLibs operation records.
#include "poputil/DebugInfo.hpp"

#include <sstream>

namespace poputil {

using poplar::ProfileValue;

template <> ProfileValue toProfileValue(const int &v) { return ProfileValue(v); }
template <> ProfileValue toProfileValue(const unsigned int &v) { return ProfileValue(v); }
template <> ProfileValue toProfileValue(const unsigned long &v) { return ProfileValue(v); }
template <> ProfileValue toProfileValue(const unsigned char &v) { return ProfileValue(unsigned(v)); }
template <> ProfileValue toProfileValue(const bool &v) { return ProfileValue(v); }
template <> ProfileValue toProfileValue(const float &v) { return ProfileValue(v); }
template <> ProfileValue toProfileValue(const double &v) { return ProfileValue(v); }
template <> ProfileValue toProfileValue(const long long &v) { return ProfileValue(v); }
template <> ProfileValue toProfileValue(const unsigned long long &v) { return ProfileValue(v); }
template <> ProfileValue toProfileValue(const std::string &v) { return ProfileValue(v); }

template <> ProfileValue toProfileValue(const poplar::ComputeSet &t) { return ProfileValue(t.getId()); }

template <> ProfileValue toProfileValue(const poplar::OptionFlags &t) {
  ProfileValue::Map m;
  for (const auto &[key, value] : t)
    m.insert({key, ProfileValue(value)});
  return m;
}

template <> ProfileValue toProfileValue(const poplar::program::Copy &) {
  return ProfileValue("<poplar::program::Copy>");
}

template <> ProfileValue toProfileValue(const poplar::program::Sequence &) {
  return ProfileValue("<poplar::program::Sequence>");
}

template <> ProfileValue toProfileValue(const poplar::Tensor &t) {
  if (!t.valid())
    return ProfileValue("<poplar::Tensor> - uninitialized");
  std::ostringstream shape;
  shape << "[";
  for (std::size_t i = 0; i < t.rank(); ++i)
    shape << (i ? ", " : "") << t.dim(unsigned(i));
  shape << "]";
  return ProfileValue::Map{{"shape", ProfileValue(shape.str())}, {"type", ProfileValue(t.elementType().toString())}};
}

template <> ProfileValue toProfileValue(const poplar::Type &t) { return ProfileValue(t.toString()); }

template <> ProfileValue toProfileValue(const poplar::TensorCloneMethod &t) {
  switch (t) {
  case poplar::TensorCloneMethod::PRESERVE_ORDER_AND_ALIASES:
    return ProfileValue("PRESERVE_ORDER_AND_ALIASES");
  case poplar::TensorCloneMethod::CREATE_NEW_ORDER:
    return ProfileValue("CREATE_NEW_ORDER");
  case poplar::TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES:
    return ProfileValue("PRESERVE_ORDER_UNLESS_ALIASES");
  case poplar::TensorCloneMethod::GATHER_AND_PRESERVE_TILE_ORDER_AND_ALIASES:
    return ProfileValue("GATHER_AND_PRESERVE_TILE_ORDER_AND_ALIASES");
  }
  return ProfileValue("<unknown TensorCloneMethod " + std::to_string(int(t)) + ">");
}

template <> ProfileValue toProfileValue(const std::vector<bool> &vec) {
  ProfileValue::Map m;
  for (std::size_t i = 0; i < vec.size(); ++i)
    m.insert({std::to_string(i), ProfileValue(bool(vec[i]))});
  return m;
}

OpDebugInfo::OpDebugInfo(const poplar::DebugContext &debugContext, std::string api)
    : poplar::DebugInfo(debugContext, "poplibs") {
  setValue("api", std::move(api));
}

void OpDebugInfo::add(std::string name, const std::vector<ArgType> &args) {
  if (args.empty())
    return;
  ProfileValue::Map m;
  for (const ArgType &a : args)
    m.insert({a.n, a.pv});
  setValue(std::move(name), m);
}

void OpDebugInfo::add(std::string name, ProfileValue pv) { setValue(std::move(name), std::move(pv)); }

PoplibsOpDebugInfo::PoplibsOpDebugInfo(const poplar::DebugContext &debugContext, const std::vector<ArgType> &args,
                                       const std::string &api)
    : OpDebugInfo(debugContext, api) {
  add("args", args);
}

void PoplibsOpDebugInfo::addOutputs(const std::vector<ArgType> &outputs) { add("outputs", outputs); }

void PoplibsOpDebugInfo::addOutput(const poplar::Tensor &output) { setValue("output", toProfileValue(output)); }

} // namespace poputil
