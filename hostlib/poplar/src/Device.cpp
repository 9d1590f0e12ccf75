// Devices: attach and detach through the host runtime; IPU Model cards are private to the process.
#include "poplar/Device.hpp"

#include "device_impl.hpp"
#include "log.hpp"
#include "poplar/exceptions.hpp"
#include "target_values.hpp"

#include <cctype>
#include <cstdlib>
#include <string>

namespace poplar {

namespace detail {

namespace {

// IPU_EMU_HOST_THREADS for an IPU Model: the host threads that step its tiles, 0 or unset for one per core. The
// driver reads it only for cards opened by id; a model card is opened from values, so it is read here, and a
// program can be pinned to one thread (for a benchmark's baseline) as a gc tool can.
unsigned modelHostThreads() {
  const char *text = std::getenv("IPU_EMU_HOST_THREADS");
  if (!text || !*text)
    return 0;
  char *end = nullptr;
  const unsigned long v = std::strtoul(text, &end, 10);
  if (*end || !std::isdigit(static_cast<unsigned char>(text[0])) || v > IPUDRV_HOST_THREADS_MAX)
    throw poplar_error(std::string("IPU_EMU_HOST_THREADS='") + text + "': expected a number from 0 to " +
                       std::to_string(IPUDRV_HOST_THREADS_MAX) + "; unset it for one thread per core");
  return static_cast<unsigned>(v);
}

} // namespace

bool DeviceImpl::attach() {
  if (dev) {
    temporarilyDetached = false; // back from temporarilyDetach(): the loaded engine is still on the card
    return true;
  }
  try {
    if (model) {
      // An IPU Model is a card of this process alone: the driver creates it from the target's board values in
      // memory (no environment, no board file) and locks nothing, so any number of programs and threads can each
      // simulate their own cards at once. The board's `transport` key picks model or rtl, as a named board would.
      // Its host threads are the one setting taken from the environment (modelHostThreads).
      ipudrv_open_params params{};
      params.size = sizeof params;
      params.board_values = &target.values().board;
      params.host_threads = modelHostThreads();
      dev.reset(new ipu::runtime::Device(params));
    } else {
      dev.reset(new ipu::runtime::Device(driverId));
    }
  } catch (const ipu::runtime::device_busy_error &e) {
    log(LogLevel::Warn, std::string("cannot attach to device ") + std::to_string(id) + ": " + e.what());
    return false;
  }
  log(LogLevel::Info, "attached to " + dev->describe());
  return true;
}

void DeviceImpl::unload() noexcept {
  LoadedEngine *engine = loadedBy;
  loadedBy = nullptr;
  if (engine)
    engine->unloaded();
}

void DeviceImpl::detach() {
  unload(); // the engine's staging buffers are mapped through the card: release them while it is still there
  dev.reset();
  faulted = false;
  temporarilyDetached = false;
}

void DeviceImpl::reset() {
  unload();
  if (dev)
    dev->reset();
  faulted = false;
}

} // namespace detail

Device::Device() {}
Device::Device(Device &&o) : impl_(std::move(o.impl_)) {}
Device &Device::operator=(Device &&o) {
  impl_ = std::move(o.impl_);
  return *this;
}
Device::~Device() = default;
Device::Device(std::shared_ptr<detail::DeviceImpl> impl) : impl_(std::move(impl)) {}

detail::DeviceImpl &Device::impl() const {
  if (!impl_)
    throw poplar_error("invalid Device: get one from IPUModel::createDevice() or DeviceManager::getDevices()");
  return *impl_;
}

std::shared_ptr<detail::DeviceImpl> Device::implPtr() const {
  impl();
  return impl_;
}

const Target &Device::getTarget() const { return impl().target; }
unsigned Device::getId() const { return impl().id; }
bool Device::attach() const { return impl().attach(); }
void Device::detach() const { impl().detach(); }
void Device::reset() const { impl().reset(); }
bool Device::isAttached() const { return impl_ && impl_->dev != nullptr && !impl_->temporarilyDetached; }

void Device::temporarilyDetach() const {
  detail::DeviceImpl &d = impl();
  if (!d.dev || d.temporarilyDetached)
    throw poplar_error("Device::temporarilyDetach: device " + std::to_string(d.id) +
                       " is not attached; attach() it (or load an engine on it) first");
  d.temporarilyDetached = true;
}

Device Device::createCPUDevice(unsigned numIPUs) {
  auto d = std::make_shared<detail::DeviceImpl>();
  d->target = Target::createCPUTarget(false, numIPUs);
  d->model = true;
  return Device(d);
}

Device Device::createSimulatorDevice(const Target &target, const OptionFlags &opts) {
  if (target.getTargetType() == TargetType::CPU)
    throw poplar_error("Device::createSimulatorDevice: the target is the CPU target; use Device::createCPUDevice() "
                       "for it, or give an IPU target (Target::createIPUTarget)");
  for (const auto &o : opts) {
    if (o.first != "debug.trace")
      throw invalid_option("Device::createSimulatorDevice: unknown option '" + o.first +
                           "'; the simulator accepts debug.trace (true/false)");
    if (o.second != "true" && o.second != "false")
      throw invalid_option("Device::createSimulatorDevice: debug.trace must be true or false, not '" + o.second +
                           "'");
  }
  auto d = std::make_shared<detail::DeviceImpl>();
  d->target = target;
  d->model = true;
  return Device(d);
}

Device Device::createVirtualDevice(unsigned tilesPerIPU) const {
  const detail::DeviceImpl &self = impl();
  unsigned have = self.target.getTilesPerIPU();
  if (tilesPerIPU == 0 || tilesPerIPU > have)
    throw poplar_error("Device::createVirtualDevice(" + std::to_string(tilesPerIPU) + "): the device has " +
                       std::to_string(have) + " tiles per IPU; ask for 1 to " + std::to_string(have));
  detail::TargetValues v = self.target.values();
  v.board.tiles_per_ipu = tilesPerIPU;
  auto d = std::make_shared<detail::DeviceImpl>();
  d->target = Target(v);
  d->model = self.model;
  d->driverId = self.driverId;
  d->id = self.id;
  return Device(d);
}

} // namespace poplar
