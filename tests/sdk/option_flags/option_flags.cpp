// OptionFlags as the API has it: construction from a list, set/at/remove/clear, iteration in name order, JSON
// in and out, and printProfileSummary rejecting an unknown option or a value that is not a boolean.
#include <iostream>
#include <sstream>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/exceptions.hpp>

int main() {
  poplar::OptionFlags flags{{"debug.instrument", "true"}, {"a.first", "1"}};
  flags.set("z.last", "x \"quoted\"");
  flags.set({{"a.first", "2"}});
  for (const auto &option : flags)
    std::cout << "option " << option.first << " = " << option.second << "\n";
  std::ostringstream json;
  json << flags;
  std::cout << "json: " << json.str() << "\n";
  poplar::OptionFlags back;
  poplar::readJSON(json.str(), back);
  std::cout << "read back equal: " << (back == flags ? "yes" : "no") << "\n";
  flags.remove("z.last");
  std::cout << "after remove: " << flags.at("a.first") << ", " << (flags.contains("z.last") ? "z.last" : "-")
            << "\n";
  flags.clear();
  std::cout << "after clear: " << (flags.begin() == flags.end() ? "empty" : "not empty") << "\n";

  poplar::IPUModel model;
  poplar::Device device = model.createDevice();
  poplar::Graph graph(device.getTarget());
  poplar::Engine engine(graph, poplar::program::Sequence());
  const poplar::OptionFlags bad[] = {{{"showVarStorge", "true"}}, {{"showExecutionSteps", "yes"}}};
  for (const auto &opts : bad) {
    try {
      std::ostringstream sink;
      engine.printProfileSummary(sink, opts);
      std::cout << "accepted\n";
    } catch (const poplar::invalid_option &e) {
      std::cout << "invalid_option: " << e.what() << "\n";
    }
  }
  return 0;
}
