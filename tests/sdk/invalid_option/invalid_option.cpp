// Engine options are checked when the Engine is built: an unknown option or a malformed value throws
// poplar::invalid_option naming the option and what it accepts.
#include <iostream>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

static void tryOptions(const Graph &graph, const OptionFlags &options) {
  try {
    Engine engine(graph, Sequence(), options);
    std::cout << "accepted\n";
  } catch (const poplar::invalid_option &e) {
    std::cout << "invalid_option: " << e.what() << "\n";
  }
}

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  tryOptions(graph, {{"debug.watchdogKiloInsns", "-1"}});
  tryOptions(graph, {{"target.hostSyncTimeout", "abc"}});
  tryOptions(graph, {{"debug.instrument", "maybe"}});
  tryOptions(graph, {{"debug.notAnOption", "1"}});
  tryOptions(graph, {{"autoReport.all", "true"}, {"target.hostSyncTimeout", "30"}});
  return 0;
}
