// The file formats the SDK names for writing a graph or its debug information out, in the header of the same path as
// the SDK's. In this emulator, executables are written by Executable::serialize and debug information by the
// DebugSerializationFormat options (poplar/DebugContext.hpp); the enum is here so that code naming it compiles.
#ifndef POPLAR_SERIALIZATION_FORMAT_HPP
#define POPLAR_SERIALIZATION_FORMAT_HPP

namespace poplar {

/// A serialised file's format.
enum class SerializationFormat {
  Binary, ///< a binary encoding
  JSON    ///< JSON text
};

} // namespace poplar

#endif // POPLAR_SERIALIZATION_FORMAT_HPP
