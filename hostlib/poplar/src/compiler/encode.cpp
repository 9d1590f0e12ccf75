// Internal: encoding, the last pass and the only one that writes output: one control program per program and
// tile (the contract's encoding, through ipu_cp), and each tile's bytes with every relocation resolved.
#include <cstring>
#include <functional>

#include "../compiler.hpp"
#include "ipu_fw/cp.h"
#include "passes.hpp"
#include "poplar/exceptions.hpp"
#include "steps.hpp"

namespace poplar::detail::ir {

namespace {

using AddressOf = std::function<std::uint32_t(BufferId)>;

std::uint32_t on(const std::map<std::uint32_t, BufferId> &perTile, std::uint32_t t, const AddressOf &addr,
                 bool &found) {
  auto it = perTile.find(t);
  found = it != perTile.end();
  return found ? addr(it->second) : 0;
}

void emit(ipu_cp_builder *b, const Body &body, std::uint32_t t, const AddressOf &addr) {
  for (const Step &step : body) {
    std::visit(
        [&](const auto &x) {
          using T = std::decay_t<decltype(x)>;
          bool found = false;
          if constexpr (std::is_same_v<T, SyncStep>) {
            ipu_cp_emit_sync(b, IPU_SYNC_KIND_INTERNAL, 0);
          } else if constexpr (std::is_same_v<T, ExchangeStep>) {
            std::uint32_t list = on(x.lists, t, addr, found);
            if (found)
              ipu_cp_emit_exchange(b, list);
            ipu_cp_emit_sync(b, IPU_SYNC_KIND_INTERNAL, 0);
          } else if constexpr (std::is_same_v<T, ExecuteStep>) {
            std::uint32_t table = on(x.tables, t, addr, found);
            if (found)
              ipu_cp_emit_execute(b, table);
            ipu_cp_emit_sync(b, IPU_SYNC_KIND_INTERNAL, 0);
          } else if constexpr (std::is_same_v<T, StreamCopyStep>) {
            ipu_cp_emit_stream_copy(b, x.streamId, addr(x.lists.at(t)));
          } else if constexpr (std::is_same_v<T, PrintStep>) {
            if (x.tile == t)
              ipu_cp_emit_print_tensor(b, x.dtype, x.data.buf == kNoBuffer ? 0 : addr(x.data.buf) + x.data.offset,
                                       x.count, addr(x.marker));
          } else if constexpr (std::is_same_v<T, StampStep>) {
            ipu_cp_emit_sync(b, IPU_SYNC_KIND_INTERNAL, 0);
            if (x.tile == t)
              ipu_cp_emit_execute(b, addr(x.table));
          } else if constexpr (std::is_same_v<T, RepeatStep>) {
            ipu_cp_mark m = ipu_cp_begin_repeat(b, x.count);
            emit(b, x.body, t, addr);
            ipu_cp_end_repeat(b, &m);
          } else if constexpr (std::is_same_v<T, IfStep>) {
            ipu_cp_mark m = ipu_cp_begin_if(b, x.pred.width, addr(x.pred.slots.at(t)));
            emit(b, x.thenBody, t, addr);
            ipu_cp_else(b, &m);
            emit(b, x.elseBody, t, addr);
            ipu_cp_end_if(b, &m);
          } else if constexpr (std::is_same_v<T, SwitchStep>) {
            ipu_cp_mark m = ipu_cp_begin_switch(b, x.pred.width, addr(x.pred.slots.at(t)),
                                                std::uint32_t(x.cases.size()), x.caseValues.data());
            for (const Body &c : x.cases) {
              ipu_cp_case(b, &m);
              emit(b, c, t, addr);
            }
            ipu_cp_default(b, &m);
            emit(b, x.defaultBody, t, addr);
            ipu_cp_end_switch(b, &m);
          } else if constexpr (std::is_same_v<T, WhileStep>) {
            ipu_cp_mark m = ipu_cp_begin_while(b, x.pred.width, x.whileFalse, addr(x.pred.slots.at(t)));
            emit(b, x.condition, t, addr);
            ipu_cp_while_body(b, &m);
            emit(b, x.body, t, addr);
            ipu_cp_end_while(b, &m);
          }
        },
        step);
  }
}

/// Encodes program `p` for tile `t` into `words` (measuring only when `words` is null); returns the word count.
std::size_t encodeProgram(const Program &p, std::uint32_t t, const AddressOf &addr, std::uint32_t *words,
                          std::size_t capacity) {
  ipu_cp_builder b;
  ipu_cp_builder_init(&b, words, capacity);
  emit(&b, p.body, t, addr);
  ipu_cp_emit_end(&b);
  if (words) {
    int rc = ipu_cp_builder_finish(&b);
    if (rc != IPU_CP_OK)
      throw graph_program_compilation_error("encoding the control program of tile " + std::to_string(t) +
                                            " failed: " + ipu_cp_strerror(rc));
  }
  return b.length;
}

} // namespace

std::vector<std::vector<BufferId>> reserveControlPrograms(Module &m) {
  std::vector<std::vector<BufferId>> out;
  AddressOf none = [](BufferId) { return 0u; };
  for (std::size_t p = 0; p < m.programs.size(); ++p) {
    out.emplace_back();
    for (std::uint32_t t : m.tiles) {
      std::size_t words = encodeProgram(m.programs[p], t, none, nullptr, 0);
      Buffer b;
      b.tile = t;
      b.size = std::uint32_t(words * 4);
      b.category = "control program";
      b.name = "program " + std::to_string(p);
      initialise(b);
      out.back().push_back(m.add(std::move(b)));
    }
  }
  return out;
}

void encode(const Module &m, const Layout &layout, const std::vector<std::vector<BufferId>> &controlPrograms,
            const LinkedImage &image, CompiledGraph &out) {
  AddressOf addr = [&](BufferId id) { return layout.addr.at(id); };
  std::vector<std::vector<std::uint8_t>> code(m.buffers.size());
  for (std::size_t p = 0; p < m.programs.size(); ++p) {
    std::map<std::uint32_t, std::uint32_t> starts;
    for (std::size_t i = 0; i < m.tiles.size(); ++i) {
      std::uint32_t t = m.tiles[i];
      BufferId id = controlPrograms[p][i];
      std::vector<std::uint32_t> words(m.buffers[id].size / 4);
      std::size_t n = encodeProgram(m.programs[p], t, addr, words.data(), words.size());
      if (n != words.size())
        throw graph_program_compilation_error("internal error: the control program of tile " + std::to_string(t) +
                                              " changed size between measuring and encoding");
      code[id].resize(words.size() * 4);
      std::memcpy(code[id].data(), words.data(), code[id].size());
      starts[t] = addr(id);
    }
    out.programAddr.push_back(starts);
  }
  // Each tile's item list is filled below, one item per buffer: reserved at its size, it is not copied as it grows
  // (tutorial 7 places about 160,000 buffers).
  std::vector<std::size_t> itemsOnTile;
  for (const Buffer &b : m.buffers) {
    if (b.tile >= itemsOnTile.size())
      itemsOnTile.resize(std::size_t(b.tile) + 1, 0);
    ++itemsOnTile[b.tile];
  }
  for (std::uint32_t t : m.tiles) {
    TileData &td = out.tileData[t];
    auto top = layout.top.find(t);
    td.top = top == layout.top.end() ? image.freeStart : top->second;
    td.bytes.resize(td.top - image.freeStart); // zeros without a memset: see TileBytes
  }
  for (std::uint32_t t = 0; t < itemsOnTile.size(); ++t)
    if (itemsOnTile[t])
      out.tileData[t].items.reserve(itemsOnTile[t]);
  for (BufferId id = 0; id < m.buffers.size(); ++id) {
    const Buffer &b = m.buffers[id];
    std::uint32_t at = layout.addr[id];
    TileData &td = out.tileData[b.tile];
    td.items.push_back(MemItem{b.category, b.name, at, b.size, b.initialised});
    out.bytesByCategory[b.category] += b.size;
    const std::vector<std::uint8_t> &bytes = code[id].empty() ? b.bytes : code[id];
    if (!b.initialised)
      continue;
    if (b.lifetime != Lifetime::Program)
      throw graph_program_compilation_error("internal error: buffer '" + b.name + "' (" + b.category +
                                            ") has initial contents but shares memory");
    std::uint8_t *dst = td.bytes.data() + (at - image.freeStart);
    std::memcpy(dst, bytes.data(), bytes.size());
    for (const Reloc &r : b.relocs) {
      std::uint32_t v = addr(r.target.buf) + r.target.offset;
      std::memcpy(dst + r.at, &v, 4);
    }
  }
}

} // namespace poplar::detail::ir
