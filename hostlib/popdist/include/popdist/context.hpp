// popdist/context.hpp: where this process sits in a distributed run that poprun launched (Open MPI's mpirun
// underneath). poprun exports the POPDIST_* environment these functions read:
//
//   POPDIST_NUM_TOTAL_REPLICAS    replicas over all instances
//   POPDIST_NUM_INSTANCES         processes (MPI ranks)
//   POPDIST_NUM_LOCAL_REPLICAS    replicas of this instance's graph (total / instances)
//   POPDIST_NUM_IPUS_PER_REPLICA  IPUs each replica spans
//   POPDIST_INSTANCE_INDEX        this instance (its MPI rank)
//   POPDIST_REPLICA_INDEX_OFFSET  global index of this instance's replica 0 (instance index x local replicas)
//
// A program builds its graph with replication_factor(getNumLocalReplicas()); its local replica r is global replica
// getReplicaIndexOffset() + r of getNumTotalReplicas(). Outside poprun (isPopdistEnvSet() false) the functions
// describe one instance whose replicas are all local: getNumInstances() 1, getInstanceIndex() 0,
// getReplicaIndexOffset() 0, and the replica counts 1 (the program's own replication factor then rules).
// A malformed or inconsistent variable throws popdist_error naming it.
#ifndef POPDIST_CONTEXT_HPP
#define POPDIST_CONTEXT_HPP

#include <popdist/popdist_error.hpp>

namespace popdist {

/// True when the process runs under poprun (POPDIST_NUM_TOTAL_REPLICAS is set).
bool isPopdistEnvSet();

/// The number of instances (processes) of the run; 1 outside poprun.
unsigned getNumInstances();

/// This instance's index in [0, getNumInstances()); 0 outside poprun.
unsigned getInstanceIndex();

/// The instances of the run on this host (Open MPI's OMPI_COMM_WORLD_LOCAL_SIZE); 1 outside poprun.
unsigned getNumLocalInstances();

/// This instance's index among the instances on its host (OMPI_COMM_WORLD_LOCAL_RANK); 0 outside poprun.
unsigned getLocalInstanceIndex();

/// The replicas of all instances together; 1 outside poprun.
unsigned getNumTotalReplicas();

/// The replicas of this instance's graph (the replication factor to build it with); 1 outside poprun.
unsigned getNumLocalReplicas();

/// The global index of this instance's local replica 0; 0 outside poprun.
unsigned getReplicaIndexOffset();

/// The IPUs one replica spans; 1 outside poprun.
unsigned getNumIpusPerReplica();

/// Throws popdist_error unless `numIpusPerReplica` is what poprun was given (--ipus-per-replica); outside poprun
/// any count of at least 1 is accepted.
void checkNumIpusPerReplica(unsigned numIpusPerReplica);

/// The id (for poplar::DeviceManager::getDevice / acquireDeviceById) of the device this instance should attach:
/// the first device of the DeviceManager whose IPU count is getNumLocalReplicas() x numIpusPerReplica. With
/// numIpusPerReplica 0, getNumIpusPerReplica() is used. Each process emulates its own card, so instances on one
/// host do not compete for it. Throws popdist_error when no device has that many IPUs.
unsigned getDeviceId(unsigned numIpusPerReplica = 0);

} // namespace popdist

#endif // POPDIST_CONTEXT_HPP
