// Error classes of the host runtime (see errors.hpp).
#include "ipu_runtime/errors.hpp"

namespace ipu {
namespace runtime {

std::string toString(RecoveryAction action) {
  switch (action) {
  case RecoveryAction::IPU_RESET:
    return "IPU_RESET";
  case RecoveryAction::PARTITION_RESET:
    return "PARTITION_RESET";
  case RecoveryAction::FULL_RESET:
    return "FULL_RESET";
  }
  return "UNKNOWN";
}

std::ostream &operator<<(std::ostream &os, RecoveryAction action) { return os << toString(action); }

error::error(const std::string &message) : std::runtime_error(message), type("poplar_error") {}
error::error(const char *message) : std::runtime_error(message), type("poplar_error") {}

runtime_error::runtime_error(const std::string &message) : error(message) { type = "runtime_error"; }
runtime_error::runtime_error(const char *message) : error(message) { type = "runtime_error"; }

application_runtime_error::application_runtime_error(const std::string &message) : runtime_error(message) {
  type = "application_runtime_error";
}
application_runtime_error::application_runtime_error(const char *message) : runtime_error(message) {
  type = "application_runtime_error";
}

system_runtime_error::system_runtime_error(const std::string &message) : runtime_error(message) {
  type = "system_runtime_error";
}
system_runtime_error::system_runtime_error(const char *message) : runtime_error(message) {
  type = "system_runtime_error";
}

recoverable_runtime_error::recoverable_runtime_error(RecoveryAction action, const std::string &message)
    : system_runtime_error(message), action_(action) {
  type = "recoverable_runtime_error";
}

recoverable_runtime_error::recoverable_runtime_error(RecoveryAction action, const char *message)
    : system_runtime_error(message), action_(action) {
  type = "recoverable_runtime_error";
}

run_timeout_error::run_timeout_error(const std::string &message)
    : recoverable_runtime_error(RecoveryAction::IPU_RESET, message) {}

unrecoverable_runtime_error::unrecoverable_runtime_error(const std::string &message)
    : system_runtime_error(message) {
  type = "unrecoverable_runtime_error";
}
unrecoverable_runtime_error::unrecoverable_runtime_error(const char *message) : system_runtime_error(message) {
  type = "unrecoverable_runtime_error";
}

unknown_runtime_error::unknown_runtime_error(const std::string &message) : system_runtime_error(message) {
  type = "unknown_runtime_error";
}
unknown_runtime_error::unknown_runtime_error(const char *message) : system_runtime_error(message) {
  type = "unknown_runtime_error";
}

elf_error::elf_error(const std::string &message, const std::string &field, std::uint64_t value)
    : application_runtime_error(message), field_(field), value_(value) {}

} // namespace runtime
} // namespace ipu
