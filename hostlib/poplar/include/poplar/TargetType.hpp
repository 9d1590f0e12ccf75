// The kinds of target: IPU hardware (any card the driver finds), the IPU Model, and the CPU.
#ifndef POPLAR_TARGET_TYPE_HPP
#define POPLAR_TARGET_TYPE_HPP

#include <string>

namespace poplar {

/// What a Target describes.
enum class TargetType {
  IPU,       ///< a card found by the driver (QEMU PCIe, RTL, FPGA, or a simulated card named in IPU_EMU_DEVICES)
  IPU_MODEL, ///< the in-process card model configured by IPUModel
  CPU        ///< one tile, one worker (Target::createCPUTarget)
};

/// "IPU", "IPU_MODEL" or "CPU".
std::string toString(TargetType t);

} // namespace poplar

#endif // POPLAR_TARGET_TYPE_HPP
