// Internal: the instrumentation pass (debug.instrument): a rewrite of each program's step list that adds a cycle
// stamp at the start and after every top-level step. A stamp is a sync, then one vertex on the instrumentation
// tile that stores the tile's CYCLE counter in a slot the host reads after the run.
#include "passes.hpp"
#include "ipu_card/hw.h"
#include "steps.hpp"

namespace poplar::detail::ir {

namespace {
// State of the stamp vertex (poplar_rt::CycleStamp in the library's own codelets): the slot's address, then 1.
constexpr std::uint32_t kStampStateSlotOffset = 0;
constexpr std::uint32_t kStampStateEnableOffset = 4;
constexpr std::uint32_t kStampStateSize = 8;

StampStep newStamp(Module &m, std::uint32_t stampEntry) {
  std::uint32_t t = m.instrumentTile;
  Buffer slot;
  slot.tile = t;
  slot.size = 4;
  slot.category = "instrumentation";
  slot.name = "cycle stamp";
  initialise(slot);
  BufferId slotId = m.add(std::move(slot));

  Buffer state;
  state.tile = t;
  state.size = kStampStateSize;
  state.category = "instrumentation";
  state.name = "cycle stamp vertex";
  putAddr(state, kStampStateSlotOffset, Ref{slotId, 0});
  put32(state, kStampStateEnableOffset, 1);
  BufferId stateId = m.add(std::move(state));

  Buffer table;
  table.tile = t;
  table.size = IPU_LIST_HEADER_SIZE + IPU_VERTEX_ENTRY_SIZE;
  table.category = "instrumentation";
  table.name = "cycle stamp table";
  put32(table, IPU_LIST_HEADER_COUNT_OFFSET, 1);
  put32(table, IPU_LIST_HEADER_SIZE + IPU_VERTEX_ENTRY_ENTRY_OFFSET, stampEntry);
  putAddr(table, IPU_LIST_HEADER_SIZE + IPU_VERTEX_ENTRY_STATE_OFFSET, Ref{stateId, 0});
  BufferId tableId = m.add(std::move(table));
  return StampStep{t, tableId, slotId};
}
} // namespace

std::vector<std::vector<BufferId>> instrument(Module &m, std::uint32_t stampEntry) {
  std::vector<std::vector<BufferId>> slots;
  for (Program &p : m.programs) {
    Body out;
    slots.emplace_back();
    auto stamp = [&] {
      StampStep s = newStamp(m, stampEntry);
      slots.back().push_back(s.slot);
      out.push_back(s);
    };
    stamp();
    for (Step &s : p.body) {
      out.push_back(std::move(s));
      stamp();
    }
    p.body = std::move(out);
  }
  return slots;
}

std::vector<std::vector<std::pair<std::size_t, std::size_t>>> topLevelSteps(const Module &m) {
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> out;
  for (const Program &p : m.programs) {
    std::vector<StepLine> lines = listSteps(p.body);
    std::vector<std::size_t> starts;
    for (std::size_t i = 0; i < lines.size(); ++i)
      if (lines[i].depth == 0 && lines[i].step)
        starts.push_back(i);
    out.emplace_back();
    for (std::size_t k = 0; k < starts.size(); ++k)
      out.back().emplace_back(starts[k], k + 1 < starts.size() ? starts[k + 1] : lines.size());
  }
  return out;
}

} // namespace poplar::detail::ir
