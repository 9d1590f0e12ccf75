// Records a known set of events through libpvti (one per kind, on two channels) and prints the trace file's name,
// for pvti_options.sh to check what PVTI_OPTIONS makes of them. Built as C++11, as users build.
#include <pvti/pvti.hpp>

#include <iostream>

int main() {
  pvti::TraceChannel mine = {"Probe"};
  bool listed = false;
  for (pvti::TraceChannel *c : pvti::listTraceChannel())
    listed = listed || c == &mine;
  if (!listed) {
    std::cerr << "listTraceChannel does not list a declared channel\n";
    return 1;
  }
  {
    pvti::Tracepoint scoped(&mine, "scoped");
    pvti::Tracepoint::event(&mine, "instant");
    pvti::Tracepoint::begin(&pvti::traceFramework, "framework");
    pvti::Tracepoint::end(&pvti::traceFramework, "framework");
  }
  pvti::disableTraceChannel(&mine);
  pvti::Tracepoint::event(&mine, "while disabled"); // never recorded
  pvti::enableTraceChannel(&mine);
  pvti::Graph g("Probe graph", "items");
  pvti::Series s = g.addSeries("probe series");
  s.add(42.5);
  std::cout << "file=" << pvti::getCurrentTraceFilename() << "\n";
  pvti::closeTrace();
  pvti::Tracepoint::event(&mine, "after close"); // dropped
  return 0;
}
