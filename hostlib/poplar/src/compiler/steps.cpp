// Internal: the step list of a lowered program, as the profile shows it.
#include "steps.hpp"

namespace poplar::detail::ir {

namespace {

struct Lister {
  std::vector<StepLine> out;

  void marker(const std::string &what, unsigned depth) { out.push_back(StepLine{what, 0, depth, nullptr}); }

  void body(const Body &b, unsigned depth) {
    for (const Step &s : b)
      step(s, depth);
  }

  void step(const Step &s, unsigned depth) {
    auto line = [&](std::string what, std::uint64_t bytes) {
      out.push_back(StepLine{std::move(what), bytes, depth, &s});
    };
    std::visit(
        [&](const auto &x) {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, SyncStep>) {
            line("Sync", 0);
          } else if constexpr (std::is_same_v<T, ExchangeStep>) {
            line("Exchange (" + x.what + ")", x.bytes);
          } else if constexpr (std::is_same_v<T, ExecuteStep>) {
            line("Execute " + x.name + " (" + std::to_string(x.numVertices) + " vertices)", 0);
          } else if constexpr (std::is_same_v<T, StreamCopyStep>) {
            line("StreamCopy " + x.stream + (x.toDevice ? " (host to device)" : " (device to host)"), x.bytes);
          } else if constexpr (std::is_same_v<T, PrintStep>) {
            line("PrintTensor " + x.title, 0);
          } else if constexpr (std::is_same_v<T, StampStep>) {
            // the profiler's own
          } else if constexpr (std::is_same_v<T, RepeatStep>) {
            line("Repeat x" + std::to_string(x.count), 0);
            body(x.body, depth + 1);
          } else if constexpr (std::is_same_v<T, IfStep>) {
            line("If", 0);
            body(x.thenBody, depth + 1);
            marker("Else", depth);
            body(x.elseBody, depth + 1);
          } else if constexpr (std::is_same_v<T, SwitchStep>) {
            line("Switch", 0);
            for (std::size_t i = 0; i < x.cases.size(); ++i) {
              marker("Case " + std::to_string(std::int32_t(x.caseValues[i])), depth);
              body(x.cases[i], depth + 1);
            }
            marker("Default", depth);
            body(x.defaultBody, depth + 1);
          } else if constexpr (std::is_same_v<T, WhileStep>) {
            line(x.whileFalse ? "RepeatWhileFalse" : "RepeatWhileTrue", 0);
            body(x.condition, depth + 1);
            body(x.body, depth + 1);
          }
        },
        s);
  }
};

} // namespace

std::vector<StepLine> listSteps(const Body &body) {
  Lister l;
  l.body(body, 0);
  return l.out;
}

} // namespace poplar::detail::ir
