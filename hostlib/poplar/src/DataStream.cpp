// Data stream handles: their name, type, size and direction.
#include "poplar/DataStream.hpp"

#include "graph_impl.hpp"
#include "poplar/exceptions.hpp"

namespace poplar {

static const detail::StreamInfo &info(detail::GraphImpl *g, unsigned id) {
  if (!g || id >= g->streams.size())
    throw poplar_error("invalid DataStream: create one with Graph::addHostToDeviceFIFO or addDeviceToHostFIFO");
  return g->streams[id];
}

std::string DataStream::handle() const { return info(graph_, id_).name; }
Type DataStream::elementType() const { return info(graph_, id_).type; }
std::size_t DataStream::numElements() const { return info(graph_, id_).numElements; }
DataStreamType DataStream::type() const { return info(graph_, id_).direction; }

} // namespace poplar
