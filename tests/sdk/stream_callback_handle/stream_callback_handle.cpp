// A user's program on StreamCallbackHandle (poplar/StreamCallback.hpp), what Engine::connectStreamToCallback takes:
// made from a std::unique_ptr to a StreamCallback, a lambda, a plain function and a std::function; the DataStream
// and replica-index forms; the refusals of a null callback, an empty function and a default DataStream. Then
// Engine::reportIntervals: one CSV row per program step of the runs, and profiling_disabled once runs are not
// recorded.
#include <cstring>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/StreamCallback.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

static int plainNext = 500;
// A plain function as a callback: sends 500, 501, ...
static void plainFunction(void *p) {
  std::memcpy(p, &plainNext, sizeof plainNext);
  ++plainNext;
}

// A StreamCallback object that sends 7, 8, ...
class Sevens : public LegacyStreamCallback {
public:
  void fetch(void *p) override {
    std::memcpy(p, &next_, sizeof next_);
    ++next_;
  }

private:
  int next_ = 7;
};

int main() {
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  // Two ints in through "in", one copy each into x, then x out through "out".
  Tensor x = graph.addVariable(INT, {2}, "x");
  graph.setTileMapping(x, 1);
  DataStream in = graph.addHostToDeviceFIFO("in", INT, 1);
  DataStream out = graph.addDeviceToHostFIFO("out", INT, 2);
  Sequence prog({Copy(in, x.slice(0, 1)), Copy(in, x.slice(1, 2)), Copy(x, out)});
  Engine engine(graph, prog);
  engine.load(device);

  std::vector<int> got;
  auto runOnce = [&]() {
    engine.run(0);
    return got;
  };

  // A unique_ptr to an object derived from StreamCallback, and a lambda for the output.
  engine.connectStreamToCallback("in", std::unique_ptr<Sevens>(new Sevens()));
  engine.connectStreamToCallback("out", [&got](void *p) {
    const int *v = static_cast<const int *>(p);
    got.assign(v, v + 2);
  });
  check(runOnce() == std::vector<int>({7, 8}), "a unique_ptr<StreamCallback-derived> handle feeds the stream: 7 8");

  // A plain function, through the DataStream form.
  engine.connectStreamToCallback(in, &plainFunction);
  check(runOnce() == std::vector<int>({500, 501}), "a plain function through connectStreamToCallback(DataStream)");

  // A std::function, through the replica-index form (replica 0 of an unreplicated graph).
  int fromFunction = 40;
  std::function<void(void *)> f = [&fromFunction](void *p) {
    std::memcpy(p, &fromFunction, sizeof fromFunction);
    fromFunction += 2;
  };
  engine.connectStreamToCallback(in, 0, f);
  check(runOnce() == std::vector<int>({40, 42}), "a std::function through connectStreamToCallback(DataStream, 0)");
  engine.connectStreamToCallback("in", 0, StreamCallbackHandle(std::unique_ptr<Sevens>(new Sevens())));
  check(runOnce() == std::vector<int>({7, 8}), "a handle made first, then moved in by handle name and index");

  // Handles are moved, never copied (checked at compile time).
  static_assert(!std::is_copy_constructible<StreamCallbackHandle>::value, "a handle is not copyable");
  static_assert(std::is_move_constructible<StreamCallbackHandle>::value, "a handle is movable");

  // Refusals, where the handle is made.
  std::string nullText = refusal<poplar_error>([] { StreamCallbackHandle h{std::unique_ptr<StreamCallback>()}; });
  check(nullText.find("null pointer") != std::string::npos, "a null callback is refused: " + nullText);
  std::string emptyText = refusal<poplar_error>([] { StreamCallbackHandle h{std::function<void(void *)>()}; });
  check(emptyText.find("empty") != std::string::npos, "an empty function is refused: " + emptyText);
  std::string defaultText =
      refusal<stream_connection_error>([&] { engine.connectStreamToCallback(DataStream(), &plainFunction); });
  check(defaultText.find("default-constructed") != std::string::npos,
        "a default DataStream is refused with stream_connection_error: " + defaultText);
  std::string replicaText = refusal<poplar_error>([&] { engine.connectStreamToCallback(in, 1, &plainFunction); });
  check(replicaText.find("1") != std::string::npos, "replica index 1 of an unreplicated graph is refused: " +
                                                         replicaText);

  // reportIntervals: the execution profile holds the 4 runs above; each has its copy steps.
  engine.resetExecutionProfile();
  runOnce();
  std::ostringstream csv;
  engine.reportIntervals(csv);
  std::istringstream rows(csv.str());
  std::string row;
  unsigned long long lastEnd = 0, exchangeRows = 0, rowCount = 0;
  bool ordered = true, fiveColumns = true;
  while (std::getline(rows, row)) {
    ++rowCount;
    std::vector<unsigned long long> v;
    std::istringstream cells(row);
    std::string cell;
    while (std::getline(cells, cell, ','))
      v.push_back(std::stoull(cell));
    if (v.size() != 5) {
      fiveColumns = false;
      continue;
    }
    ordered = ordered && v[0] >= lastEnd && v[1] >= v[0];
    lastEnd = v[1];
    exchangeRows += v[3] > 0;
  }
  check(rowCount > 0 && fiveColumns, "reportIntervals writes rows of 5 numbers: " + std::to_string(rowCount) +
                                         " rows");
  check(ordered, "the rows follow each other in time (begin >= previous end, end >= begin)");
  check(exchangeRows >= 3, "the 3 stream copies are rows with exchanging tiles: " + std::to_string(exchangeRows));
  engine.disableExecutionProfiling();
  std::string disabled = refusal<profiling_disabled>([&] {
    std::ostringstream ignored;
    engine.reportIntervals(ignored);
  });
  check(disabled.find("enableExecutionProfiling") != std::string::npos,
        "after disableExecutionProfiling, reportIntervals throws profiling_disabled: " + disabled);
  return checksDone("all StreamCallbackHandle and reportIntervals checks passed");
}
