// Devices: attach and detach through the host runtime; IPU Model cards are private to the process.
#include "poplar/Device.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>

#include "device_impl.hpp"
#include "log.hpp"
#include "poplar/exceptions.hpp"
#include "target_values.hpp"

namespace poplar {

namespace detail {

namespace {
/// Sets an environment variable for the lifetime of the object, then restores it.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const std::string &value) : name_(name) {
    const char *old = std::getenv(name);
    had_ = old != nullptr;
    if (had_)
      old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (had_)
      ::setenv(name_, old_.c_str(), 1);
    else
      ::unsetenv(name_);
  }

private:
  const char *name_;
  bool had_ = false;
  std::string old_;
};
} // namespace

bool DeviceImpl::attach() {
  if (dev)
    return true;
  try {
    if (model) {
      // An IPU Model is a card of this process alone: the driver creates it from a board file named in
      // IPU_EMU_DEVICES, and its exclusive-attach lock lives in a folder of this process so that several programs
      // can each simulate their own card at once.
      static std::atomic<unsigned> counter{0};
      std::string board = writeBoardFile(target.values().board);
      std::string lockDir = "/tmp/ipu-emu-model-" + std::to_string(::getuid()) + "-" + std::to_string(::getpid()) +
                            "-" + std::to_string(counter++);
      ScopedEnv devices("IPU_EMU_DEVICES", board);
      ScopedEnv locks("IPU_EMU_LOCK_DIR", lockDir);
      dev.reset(new ipu::runtime::Device(0));
      std::error_code ec;
      std::filesystem::remove_all(lockDir, ec);
    } else {
      dev.reset(new ipu::runtime::Device(driverId));
    }
  } catch (const ipu::runtime::application_runtime_error &e) {
    if (!model && std::string(e.what()).find("use") != std::string::npos) {
      log(LogLevel::Warn, std::string("cannot attach to device ") + std::to_string(id) + ": " + e.what());
      return false;
    }
    throw;
  }
  log(LogLevel::Info, "attached to " + dev->describe());
  return true;
}

void DeviceImpl::detach() { dev.reset(); }

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

const Target &Device::getTarget() const { return impl().target; }
unsigned Device::getId() const { return impl().id; }
bool Device::attach() const { return impl().attach(); }
void Device::detach() const { impl().detach(); }
bool Device::isAttached() const { return impl_ && impl_->dev != nullptr; }

Device Device::createCPUDevice(unsigned numIPUs) {
  auto d = std::make_shared<detail::DeviceImpl>();
  d->target = Target::createCPUTarget(false, numIPUs);
  d->model = true;
  return Device(d);
}

} // namespace poplar
