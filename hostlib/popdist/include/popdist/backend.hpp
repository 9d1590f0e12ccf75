// popdist/backend.hpp: the channel between the instances of a distributed run, and a run of an Engine that keeps
// the instances together.
//
// A backend carries popdist's host collectives (popdist/collectives.hpp) between instances. The default one is
// Open MPI (the MPI that poprun launches the instances with): initializeBackend() initialises MPI unless the
// program already did, and MPI is finalised at exit unless the program finalises it. Outside poprun the default
// backend is a single instance and never touches MPI. A program may register a backend of its own (a Backend
// subclass) before initializing, e.g. to carry the collectives over another transport.
//
// Communicators: the default communicator holds every instance; registerCommunicator makes a smaller group of
// instances (every instance of the run must call it, in the same order, like the collectives).
#ifndef POPDIST_BACKEND_HPP
#define POPDIST_BACKEND_HPP

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <popdist/context.hpp>
#include <popdist/popdist_error.hpp>

namespace poplar {
class Engine;
}

namespace popdist {

/// Identifies a group of instances for the collectives; defaultCommunicatorId() is the group of all instances.
typedef unsigned CommunicatorId;

/// A transport between instances: the primitives popdist's collectives are built from. Every call is collective
/// over the instances of `comm` (each instance calls it with the same sizes, in the same order).
class Backend {
public:
  virtual ~Backend();
  /// A short name ("mpi", "local", ...), for messages.
  virtual std::string name() const = 0;
  /// Starts the transport (called once, by initializeBackend()).
  virtual void initialize() = 0;
  /// Stops it (called once, by finalizeBackend()); the backend is not used afterwards.
  virtual void finalize() = 0;
  /// The instances of `comm`, and this instance's rank among them.
  virtual unsigned size(CommunicatorId comm) const = 0;
  virtual unsigned rank(CommunicatorId comm) const = 0;
  /// Makes a communicator of the instances listed (indices into the default communicator) and returns its id;
  /// an instance not listed gets an id it may not use.
  virtual CommunicatorId createCommunicator(const std::vector<unsigned> &instances) = 0;
  /// Each instance contributes `bytes` bytes at `send`; every instance receives all contributions in rank order
  /// at `recv` (size(comm) x bytes).
  virtual void allGatherBytes(const void *send, void *recv, std::size_t bytes, CommunicatorId comm) = 0;
  /// Rank `root`'s `bytes` bytes at `data` are copied to `data` of every instance.
  virtual void broadcastBytes(void *data, std::size_t bytes, unsigned root, CommunicatorId comm) = 0;
  /// Returns when every instance of `comm` has called it.
  virtual void barrier(CommunicatorId comm) = 0;
};

/// Makes the default backend (MPI under poprun, a single instance otherwise) the one initializeBackend() starts.
/// Throws popdist_error once the backend is initialized.
void registerDefaultBackend();

/// Makes `backend` the one initializeBackend() starts. Throws popdist_error for a null backend or once the
/// backend is initialized.
void registerBackend(std::shared_ptr<Backend> backend);

/// Starts the registered backend (the default one if none was registered). Calling it again does nothing.
void initializeBackend();

/// Whether initializeBackend() has run and finalizeBackend() has not.
bool isBackendInitialized();

/// Stops the backend; the communicators made so far are forgotten. Does nothing if it is not initialized.
void finalizeBackend();

/// The communicator of all instances of the run.
CommunicatorId defaultCommunicatorId();

/// A communicator of the instances listed (instance indices, each once, in any order; ranks follow the list's
/// order). Every instance of the run must call it with the same list; an instance not in the list gets an id
/// that collectives refuse. Initializes the backend if needed. Throws popdist_error for an empty list, an index
/// out of range or a repeated index.
CommunicatorId registerCommunicator(const std::vector<unsigned> &instanceIndices);

/// Runs program `programId` of `engine` once every instance has reached the same point (a barrier over all
/// instances when there are several; the backend is initialized if needed), so that no instance waits at the
/// program's first host synchronisation while another is still preparing. Outside poprun it is engine.run().
void run(poplar::Engine &engine, unsigned programId = 0, const std::string &debugName = "");

} // namespace popdist

#endif // POPDIST_BACKEND_HPP
