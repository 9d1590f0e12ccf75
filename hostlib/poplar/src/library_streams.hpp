// Internal: the Engine's lookup into the library-stream registry (poplar/LibraryStreams.hpp).
#pragma once

#include <string>

#include "poplar/LibraryStreams.hpp"

namespace poplar::detail {

/// The registered host function of stream `handle`, or an empty function when no library registered it.
LibraryStreamFunction libraryStream(const std::string &handle);

} // namespace poplar::detail
