// runtime_error::ErrorInfo from a card's error record: the record's tile, and its cause as one of Poplar's error
// codes, so that a handler can tell an address fault from a trap without parsing the message.
#ifndef IPU_RUNTIME_DEVICE_ERROR_INFO_HPP
#define IPU_RUNTIME_DEVICE_ERROR_INFO_HPP

#include "ipu_card/hw.h"
#include "ipu_runtime/errors.hpp"
#include "ipudrv/ipudrv.h"

namespace ipu {
namespace runtime {

// poplar::ErrorCode's values (poplar/Error.hpp; libpoplar's Error.cpp asserts that they still match), kept here
// as numbers because the runtime does not include libpoplar's headers.
enum DeviceErrorCode : unsigned {
  kUnknown = 1,
  kTrap = 2,
  kInvalidAddress = 8,
  kInvalidProgramCounter = 10,
  kInvalidInstruction = 11,
  kExchangeError = 12,
};

/// The ErrorInfo of the card's error record `rec` (IPU_ERR_* cause; tile 0xffffffff for the DMA engine).
inline runtime_error::ErrorInfo deviceErrorInfo(const ipudrv_error_record &rec) {
  unsigned code = kUnknown;
  switch (rec.cause) {
  case IPU_ERR_ILLEGAL_INSTRUCTION:
    code = kInvalidInstruction;
    break;
  case IPU_ERR_FETCH_FAULT:
    code = kInvalidProgramCounter;
    break;
  case IPU_ERR_LOAD_MISALIGNED:
  case IPU_ERR_LOAD_FAULT:
  case IPU_ERR_STORE_MISALIGNED:
  case IPU_ERR_STORE_FAULT:
  case IPU_ERR_XLAT_MISS:
  case IPU_ERR_XLAT_PERMISSION:
    code = kInvalidAddress;
    break;
  case IPU_ERR_ECALL:
  case IPU_ERR_EBREAK:
    code = kTrap;
    break;
  case IPU_ERR_BAD_EXCHANGE:
  case IPU_ERR_HOST_EXCHANGE:
    code = kExchangeError;
    break;
  default:
    break;
  }
  runtime_error::ErrorInfo info;
  info.code = static_cast<poplar::ErrorCode>(code);
  info.tile = rec.tile;
  return info;
}

} // namespace runtime
} // namespace ipu

#endif // IPU_RUNTIME_DEVICE_ERROR_INFO_HPP
