// popdist: what one instance of a distributed run (launched by poprun) needs to know about the whole run. poprun
// starts one process per instance under Open MPI's mpirun and exports the POPDIST_* environment this header reads:
//
//   POPDIST_NUM_TOTAL_REPLICAS    replicas over all instances
//   POPDIST_NUM_INSTANCES         processes (MPI ranks)
//   POPDIST_NUM_LOCAL_REPLICAS    replicas of this instance's graph (total / instances)
//   POPDIST_NUM_IPUS_PER_REPLICA  IPUs each replica spans
//   POPDIST_INSTANCE_INDEX        this instance (its MPI rank)
//   POPDIST_REPLICA_INDEX_OFFSET  global index of this instance's replica 0 (instance index x local replicas)
//
// A program builds its graph with replication_factor(getNumLocalReplicas()); its local replica r is global replica
// getReplicaIndexOffset() + r of getNumTotalReplicas(). gcl's collectives use the same numbers to reduce over every
// replica of every instance. Outside poprun (isPopdistEnvSet() false) the functions describe one instance whose
// replicas are all local: getNumInstances() 1, getInstanceIndex() 0, getReplicaIndexOffset() 0, and the replica
// counts 1 (the program's own replication factor then rules).
#ifndef POPDIST_POPDIST_POPLAR_HPP
#define POPDIST_POPDIST_POPLAR_HPP

namespace popdist {

/// True when the process runs under poprun (POPDIST_NUM_TOTAL_REPLICAS is set).
bool isPopdistEnvSet();

/// The number of instances (processes) of the run; 1 outside poprun.
unsigned getNumInstances();

/// This instance's index in [0, getNumInstances()); 0 outside poprun.
unsigned getInstanceIndex();

/// The replicas of all instances together; 1 outside poprun.
unsigned getNumTotalReplicas();

/// The replicas of this instance's graph (the replication factor to build it with); 1 outside poprun.
unsigned getNumLocalReplicas();

/// The global index of this instance's local replica 0; 0 outside poprun.
unsigned getReplicaIndexOffset();

/// The IPUs one replica spans; 1 outside poprun.
unsigned getNumIpusPerReplica();

} // namespace popdist

#endif // POPDIST_POPDIST_POPLAR_HPP
