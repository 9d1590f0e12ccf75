// The graph compiler's intermediate form built by hand (no Graph, no lowering): the verifier accepts a well-formed
// module and names the pass and the rule for each broken one, and one pass (liveness) gives the ranges its
// definition promises on a module whose answer is known.
#include <cstdarg>
#include <cstddef>
#include <csetjmp>
#include <cstring>
#include <string>

#include "compiler/passes.hpp"
#include "poplar/exceptions.hpp"

extern "C" {
#include <cmocka.h>
}

using namespace poplar::detail::ir;

namespace {

ExecuteStep execute(unsigned cs, BufferId table, std::vector<Access> reads, std::vector<Access> writes) {
  ExecuteStep e;
  e.computeSet = cs;
  e.name = "cs" + std::to_string(cs);
  e.tables[0] = table;
  e.effects.reads = std::move(reads);
  e.effects.writes = std::move(writes);
  return e;
}

Buffer buffer(std::uint32_t tile, std::uint32_t size, Lifetime lifetime, const char *name) {
  Buffer b;
  b.tile = tile;
  b.size = size;
  b.lifetime = lifetime;
  b.category = "variable";
  b.name = name;
  return b;
}

/// Tiles 0 and 1; tile 0 sends 8 bytes of `src` to `dst` on tile 1, then syncs.
Module exchangeModule() {
  Module m;
  m.tiles = {0, 1};
  Buffer src = buffer(0, 16, Lifetime::Program, "src");
  initialise(src);
  put32(src, 0, 0x12345678u);
  const BufferId s = m.add(src);
  const BufferId d = m.add(buffer(1, 16, Lifetime::Program, "dst"));
  const BufferId list = m.add(buffer(0, 32, Lifetime::Program, "list"));
  putAddr(m.buffers[list], 4, Ref{d, 0});
  ExchangeStep x;
  x.what = "copy";
  x.transfers.push_back(Transfer{Ref{s, 0}, Ref{d, 8}, 8});
  x.lists[0] = list;
  x.bytes = 8;
  m.programs.push_back(Program{Body{x, SyncStep{}}});
  return m;
}

/// Runs the verifier on `m`; returns its message ("" when it accepts).
std::string verifyMessage(const Module &m) {
  try {
    verify(m, "test-pass");
  } catch (const poplar::poplar_error &e) {
    return e.what();
  }
  return "";
}

void expectRefused(const Module &m, const char *rule) {
  const std::string msg = verifyMessage(m);
  if (msg.find("after the 'test-pass' pass") == std::string::npos || msg.find(rule) == std::string::npos)
    fail_msg("verifier: expected a refusal naming the pass and '%s', got '%s'", rule, msg.c_str());
}

void test_verifier_accepts_a_well_formed_module(void **) {
  assert_string_equal(verifyMessage(exchangeModule()).c_str(), "");
}

void test_verifier_names_each_broken_rule(void **) {
  Module m = exchangeModule();
  std::get<ExchangeStep>(m.programs[0].body[0]).transfers[0].len = 12; // dst offset 8 + 12 > 16
  std::get<ExchangeStep>(m.programs[0].body[0]).bytes = 12;
  expectRefused(m, "past the end of buffer b1");

  m = exchangeModule();
  std::get<ExchangeStep>(m.programs[0].body[0]).bytes = 9;
  expectRefused(m, "counts 9 bytes but its transfers move 8");

  m = exchangeModule();
  m.buffers[1].tile = 5;
  expectRefused(m, "on tile 5, which does not take part");

  m = exchangeModule();
  m.buffers[0].align = 12;
  expectRefused(m, "alignment 12 is not a power of two");

  m = exchangeModule();
  m.buffers[0].bytes.resize(4);
  expectRefused(m, "initialised with 4 bytes but its size is 16");

  m = exchangeModule();
  m.buffers[2].relocs.push_back(Reloc{30, Ref{0, 0}}); // a word at 30 does not fit 32 bytes
  expectRefused(m, "relocation at byte 30");

  m = exchangeModule();
  std::get<ExchangeStep>(m.programs[0].body[0]).lists[1] = 2; // tile 1's list is tile 0's buffer
  expectRefused(m, "tile 1's entry is buffer b2 on tile 0");

  m = exchangeModule();
  m.tiles = {1, 0};
  expectRefused(m, "not strictly ascending");

  m = exchangeModule();
  RepeatStep r;
  r.count = 2;
  ExchangeStep bad = std::get<ExchangeStep>(m.programs[0].body[0]);
  bad.transfers[0].src.buf = 99;
  r.body.push_back(bad);
  m.programs[0].body.push_back(r);
  expectRefused(m, "program 0, step 2 > repeat, step 0 (transfer source): it names buffer b99 of 3");
}

/// Liveness on a chain a -> b -> c of dataflow buffers on one tile: each is in use from the step that writes it to
/// the step that reads it, so a and c never overlap (they may share memory) while a and b do.
void test_liveness_of_a_hand_built_chain(void **) {
  Module m;
  m.tiles = {0};
  const BufferId table = m.add(buffer(0, 8, Lifetime::Program, "table"));
  const BufferId a = m.add(buffer(0, 64, Lifetime::Dataflow, "a"));
  const BufferId b = m.add(buffer(0, 64, Lifetime::Dataflow, "b"));
  const BufferId c = m.add(buffer(0, 64, Lifetime::Dataflow, "c"));
  m.programs.push_back(Program{Body{
      execute(0, table, {}, {Access{a, 0, 64}}),
      execute(1, table, {Access{a, 0, 64}}, {Access{b, 0, 64}}),
      execute(2, table, {Access{b, 0, 64}}, {Access{c, 0, 64}}),
      execute(3, table, {Access{c, 0, 64}}, {}),
  }});
  verify(m, "hand-built");
  const Liveness live = analyseLiveness(m);
  assert_true(live.wholeRun[table]);
  assert_false(live.wholeRun[a]);
  assert_false(live.wholeRun[c]);
  assert_int_equal(live.ranges[0][a].first, 0);
  assert_int_equal(live.ranges[0][a].second, 1);
  assert_int_equal(live.ranges[0][b].first, 1);
  assert_int_equal(live.ranges[0][b].second, 2);
  assert_int_equal(live.ranges[0][c].first, 2);
  assert_int_equal(live.ranges[0][c].second, 3);
  assert_true(live.overlap(a, b));
  assert_false(live.overlap(a, c));
  // The plain layout's view keeps everything for the whole run: everything overlaps.
  const Liveness all = everythingLive(m);
  assert_true(all.overlap(a, c));
}

/// A value read before it is written in the same program (a loop-carried or between-runs value) keeps its memory
/// for the whole run.
void test_liveness_keeps_values_read_first(void **) {
  Module m;
  m.tiles = {0};
  const BufferId table = m.add(buffer(0, 8, Lifetime::Program, "table"));
  const BufferId acc = m.add(buffer(0, 16, Lifetime::Dataflow, "acc"));
  m.programs.push_back(Program{Body{execute(0, table, {Access{acc, 0, 16}}, {Access{acc, 0, 16}})}});
  const Liveness live = analyseLiveness(m);
  assert_true(live.wholeRun[acc]);
}

} // namespace

int main() {
  const CMUnitTest tests[] = {
      cmocka_unit_test(test_verifier_accepts_a_well_formed_module),
      cmocka_unit_test(test_verifier_names_each_broken_rule),
      cmocka_unit_test(test_liveness_of_a_hand_built_chain),
      cmocka_unit_test(test_liveness_keeps_values_read_first),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
