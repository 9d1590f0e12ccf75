// How a host-to-device stream of a replicated graph feeds the replicas (Graph::addHostToDeviceFIFO).
#ifndef POPLAR_REPLICATED_STREAM_MODE_HPP
#define POPLAR_REPLICATED_STREAM_MODE_HPP

namespace poplar {

/// REPLICATE: each replica has its own copy of the stream, connected per replica (Engine::connectStream with a
/// replica index). BROADCAST: one connection feeds every replica the same data.
enum class ReplicatedStreamMode { REPLICATE, BROADCAST };

} // namespace poplar

#endif // POPLAR_REPLICATED_STREAM_MODE_HPP
