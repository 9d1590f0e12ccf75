// How the IPU-Links of a multi-IPU target are configured and connected (Target options ipuLinkConfiguration and
// ipuLinkTopology).
#ifndef POPLAR_IPU_LINK_CONFIGURATION_HPP
#define POPLAR_IPU_LINK_CONFIGURATION_HPP

#include "poplar/IpuLinkTopology.hpp"

namespace poplar {

/// Which IPUs an IPU may send to over IPU-Links.
enum class IpuLinkConfiguration {
  Default,       ///< "fixedWindow": every IPU can reach every other (up to 16 IPUs)
  BarleyTwist,   ///< "barleyTwist": nearest neighbours only, twice the bandwidth
  SlidingWindow  ///< "slidingWindow": a window of IPUs that moves with the sender's index
};

/// How the hardware sync groups are used (Target option syncConfiguration).
enum class SyncConfiguration {
  IntraReplicaAndAll, ///< "intraReplicaAndAll": group 1 syncs the IPUs of a replica, group 2 all IPUs
  IpuAndAll           ///< "ipuAndAll": group 1 syncs each IPU with the host, group 2 all IPUs
};

} // namespace poplar

#endif // POPLAR_IPU_LINK_CONFIGURATION_HPP
