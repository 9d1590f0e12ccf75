// A user's program on every name of poplar/StreamCallback.hpp: StreamCallbackBase (its Result and the two calls
// every callback has), a StreamCallback that prefetches (the prefetched copy skips fetch(); an unused prefetch is
// invalidated at the end of the run), LegacyStreamCallback (never prefetches; invalidatePrefetched does nothing),
// StreamCallbackWithMetadata (its metadata) and ResumableStreamCallback (fetch waits until another thread
// notifies it).
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/StreamCallback.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

// Counts every call; prefetch() succeeds when `canPrefetch`, fetch() and prefetch() give 1, 2, 3, ...
struct Calls {
  int prefetched = 0, fetched = 0, completed = 0, invalidated = 0;
};
class Counting : public StreamCallback {
public:
  Counting(Calls &calls, bool canPrefetch) : calls_(calls), canPrefetch_(canPrefetch) {}
  Result prefetch(void *p) override {
    if (!canPrefetch_)
      return Result::NotAvailable;
    ++calls_.prefetched;
    put(p);
    return Result::Success;
  }
  void fetch(void *p) override {
    ++calls_.fetched;
    put(p);
  }
  void complete() override { ++calls_.completed; }
  void invalidatePrefetched() override {
    ++calls_.invalidated;
    --next_; // the prefetched value goes back: the next copy gets it again
  }

private:
  void put(void *p) {
    int v = next_++;
    std::memcpy(p, &v, sizeof v);
  }
  Calls &calls_;
  bool canPrefetch_;
  int next_ = 1;
};

// Sends int data with a metadata the program can read back (no QUARTER stream is involved).
class WithMetadata : public StreamCallbackWithMetadata {
public:
  WithMetadata() : StreamCallbackWithMetadata(QuarterMetadata(QuarterMetadata::Format::F152, -3)) {}
  Result prefetch(void *) override { return Result::NotAvailable; }
  void fetch(void *p) override {
    int v = 70 + getMetadata().getScale();
    std::memcpy(p, &v, sizeof v);
    setMetadata(QuarterMetadata(QuarterMetadata::Format::F143, 2));
  }
  void complete() override {}
};

// fetch() waits until the main thread's helper notifies it, then sends what the helper left.
class Waiting : public ResumableStreamCallback {
public:
  std::atomic<int> value{0};
  std::atomic<int> served{0};
  Result prefetch(void *) override { return Result::NotAvailable; }
  void fetch(void *p) override {
    wait();
    int v = value.load();
    std::memcpy(p, &v, sizeof v);
    ++served;
  }
  void complete() override {}
};

// A program that copies `copies` ints from stream "in" one at a time into x[i] and sends x to stream "out".
static Engine engineFor(const Target &target, unsigned copies) {
  Graph graph(target);
  Tensor x = graph.addVariable(INT, {copies}, "x");
  graph.setTileMapping(x, 0);
  DataStream in = graph.addHostToDeviceFIFO("in", INT, 1);
  DataStream out = graph.addDeviceToHostFIFO("out", INT, copies);
  Sequence prog;
  for (unsigned i = 0; i < copies; ++i)
    prog.add(Copy(in, x.slice(i, i + 1)));
  prog.add(Copy(x, out));
  return Engine(graph, prog);
}

static std::vector<int> runWith(Engine &engine, const Device &device, std::unique_ptr<StreamCallback> cb,
                                unsigned copies) {
  std::vector<int> out(copies);
  engine.connectStreamToCallback("in", std::move(cb));
  engine.connectStream("out", out.data());
  engine.load(device);
  engine.run(0);
  return out;
}

