// The plan caches of poplin's convolutions and matrix products. They live in their own header because
// Convolution.hpp and MatMul.hpp both take them and MatMul.hpp includes Convolution.hpp (as in Graphcore's
// PopLibs, where matMulGetConvPlanParams names convolution types); include either of those instead of this one.
#ifndef POPLIN_DETAIL_PLANNINGCACHE_HPP
#define POPLIN_DETAIL_PLANNINGCACHE_HPP

#include <cstddef>
#include <memory>

namespace poplin {

namespace matmul {

/// Plans of matrix multiplications already made, keyed by target, shapes, types and options, so that the matMul
/// functions (createMatMulInputLHS, matMul, ...) given the same cache plan each problem once. Not copyable;
/// safe to share between threads.
class PlanningCache {
public:
  PlanningCache();
  ~PlanningCache();
  /// Number of plans held.
  std::size_t size() const;

  /// Internal: the plans.
  struct Impl;
  Impl &impl() const { return *impl_; }

private:
  PlanningCache(const PlanningCache &);
  PlanningCache &operator=(const PlanningCache &);
  std::unique_ptr<Impl> impl_;
};

} // namespace matmul

/// Plans of convolutions and matrix products (the plans of their products); share one between the calls of a
/// layer. It is a matmul::PlanningCache, so the matMul functions take it too.
class PlanningCache : public matmul::PlanningCache {
public:
  PlanningCache() {}

private:
  PlanningCache(const PlanningCache &);
  PlanningCache &operator=(const PlanningCache &);
};

} // namespace poplin

#endif // POPLIN_DETAIL_PLANNINGCACHE_HPP
