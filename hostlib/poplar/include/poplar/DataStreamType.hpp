// The kinds of data stream (DataStream::type()) and the predicates that classify them, in the header of the same
// path as the SDK's.
#ifndef POPLAR_DATA_STREAM_TYPE_HPP
#define POPLAR_DATA_STREAM_TYPE_HPP

namespace poplar {

/// Which way a stream moves data. Graphs here make FIFOs (Graph::addHostToDeviceFIFO, addDeviceToHostFIFO); the
/// SDK's buffer and remote-buffer kinds are named so that code testing a kind compiles.
enum class DataStreamType { HostToDeviceFIFO, DeviceToHostFIFO, HostToDeviceBuffer, DeviceToHostBuffer, RemoteBuffer };

/// Whether a stream of kind `type` moves data from the host to the device.
inline bool isHostToDevice(DataStreamType type) {
  return type == DataStreamType::HostToDeviceFIFO || type == DataStreamType::HostToDeviceBuffer;
}
/// Whether a stream of kind `type` moves data from the device to the host.
inline bool isDeviceToHost(DataStreamType type) {
  return type == DataStreamType::DeviceToHostFIFO || type == DataStreamType::DeviceToHostBuffer;
}
/// Whether `type` is the remote-buffer kind.
inline bool isRemoteBuffer(DataStreamType type) { return type == DataStreamType::RemoteBuffer; }

} // namespace poplar

#endif // POPLAR_DATA_STREAM_TYPE_HPP
