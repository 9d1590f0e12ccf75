// Internal: the graph compiler's driver: link the tile image, then run the passes over the intermediate form.
//
// Every tile that takes part runs the same structure (so every tile meets every sync); what differs per tile is the
// operands: its exchange lists, its compute-set tables, its host-exchange lists. Steps follow the bulk-synchronous
// pattern: exchange, sync, compute, sync. Control flow reads a copy of the predicate that an exchange has first
// brought to every tile (local consensus).
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>

#include "../codelets.hpp"
#include "../compiler.hpp"
#include "../program_node.hpp"
#include "lower.hpp"
#include "passes.hpp"
#include "poplar/exceptions.hpp"
#include "steps.hpp"
#include "../trace.hpp"

namespace poplar::detail {

namespace {
// The heap of images that call malloc (newlib stdio for PRINT_TENSOR or a codelet's printf needs about 1.5 KiB);
// images without malloc reserve none.
constexpr std::uint32_t kTileHeapBytes = 4096;
constexpr const char *kStampVertex = "poplar_rt::CycleStamp";

/// True if `n` or a program under it prints a tensor (the image then needs the runtime's PRINT_TENSOR and stdio).
bool printsTensor(const program::detail::Node &n) {
  if (n.kind == program::detail::Kind::Print)
    return true;
  for (const auto &c : n.children)
    if (c && printsTensor(*c))
      return true;
  return false;
}

/// Fills the graph profile's view of one step: its kind and the bytes each tile sends and receives.
void describeForProfile(const ir::Module &m, const ir::Step *step, StepInfo &info) {
  if (!step)
    return;
  std::set<std::size_t> variables; // of the buffers the step touches that hold a graph variable
  auto touches = [&](ir::BufferId buf) {
    if (buf < m.buffers.size() && m.buffers[buf].variable >= 0)
      variables.insert(std::size_t(m.buffers[buf].variable));
  };
  auto touchesAll = [&](const ir::Effects &e) {
    for (const auto &a : e.reads)
      touches(a.buf);
    for (const auto &a : e.writes)
      touches(a.buf);
  };
  if (std::get_if<ir::SyncStep>(step)) {
    info.kind = "Sync";
  } else if (auto *x = std::get_if<ir::ExchangeStep>(step)) {
    info.kind = "DoExchange";
    for (const auto &t : x->transfers) {
      info.sentByTile[m.buffers[t.src.buf].tile] += t.len;
      info.receivedByTile[m.buffers[t.dst.buf].tile] += t.len;
      touches(t.src.buf);
      touches(t.dst.buf);
    }
  } else if (auto *e = std::get_if<ir::ExecuteStep>(step)) {
    info.kind = "OnTileExecute";
    info.computeSet = e->computeSet;
  } else if (auto *c = std::get_if<ir::StreamCopyStep>(step)) {
    info.kind = "StreamCopy";
    for (const auto &a : c->toDevice ? c->effects.writes : c->effects.reads)
      (c->toDevice ? info.receivedByTile : info.sentByTile)[m.buffers[a.buf].tile] += a.end - a.begin;
    touchesAll(c->effects);
  } else if (auto *pr = std::get_if<ir::PrintStep>(step)) {
    info.kind = "PrintTensor";
    touchesAll(pr->effects);
  }
  info.variables.assign(variables.begin(), variables.end());
}
/// Verification between passes: always in builds without NDEBUG (the sanitizer build the tests run), else when
/// IPU_EMU_VERIFY_IR=1.
bool verifyBetweenPasses() {
#ifndef NDEBUG
  return true;
#else
  const char *v = std::getenv("IPU_EMU_VERIFY_IR");
  return v && std::strcmp(v, "1") == 0;
#endif
}

void writeDump(const std::string &path, const std::string &text) {
  std::ofstream f(path);
  f << text;
  if (!f)
    throw poplar_error("debug.dumpCompiledGraph: cannot write '" + path + "'; name a file in a writable directory");
}

/// What runs after each pass: the verifier, and with debug.dumpCompiledGraph=FILE the form as that pass left it
/// (FILE.after-<pass>; FILE itself gets the final form, with addresses).
class AfterPass {
public:
  AfterPass(const ir::Module &m, const LinkedImage &image, const CompileOptions &options)
      : m_(m), image_(image), dumpPath_(options.dumpPath), verify_(verifyBetweenPasses()) {}
  void operator()(const char *pass) const {
    if (verify_)
      ir::verify(m_, pass);
    if (!dumpPath_.empty())
      writeDump(dumpPath_ + ".after-" + pass, ir::dumpUnplaced(m_, image_));
  }

private:
  const ir::Module &m_;
  const LinkedImage &image_;
  std::string dumpPath_;
  bool verify_;
};
} // namespace

CompiledGraph compileGraph(const GraphImpl &g, const std::vector<program::Program> &programs,
                           const CompileOptions &options) {
  CompiledGraph out;
  TracePhases phase; // each pass is an interval of the system trace
  phase.next("link tile image");
  out.board = g.target.values().board;
  out.numVars = g.vars.size();
  out.numVertices = g.vertices.size();
  out.numComputeSets = g.computeSets.size();

  // Only the vertex types the graph has vertices of, and the runtime pieces its programs call: --gc-sections drops
  // the rest of the codelets and of the runtime.
  std::vector<std::string> keep;
  std::set<const VertexClass *> used;
  for (unsigned v = 0; v < g.vertices.size(); ++v)
    if (used.insert(&g.vertexClass(v)).second)
      for (const std::string &entry : entrySymbols(g.vertexClass(v)))
        keep.push_back(entry);
  for (const auto &p : programs)
    if (p.node() && printsTensor(*p.node())) {
      keep.push_back("ipu_rt_print_tensor");
      break;
    }
  std::vector<std::string> objects = g.codelets.objects;
  std::string stampEntry;
  if (options.instrument) {
    std::string gp = builtinCodelets(out.board.isa, out.board.abi);
    for (const auto &c : readVertexClasses(gp))
      if (c.name == kStampVertex)
        stampEntry = c.entrySymbol;
    objects.push_back(gp);
    keep.push_back(stampEntry);
  }
  // Without a heap first. An image that turns out to call malloc (_sbrk) is linked again with one; one that
  // registers exit functions (a codelet's C++ static destructor) also gets newlib's __call_exitprocs, which the lean
  // start (firmware/crt/graph_start.c) calls only when it is linked.
  out.image = linkTileImage(objects, out.board, keep, 0);
  bool heap = out.image.symbols.count("_sbrk") != 0, exitProcs = out.image.symbols.count("__register_exitproc") != 0;
  if (exitProcs)
    keep.push_back("__call_exitprocs");
  if (heap || exitProcs)
    out.image = linkTileImage(objects, out.board, keep, heap ? kTileHeapBytes : 0);

  ir::Module m;
  const AfterPass after(m, out.image, options);
  phase.next("lower");
  lower::Lowering(g, out.image, m).run(programs);
  after("lower");
  if (options.replicaToProfile >= g.replicationFactor)
    throw invalid_option("profiler.replicaToProfile " + std::to_string(options.replicaToProfile) +
                         ": the graph has " + std::to_string(g.replicationFactor) + " replica(s); profile one of 0.." +
                         std::to_string(g.replicationFactor - 1));
  // The replicas run in lock-step, so any one replica's tile measures every step; the option picks which.
  m.instrumentTile = m.tiles.front() + options.replicaToProfile * (g.target.getNumTiles() / g.replicationFactor);
  if (g.replicationFactor > 1) {
    phase.next("replicate");
    ir::replicate(m, g.replicationFactor, g.target.getNumTiles() / g.replicationFactor);
    after("replicate");
  }
  out.replicas = g.replicationFactor;
  phase.next("estimate cycles");
  out.cycles = estimateCycles(g);
  out.estimate = estimatePrograms(g, m, out.cycles);
  std::vector<std::vector<ir::BufferId>> stampSlots;
  if (options.instrument) {
    phase.next("instrument");
    stampSlots = ir::instrument(m, out.image.symbols.at(stampEntry));
    after("instrument");
  }
  std::vector<std::vector<ir::BufferId>> controlPrograms = ir::reserveControlPrograms(m);
  after("reserve-control-programs");
  phase.next("liveness");
  ir::Liveness live = options.reuseMemory ? ir::analyseLiveness(m) : ir::everythingLive(m);
  phase.next("layout");
  ir::Layout layout = ir::layOut(m, live, out.image, out.board);
  ir::runLateInits(m, layout);
  phase.next("encode");
  ir::encode(m, layout, controlPrograms, out.image, out);
  if (!options.dumpPath.empty())
    writeDump(options.dumpPath, ir::dump(m, layout, live, out.image));

  phase.next("tables");
  out.tiles = m.tiles;
  for (const auto &s : m.streams)
    out.streams.push_back(CompiledStream{s.name, s.id, s.toDevice, s.bytes, s.devAddr, s.replicas});
  for (const auto &[key, h] : m.handles) {
    CompiledHandle ch;
    ch.bytes = h.bytes;
    for (const auto &p : h.pieces)
      ch.pieces.push_back(HostPiece{m.buffers[p.at.buf].tile, layout.addr[p.at.buf] + p.at.offset, p.len,
                                    p.hostOffset});
    out.handles[key] = ch;
  }
  out.prints = m.prints;
  for (const auto &e : g.errorStreams)
    out.errorStreams.push_back(CompiledErrorStream{g.streams[e.stream].name, e.message, e.shape,
                                                   g.streams[e.stream].type, ErrorKind::ErrorProgram});
  // An Abort's stream carries no tensor (shape {0}): the message alone ends the run.
  for (const auto &[stream, message] : m.aborts)
    out.errorStreams.push_back(CompiledErrorStream{stream, message, {0}, UNSIGNED_INT, ErrorKind::Abort});
  for (const auto &rb : g.remoteBuffers)
    out.remoteBuffers.push_back(CompiledRemoteBuffer{rb.name, rb.numElements * rb.type.getSize(), rb.repeats,
                                                     g.streams[rb.offsetStream].name,
                                                     g.streams[rb.toDeviceStream].name,
                                                     g.streams[rb.toHostStream].name});
  for (const auto &p : m.programs) {
    out.steps.emplace_back();
    for (const auto &line : ir::listSteps(p.body)) {
      out.steps.back().push_back(StepInfo{line.what, line.bytes, line.depth, {}, 0, {}, {}});
      describeForProfile(m, line.step, out.steps.back().back());
      if (auto *x = line.step ? std::get_if<ir::ExchangeStep>(line.step) : nullptr)
        out.exchangeBytes += x->bytes;
    }
  }
  out.liveBytes = live.liveBytes;
  out.numEdges = m.numEdges;
  out.instr.enabled = options.instrument;
  out.instr.tile = m.instrumentTile;
  out.instr.topSteps = ir::topLevelSteps(m);
  for (const auto &slots : stampSlots) {
    out.instr.slots.emplace_back();
    for (ir::BufferId id : slots)
      out.instr.slots.back().push_back(layout.addr[id]);
  }
  return out;
}

} // namespace poplar::detail
