// Internal: the intermediate form's invariants, checked between passes (compile.cpp runs it after each pass in
// builds without NDEBUG and when IPU_EMU_VERIFY_IR=1). A failure is a compiler bug, reported with the pass that
// broke the form and the first broken rule, so that it is caught where it happens rather than as wrong tile bytes.
#include <set>
#include <sstream>

#include "passes.hpp"
#include "poplar/exceptions.hpp"

namespace poplar::detail::ir {

namespace {

class Verifier {
public:
  Verifier(const Module &m, const std::string &after) : m_(m), after_(after) {}

  void run() {
    for (std::size_t i = 0; i < m_.tiles.size(); ++i)
      if (i > 0 && m_.tiles[i] <= m_.tiles[i - 1])
        fail("tiles", "the list of taking-part tiles is not strictly ascending at index " + std::to_string(i));
    tiles_.insert(m_.tiles.begin(), m_.tiles.end());
    for (BufferId id = 0; id < m_.buffers.size(); ++id)
      buffer(id);
    for (std::size_t p = 0; p < m_.programs.size(); ++p)
      body(m_.programs[p].body, "program " + std::to_string(p));
    std::set<std::uint32_t> ids;
    for (const Stream &s : m_.streams)
      if (!ids.insert(s.id).second)
        fail("stream '" + s.name + "'", "its id " + std::to_string(s.id) + " is used by another stream");
    // Pieces of replicated handles cover the host bytes once per replica: only each piece's end is checked.
    for (const auto &[key, h] : m_.handles) {
      for (const auto &piece : h.pieces) {
        ref(piece.at, piece.len, key.describe());
        if (piece.hostOffset + piece.len > h.bytes)
          fail(key.describe(), "a piece ends at host byte " + std::to_string(piece.hostOffset + piece.len) +
                                            ", past the handle's " + std::to_string(h.bytes) + " bytes");
      }
    }
  }

private:
  [[noreturn]] void fail(const std::string &where, const std::string &what) const {
    throw poplar_error("graph compiler: the intermediate form is broken after the '" + after_ + "' pass: " + where +
                       ": " + what + " (a compiler bug; please report it with the program that shows it)");
  }