int main() {
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  const Target &target = device.getTarget();

  // StreamCallbackBase: what any callback has, through a base pointer.
  Calls baseCalls;
  std::unique_ptr<StreamCallbackBase> base(new Counting(baseCalls, false));
  base->complete();
  base->invalidatePrefetched();
  StreamCallbackBase::Result r = StreamCallback::Result::Success;
  check(baseCalls.completed == 1 && baseCalls.invalidated == 1 && r == StreamCallbackBase::Result::Success,
        "StreamCallbackBase: complete() and invalidatePrefetched() reach the derived callback; Result is shared");

  // A prefetching callback: three copies, the first fetched, the next two prefetched after each completion, and
  // the last prefetch (for a copy that never comes) invalidated when the run ends.
  {
    Calls calls;
    Engine engine = engineFor(target, 3);
    std::vector<int> out = runWith(engine, device, std::unique_ptr<StreamCallback>(new Counting(calls, true)), 3);
    check(out == std::vector<int>({1, 2, 3}), "the prefetching callback's data arrives in order: " +
                                                  std::to_string(out[0]) + " " + std::to_string(out[1]) + " " +
                                                  std::to_string(out[2]));
    check(calls.fetched == 1 && calls.prefetched == 3 && calls.completed == 3,
          "fetch once, prefetch after each of the 3 completions: fetched " + std::to_string(calls.fetched) +
              ", prefetched " + std::to_string(calls.prefetched));
    check(calls.invalidated == 1, "the unused last prefetch is invalidated at the end of the run");
    engine.run(0);
    check(calls.fetched == 2 && calls.invalidated == 2, "the next run fetches again and invalidates again");
  }

  // LegacyStreamCallback: built from a function; prefetch says NotAvailable, so every copy is a fetch.
  {
    int next = 10, fetches = 0;
    Engine engine = engineFor(target, 2);
    std::unique_ptr<LegacyStreamCallback> legacy(new LegacyStreamCallback([&](void *p) {
      ++fetches;
      std::memcpy(p, &next, sizeof next);
      next += 10;
    }));
    int probe = 0;
    check(legacy->prefetch(&probe) == StreamCallback::Result::NotAvailable && probe == 0,
          "LegacyStreamCallback::prefetch is NotAvailable and leaves the buffer alone");
    legacy->invalidatePrefetched();
    legacy->complete();
    check(fetches == 0, "LegacyStreamCallback::invalidatePrefetched and complete do nothing");
    std::vector<int> out = runWith(engine, device, std::move(legacy), 2);
    check(out == std::vector<int>({10, 20}) && fetches == 2, "every copy of a LegacyStreamCallback is a fetch");
  }

  // StreamCallbackWithMetadata: the metadata given at construction, then the one set by the callback.
  {
    WithMetadata probe;
    check(probe.getMetadata() == QuarterMetadata(QuarterMetadata::Format::F152, -3),
          "StreamCallbackWithMetadata::getMetadata gives the constructor's metadata");
    Engine engine = engineFor(target, 2);
    std::vector<int> out = runWith(engine, device, std::unique_ptr<StreamCallback>(new WithMetadata()), 2);
    check(out == std::vector<int>({67, 72}), "the callback serves data and changes its metadata: " +
                                                  std::to_string(out[0]) + " " + std::to_string(out[1]));
  }

  // ResumableStreamCallback: fetch() waits; a helper thread sees it waiting, leaves a value and notifies.
  {
    Engine engine = engineFor(target, 2);
    Waiting *waiting = new Waiting();
    bool sawWaiting = true;
    check(!waiting->isAwaiting(), "a ResumableStreamCallback is not waiting before it runs");
    std::thread helper([waiting, &sawWaiting] {
      for (int copy = 0; copy < 2; ++copy) {
        auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        while (!waiting->isAwaiting() && std::chrono::steady_clock::now() < until)
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
        sawWaiting = sawWaiting && waiting->isAwaiting();
        waiting->value = 100 + copy;
        waiting->notify();
        // This copy is served before the next one can wait again.
        while (waiting->served.load() <= copy && std::chrono::steady_clock::now() < until)
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    });
    std::vector<int> out = runWith(engine, device, std::unique_ptr<StreamCallback>(waiting), 2);
    helper.join();
    check(sawWaiting, "isAwaiting() is true while fetch() waits");
    check(out == std::vector<int>({100, 101}), "each fetch goes on after notify() with the helper's value: " +
                                                    std::to_string(out[0]) + " " + std::to_string(out[1]));
  }

  return checksDone("all StreamCallback.hpp checks passed");
}
