// Internal: codelet compilation (riscv64-unknown-elf-g++), the .gp format, and vertex layouts read from DWARF.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "poplar/Type.hpp"

namespace poplar::detail {

/// How a vertex field is used.
enum class FieldKind { Scalar, Vector, List, Plain };
/// Direction of an edge field.
enum class FieldDir { In, Out, InOut, None };

struct FieldInfo {
  std::string name;
  FieldKind kind = FieldKind::Plain;
  FieldDir dir = FieldDir::None;
  std::uint32_t offset = 0;    ///< in the vertex state
  std::uint32_t size = 0;      ///< bytes of the field in the state
  std::string elemTypeName;    ///< C type of the elements ("float")
  std::uint32_t elemSize = 0;  ///< bytes per element
};

struct VertexClass {
  std::string name;             ///< qualified C++ name ("SumVertex", "ns::V")
  std::uint32_t stateSize = 0;  ///< sizeof the class
  std::string entrySymbol;      ///< the trampoline the compute-set table names
  unsigned workers = 0;         ///< a MultiVertex: how many times it runs (compute(0..workers-1)); 0 otherwise
  std::map<std::string, FieldInfo> fields;
};

/// The codelets a graph has loaded: classes by name, and the objects to link into the tile image.
struct CodeletSet {
  std::map<std::string, VertexClass> classes;
  std::vector<std::string> objects; ///< .gp paths (ELF relocatable objects)
};

/// How many times a MultiVertex runs, one compute(workerId) per worker: MultiVertex::numWorkers() on the device.
constexpr unsigned kMultiVertexWorkers = 6;
/// The trampolines a compute-set table names for one vertex of `vc`: one, or one per worker of a MultiVertex.
std::vector<std::string> entrySymbols(const VertexClass &vc);
/// The symbol of the trampoline of class `name`.
std::string entrySymbolFor(const std::string &className);
/// Compiles C++ codelet source `path` to a .gp (cached by content under ~/.cache/ipu-emu/codelets) and returns
/// the .gp's path. Throws graph_object_load_error with the compiler's output when it fails.
std::string compileCodelets(const std::string &path, const std::string &flags, const std::string &isa,
                            const std::string &abi, const std::string &output = "");
/// The library's own codelets (poplar_rt::CycleStamp for debug.instrument), compiled once and cached; returns the .gp.
std::string builtinCodelets(const std::string &isa, const std::string &abi);
/// Reads the vertex classes of a .gp from its DWARF. Throws graph_object_load_error when it is not one.
std::vector<VertexClass> readVertexClasses(const std::string &gpPath);
/// Where the host library finds its data: device headers, the tile runtime, gen-ldscript.py.
std::string dataDir();
/// The tiles' C library (newlib) for an ISA/ABI, installed with libpoplar under <data>/newlib/<isa>-<abi> with
/// include/ and lib/. Throws graph_object_load_error naming what to do when the install lacks it.
std::string tileLibcDir(const std::string &isa, const std::string &abi);
/// Throws graph_object_load_error naming the Debian package when the tile cross compiler is not on the PATH.
void requireTileCompiler();
/// Path of the device-side include folder (holding poplar/Vertex.hpp).
std::string deviceIncludeDir();
/// The element Type a C type name from DWARF stands for, or an invalid Type.
Type typeForCName(const std::string &cname, std::uint32_t size);
/// Runs a shell command; returns its exit status and puts stdout+stderr into `output`.
int runCommand(const std::string &command, std::string &output);

} // namespace poplar::detail
