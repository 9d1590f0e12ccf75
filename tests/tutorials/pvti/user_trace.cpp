// A user's own events in the system trace, linked beside tutorial 7's unchanged program
// (g++ --std=c++11 matrix-vector.cpp user_trace.cpp -lpvti -lpoplar): a channel of its own, a scoped tracepoint
// spanning the whole program, instant events at its start and end, and a metric series.
#include <pvti/pvti.hpp>

#include <iostream>

namespace {

pvti::TraceChannel userChannel = {"User"};

/// Lives from before main to after it: its tracepoint is the program's whole run as the user sees it.
struct WholeProgram {
  pvti::Client client; // keeps the trace session open until this object's events are written
  pvti::Tracepoint span;
  WholeProgram() : span(&userChannel, "user: whole program") {
    pvti::Tracepoint::event(&userChannel, "user: started");
    std::cerr << "pvti trace file: " << pvti::getCurrentTraceFilename() << "\n";
  }
  ~WholeProgram() {
    pvti::Graph progress("User progress", "steps");
    pvti::Series steps = progress.addSeries("done");
    steps.add(1.0);
    pvti::Tracepoint::event(&userChannel, "user: finished");
  }
};

WholeProgram wholeProgram;

} // namespace
