// The formats Graph::serialize, serializeTensors and deserializeTensors write and read (poplar/Graph.hpp), in the
// header of the same path as the SDK's. Executables have their own format (Executable::serialize) and debug
// information its own option (DebugSerializationFormat, poplar/DebugContext.hpp).
#ifndef POPLAR_SERIALIZATION_FORMAT_HPP
#define POPLAR_SERIALIZATION_FORMAT_HPP

namespace poplar {

/// A serialised file's format.
enum class SerializationFormat {
  Binary, ///< a binary encoding (CBOR here; the SDK's is CapnProto)
  JSON    ///< JSON text, pretty-printed
};

} // namespace poplar

#endif // POPLAR_SERIALIZATION_FORMAT_HPP
