// PopLibs' debug records: PoplibsOpDebugInfo is the poplar::DebugInfo an operation makes on entry, holding its API
// name, its arguments and later its outputs, each turned into a poplar::ProfileValue by toProfileValue.
#ifndef POPUTIL_DEBUGINFO_HPP
#define POPUTIL_DEBUGINFO_HPP

#include <array>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <poplar/ArrayRef.hpp>
#include <poplar/ComputeSet.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/ProfileValue.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/TensorCloneMethod.hpp>
#include <poplar/Type.hpp>

namespace poputil {

/// The ProfileValue recorded for an argument of type T. Only the specialisations below (and the templates for
/// pointers and containers) are defined; specialise it for a type of your own to record it.
template <typename T> poplar::ProfileValue toProfileValue(const T &t);

/// Numbers, booleans and strings: the value itself.
template <> poplar::ProfileValue toProfileValue(const int &v);
template <> poplar::ProfileValue toProfileValue(const unsigned int &v);
template <> poplar::ProfileValue toProfileValue(const unsigned long &v);
template <> poplar::ProfileValue toProfileValue(const unsigned char &v);
template <> poplar::ProfileValue toProfileValue(const bool &v);
template <> poplar::ProfileValue toProfileValue(const float &v);
template <> poplar::ProfileValue toProfileValue(const double &v);
template <> poplar::ProfileValue toProfileValue(const long long &v);
template <> poplar::ProfileValue toProfileValue(const unsigned long long &v);
template <> poplar::ProfileValue toProfileValue(const std::string &v);

/// Poplar objects: a compute set by its id, options as a map of their values, programs by their kind, a tensor
/// as a map of its "shape" ("[2, 3]") and "type" (or a note that it is invalid), a type by its name.
template <> poplar::ProfileValue toProfileValue(const poplar::ComputeSet &t);
template <> poplar::ProfileValue toProfileValue(const poplar::OptionFlags &t);
template <> poplar::ProfileValue toProfileValue(const poplar::program::Copy &t);
template <> poplar::ProfileValue toProfileValue(const poplar::program::Sequence &t);
template <> poplar::ProfileValue toProfileValue(const poplar::Tensor &t);
template <> poplar::ProfileValue toProfileValue(const poplar::Type &t);
/// A clone method by its enumerator name ("PRESERVE_ORDER_UNLESS_ALIASES").
template <> poplar::ProfileValue toProfileValue(const poplar::TensorCloneMethod &t);

/// A pointer: what it points to, or "<nullptr>".
template <typename T> poplar::ProfileValue toProfileValue(const T *t) {
  return t ? toProfileValue(*t) : poplar::ProfileValue("<nullptr>");
}
template <typename T> poplar::ProfileValue toProfileValue(T *const &t) {
  return t ? toProfileValue(*t) : poplar::ProfileValue("<nullptr>");
}

/// A vector: a map from each index ("0", "1", ...) to its element's value.
template <typename T> poplar::ProfileValue toProfileValue(const std::vector<T> &vec) {
  poplar::ProfileValue::Map m;
  for (std::size_t i = 0; i < vec.size(); ++i)
    m.insert(std::make_pair(std::to_string(i), toProfileValue(vec[i])));
  return m;
}
/// std::vector<bool> has no element references, so it has its own form (the same map).
template <> poplar::ProfileValue toProfileValue(const std::vector<bool> &vec);

/// An ArrayRef: a list of its elements' values.
template <typename T> poplar::ProfileValue toProfileValue(const poplar::ArrayRef<T> &vec) {
  poplar::ProfileValue::Vector v;
  for (std::size_t i = 0; i < vec.size(); ++i)
    v.push_back(toProfileValue(vec[i]));
  return v;
}

/// A pair: a map of "first" and "second".
template <typename T1, typename T2> poplar::ProfileValue toProfileValue(const std::pair<T1, T2> &p) {
  poplar::ProfileValue::Map m;
  m.insert(std::make_pair(std::string("first"), toProfileValue(p.first)));
  m.insert(std::make_pair(std::string("second"), toProfileValue(p.second)));
  return m;
}

/// An array: like a vector.
template <typename T, std::size_t N> poplar::ProfileValue toProfileValue(const std::array<T, N> &a) {
  poplar::ProfileValue::Map m;
  for (std::size_t i = 0; i < N; ++i)
    m.insert(std::make_pair(std::to_string(i), toProfileValue(a[i])));
  return m;
}

/// One named argument of a record.
class ArgType {
public:
  std::string n;
  poplar::ProfileValue pv;
  ArgType(const std::string &name, const poplar::ProfileValue &value) : n(name), pv(value) {}
  ArgType(const std::pair<std::string, const poplar::ProfileValue> &p) : n(p.first), pv(p.second) {}
};

/// The record of one operation, of layer "poplibs", with its "api" name.
class OpDebugInfo : public poplar::DebugInfo {
public:
  OpDebugInfo(const poplar::DebugContext &debugContext, std::string api);
  OpDebugInfo &operator=(const OpDebugInfo &) = delete;
  OpDebugInfo(const OpDebugInfo &) = delete;
  virtual ~OpDebugInfo() {}

