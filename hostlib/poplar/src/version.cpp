// versionString() and packageHash(): the SDK version ipu-emu emulates and a hash naming this release
// (POPLAR_SDK_VERSION and POPLAR_PACKAGE_HASH come from CMake, which derives the hash from both versions).
#include "poplar/Graph.hpp"

namespace poplar {

std::string packageHash() { return POPLAR_PACKAGE_HASH; }

std::string versionString() { return std::string(POPLAR_SDK_VERSION) + " (" + packageHash() + ")"; }

} // namespace poplar
