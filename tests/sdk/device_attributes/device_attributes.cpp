// What a Device reports about itself, on an IPU Model of 2 IPUs, a device from the DeviceManager (the tests' tiny
// card) and the CPU device: driver version, remote-buffer support, gateway, attributes, NUMA placement, driver ids.
#include <string>
#include <vector>

#include <poplar/DeviceManager.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>

#include "sdk_check.hpp"

using namespace poplar;

static std::string attribute(const Device &d, const std::string &name) {
  for (const auto &kv : d.getAttributes())
    if (kv.first == name)
      return kv.second;
  return "(absent)";
}

int main() {
  IPUModel model("ipu2");
  model.numIPUs = 2;
  model.tilesPerIPU = 8;
  Device ipuModel = model.createDevice();
  unsigned major = 99, minor = 99, point = 99;
  ipuModel.getDriverVersion(major, minor, point);
  const std::string version = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(point);
  check(attribute(ipuModel, "driver version") == version, "getDriverVersion agrees with the attributes");
  check(ipuModel.supportsRemoteBuffers() && !ipuModel.hasGateway(), "IPU Model: remote buffers, no gateway");
  check(attribute(ipuModel, "type") == "IPU Model" && attribute(ipuModel, "IPUs") == "2" &&
            attribute(ipuModel, "tiles per IPU") == "8",
        "IPU Model attributes: type, IPUs, tiles per IPU");
  check(ipuModel.getAttribute("bytes per tile") == std::to_string(ipuModel.getTarget().getBytesPerTile()),
        "getAttribute(bytes per tile) is the target's");
  bool refused = false;
  try {
    ipuModel.getAttribute("colour");
  } catch (const poplar_error &e) {
    refused = std::string(e.what()).find("tiles per IPU") != std::string::npos;
  }
  check(refused, "an unknown attribute refused, naming the known ones");
  check(ipuModel.getNumaTopology() == std::vector<unsigned>({0, 0}), "NUMA node of each IPU: 0 0");
  check(ipuModel.getNumaNodesUsedForIPUs() == std::vector<unsigned>({0}), "NUMA nodes used: 0");
  check(ipuModel.getDriverIDs().size() == 2, "one driver id per IPU");

  std::vector<Device> found = DeviceManager::createDeviceManager().getDevices();
  check(!found.empty(), "the device manager lists devices");
  const Device &card = found.at(0);
  check(attribute(card, "type") == "IPU" && attribute(card, "device id") == std::to_string(card.getId()),
        "a driver card: type IPU and its id");
  check(card.getDriverIDs() == std::vector<unsigned>(card.getTarget().getNumIPUs(), card.getId()),
        "its driver ids are the card's");

  Device cpu = Device::createCPUDevice();
  check(!cpu.supportsRemoteBuffers() && attribute(cpu, "type") == "CPU", "CPU device: no remote buffers");
  return checksDone("all checks passed");
}
