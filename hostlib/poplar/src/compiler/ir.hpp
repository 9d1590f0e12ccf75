// Internal: the graph compiler's intermediate form.
//
// Lowering turns the program tree into a list of steps per program, one struct per step kind, and every piece of
// tile memory the programs need into a Buffer: a block on one tile with a size, an alignment and, where its contents
// are defined before the run, its bytes. Nothing has an address yet: where one buffer's contents name another's
// address (a vertex state pointing at an edge, an exchange list naming a destination), the buffer carries a
// relocation, and a step names buffers by id. The later passes read or rewrite this form:
//   replicate (copies per replica) -> instrument (adds cycle-stamp steps) -> reserve-control-programs
//   -> liveness (when each buffer is in use) -> layout (addresses) -> encode (control programs and tile bytes);
// compileGraph then copies what the engine needs (streams, handles, step lists) into CompiledGraph. verify.cpp
// checks the form's invariants after each pass that rewrites it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "poplar/LateInitCallback.hpp"
#include "poplar/PrintTensor.hpp"
#include "poplar/Tensor.hpp"
#include "poplar/Type.hpp"
#include "../host_handle_key.hpp"

namespace poplar::detail {

/// What PrintTensor output looks like on the host: the tiles print a marker, the host prints this.
struct PrintInfo {
  std::string title;
  std::vector<std::size_t> shape;
  Type type;
  bool formatted = false; ///< PrintTensor was given a PrintTensorFmt: `fmt` lays the values out
  PrintTensorFmt fmt;
};

} // namespace poplar::detail

