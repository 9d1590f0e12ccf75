// Internal: gcl's option names and values (listed in gcl/Collectives.hpp), checked at every collective.
#pragma once

#include <poplar/OptionFlags.hpp>

namespace gcl::detail {

/// Throws poplar::invalid_option for an unknown option name or a malformed value; `what` names the collective.
void checkOptions(const poplar::OptionFlags &options, const char *what);

} // namespace gcl::detail
