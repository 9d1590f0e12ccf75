// libpva: reads the report that autoReport writes (a directory holding profile.json or profile.cbor, and
// execution.json or execution.cbor) so that programs can analyse it.
//
// Two APIs share one reader:
// - Graphcore's (pva::openReport, Report::compilation() / execution() / poplarVersion() / version() /
//   instrumentationSettings(), CompilationReport, ExecutionReport, Program with its visitor), so that programs
//   written for the SDK's libpva compile and read our reports unchanged;
// - views of our own over the same report (Report::open, tiles, memory by category, liveness, ...), which popvis
//   uses.
// Compiles as C++11, as users build.
#ifndef PVA_PVA_HPP
#define PVA_PVA_HPP

#include <cstdint>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "poplar/ProfileValue.hpp"

namespace pva {

namespace detail {
struct ReportData;
}
/// What every view of one report shares: the profiles as read, and the program tree built from them.
typedef std::shared_ptr<const detail::ReportData> ReportDataPtr;

// ---------------------------------------------------------------------------------------------------------------
// Graphcore's API
// ---------------------------------------------------------------------------------------------------------------

/// The Poplar version that wrote the report.
class PoplarVersion {
public:
  explicit PoplarVersion(ReportDataPtr data) : data_(data) {}
  std::string string() const;      ///< e.g. "3.4.0 (1a2b3c...)"
  std::string packageHash() const; ///< the hash naming the release
  std::uint32_t majorVer() const;
  std::uint32_t minorVer() const;
  std::uint32_t pointVer() const;
  friend std::ostream &operator<<(std::ostream &out, const PoplarVersion &v);

private:
  ReportDataPtr data_;
};

/// The version of the report format.
class ProfileReportVersion {
public:
  explicit ProfileReportVersion(ReportDataPtr data) : data_(data) {}
  std::uint32_t majorVer() const;
  std::uint32_t minorVer() const;
  std::uint32_t pointVer() const;
  /// True when the report was written by a development build whose format may still change.
  bool isUnstableFormat() const;
  friend std::ostream &operator<<(std::ostream &out, const ProfileReportVersion &v);

private:
  ReportDataPtr data_;
};

/// How the graph was instrumented when it was compiled (debug.instrument*, debug.computeInstrumentationLevel).
class InstrumentationSettings {
public:
  enum class ComputeInstrumentationLevel { Off, Vertex, Tile, Ipu, Device, Unknown };
  enum class ExternalExchangeInstrumentationLevel { Off, Tile, Unknown };
  explicit InstrumentationSettings(ReportDataPtr data) : data_(data) {}
  ComputeInstrumentationLevel compute() const;
  ExternalExchangeInstrumentationLevel externalExchange() const;

private:
  ReportDataPtr data_;
};

/// The target the graph was compiled for.
class Target {
public:
  enum class Type { IPU, IPU_MODEL, CPU, Unknown };
  explicit Target(ReportDataPtr data) : data_(data) {}
  Type type() const;
  std::uint64_t numTiles() const;
  std::uint64_t numIPUs() const;
  std::uint64_t tilesPerIpu() const;
  std::uint64_t bytesPerTile() const;
  std::uint64_t bytesPerIPU() const;
  std::uint64_t totalMemory() const;
  std::uint64_t numWorkerContexts() const;
  double clockFrequency() const; ///< tile clock, Hz

private:
  ReportDataPtr data_;
};

/// Counts of the compiled graph.
class Graph {
public:
  explicit Graph(ReportDataPtr data) : data_(data) {}
  std::uint64_t numComputeSets() const;
  std::uint64_t numVertices() const;
  std::uint64_t numEdges() const;
  std::uint64_t numVars() const;

private:
  ReportDataPtr data_;
};

/// A variable a program touches.
class Variable {
public:
  explicit Variable(std::string name) : name_(std::move(name)) {}
  const std::string &name() const { return name_; }

private:
  std::string name_;
};

class ProgramVisitor;
class Program;
typedef std::shared_ptr<const Program> ProgramPtr;

/// One node of the compiled control program: control flow (Sequence, Repeat, ...) with children, or a step
/// (OnTileExecute, DoExchange, StreamCopyMid, Sync, ...).
class Program {
public:
  /// The kinds this library's reports contain; Unknown for anything a newer writer adds.
  enum class Type {
    Unknown,
    Sequence,
    Repeat,
    RepeatWhileTrue,
    RepeatWhileFalse,
    If,
    Switch,
    OnTileExecute,
    DoExchange,
    StreamCopyMid,
    Sync,
    PrintTensor
  };
  virtual ~Program() = default;
  std::uint64_t id() const { return id_; }
  const std::string &name() const { return name_; }
  Type type() const { return type_; }
  const std::vector<ProgramPtr> &children() const { return children_; }
  /// Calls the visitor's function for this program's type (visitProgram for a type it has no function for).
  virtual void accept(ProgramVisitor &visitor) const;

protected:
  friend struct detail::ReportData;
  Program(std::uint64_t id, std::string name, Type type) : id_(id), name_(std::move(name)), type_(type) {}

private:
  std::uint64_t id_;
  std::string name_;
  Type type_;
  std::vector<ProgramPtr> children_;
};

/// A compute set's execution.
class OnTileExecuteProgram : public Program {
public:
  /// The variables the compute set's vertices read or write, by name, each once.
  const std::vector<Variable> &vars() const { return vars_; }
  std::uint64_t computeSet() const { return computeSet_; }
  void accept(ProgramVisitor &visitor) const override;

private:
  friend struct detail::ReportData;
  OnTileExecuteProgram(std::uint64_t id, std::string name, std::uint64_t cs, std::vector<Variable> vars)
      : Program(id, std::move(name), Type::OnTileExecute), vars_(std::move(vars)), computeSet_(cs) {}
  std::vector<Variable> vars_;
  std::uint64_t computeSet_;
};

/// An exchange between tiles.
class DoExchangeProgram : public Program {
public:
  /// Bytes the exchange moves in all (each byte counted once, as received).
  std::uint64_t totalBytes() const { return totalBytes_; }
  /// Variables are not recorded for exchanges in this library's reports: always empty.
  const std::vector<Variable> &vars() const { return vars_; }
  void accept(ProgramVisitor &visitor) const override;

private:
  friend struct detail::ReportData;
  DoExchangeProgram(std::uint64_t id, std::string name, std::uint64_t bytes)
      : Program(id, std::move(name), Type::DoExchange), totalBytes_(bytes) {}
  std::uint64_t totalBytes_;
  std::vector<Variable> vars_;
};

/// Visits programs by type; every function does nothing unless overridden.
class ProgramVisitor {
public:
  virtual ~ProgramVisitor() = default;
  virtual void visitProgram(const Program &) {}
  virtual void visitSequence(const Program &) {}
  virtual void visitRepeat(const Program &) {}
  virtual void visitRepeatWhileTrue(const Program &) {}
  virtual void visitRepeatWhileFalse(const Program &) {}
  virtual void visitIf(const Program &) {}
  virtual void visitSwitch(const Program &) {}
  virtual void visitOnTileExecute(const OnTileExecuteProgram &) {}
  virtual void visitDoExchange(const DoExchangeProgram &) {}
  virtual void visitStreamCopyMid(const Program &) {}
  virtual void visitSync(const Program &) {}
  virtual void visitPrintTensor(const Program &) {}
};

/// Bytes of one kind of memory on one tile: those no other item shares (nonOverlapped) and those it shares with
/// items not live at the same time (overlapped).
class MemoryOverlap {
public:
  MemoryOverlap(std::uint64_t nonOverlapped, std::uint64_t overlapped)
      : nonOverlapped_(nonOverlapped), overlapped_(overlapped) {}
  std::uint64_t nonOverlapped() const { return nonOverlapped_; }
  std::uint64_t overlapped() const { return overlapped_; }

private:
  std::uint64_t nonOverlapped_, overlapped_;
};

/// One memory category on one tile, by region: interleaved, non-interleaved and overflowed memory. This
/// emulator's tiles have one memory region, reported as non-interleaved; the other two are zero.
class MemoryCategory {
public:
  MemoryCategory(MemoryOverlap interleaved, MemoryOverlap nonInterleaved, MemoryOverlap overflowed)
      : interleaved_(interleaved), nonInterleaved_(nonInterleaved), overflowed_(overflowed) {}
  MemoryOverlap interleaved() const { return interleaved_; }
  MemoryOverlap nonInterleaved() const { return nonInterleaved_; }
  MemoryOverlap overflowed() const { return overflowed_; }
  /// Every byte of the category, overlapped or not, in every region.
  std::uint64_t total() const;

private:
  MemoryOverlap interleaved_, nonInterleaved_, overflowed_;
};

/// The memory categories of one tile, by the SDK's names. A category this library's profile does not record
/// (e.g. globalExchangeCode: the emulated card has no global exchange code) is zero.
class MemoryCategories {
public:
  MemoryCategories(ReportDataPtr data, unsigned tile) : data_(data), tile_(tile) {}
  /// The category named `name` as the graph profile records it ("vertexCode", "internalExchangeCode", ...).
  MemoryCategory byName(const std::string &name) const;
  MemoryCategory constant() const { return byName("constant"); }
  MemoryCategory controlCode() const { return byName("controlCode"); }
  MemoryCategory controlId() const { return byName("controlId"); }
  MemoryCategory controlTable() const { return byName("controlTable"); }
  MemoryCategory copyDescriptor() const { return byName("copyDescriptor"); }
  MemoryCategory globalExchangeCode() const { return byName("globalExchangeCode"); }
  MemoryCategory hostExchangeCode() const { return byName("hostExchangeCode"); }
  MemoryCategory hostMessage() const { return byName("hostMessage"); }
  MemoryCategory instrumentationResults() const { return byName("instrumentationResults"); }
  MemoryCategory internalExchangeCode() const { return byName("internalExchangeCode"); }
  MemoryCategory multiple() const { return byName("multiple"); }
  MemoryCategory rearrangement() const { return byName("rearrangement"); }
  MemoryCategory stack() const { return byName("stack"); }
  MemoryCategory variable() const { return byName("variable"); }
  MemoryCategory vectorListDescriptor() const { return byName("vectorListDescriptor"); }
  MemoryCategory vertexCode() const { return byName("vertexCode"); }
  MemoryCategory vertexFieldData() const { return byName("vertexFieldData"); }
  MemoryCategory vertexInstanceState() const { return byName("vertexInstanceState"); }

private:
  ReportDataPtr data_;
  unsigned tile_;
};

/// The bytes a tile's code and data take, each byte counted once (excludingGaps), and the span they take with the
/// gaps between them (includingGaps).
class MemoryTotal {
public:
  MemoryTotal(std::uint64_t excludingGaps, std::uint64_t includingGaps)
      : excludingGaps_(excludingGaps), includingGaps_(includingGaps) {}
  std::uint64_t excludingGaps() const { return excludingGaps_; }
  std::uint64_t includingGaps() const { return includingGaps_; }

private:
  std::uint64_t excludingGaps_, includingGaps_;
};

/// A vertex class (codelet) of the graph.
class VertexType {
public:
  VertexType(std::string name, std::uint64_t size) : name_(std::move(name)), size_(size) {}
  const std::string &name() const { return name_; }
  /// Bytes of one vertex's state.
  std::uint64_t size() const { return size_; }

private:
  std::string name_;
  std::uint64_t size_;
};

/// The vertices of one type on one tile (or in one compute set).
class VertexMemory {
public:
  VertexMemory(VertexType type, std::uint64_t count) : type_(std::move(type)), count_(count) {}
  VertexType type() const { return type_; }
  std::uint64_t count() const { return count_; }
  /// Bytes of their state (count() * type().size()).
  std::uint64_t size() const { return count_ * type_.size(); }

private:
  VertexType type_;
  std::uint64_t count_;
};
typedef VertexMemory Vertex;

/// What one tile's memory holds.
class TileMemory {
public:
  TileMemory(ReportDataPtr data, unsigned tile) : data_(data), tile_(tile) {}
  MemoryTotal total() const;
  MemoryCategories category() const { return MemoryCategories(data_, tile_); }
  /// The vertices on the tile, one entry per vertex type present.
  std::vector<VertexMemory> vertices() const;

private:
  ReportDataPtr data_;
  unsigned tile_;
};

/// One tile of the compiled graph.
class Tile {
public:
  Tile(ReportDataPtr data, unsigned number) : data_(data), number_(number) {}
  unsigned number() const { return number_; }
  TileMemory memory() const { return TileMemory(data_, number_); }

private:
  ReportDataPtr data_;
  unsigned number_;
};

/// One compute set of the compiled graph.
class ComputeSet {
public:
  ComputeSet(std::string name, std::vector<VertexMemory> vertices)
      : name_(std::move(name)), vertices_(std::move(vertices)) {}
  const std::string &name() const { return name_; }
  /// Its vertices, one entry per vertex type (count() of them).
  const std::vector<VertexMemory> &vertices() const { return vertices_; }

private:
  std::string name_;
  std::vector<VertexMemory> vertices_;
};

/// What is known once the graph is compiled.
class CompilationReport {
public:
  explicit CompilationReport(ReportDataPtr data) : data_(data) {}
  Target target() const { return Target(data_); }
  Graph graph() const { return Graph(data_); }
  /// Every tile of the target, in tile order.
  std::vector<Tile> tiles() const;
  /// Every compute set, in id order.
  std::vector<ComputeSet> computeSets() const;
  /// Every program node, in id order.
  const std::vector<ProgramPtr> &programs() const;
  /// The root of each of the engine's programs (engine.run(i) runs controlPrograms()[i]).
  std::vector<ProgramPtr> controlPrograms() const;

private:
  ReportDataPtr data_;
};

/// One top-level step of a run, as the execution profile measured (or, on an IPU Model, estimated) it.
class ExecutionStep {
public:
  ExecutionStep(ProgramPtr program, std::uint64_t from, std::uint64_t to, std::uint64_t activeTiles)
      : program_(program), from_(from), to_(to), activeTiles_(activeTiles) {}
  ProgramPtr program() const { return program_; }
  std::uint64_t cyclesFrom() const { return from_; }
  std::uint64_t cyclesTo() const { return to_; }
  std::uint64_t cycles() const { return to_ - from_; }
  std::uint64_t activeTiles() const { return activeTiles_; }

private:
  ProgramPtr program_;
  std::uint64_t from_, to_, activeTiles_;
};

/// A step on one tile: the same span as its ExecutionStep (every step ends with a sync on all tiles).
typedef ExecutionStep Block;

/// One engine.run of a program.
class Run {
public:
  Run(ProgramPtr program, std::vector<ExecutionStep> steps) : program_(program), steps_(std::move(steps)) {}
  ProgramPtr program() const { return program_; }
  const std::vector<ExecutionStep> &steps() const { return steps_; }

private:
  ProgramPtr program_;
  std::vector<ExecutionStep> steps_;
};

/// What the runs measured; empty when the report has no execution profile.
class ExecutionReport {
public:
  explicit ExecutionReport(ReportDataPtr data) : data_(data) {}
  /// Every step of every run, in time order.
  std::vector<ExecutionStep> steps() const;
  /// The runs, each with its steps; a step belongs to the run whose cycles it lies in.
  std::vector<Run> runs() const;
  /// The steps in which `tile` took part (computed, exchanged or streamed).
  std::vector<Block> blocks(unsigned tile) const;
  /// Cycles of all runs together.
  std::uint64_t totalCycles() const;

private:
  ReportDataPtr data_;
};

/// A report opened with pva::openReport.
class Report {
public:
  /// Opens the report in `directory`. Throws poplar::profiling_error naming the directory when it holds no graph
  /// profile (profile.json or profile.cbor), or a file that cannot be read. (Our name; openReport is the SDK's.)
  static Report open(const std::string &directory);
  /// A report over profiles held in memory: a graph profile and an execution profile (an empty map when there were
  /// no runs), as poplar::Engine::getGraphProfile and getExecutionProfile give them. (Our name; Engine::getReport
  /// is the SDK's way there.)
  static Report fromProfiles(const poplar::ProfileValue &graphProfile, const poplar::ProfileValue &executionProfile);

