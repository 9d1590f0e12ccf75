// Caches of sparse operation plans (Graphcore's popsparse/PlanningCache.hpp). ipu-emu's sparse operations need no
// plan beyond poplin's matmul plans, so a cache holds only the poplin cache it was given, if any.
#ifndef POPSPARSE_PLANNING_CACHE_HPP
#define POPSPARSE_PLANNING_CACHE_HPP

#include <memory>

namespace poplin {
class PlanningCache;
} // namespace poplin

namespace popsparse {
namespace dynamic {

class PlanningCacheImpl;

class PlanningCache {
public:
  PlanningCache();
  PlanningCache(poplin::PlanningCache *planningCache);
  ~PlanningCache();
  std::unique_ptr<PlanningCacheImpl> impl;
};

} // namespace dynamic

namespace static_ {

class PlanningCacheImpl;

class PlanningCache {
public:
  PlanningCache();
  PlanningCache(poplin::PlanningCache *planningCache);
  ~PlanningCache();
  std::unique_ptr<PlanningCacheImpl> impl;
};

} // namespace static_
} // namespace popsparse

#endif
