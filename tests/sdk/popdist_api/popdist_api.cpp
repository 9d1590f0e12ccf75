// popdist's C++ API as a distributed program uses it, run as 2 instances under poprun (see `launcher`): where the
// instance sits (popdist/context.hpp), the backend and communicators (popdist/backend.hpp), host collectives with
// and without names (popdist/collectives.hpp), a mismatch between instances reported as popdist_error, and
// popdist::run of an Engine on the device getDeviceId() names. Every line is prefixed with the instance index;
// both instances' output is checked.
#include <cstdint>
#include <cstring>
#include <iostream>
#include <sstream>
#include <vector>

#include <popdist/backend.hpp>
#include <popdist/collectives.hpp>
#include <popdist/context.hpp>
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>

using namespace poplar;
using namespace poplar::program;

static unsigned me;
static unsigned failures;

static void say(const std::string &line) {
  std::ostringstream s;
  s << "instance " << me << ": " << line << "\n";
  std::cout << s.str() << std::flush;
}

static void check(bool ok, const std::string &what) {
  say(what + (ok ? ": ok" : ": WRONG"));
  failures += !ok;
}

template <typename F> static bool throwsPopdistError(F f) {
  try {
    f();
  } catch (const popdist::popdist_error &) {
    return true;
  }
  return false;
}

static std::uint16_t halfBits(float v) {
  // 0.5, 0.25 and 0.75 are exact in binary16: sign 0, exponent e + 15, no mantissa bits beyond the first.
  if (v == 0.5f)
    return 0x3800;
  if (v == 0.25f)
    return 0x3400;
  return 0x3a00; // 0.75
}

int main() {
  me = popdist::getInstanceIndex();
  check(popdist::isPopdistEnvSet() && popdist::getNumInstances() == 2, "2 instances under poprun");
  check(popdist::getNumTotalReplicas() == 2 && popdist::getNumLocalReplicas() == 1 &&
            popdist::getReplicaIndexOffset() == me,
        "replica numbers");
  check(popdist::getNumLocalInstances() == 2 && popdist::getLocalInstanceIndex() == me, "local instance numbers");
  popdist::checkNumIpusPerReplica(1);
  check(throwsPopdistError([] { popdist::checkNumIpusPerReplica(2); }), "checkNumIpusPerReplica(2) refused");

  check(throwsPopdistError([] { popdist::registerBackend(nullptr); }), "a null backend refused");
  popdist::registerDefaultBackend();
  check(!popdist::isBackendInitialized(), "not initialized before initializeBackend");
  popdist::initializeBackend();
  check(popdist::isBackendInitialized(), "initialized");
  check(throwsPopdistError([] { popdist::registerDefaultBackend(); }), "no registration while initialized");

  // Sums: FLOAT, HALF (binary16 bits) and a wrapping UNSIGNED_INT.
  std::vector<float> f = {float(me + 1), 10.0f * float(me + 1)};
  popdist::collectives::allReduceSum(f.data(), f.size(), FLOAT, "float-sum");
  check(f[0] == 3.0f && f[1] == 30.0f, "allReduceSum FLOAT gives 3 30");
  std::uint16_t h = halfBits(me == 0 ? 0.5f : 0.25f);
  popdist::collectives::sequential::allReduceSum(&h, 1, HALF);
  check(h == halfBits(0.75f), "sequential allReduceSum HALF gives 0.75");
  std::uint32_t u = me == 0 ? 0xffffffffu : 2u;
  popdist::collectives::allReduceSum(&u, 1, UNSIGNED_INT, "wrap");
  check(u == 1u, "allReduceSum UNSIGNED_INT wraps to 1");
  check(throwsPopdistError([&] { popdist::collectives::allReduceSum(&u, 1, BOOL, "bool"); }),
        "allReduceSum of BOOL refused");

  // Gather and broadcast.
  const std::int32_t mine[3] = {int(me), int(me) * 100, -1};
  std::int32_t all[6] = {};
  popdist::collectives::allGather(mine, all, 3, INT, "gather");
  check(all[0] == 0 && all[1] == 0 && all[3] == 1 && all[4] == 100 && all[5] == -1, "allGather INT in rank order");
  std::int64_t big = me == 1 ? 0x123456789abcLL : 0;
  popdist::collectives::broadcast(&big, 1, LONGLONG, 1, "from-1");
  check(big == 0x123456789abcLL, "broadcast LONGLONG from rank 1");
  float w = me == 0 ? 2.5f : 0.0f;
  popdist::collectives::sequential::broadcast(&w, 1, FLOAT);
  check(w == 2.5f, "sequential broadcast FLOAT from rank 0");
  check(throwsPopdistError([&] { popdist::collectives::broadcast(&w, 1, FLOAT, 2, "no-such-root"); }),
        "broadcast from rank 2 refused");

  // Instances that call differently named collectives both hear about it, and the run carries on.
  float g[2] = {1.0f, 1.0f};
  check(throwsPopdistError([&] { popdist::collectives::allReduceSum(g, 1, FLOAT, me == 0 ? "alpha" : "beta"); }),
        "differently named collectives refused");
  check(throwsPopdistError([&] { popdist::collectives::sequential::allReduceSum(g, me + 1, FLOAT); }),
        "different element counts refused");

  // A communicator of instance 1 alone.
  const popdist::CommunicatorId solo = popdist::registerCommunicator({1});
  if (me == 1) {
    float s = 4.0f;
    popdist::collectives::sequential::allReduceSum(&s, 1, FLOAT, solo);
    check(s == 4.0f, "allReduceSum over a communicator of one");
  } else {
    float s = 4.0f;
    check(throwsPopdistError([&] { popdist::collectives::sequential::allReduceSum(&s, 1, FLOAT, solo); }),
          "a non-member may not use the communicator");
  }
  check(throwsPopdistError([] { popdist::registerCommunicator({0, 0}); }), "a repeated instance refused");
  check(throwsPopdistError([] { popdist::registerCommunicator({7}); }), "a missing instance refused");

  // An Engine on this instance's device, run in step with the other instance.
  const unsigned id = popdist::getDeviceId();
  Device device = DeviceManager::createDeviceManager().getDevice(id);
  check(device.getTarget().getNumIPUs() == popdist::getNumLocalReplicas(), "getDeviceId names a 1-IPU device");
  check(device.attach(), "attached to it");
  Graph graph(device.getTarget());
  Tensor x = graph.addVariable(FLOAT, {4}, "x");
  graph.setTileMapping(x, 0);
  Sequence prog;
  prog.add(Copy(graph.addHostToDeviceFIFO("in", FLOAT, 4), x));
  prog.add(Copy(x, graph.addDeviceToHostFIFO("out", FLOAT, 4)));
  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> in = {1, 2, 3, float(me)}, out(4);
  engine.connectStream("in", in.data());
  engine.connectStream("out", out.data());
  popdist::run(engine, 0);
  check(out == in, "popdist::run ran the program");

  popdist::finalizeBackend();
  check(!popdist::isBackendInitialized(), "finalized");
  say(failures == 0 ? "all checks passed" : "some checks FAILED");
  return failures == 0 ? 0 : 1;
}