  /// Records `args` as a map under `name`; nothing when there are none.
  void add(std::string name, const std::vector<ArgType> &args);
  /// Records `pv` under `name`.
  void add(std::string name, poplar::ProfileValue pv);
};

/// The record a PopLibs function makes: its arguments under "args", its outputs under "outputs" (or "output").
/// The API name defaults to the calling function's name where the compiler can tell it.
class PoplibsOpDebugInfo : public OpDebugInfo {
public:
#if SUPPORTS_LOCATION_BUILTINS
  PoplibsOpDebugInfo(const poplar::DebugContext &debugContext, const std::vector<ArgType> &args = {},
                     const std::string &api = __builtin_FUNCTION());
#else
  PoplibsOpDebugInfo(const poplar::DebugContext &debugContext, const std::vector<ArgType> &args = {},
                     const std::string &api = "");
#endif
  PoplibsOpDebugInfo &operator=(const PoplibsOpDebugInfo &) = delete;
  PoplibsOpDebugInfo(const PoplibsOpDebugInfo &) = delete;
  virtual ~PoplibsOpDebugInfo() {}

  /// Records the outputs as a map under "outputs".
  void addOutputs(const std::vector<ArgType> &outputs);
  /// Records a single output tensor under "output".
  void addOutput(const poplar::Tensor &output);
};

} // namespace poputil

// DI_ARGS(a, b, c) is {{"a", toProfileValue(a)}, {"b", ...}, {"c", ...}}: the argument list of a record built from
// 1 to 16 variable names (pass {} for a record without arguments).
#define DI_STR(S) #S
#define DI_XSTR(S) DI_STR(S)
#define DI_CONCAT_IMPL(x, y) x##y
#define DI_MACRO_CONCAT(x, y) DI_CONCAT_IMPL(x, y)
#define DI_COUNT_IMPL(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, N, ...) N
#define DI_NUM_ARGS(...) DI_COUNT_IMPL(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define DI_ONE(T) {DI_XSTR(T), poputil::toProfileValue(T)}
#define DI_KEY_VALUE_ARG_1(T) DI_ONE(T)
#define DI_KEY_VALUE_ARG_2(T, ...) DI_ONE(T), DI_KEY_VALUE_ARG_1(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_3(T, ...) DI_ONE(T), DI_KEY_VALUE_ARG_2(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_4(T, ...) DI_ONE(T), DI_KEY_VALUE_ARG_3(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_5(T, ...) DI_ONE(T), DI_KEY_VALUE_ARG_4(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_6(T, ...) DI_ONE(T), DI_KEY_VALUE_ARG_5(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_7(T, ...) DI_ONE(T), DI_KEY_VALUE_ARG_6(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_8(T, ...) DI_ONE(T), DI_KEY_VALUE_ARG_7(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_9(T, ...) DI_ONE(T), DI_KEY_VALUE_ARG_8(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_10(T, ...) DI_ONE(T), DI_KEY_VALUE_ARG_9(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_11(T, ...) DI_ONE(T), DI_KEY_VALUE_ARG_10(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_12(T, ...) DI_ONE(T), DI_KEY_VALUE_ARG_11(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_13(T, ...) DI_ONE(T), DI_KEY_VALUE_ARG_12(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_14(T, ...) DI_ONE(T), DI_KEY_VALUE_ARG_13(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_15(T, ...) DI_ONE(T), DI_KEY_VALUE_ARG_14(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_16(T, ...) DI_ONE(T), DI_KEY_VALUE_ARG_15(__VA_ARGS__)
#define DI_KEY_VALUE_ARG(...) DI_MACRO_CONCAT(DI_KEY_VALUE_ARG_, DI_NUM_ARGS(__VA_ARGS__))(__VA_ARGS__)
#define DI_ARGS(...) {DI_KEY_VALUE_ARG(__VA_ARGS__)}

#endif // POPUTIL_DEBUGINFO_HPP
