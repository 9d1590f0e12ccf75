// Device-side <poplar/HalfFloat.hpp>: codelets that include it get the tiles' 16-bit `half` (see ipu_half.h).
#ifndef POPLAR_DEVICE_HALFFLOAT_HPP
#define POPLAR_DEVICE_HALFFLOAT_HPP
#include "../ipu_half.h"
#endif // POPLAR_DEVICE_HALFFLOAT_HPP