  CompilationReport compilation() const { return CompilationReport(data_); }
  ExecutionReport execution() const { return ExecutionReport(data_); }
  PoplarVersion poplarVersion() const { return PoplarVersion(data_); }
  ProfileReportVersion version() const { return ProfileReportVersion(data_); }
  InstrumentationSettings instrumentationSettings() const { return InstrumentationSettings(data_); }

  // Views of our own, over the same profiles (popvis uses them).

  /// The graph profile as read.
  const poplar::ProfileValue &graphProfile() const;
  /// The execution profile; an empty map when the report has none.
  const poplar::ProfileValue &executionProfile() const;
  bool hasExecution() const;
  std::string targetType() const;
  unsigned numTiles() const;
  double clockFrequency() const;
  struct TileMemory {
    unsigned tile;
    std::uint64_t total;              ///< code and data, each byte once
    std::uint64_t totalIncludingGaps; ///< the span the tile's code and data take, gaps included
  };
  std::vector<TileMemory> tiles() const;
  /// The graph profile's optimizationInfo: libpoplar's figures (tilesInUse, exchangeBytes, ...) and what libraries
  /// recorded (poplin: "poplin::matMul/<debug name>" = the planner's estimated cycles of that product).
  std::map<std::string, double> optimizationInfo() const;
  std::map<std::string, std::uint64_t> memoryByCategory() const;
  /// Vertex state bytes by vertex type name.
  std::map<std::string, std::uint64_t> memoryByVertexType() const;
  struct ComputeSet {
    unsigned id;
    std::string name;
    std::uint64_t vertices;
  };
  std::vector<ComputeSet> computeSets() const;
  /// Liveness of one program: bytes live on all tiles at each of its steps.
  struct Liveness {
    unsigned program;
    std::vector<std::string> stepNames;
    std::vector<std::uint64_t> liveBytes;
  };
  std::vector<Liveness> liveness() const;
  /// A measured execution step, as the execution profile records it.
  struct Step {
    std::string type, name;
    unsigned program;
    std::uint64_t cycles, cyclesFrom, cyclesTo, activeTiles;
    double tileBalance;
  };
  std::vector<Step> steps() const;
  std::uint64_t totalCycles() const;
  std::map<std::string, std::uint64_t> tileCycles() const;

private:
  explicit Report(ReportDataPtr data) : data_(data) {}
  friend Report openReport(const std::string &);
  ReportDataPtr data_;
};

/// Opens the report autoReport wrote: `path` is its directory, or a file in it (profile.pop, profile.json,
/// profile.cbor; profile.pop names the report as the SDK does, and this library reads the JSON or CBOR profile
/// beside it). Throws poplar::profiling_error naming the path and the fix when there is no report there.
Report openReport(const std::string &path);
/// As openReport(path); the debug information file is not used (this library's reports carry no debug info).
Report openReport(const std::string &path, const std::string &debugInfoPath);

} // namespace pva

#endif // PVA_PVA_HPP
