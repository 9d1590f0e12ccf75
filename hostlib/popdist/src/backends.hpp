// Internal: the backends popdist ships, and the running backend as the collectives see it.
#pragma once

#include <memory>

#include "popdist/backend.hpp"

namespace popdist::detail {

/// The default backend: Open MPI under poprun (isPopdistEnvSet()), else a single local instance.
std::shared_ptr<Backend> makeDefaultBackend();

/// One instance, no transport: what a program outside poprun talks to.
std::shared_ptr<Backend> makeLocalBackend();

/// Open MPI's MPI_COMM_WORLD and the communicators split from it.
std::shared_ptr<Backend> makeMpiBackend();

/// The running backend, initialized (the default one) if nothing started it yet.
Backend &backend();

} // namespace popdist::detail
