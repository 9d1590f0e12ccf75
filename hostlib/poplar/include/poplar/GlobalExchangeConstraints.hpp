// Global exchange constraints: bandwidth limits on the flows of data between IPUs, as an IPUModel may be given
// them (IPUModel::globalExchangeConstraints) and a Target reports them (Target::getGlobalExchangeConstraints).
#ifndef POPLAR_GLOBAL_EXCHANGE_CONSTRAINTS_HPP
#define POPLAR_GLOBAL_EXCHANGE_CONSTRAINTS_HPP

#include <vector>

namespace poplar {

/// One flow of data between two IPUs, as a global exchange constraint lists it.
struct GlobalExchangeFlow {
  GlobalExchangeFlow(unsigned source, unsigned destination) : src(source), dst(destination) {}
  unsigned src; ///< sending IPU
  unsigned dst; ///< receiving IPU
  bool operator==(const GlobalExchangeFlow &o) const { return src == o.src && dst == o.dst; }
  bool operator!=(const GlobalExchangeFlow &o) const { return !(*this == o); }
};

/// A lower bound on the time to send data between IPUs: the flows share `bandwidth` (bits per second, as the
/// SDK's models give link speeds).
struct GlobalExchangeConstraint {
  GlobalExchangeConstraint(double bw, const std::vector<GlobalExchangeFlow> &f) : bandwidth(bw), flows(f) {}
  double bandwidth;
  std::vector<GlobalExchangeFlow> flows;
  bool operator==(const GlobalExchangeConstraint &o) const { return bandwidth == o.bandwidth && flows == o.flows; }
  bool operator!=(const GlobalExchangeConstraint &o) const { return !(*this == o); }
};

} // namespace poplar

#endif // POPLAR_GLOBAL_EXCHANGE_CONSTRAINTS_HPP
