// An attached card and the mapping of driver error codes to runtime error classes (see device.hpp).
#include "ipu_runtime/device.hpp"

#include "ipu_card/hw.h"

#include <cerrno>

namespace ipu {
namespace runtime {

void checkDriver(int rc, const std::string &call, const std::string &driverMessage) {
  if (rc == 0)
    return;
  const std::string what = call + ": " + (driverMessage.empty() ? ipudrv_strerror(rc) : driverMessage);
  // A card that stopped answering over its transport (-ENOLINK: a link past its deadline or out of step) is not
  // the recoverable -EIO of a DMA error or a card in ERROR: the handle is dead and a reset would fail the same way.
  // Attach, upload, run and read-back all come here (issue 36: an upload that hit a link timeout exited as a tile
  // fault, 70, instead of 74).
  if (rc == -ENOLINK)
    throw unrecoverable_runtime_error(what);
  switch (rc) {
  case -EINVAL:
  case -EBUSY:
  case -ENODEV:
  case -ENOENT:
  case -ENOSPC:
  case -E2BIG:
  case -EEXIST:
  case -EACCES:
  case -ENOTSUP:
  case -EAGAIN:
    throw application_runtime_error(what);
  case -EIO:
  case -EFAULT:
  case -ETIMEDOUT:
    throw recoverable_runtime_error(RecoveryAction::IPU_RESET,
                                    what + "; recovery: IPU_RESET (reset the device, reload the program, run again)");
  default:
    throw unrecoverable_runtime_error(what + "; the driver handle cannot be used any more: detach and attach again");
  }
}

device_busy_error::device_busy_error(const std::string &message) : application_runtime_error(message) {}

Device::Device(unsigned id) : id_(id), name_("device " + std::to_string(id)) {
  finishOpen(ipudrv_open(id, 0, &dev_), "attach to device " + std::to_string(id));
}

Device::Device(const ipudrv_open_params &params) : id_(IPUDRV_ID_NONE) {
  const char *what = params.board ? params.board : params.board_values ? params.board_values->name : params.location;
  finishOpen(ipudrv_open_with(&params, &dev_), std::string("open card ") + (what ? what : "(unnamed)"));
}

void Device::finishOpen(int rc, const std::string &what) {
  if (rc == -EBUSY)
    throw device_busy_error(what + ": " + ipudrv_last_error(nullptr));
  if (rc == -EIO || rc == -ENOLINK)
    throw unrecoverable_runtime_error(what + ": " + ipudrv_last_error(nullptr) +
                                      "; the card does not answer: check it with gc-info");
  checkDriver(rc, what, ipudrv_last_error(nullptr));
  const int irc = ipudrv_get_info(dev_, &info_);
  if (irc != 0) {
    const std::string msg = ipudrv_last_error(dev_);
    ipudrv_close(dev_);
    dev_ = nullptr;
    checkDriver(irc, "read the attributes of " + what, msg);
  }
  if (name_.empty())
    name_ = std::string("card ") + info_.location;
}

Device::~Device() {
  if (dev_)
    ipudrv_close(dev_);
}

ElfTarget Device::elfTarget() const {
  ElfTarget t = ElfTarget::fromBoard(info_.board);
  // The card's registers are the truth when they differ from the board file (a PCI card attached by slot).
  t.sramBytes = info_.tile_mem_bytes;
  return t;
}

std::string Device::describe() const {
  return std::string(info_.location) + " (" + std::to_string(info_.num_tiles) + " tiles x " +
         std::to_string(info_.tile_mem_bytes / 1024) + " KiB)";
}

void Device::check(int rc, const std::string &call) const {
  // On an attached card -ENODEV means the card went away (a pulled cable, a stopped board simulation), not a
  // wrong device id as at open: the handle is dead, and "reset and run again" would only fail the same way. The
  // driver's message already says how to get the card back (plug it in, open it again): not repeated here.
  if (rc == -ENODEV)
    throw unrecoverable_runtime_error(call + ": " + ipudrv_last_error(dev_));
  if (rc != 0)
    checkDriver(rc, call, ipudrv_last_error(dev_));
}

void Device::reset() {
  check(ipudrv_reset(dev_), "reset " + name_);
  ++resets_;
}

void Device::writeTile(std::uint32_t tile, std::uint32_t tileAddr, const void *data, std::size_t len) {
  check(ipudrv_tile_write(dev_, tile, tileAddr, data, len), "write tile " + std::to_string(tile) + " memory");
}

bool Device::loadByDma() const noexcept
{
  return (info_.flags & IPUDRV_INFO_WINDOW_PREFERRED) == 0 && (info_.caps & IPU_REG_CAPS_DMA_MASK) != 0;
}

void Device::readTile(std::uint32_t tile, std::uint32_t tileAddr, void *data, std::size_t len) {
  check(ipudrv_tile_read(dev_, tile, tileAddr, data, len), "read tile " + std::to_string(tile) + " memory");
}

} // namespace runtime
} // namespace ipu