namespace poplar::detail::ir {

using BufferId = std::uint32_t;
constexpr BufferId kNoBuffer = ~0u;

/// An address before layout: byte `offset` of buffer `buf`.
struct Ref {
  BufferId buf = kNoBuffer;
  std::uint32_t offset = 0;
};

/// "The 32-bit word at `at` of this buffer holds the address of `target`", resolved once buffers are placed.
struct Reloc {
  std::uint32_t at = 0;
  Ref target;
};

/// How long a buffer must keep its contents.
enum class Lifetime {
  Program, ///< the whole run of every program (code tables, lists, constants, host-visible variables)
  Dataflow ///< only while liveness says so: memory is shared with buffers in use at other times
};

/// A block of one tile's memory.
struct Buffer {
  std::uint32_t tile = 0;
  std::uint32_t size = 0;
  std::uint32_t align = 4;
  std::string category; ///< "variable", "constant", "vertex state", "edge buffer", "exchange list", ...
  std::string name;
  Lifetime lifetime = Lifetime::Program;
  bool initialised = false;        ///< `bytes` are uploaded before the run (else the contents are undefined)
  std::vector<std::uint8_t> bytes; ///< `size` bytes when initialised
  std::vector<Reloc> relocs;
  int variable = -1; ///< the graph variable whose elements on this tile the buffer holds, or -1
  bool replicationIndex = false; ///< a replication index constant: replication writes r into replica r's copy
};

/// One run of bytes moved between tiles by an exchange.
struct Transfer {
  Ref src, dst;
  std::uint32_t len = 0;
};

/// A byte range of a buffer that a step reads or writes (what liveness works from).
struct Access {
  BufferId buf = kNoBuffer;
  std::uint32_t begin = 0, end = 0;
};

/// What a step does to memory.
struct Effects {
  std::vector<Access> reads, writes;
};

/// All tiles meet at a sync (IPU_SYNC_KIND_INTERNAL).
struct SyncStep {};

/// Tiles send `transfers` (one exchange list per sending tile, in `lists`), then sync.
struct ExchangeStep {
  std::string what;
  std::vector<Transfer> transfers;
  std::map<std::uint32_t, BufferId> lists; ///< sending tile -> its list
  std::uint64_t bytes = 0;
  /// Empty: within each replica. Else a copy between replicas (CrossReplicaCopy): replica r's sources go to replica
  /// replicaMap[r]'s destinations, or nowhere when it is -1 (see replicate.cpp).
  std::vector<int> replicaMap;
};

/// Tiles run their vertices of compute set `computeSet` (one table per tile, in `tables`), then sync.
struct ExecuteStep {
  unsigned computeSet = 0;
  std::string name;
  std::size_t numVertices = 0;
  std::map<std::uint32_t, BufferId> tables;
  Effects effects;
};

/// A host exchange through stream `streamId`: every taking-part tile meets the host syncs; tiles holding part of
/// the tensor have a list of host-exchange descriptors, the others an empty list.
struct StreamCopyStep {
  std::string stream;
  std::uint32_t streamId = 0;
  bool toDevice = true;
  std::uint64_t bytes = 0;
  std::map<std::uint32_t, BufferId> lists; ///< every taking-part tile
  Effects effects;
};

/// One tile prints `count` elements at `data` (the print buffer, or the tensor where it is one run).
struct PrintStep {
  std::string title;
  std::uint32_t tile = 0;
  Ref data;
  std::uint32_t count = 0;
  std::uint32_t dtype = 0;
  BufferId marker = kNoBuffer; ///< the NUL-terminated marker the tile prints before the values
  Effects effects;
};

/// The instrumentation tile writes its cycle counter to stamp slot `slot` after a sync.
struct StampStep {
  std::uint32_t tile = 0;
  BufferId table = kNoBuffer;
  BufferId slot = kNoBuffer;
};

struct RepeatStep;
struct IfStep;
struct SwitchStep;
struct WhileStep;

using Step = std::variant<SyncStep, ExchangeStep, ExecuteStep, StreamCopyStep, PrintStep, StampStep, RepeatStep,
                          IfStep, SwitchStep, WhileStep>;
using Body = std::vector<Step>;

/// Every tile's copy of a control-flow predicate (brought there by an exchange just before).
struct Predicate {
  std::map<std::uint32_t, BufferId> slots; ///< every taking-part tile
  std::uint32_t width = 4;                 ///< bytes of the predicate's type
};

struct RepeatStep {
  std::uint32_t count = 0;
  Body body;
};
struct IfStep {
  Predicate pred;
  Body thenBody, elseBody;
};
struct SwitchStep {
  Predicate pred;
  std::vector<std::uint32_t> caseValues;
  std::vector<Body> cases;
  Body defaultBody;
};
struct WhileStep {
  Predicate pred; ///< written by the last exchange of `condition`
  bool whileFalse = false;
  Body condition, body;
};

/// One program of the engine, as lowered.
struct Program {
  Body body;
};

/// A stream as the host runtime sees it. In a replicated module a stream has `replicas` staging slots of `bytes`
/// each from devAddr (one per replica; 1 for a broadcast stream, whose one slot every replica reads).
struct Stream {
  std::string name;
  std::uint32_t id = 0;
  bool toDevice = true;
  std::size_t bytes = 0;
  std::uint32_t devAddr = 0;
  unsigned replicas = 1;
};

/// A host read or write handle: where its bytes sit.
struct HostHandle {
  std::size_t bytes = 0;
  struct Piece {
    Ref at;
    std::uint32_t len = 0;
    std::size_t hostOffset = 0;
    unsigned replica = kLocalReplica; ///< a getNonReplicatedTensor piece: that replica's copy, not every one
  };
  std::vector<Piece> pieces;
};

/// The whole intermediate form of one engine's graph and programs.
/// A plain vertex field whose value a callback computes once the layout is known (Graph::setInitCallback; run by
/// late_init.cpp between layout and encode).
struct LateInitField {
  BufferId state = kNoBuffer; ///< the vertex state
  std::uint32_t offset = 0;   ///< of the field in it
  std::size_t size = 0;
  std::function<void(const VertexEdgeInfo &, void *)> fill;
  /// Each edge field's runs of memory as the vertex sees them (an item per VectorList entry): start and bytes.
  std::map<std::string, std::vector<std::pair<Ref, std::uint32_t>>> edges;
};

struct Module {
  std::vector<Buffer> buffers;
  std::vector<std::uint32_t> tiles; ///< tiles that take part, ascending
  std::vector<Program> programs;
  std::vector<Stream> streams;
  std::map<HostHandleKey, HostHandle> handles;
  std::map<std::string, PrintInfo> prints; ///< by marker
  std::vector<std::pair<std::string, std::string>> aborts; ///< each Abort's stream name and message
  std::uint32_t instrumentTile = 0;
  std::size_t numEdges = 0; ///< vertex fields connected to tensors (for the profile)
  std::vector<LateInitField> lateInits;

  BufferId add(Buffer b) {
    buffers.push_back(std::move(b));
    return BufferId(buffers.size() - 1);
  }
};

/// Helpers to fill a buffer's initial contents.
void put32(Buffer &b, std::uint32_t at, std::uint32_t value);
void putBytes(Buffer &b, std::uint32_t at, const void *data, std::size_t len);
/// Makes `b` initialised (zero-filled to its size) if it was not.
void initialise(Buffer &b);
/// Adds a relocation: the word at `at` becomes the address of `target`.
void putAddr(Buffer &b, std::uint32_t at, Ref target);

} // namespace poplar::detail::ir
