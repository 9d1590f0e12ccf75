// Error classes of the host runtime (see errors.hpp).
#include "ipu_runtime/errors.hpp"

namespace ipu {
namespace runtime {

const char *toString(RecoveryAction action) {
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

runtime_error::runtime_error(const std::string &message) : std::runtime_error(message) {}

application_runtime_error::application_runtime_error(const std::string &message) : runtime_error(message) {}

recoverable_runtime_error::recoverable_runtime_error(RecoveryAction action, const std::string &message)
    : runtime_error(message), action_(action) {}

run_timeout_error::run_timeout_error(const std::string &message)
    : recoverable_runtime_error(RecoveryAction::IPU_RESET, message) {}

unrecoverable_runtime_error::unrecoverable_runtime_error(const std::string &message) : runtime_error(message) {}

elf_error::elf_error(const std::string &message, const std::string &field, std::uint64_t value)
    : application_runtime_error(message), field_(field), value_(value) {}

} // namespace runtime
} // namespace ipu
