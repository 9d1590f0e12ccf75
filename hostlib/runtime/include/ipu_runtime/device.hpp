// An attached card: the runtime's owner of one libipudrv handle, and the one place driver codes become exceptions.
#ifndef IPU_RUNTIME_DEVICE_HPP
#define IPU_RUNTIME_DEVICE_HPP

#include <cstddef>
#include <cstdint>
#include <string>

#include "ipu_runtime/elf_image.hpp"
#include "ipu_runtime/errors.hpp"
// ipudrv.h declares a function and a struct both named ipudrv_tile_status, which is fine in C but trips -Wshadow
// in C++ (the function hides the struct's implicit constructor); C++ code must write `struct ipudrv_tile_status`.
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wshadow"
#endif
#include "ipudrv/ipudrv.h"
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace ipu {
namespace runtime {

/// Throws the runtime error class that fits a failed libipudrv call:
///  - application_runtime_error for misuse and configuration (-EINVAL, -EBUSY, -ENODEV, -ENOSPC, -E2BIG, ...),
///  - recoverable_runtime_error(IPU_RESET) for device faults (-EIO, -EFAULT, -ETIMEDOUT),
///  - unrecoverable_runtime_error when the card stopped answering (-ENOLINK: the handle is dead) or the handle or the
///    host is broken (-EBADF, -ENOMEM, anything else).
/// The message is "<call>: <driver message>" plus what to do. Does nothing when rc == 0.
void checkDriver(int rc, const std::string &call, const std::string &driverMessage);

/// Attaching failed because the card is a shared one (a PCI card) that another handle or process holds
/// (libipudrv's -EBUSY at open). Nothing is wrong with the program or the card: wait, or pick another card.
/// The message names the holder's PID and command. Callers that try several cards catch exactly this type.
class device_busy_error : public application_runtime_error {
public:
  explicit device_busy_error(const std::string &message);
};

/// One card, attached exclusively for the lifetime of the object. Not copyable; share it by reference.
/// Calls on one Device may come from several threads (libipudrv serialises them).
class Device {
public:
  /// Attaches to card `id` (ids as in ipudrv_open: simulated cards from $IPU_EMU_DEVICES first).
  /// Throws device_busy_error when another handle or process holds the card (the message names the process),
  /// application_runtime_error when there is no such card, unrecoverable_runtime_error when it does not answer.
  explicit Device(unsigned id);
  /// Opens the card that `params` describe (ipudrv_open_with: e.g. a simulated card from board values in memory,
  /// without the environment). id() is then IPUDRV_ID_NONE. Throws as Device(unsigned).
  explicit Device(const ipudrv_open_params &params);
  /// Detaches; every HostBuffer of this device must be gone by then.
  ~Device();
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  /// The card's discovery id, or IPUDRV_ID_NONE when it was opened by parameters.
  unsigned id() const noexcept { return id_; }
  /// Attributes read at attach time (board, tile count, memory per tile, ...).
  const ipudrv_info &info() const noexcept { return info_; }
  /// Tiles on the card.
  std::uint32_t numTiles() const noexcept { return info_.num_tiles; }
  /// What tile ELFs for this card must look like (SRAM range, ISA, ABI).
  ElfTarget elfTarget() const;
  /// "model:tiny (4 tiles x 64 KiB)": for messages and tool output.
  std::string describe() const;

  /// Resets the card (tiles stop, tile memory clears, errors clear) and keeps this process's translation entries.
  /// Programs must be loaded again afterwards; resetCount() tells loaders that their image is gone.
  void reset();
  /// Number of reset() calls so far.
  std::uint64_t resetCount() const noexcept { return resets_; }

  /// Copies bytes to or from one tile's SRAM (the card must not be running).
  void writeTile(std::uint32_t tile, std::uint32_t tileAddr, const void *data, std::size_t len);
  void readTile(std::uint32_t tile, std::uint32_t tileAddr, void *data, std::size_t len);

  /// Whether images are best loaded by DMA: not on a card without descriptor chains (CAPS.DMA = 0), nor where the
  /// driver prefers the window (IPUDRV_INFO_WINDOW_PREFERRED: cards behind the host link, socket and usb, where each
  /// DMA word is a round trip and the tile window is faster).
  bool loadByDma() const noexcept;

  /// Throws as checkDriver() with this device's last driver message, except -ENODEV (the attached card went away:
  /// unrecoverable_runtime_error).
  void check(int rc, const std::string &call) const;
  /// The raw libipudrv handle, for calls the runtime does not wrap.
  ipudrv_device *handle() const noexcept { return dev_; }

private:
  /// Throws the error of a failed open (`what` names the card), else reads the attributes.
  void finishOpen(int rc, const std::string &what);

  unsigned id_;
  std::string name_; ///< "device 3" or "card model:tiny", for messages
  ipudrv_device *dev_ = nullptr;
  ipudrv_info info_;
  std::uint64_t resets_ = 0;
};

} // namespace runtime
} // namespace ipu

#endif // IPU_RUNTIME_DEVICE_HPP
