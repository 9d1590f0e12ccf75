// How the IPUs of a multi-IPU system are wired (Target option ipuLinkTopology, Target::getIpuLinkTopology()), in
// the header of the same path as the SDK's.
#ifndef POPLAR_IPU_LINK_TOPOLOGY_HPP
#define POPLAR_IPU_LINK_TOPOLOGY_HPP

namespace poplar {

/// How the IPUs of a system are wired.
enum class IpuLinkTopology {
  Mesh,  ///< "mesh": a ladder
  Torus, ///< "torus": a ladder whose top and bottom are linked
  Line   ///< "line": a line, as in a C600 system
};

} // namespace poplar

#endif // POPLAR_IPU_LINK_TOPOLOGY_HPP
