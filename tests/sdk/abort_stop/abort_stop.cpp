// program::Abort (with and without a message), AbortOnCondition's (predicate, DebugContext) and message forms, and
// Engine::stop from a stream callback and from another thread: each ends run() with
// poplar::application_runtime_error, and the engine runs its next program normally (it loads itself again). An
// Abort and an ErrorProgram read back from a serialized Executable keep their own wording (the executable carries
// each error stream's kind).
#include <chrono>
#include <sstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Executable.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

// Runs program `prog` and prints what ended it: "completed" or the exception's message.
static void runAndReport(Engine &engine, unsigned prog, const std::string &label) {
  try {
    engine.run(prog);
    std::cout << label << ": completed\n";
  } catch (const application_runtime_error &e) {
    std::cout << label << ": " << e.what() << "\n";
  }
}

static bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());

  Tensor x = graph.addVariable(INT, {}, "x");
  Tensor flag = graph.addVariable(INT, {}, "flag");
  Tensor c1 = graph.addConstant<int>(INT, {}, 1, "c1"), c2 = graph.addConstant<int>(INT, {}, 2, "c2");
  Tensor c3 = graph.addConstant<int>(INT, {}, 3, "c3");
  for (Tensor t : {x, flag, c1, c2, c3})
    graph.setTileMapping(t, 1);
  graph.createHostRead("x", x);
  graph.createHostWrite("flag", flag);
  DataStream in = graph.addHostToDeviceFIFO("in", INT, 1);

  std::vector<Program> progs;
  progs.push_back(Sequence({Copy(c1, x), Abort(), Copy(c2, x)}));                       // 0
  progs.push_back(Sequence({Copy(c1, x), Abort("bad state"), Copy(c2, x)}));            // 1
  progs.push_back(Sequence({AbortOnCondition(flag, DebugContext("check")), Copy(c3, x)})); // 2
  progs.push_back(Sequence({AbortOnCondition(flag, "flag set"), Copy(c2, x)}));         // 3
  progs.push_back(Loop(Copy(in, x)));                                                   // 4: stopped by its callback
  progs.push_back(Loop(Sequence({Copy(c1, x), Copy(x, flag)})));                        // 5: stopped by a thread
  progs.push_back(Copy(c3, x));                                                         // 6
  Engine engine(graph, progs);
  engine.load(device);
  int value = 0;

  runAndReport(engine, 0, "abort");
  runAndReport(engine, 6, "after abort");
  engine.readTensor("x", &value);
  std::cout << "x after abort: " << value << "\n";
  runAndReport(engine, 1, "abort with message");

  int zero = 0, one = 1;
  engine.writeTensor("flag", &zero);
  runAndReport(engine, 2, "condition false");
  engine.readTensor("x", &value);
  std::cout << "x after condition false: " << value << "\n";
  engine.writeTensor("flag", &one);
  runAndReport(engine, 2, "condition true");
  engine.writeTensor("flag", &one);
  runAndReport(engine, 3, "condition true with message");

  // A stream callback stops the run on its third copy.
  int copies = 0;
  engine.connectStreamToCallback("in", [&](void *p) {
    ++copies;
    *static_cast<int *>(p) = copies;
    if (copies == 3)
      engine.stop();
  });
  try {
    engine.run(4);
    std::cout << "stopped from a callback: the run completed\n";
  } catch (const application_runtime_error &e) {
    std::cout << "stopped from a callback: " << contains(e.what(), "stopped by Engine::stop()") << " after "
              << copies << " copies\n";
  }

  // Another thread stops a loop that never asks the host for anything.
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    engine.stop();
  });
  auto start = std::chrono::steady_clock::now();
  try {
    engine.run(5);
    std::cout << "stopped from a thread: the run completed\n";
  } catch (const application_runtime_error &e) {
    double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "stopped from a thread: " << contains(e.what(), "Engine::run(5): stopped by Engine::stop()")
              << " within 5 s: " << (took < 5.0) << "\n";
  }
  stopper.join();

  // stop() with no run under way does not stop the next run.
  engine.stop();
  runAndReport(engine, 6, "after a stop with no run");
  engine.readTensor("x", &value);
  std::cout << "x: " << value << "\n";

  // Through serialize/deserialize: the Abort still says "Abort:", the ErrorProgram shows its tensor.
  std::vector<Program> twoErrors;
  twoErrors.push_back(Sequence({Copy(c1, x), Abort("from a file")}));
  twoErrors.push_back(Sequence({Copy(c3, x), ErrorProgram("bad x", x)}));
  std::stringstream file;
  compileGraph(graph, twoErrors).serialize(file);
  Engine fromFile(Executable::deserialize(file));
  fromFile.load(device); // replaces `engine` on the device (its streams' buffers are released)
  runAndReport(fromFile, 0, "deserialized abort");
  try {
    fromFile.run(1);
    std::cout << "deserialized error program: completed\n";
  } catch (const application_runtime_error &e) {
    std::cout << "deserialized error program: " << contains(e.what(), "ErrorProgram: bad x") << " shows x = 3: "
              << contains(e.what(), "[3]") << "\n";
  }
  return 0;
}
