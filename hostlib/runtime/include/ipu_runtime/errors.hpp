// Error classes of the host runtime, shaped like Poplar's so that the Poplar API layer can alias them.
#ifndef IPU_RUNTIME_ERRORS_HPP
#define IPU_RUNTIME_ERRORS_HPP

// Public headers stay C++11 so that user programs built with older standards can include them.
#include <cstdint>
#include <ostream>
#include <stdexcept>
#include <string>

namespace poplar {
class DebugContext;
// Declared in full in poplar/Error.hpp; opaque here so that the runtime does not depend on libpoplar's headers.
enum class ErrorCode : unsigned;
} // namespace poplar

namespace ipu {
namespace runtime {

/// What the caller must do before the device can be used again after a recoverable_runtime_error.
enum class RecoveryAction {
  IPU_RESET,       ///< Reset the device (Device::reset()), reload the program and run again.
  PARTITION_RESET, ///< Reset every device of the partition (here: the same as IPU_RESET).
  FULL_RESET,      ///< Reset the host side too: detach, re-attach, reload.
};

/// The name of a recovery action as Poplar prints it ("IPU_RESET", ...).
std::string toString(RecoveryAction action);
/// Writes toString(action).
std::ostream &operator<<(std::ostream &os, RecoveryAction action);

/// Root of every error the host libraries throw (Poplar names it poplar::poplar_error): the runtime's errors derive
/// from it so that a Poplar program's `catch (const poplar::poplar_error &)` sees run-time failures too, as in the SDK.
class error : public std::runtime_error {
public:
  explicit error(const std::string &message);
  explicit error(const char *message);
  /// The name of the most-derived error class ("poplar_error", "graph_cycle_error", ...), as Poplar's `type` field.
  std::string type;
  /// Poplar's poplar_error::attachSourceLocation: appends the source location recorded in `debugContext` to what()
  /// ("... (at function, file:line)"), so that an error rethrown by a library names its user's call; a context
  /// without a location leaves the message as it is. Defined in libpoplar (exceptions.cpp), which owns DebugContext.
  void attachSourceLocation(const poplar::DebugContext &debugContext);
};

/// Base of every error the runtime throws while running; the message names the problem and, where there is one,
/// the fix.
class runtime_error : public error {
public:
  explicit runtime_error(const std::string &message);
  explicit runtime_error(const char *message);

  /// What the device reported with the error, for a handler that acts on it without parsing what(). The SDK 3
  /// reference names this type without listing its members; these are this emulator's reading
  /// (docs/poplar-api-readings.md, "runtime_error::ErrorInfo"). A failure the device did not report (a bad argument, an unconnected stream) keeps
  /// the default: code NONE, no tile, no compute set.
  struct ErrorInfo {
    /// The device's error code (poplar::ErrorCode in poplar/Error.hpp; NONE when the device reported none).
    poplar::ErrorCode code;
    /// The tile that reported it; 0xffffffff when the error belongs to no tile (a link, the host sync, DMA).
    unsigned tile;
    /// The name of the compute set that was running, when the runtime knows it; else empty.
    std::string computeSet;
    ErrorInfo() : code(static_cast<poplar::ErrorCode>(0)), tile(0xffffffffu) {}
  };
  /// The device's report of this error (see ErrorInfo).
  const ErrorInfo &getErrorInfo() const noexcept { return info_; }
  /// Records the device's report; the runtime and libpoplar call it before throwing.
  void setErrorInfo(const ErrorInfo &info) { info_ = info; }

private:
  ErrorInfo info_;
};

/// The caller misused the runtime (bad argument, bad ELF, unconnected stream, wrong size, callback threw):
/// nothing is wrong with the device, fix the program.
class application_runtime_error : public runtime_error {
public:
  explicit application_runtime_error(const std::string &message);
  explicit application_runtime_error(const char *message);
};

/// The system (device, link, driver) failed rather than the program: the base of the recoverable, unrecoverable
/// and unknown run-time errors.
class system_runtime_error : public runtime_error {
public:
  explicit system_runtime_error(const std::string &message);
  explicit system_runtime_error(const char *message);
};

/// The device faulted or hung; it can be used again after the recovery action (see getRecoveryAction()).
class recoverable_runtime_error : public system_runtime_error {
public:
  recoverable_runtime_error(RecoveryAction action, const std::string &message);
  recoverable_runtime_error(RecoveryAction action, const char *message);
  /// What to do before using the device again.
  RecoveryAction getRecoveryAction() const noexcept { return action_; }

private:
  RecoveryAction action_;
};

/// A run did not reach its next host sync or its end in time (a hung tile program). The message is the hang
/// diagnosis: every tile's state and every context's state and PC. Recovery as for any recoverable error.
class run_timeout_error : public recoverable_runtime_error {
public:
  explicit run_timeout_error(const std::string &message);
};

/// The device or its driver is gone or broken in a way that no reset can repair in this process.
class unrecoverable_runtime_error : public system_runtime_error {
public:
  explicit unrecoverable_runtime_error(const std::string &message);
  explicit unrecoverable_runtime_error(const char *message);
};

/// A system failure the runtime cannot classify; treat it as unrecoverable.
class unknown_runtime_error : public system_runtime_error {
public:
  explicit unknown_runtime_error(const std::string &message);
  explicit unknown_runtime_error(const char *message);
};

/// A tile ELF was rejected. field() names the ELF field ("e_phoff", "p_filesz", ...) and value() its value,
/// so that tests and tools can tell rejections apart without parsing the message.
class elf_error : public application_runtime_error {
public:
  elf_error(const std::string &message, const std::string &field, std::uint64_t value);
  /// The ELF field that was rejected, e.g. "e_machine" or "segment[1].p_vaddr" is reported as "p_vaddr".
  const std::string &field() const noexcept { return field_; }
  /// The rejected value of that field.
  std::uint64_t value() const noexcept { return value_; }

private:
  std::string field_;
  std::uint64_t value_;
};

} // namespace runtime
} // namespace ipu

#endif // IPU_RUNTIME_ERRORS_HPP
