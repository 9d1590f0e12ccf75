// The Target API as an SDK program uses it: the getters of an ipu2 target print the board's values, a serialised
// target reads back equal, targets key std containers, and bad target options raise poplar::invalid_option.
#include <poplar/IPUModel.hpp>
#include <poplar/Target.hpp>
#include <poplar/exceptions.hpp>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <unordered_map>

using namespace poplar;

namespace {

void tryOptions(const char *what, const OptionFlags &opts) {
  try {
    Target::createIPUTarget("ipu2", opts);
    std::cout << what << ": accepted\n";
  } catch (const invalid_option &e) {
    std::cout << what << ": invalid_option: " << e.what() << "\n";
  }
}

} // namespace

int main() {
  Target t = Target::createIPUTarget("ipu2");
  std::cout << "system " << t.getTargetSystemString() << ", type " << toString(t.getTargetType()) << "\n"
            << "IPUs " << t.getNumIPUs() << ", tiles per IPU " << t.getTilesPerIPU() << ", tiles "
            << t.getNumTiles() << "\n"
            << "bytes per tile " << t.getBytesPerTile() << ", memory " << t.getMemoryBytes() << "\n"
            << "workers " << t.getNumWorkerContexts() << ", clock " << t.getTileClockFrequency() / 1e6 << " MHz\n"
            << "exchange " << t.getExchangeBytesPerCycle() << " B/cycle, memcpy " << t.getMemcpyBytesPerCycle()
            << " B/cycle\n"
            << "sync: min " << t.getMinIPUSyncDelay() << ", max " << t.getMaxIPUSyncDelay() << ", global "
            << t.getGlobalSyncCycles() << "\n"
            << "data path " << t.getDataPathWidth() << " bits, vector widths float " << t.getFloatVectorWidth()
            << " half " << t.getHalfVectorWidth() << "\n"
            << "conv units half/half " << t.getNumConvUnits(HALF, HALF) << ", half/float "
            << t.getNumConvUnits(HALF, FLOAT) << ", float/float " << t.getNumConvUnits(FLOAT, FLOAT) << "\n"
            << "memory elements " << t.getMemoryElementOffsets().size() << "\n"
            << "half max " << t.getTypeLimitsMaxAs<double>(HALF) << ", int lowest "
            << t.getTypeLimitsLowestAs<std::int64_t>(INT) << "\n"
            << "tile 100: XB " << t.getTileHostExchangeXB(100) << ", context " << t.getTileHostExchangeContext(100)
            << ", position " << t.getTileHostExchangeContextPosition(100) << "\n"
            << "link domain " << t.getIpuLinkDomainSize() << "\n";

  std::stringstream saved;
  t.serialize(saved);
  Target back(saved);
  std::cout << "round trip equal: " << (back == t ? "yes" : "no") << ", same hash: "
            << (back.hash() == t.hash() ? "yes" : "no") << "\n";
  IPUModel model("ipu1");
  std::unordered_map<Target, const char *> names;
  names[t] = "ipu2";
  names[model.createDevice().getTarget()] = "ipu1 model";
  names[back] = "ipu2 again";
  std::cout << "distinct targets: " << names.size() << "\n";

  tryOptions("topology line", {{"ipuLinkTopology", "line"}});
  tryOptions("unknown option", {{"ipuLinkTopolgy", "line"}});
  tryOptions("bad value", {{"ipuLinkDomainSize", "-4"}});
  setenv("POPLAR_TARGET_OPTIONS", "{\"syncConfiguration\": \"everything\"}", 1);
  tryOptions("environment", OptionFlags());
  setenv("POPLAR_TARGET_OPTIONS", "{\"ipuLinkTopology\": \"torus\"}", 1);
  std::cout << "environment torus: "
            << (Target::createIPUTarget("ipu2").getIpuLinkTopology() == IpuLinkTopology::Torus ? "yes" : "no")
            << "\n";
  return 0;
}