  static bool powerOfTwo(std::uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

  void buffer(BufferId id) {
    const Buffer &b = m_.buffers[id];
    const std::string where = "buffer b" + std::to_string(id) + " '" + b.name + "'";
    if (!tiles_.count(b.tile))
      fail(where, "it is on tile " + std::to_string(b.tile) + ", which does not take part");
    if (!powerOfTwo(b.align))
      fail(where, "its alignment " + std::to_string(b.align) + " is not a power of two");
    if (b.initialised && b.bytes.size() != b.size)
      fail(where, "it is initialised with " + std::to_string(b.bytes.size()) + " bytes but its size is " +
                      std::to_string(b.size));
    if (!b.initialised && !b.bytes.empty())
      fail(where, "it holds bytes but is not marked initialised");
    for (const Reloc &r : b.relocs) {
      if (std::uint64_t(r.at) + 4 > b.size)
        fail(where, "a relocation at byte " + std::to_string(r.at) + " does not fit its " +
                        std::to_string(b.size) + " bytes");
      ref(r.target, 0, where + " (relocation target)");
    }
  }

  /// `r` names a buffer, and `len` bytes from its offset lie inside it.
  void ref(const Ref &r, std::uint64_t len, const std::string &where) const {
    if (r.buf >= m_.buffers.size())
      fail(where, "it names buffer b" + std::to_string(r.buf) + " of " + std::to_string(m_.buffers.size()));
    if (r.offset + len > m_.buffers[r.buf].size)
      fail(where, "bytes [" + std::to_string(r.offset) + ", " + std::to_string(r.offset + len) +
                      ") are past the end of buffer b" + std::to_string(r.buf) + " (" +
                      std::to_string(m_.buffers[r.buf].size) + " bytes)");
  }

  void onTile(const std::map<std::uint32_t, BufferId> &perTile, const std::string &where) const {
    for (const auto &[tile, id] : perTile) {
      ref(Ref{id, 0}, 0, where);
      if (m_.buffers[id].tile != tile)
        fail(where, "tile " + std::to_string(tile) + "'s entry is buffer b" + std::to_string(id) + " on tile " +
                        std::to_string(m_.buffers[id].tile));
    }
  }

  void effects(const Effects &e, const std::string &where) const {
    for (const auto *list : {&e.reads, &e.writes})
      for (const Access &a : *list) {
        if (a.begin > a.end)
          fail(where, "an access to b" + std::to_string(a.buf) + " begins after it ends");
        ref(Ref{a.buf, a.begin}, a.end - a.begin, where);
      }
  }

  void predicate(const Predicate &p, const std::string &where) const {
    if (p.width != 1 && p.width != 2 && p.width != 4)
      fail(where, "a predicate of " + std::to_string(p.width) + " bytes (1, 2 or 4)");
    onTile(p.slots, where + " (predicate)");
    for (const auto &[tile, id] : p.slots)
      ref(Ref{id, 0}, p.width, where + " (predicate)");
  }

  void body(const Body &steps, const std::string &where) {
    for (std::size_t i = 0; i < steps.size(); ++i)
      step(steps[i], where + ", step " + std::to_string(i));
  }

  void step(const Step &s, const std::string &where) {
    std::visit(
        [&](const auto &x) {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, ExchangeStep>) {
            onTile(x.lists, where + " (exchange lists)");
            std::uint64_t bytes = 0;
            for (const Transfer &t : x.transfers) {
              ref(t.src, t.len, where + " (transfer source)");
              ref(t.dst, t.len, where + " (transfer destination)");
              bytes += t.len;
            }
            if (bytes != x.bytes)
              fail(where, "the exchange counts " + std::to_string(x.bytes) + " bytes but its transfers move " +
                              std::to_string(bytes));
          } else if constexpr (std::is_same_v<T, ExecuteStep>) {
            onTile(x.tables, where + " (compute-set tables)");
            effects(x.effects, where);
          } else if constexpr (std::is_same_v<T, StreamCopyStep>) {
            onTile(x.lists, where + " (host-exchange lists)");
            effects(x.effects, where);
          } else if constexpr (std::is_same_v<T, PrintStep>) {
            ref(x.data, 0, where + " (printed data)");
            ref(Ref{x.marker, 0}, 0, where + " (marker)");
            effects(x.effects, where);
          } else if constexpr (std::is_same_v<T, StampStep>) {
            ref(Ref{x.table, 0}, 0, where + " (stamp table)");
            ref(Ref{x.slot, 0}, 0, where + " (stamp slot)");
          } else if constexpr (std::is_same_v<T, RepeatStep>) {
            body(x.body, where + " > repeat");
          } else if constexpr (std::is_same_v<T, IfStep>) {
            predicate(x.pred, where);
            body(x.thenBody, where + " > then");
            body(x.elseBody, where + " > else");
          } else if constexpr (std::is_same_v<T, SwitchStep>) {
            predicate(x.pred, where);
            if (x.caseValues.size() != x.cases.size())
              fail(where, std::to_string(x.caseValues.size()) + " case values for " + std::to_string(x.cases.size()) +
                              " cases");
            for (std::size_t c = 0; c < x.cases.size(); ++c)
              body(x.cases[c], where + " > case " + std::to_string(c));
            body(x.defaultBody, where + " > default");
          } else if constexpr (std::is_same_v<T, WhileStep>) {
            predicate(x.pred, where);
            body(x.condition, where + " > condition");
            body(x.body, where + " > body");
          }
        },
        s);
  }

  const Module &m_;
  const std::string &after_;
  std::set<std::uint32_t> tiles_;
};

} // namespace

void verify(const Module &m, const std::string &afterPass) { Verifier(m, afterPass).run(); }

} // namespace poplar::detail::ir
