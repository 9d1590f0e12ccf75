// The SDK surface of Graph, programs and Engine on the "tiny" IPU Model: option validation, engines that move,
// compileGraph and Executable files, remote buffers, functions, Block/WriteUndef/Sync/ErrorProgram, PrintTensor's
// format, replica-indexed callbacks, and the reliability findings: a second engine on a device, recovery after a
// tile fault through the Poplar API, an engine without programs, setFieldSize of a scalar field.
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "poplar/Engine.hpp"
#include "poplar/Executable.hpp"
#include "poplar/IPUModel.hpp"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
extern "C" {
#include <cmocka.h>
}

#include "expect_throw.hpp"

using namespace poplar;
using namespace poplar::program;

namespace {

struct Fixture {
  IPUModel model{"tiny"};
  Device device = model.createDevice();
  Graph graph{device};
  Fixture() { graph.addCodelets(POPLAR_TEST_CODELETS); }
  Tensor scalar(const Type &t, unsigned tile, const std::string &name) {
    Tensor x = graph.addVariable(t, {}, name);
    graph.setTileMapping(x, tile);
    return x;
  }
  Program inc(Tensor x, unsigned tile) {
    ComputeSet cs = graph.addComputeSet("inc");
    VertexRef v = graph.addVertex(cs, "Inc", {{"x", x}});
    graph.setTileMapping(v, tile);
    return Execute(cs);
  }
};

int readInt(Engine &e, const std::string &h) {
  int v = 0;
  e.readTensor(h, &v);
  return v;
}

void test_option_validation(void **) {
  Fixture f;
  Tensor x = f.scalar(INT, 0, "x");
  Program p = f.inc(x, 0);
  expectThrow<invalid_option>([&] { Engine e(f.graph, p, {{"debug.watchdogKiloInsns", "-1"}}); },
                              "debug.watchdogKiloInsns=\"-1\"");
  expectThrow<invalid_option>([&] { Engine e(f.graph, p, {{"target.hostSyncTimeout", "abc"}}); },
                              "target.hostSyncTimeout=\"abc\" is not valid: it takes a number of seconds");
  expectThrow<invalid_option>([&] { Engine e(f.graph, p, {{"debug.runTimeout", "-0.5"}}); }, "debug.runTimeout");
  expectThrow<invalid_option>([&] { Engine e(f.graph, p, {{"debug.instrument", "yes"}}); }, "\"true\" or \"false\"");
  expectThrow<invalid_option>([&] { Engine e(f.graph, p, {{"debug.watchdogKiloInsn", "5"}}); },
                              "unknown engine option \"debug.watchdogKiloInsn\"; the engine accepts: ");
  expectThrow<invalid_option>([&] { Engine e(f.graph, p, {{"profiler.format", "v9"}}); }, "\"v1\", \"v2\"");
  setenv("POPLAR_ENGINE_OPTIONS", "{\"debug.watchdogKiloInsns\": \"many\"}", 1);
  expectThrow<invalid_option>([&] { Engine e(f.graph, p); }, "debug.watchdogKiloInsns=\"many\"");
  unsetenv("POPLAR_ENGINE_OPTIONS");
  // Documented options the engine does not act on yet are accepted.
  Engine e(f.graph, p,
           {{"autoReport.all", "true"}, {"autoReport.directory", "/tmp/r"}, {"target.hostSyncTimeout", "10.5"},
            {"debug.watchdogKiloInsns", "100000"}, {"profiler.format", "v3"}});
  e.load(f.device);
  e.run();
}

void test_no_programs(void **) {
  Fixture f;
  Tensor x = f.scalar(INT, 0, "x");
  f.graph.createHostRead("x", x);
  Engine e(f.graph, std::vector<Program>{});
  assert_int_equal(e.getNumPrograms(), 0);
  e.load(f.device);
  expectThrow<application_runtime_error>([&] { e.run(0); }, "the engine has 0 program(s); build it with a program");
}

void test_second_engine_on_device(void **) {
  Fixture f;
  Tensor x = f.scalar(INT, 1, "x");
  f.graph.setInitialValue(x, 10);
  f.graph.createHostWrite("xw", x);
  f.graph.createHostRead("xr", x);
  Engine e1(f.graph, f.inc(x, 1));
  Graph g2(f.device.getTarget());
  Tensor y = g2.addVariable(INT, {16}, "y");
  g2.setTileMapping(y, 1);
  g2.setInitialValue(y, 77);
  g2.createHostRead("yr", y);
  Engine e2(g2, Sequence());
  e1.load(f.device);
  int five = 5;
  e1.writeTensor("xw", &five);
  e1.run();
  assert_int_equal(readInt(e1, "xr"), 6);
  e2.load(f.device); // overwrites tile 1
  std::vector<int> ys(16);
  e2.readTensor("yr", ys.data());
  assert_int_equal(ys[0], 77);
  // e1 loads itself again: x starts over from its initial value 10.
  e1.run();
  assert_int_equal(readInt(e1, "xr"), 11);
  e2.run();
  e2.readTensor("yr", ys.data());
  assert_int_equal(ys[15], 77);
}

// Poplar keeps host writes and host reads in separate name spaces: one name may have a write and a read (the
// SDK's own tests do this), but not two of either, and each direction finds only its own.
void test_one_read_and_one_write_per_handle(void **) {
  Fixture f;
  Tensor x = f.scalar(INT, 1, "x");
  f.graph.setInitialValue(x, 0);
  f.graph.createHostWrite("x", x);
  f.graph.createHostRead("x", x);
  expectThrow<poplar_error>([&] { f.graph.createHostWrite("x", x); }, "host-write handle 'x' already exists");
  expectThrow<poplar_error>([&] { f.graph.createHostRead("x", x); }, "host-read handle 'x' already exists");
  f.graph.createHostRead("only-read", x);
  Engine e(f.graph, f.inc(x, 1));
  e.load(f.device);
  int seven = 7;
  e.writeTensor("x", &seven);
  e.run();
  assert_int_equal(readInt(e, "x"), 8);
  expectThrow<unknown_field>([&] { e.writeTensor("only-read", &seven); }, "no host-write handle 'only-read'");
  // The executable keeps both directions of the name.
  std::stringstream saved(std::ios::in | std::ios::out | std::ios::binary);
  compileGraph(f.graph, {f.inc(x, 1)}).serialize(saved);
  Engine e2(Executable::deserialize(saved));
  e2.load(f.device);
  e2.writeTensor("x", &seven);
  e2.run();
  assert_int_equal(readInt(e2, "x"), 8);
}

// readTensor/writeTensor(handle, begin, end): the end bounds the copy. A buffer larger than the tensor is used
// from its start and its tail left alone (Graphcore's DynamicSliceTest reads a 10-row slice into a buffer
// sized for the whole table); a smaller one is refused, naming the size to pass.
void test_buffer_end_bounds_the_copy(void **) {
  Fixture f;
  Tensor x = f.graph.addVariable(INT, {3}, "x");
  f.graph.setTileMapping(x, 1);
  f.graph.createHostWrite("x", x);
  f.graph.createHostRead("x", x);
  Engine e(f.graph, Sequence{});
  e.load(f.device);
  std::vector<int> in{4, 5, 6, 99, 98};
  e.writeTensor("x", in.data(), in.data() + in.size());
  std::vector<int> out(6, -1);
  e.readTensor("x", out.data(), out.data() + out.size());
  assert_true(out == (std::vector<int>{4, 5, 6, -1, -1, -1}));
  expectThrow<application_runtime_error>([&] { e.readTensor("x", out.data(), out.data() + 2); },
                            "the buffer has 8 bytes, the tensor 12; pass a buffer of at least 12 bytes");
  expectThrow<application_runtime_error>([&] { e.writeTensor("x", in.data(), in.data() + 1); },
                            "the buffer has 4 bytes, the tensor 12");
  e.readTensor("x", out.data(), out.data() + 3);
  assert_int_equal(out[2], 6);
}

void test_recover_after_fault(void **) {
  Fixture f;
  Tensor x = f.scalar(INT, 0, "x");
  f.graph.createHostRead("xr", x);
  ComputeSet cs = f.graph.addComputeSet("fails");
  VertexRef v = f.graph.addVertex(cs, "Fails", {{"x", f.scalar(INT, 0, "dummy")}});
  f.graph.setTileMapping(v, 0);
  Engine e(f.graph, {Execute(cs), f.inc(x, 0)});
  e.load(f.device);
  for (int way = 0; way < 2; ++way) {
    bool caught = false;
    try {
      e.run(0);
    } catch (const recoverable_runtime_error &err) {
      caught = true;
      assert_true(err.getRecoveryAction() == RecoveryAction::IPU_RESET);
      assert_non_null(std::strstr(err.what(), "device.reset() or engine.load(device)"));
    }
    assert_true(caught);
    if (way == 0)
      f.device.reset(); // the engine loads itself again on its next run
    else
      e.load(f.device); // load resets the faulted device first
    e.run(1);
    assert_int_equal(readInt(e, "xr"), 1);
  }
}

/// Issue 36: a DMA error while Engine::load copies the program told a Poplar user to call ipudrv_map and
/// ipudrv_reset; the text now names what Poplar offers, and loading again recovers.
void test_load_dma_error_recovery_text(void **) {
  Fixture f;
  Tensor x = f.scalar(INT, 0, "x");
  f.graph.createHostRead("xr", x);
  Engine e(f.graph, {f.inc(x, 0)});
  IPUModel model("tiny");
  Device device = model.createDevice();
  setenv("IPU_EMU_INJECT", "dma_error=10", 1); // the card's first DMA chain fails with XLAT_MISS (one-shot)
  bool caught = false;
  try {
    e.load(device); // the card is made (and armed) here, at attach
  } catch (const recoverable_runtime_error &err) {
    caught = true;
    if (std::strstr(err.what(), "ipudrv_") || !std::strstr(err.what(), "engine.load(device) again") ||
        !std::strstr(err.what(), "XLAT_MISS"))
      fail_msg("the load error names driver calls or lacks the Poplar recovery: %s", err.what());
  }
  unsetenv("IPU_EMU_INJECT");
  assert_true(caught);
  e.load(device); // resets the faulted device first
  e.run(0);
  assert_int_equal(readInt(e, "xr"), 1);
}

void test_set_field_size_of_scalar(void **) {
  Fixture f;
  ComputeSet cs = f.graph.addComputeSet("cs");
  VertexRef v = f.graph.addVertex(cs, "Inc");
  expectThrow<graph_connection_error>([&] { f.graph.setFieldSize(v["x"], 1000000); },
                                      "only a VectorList field has a size to set; this field is a scalar");
  VertexRef s = f.graph.addVertex(cs, "SumList");
  f.graph.setFieldSize(s["in"], 2);
  expectThrow<graph_connection_error>([&] { f.graph.setFieldSize(v["nope"], 1); }, "no field 'nope'");
}

void test_engine_outlives_device(void **) {
  IPUModel model("tiny");
  Graph g(model.createDevice().getTarget());
  Tensor x = g.addVariable(INT, {}, "x");
  g.setTileMapping(x, 0);
  Engine e(g, Sequence());
  {
    Device d = model.createDevice();
    e.load(d);
    e.run();
  }
  // The engine shares its device, as the SDK's does: the card stays attached after the caller's Device is gone.
  e.run();
  // Detaching is how a caller lets go of the card; then the engine has nothing to run on until loaded again.
  Device other = model.createDevice();
  e.load(other);
  other.detach();
  expectThrow<application_runtime_error>([&] { e.run(); }, "not loaded on an attached device");
  e.load(other);
  e.run();
}

void test_engine_moves(void **) {
  Fixture f;
  Tensor x = f.scalar(INT, 2, "x");
  f.graph.createHostRead("xr", x);
  auto e = Engine{f.graph, f.inc(x, 2)};
  Engine moved(std::move(e));
  std::vector<Engine> engines;
  engines.push_back(std::move(moved));
  engines[0].load(f.device);
  engines[0].run();
  engines[0].run();
  assert_int_equal(readInt(engines[0], "xr"), 2);
}

void test_executable_round_trip(void **) {
  Fixture f;
  Tensor x = f.scalar(INT, 3, "x");
  f.graph.setInitialValue(x, 40);
  f.graph.createHostRead("xr", x);
  Executable exe = compileGraph(f.graph, {Repeat(2, f.inc(x, 3))});
  std::stringstream file(std::ios::in | std::ios::out | std::ios::binary);
  exe.serialize(file);
  Executable back = Executable::deserialize(file);
  Engine e(std::move(back));
  e.load(f.device);
  e.run();
  assert_int_equal(readInt(e, "xr"), 42);
  expectThrow<poplar_error>([&] { Executable::deserialize(file); }, "does not hold a poplar executable");
  std::string text = file.str();
  std::stringstream cut(text.substr(0, text.size() / 2));
  expectThrow<poplar_error>([&] { Executable::deserialize(cut); }, "ends early");
  expectThrow<poplar_error>([&] { exe.impl(); Engine moved(std::move(exe)); Engine again(std::move(exe)); },
                            "moved from");
}

/// Walks a serialized executable (the layout of hostlib/poplar/src/executable_io.cpp) and notes where the fields
/// that the corruption test changes are.
struct ExecutableLayout {
  const std::string &f;
  std::size_t p = 0;
  std::size_t replicas = 0, firstItemAddr = 0, firstProgramTile = 0, firstHostOffset = 0, instrEnabled = 0;
  std::uint64_t u64() {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
      v |= std::uint64_t(static_cast<unsigned char>(f.at(p + i))) << (8 * i);
    p += 8;
    return v;
  }
  void str() { p += std::size_t(u64()); }
  template <typename Fn> void vec(Fn item) {
    for (std::uint64_t n = u64(), i = 0; i < n; ++i)
      item();
  }
  explicit ExecutableLayout(const std::string &file) : f(file) {
    p = std::strlen("poplar-executable\n");
    u64(); // version
    u64(); // target type
    str(); // board
    str(); // boardSpec
    u64(); // deviceId
    str(); // image path
    str(); // image name
    u64(); // entry
    u64(); // flags
    vec([&] { u64(), u64(), u64(), str(); }); // segments
    u64(); // freeStart
    u64(); // freeEnd
    vec([&] { str(), u64(); }); // symbols
    u64(); // codeBytes
    str(); // board
    replicas = p;
    u64();
    vec([&] { u64(); }); // tiles
    vec([&] { // tileData
      u64(), u64(), str();
      vec([&] {
        str(), str();
        std::size_t at = p;
        u64(), u64();
        if (u64() && !firstItemAddr)
          firstItemAddr = at;
      });
    });
    vec([&] { vec([&] { firstProgramTile = firstProgramTile ? firstProgramTile : p; u64(), u64(); }); });
    vec([&] { str(), u64(), u64(), u64(), u64(), u64(); }); // streams
    vec([&] { // handles: key (name, direction), bytes, pieces
      str(), u64(), u64();
      vec([&] {
        u64(), u64(), u64();
        firstHostOffset = firstHostOffset ? firstHostOffset : p;
        u64();
      });
    });
    vec([&] { str(), str(), vec([&] { u64(); }), u64(); });                      // prints
    vec([&] { str(), u64(), u64(), str(), str(), str(); });                       // remote buffers
    vec([&] { str(), str(), vec([&] { u64(); }), u64(); });                      // error streams
    vec([&] { vec([&] { str(), u64(), u64(); }); });                             // steps
    vec([&] { vec([&] { u64(); }); });                                           // live bytes
    for (int i = 0; i < 5; ++i)
      u64(); // numVars .. exchangeBytes
    vec([&] { str(), u64(); }); // bytesByCategory
    instrEnabled = p;
  }
};

/// Issue 36: a corrupted executable crashed the Engine (reads and writes out of bounds, a null dereference,
/// bad_alloc, a bare std::out_of_range); now deserialize refuses it, naming the field.
void test_corrupted_executable_refused(void **) {
  Fixture f;
  Tensor x = f.scalar(INT, 3, "x");
  f.graph.setInitialValue(x, 40);
  f.graph.createHostRead("xr", x);
  Program prog = f.inc(x, 3);
  std::stringstream file(std::ios::in | std::ios::out | std::ios::binary);
  compileGraph(f.graph, {prog}).serialize(file); // instrumented: the default
  const std::string good = file.str();
  ExecutableLayout at(good);
  assert_true(at.firstItemAddr && at.firstProgramTile && at.firstHostOffset && at.instrEnabled);
  std::stringstream plainFile(std::ios::in | std::ios::out | std::ios::binary);
  compileGraph(f.graph, {prog}, OptionFlags{{"debug.instrument", "false"}}).serialize(plainFile);
  const std::string plain = plainFile.str();
  ExecutableLayout plainAt(plain);
  auto corrupt = [&](std::size_t offset, std::uint64_t value, const char *needle, const std::string &from = {}) {
    std::string bad = from.empty() ? good : from;
    for (int i = 0; i < 8; ++i)
      bad[offset + i] = char(value >> (8 * i));
    std::stringstream in(bad, std::ios::in | std::ios::binary);
    try {
      Executable exe = Executable::deserialize(in);
      Engine e(std::move(exe));
      e.load(f.device);
      e.run();
      int v[64];
      e.readTensor("xr", v);
    } catch (const poplar_error &err) {
      if (!std::strstr(err.what(), needle))
        fail_msg("message '%s' lacks '%s'", err.what(), needle);
      return;
    } catch (const std::exception &err) {
      fail_msg("not a poplar_error: %s", err.what());
    }
    fail_msg("the corrupted executable was accepted (expected '%s')", needle);
  };
  corrupt(at.replicas, 0xffffffffull, "field 'replicas' is 4294967295");
  corrupt(at.firstItemAddr, 0x7ffffff0ull, "field 'tileData.items'");
  corrupt(at.firstProgramTile, 9999, "field 'programAddr' of program 0 has no entry for tile");
  corrupt(at.firstHostOffset, 1ull << 40, "field 'handles' host-read handle 'xr' has a piece");
  corrupt(at.instrEnabled + 8, 9999, "field 'instr.tile' is 9999");
  corrupt(at.instrEnabled + 32, 0, "field 'instr.slots' of program 0 lies outside tile SRAM"); // the first slot
  corrupt(plainAt.instrEnabled, 1, "field 'instr.slots' has 0 programs of cycle stamps for 1 programs", plain);
  // Issue 36, finding 12: a host piece one word shorter still parses and passes every field check (the read gave
  // a wrong value with no error); the CRC-32 after the end marker refuses it, naming its offset.
  corrupt(at.firstHostOffset - 8, 2, "the CRC-32 at byte ");
  {
    std::string bad = good;
    bad[bad.size() - 20] ^= 1; // in the end marker's neighbourhood: the last estimate
    std::stringstream in(bad, std::ios::in | std::ios::binary);
    expectThrow<poplar_error>([&] { Executable::deserialize(in); }, "the file is corrupt");
  }
  // The same bytes unchanged still load and run.
  std::stringstream in(good, std::ios::in | std::ios::binary);
  Engine e(Executable::deserialize(in));
  e.load(f.device);
  e.run();
  assert_int_equal(readInt(e, "xr"), 41);
}

void test_remote_buffer(void **) {
  Fixture f;
  RemoteBuffer rb = f.graph.addRemoteBuffer("rb", INT, 1, 4);
  assert_int_equal(rb.getRepeats(), 4);
  Tensor x = f.scalar(INT, 1, "x");
  Tensor row = f.scalar(UNSIGNED_INT, 1, "row");
  f.graph.createHostWrite("row", row);
  // Row `row` += 1, twice through a function.
  Function bump = f.graph.addFunction(Sequence(Copy(rb, x, row.reshape({1})), f.inc(x, 1), Copy(x, rb, row.reshape({1}))));
  Engine e(f.graph, Sequence(Call(bump), Block(Call(bump))));
  e.load(f.device);
  for (int i = 0; i < 4; ++i) {
    int v = 10 * i;
    e.copyToRemoteBuffer(&v, "rb", std::uint64_t(i));
  }
  unsigned two = 2;
  e.writeTensor("row", &two);
  e.run();
  int out[4];
  for (int i = 0; i < 4; ++i)
    e.copyFromRemoteBuffer("rb", &out[i], std::uint64_t(i));
  assert_int_equal(out[0], 0);
  assert_int_equal(out[2], 22);
  assert_int_equal(out[3], 30);
  unsigned nine = 9;
  e.writeTensor("row", &nine);
  expectThrow<application_runtime_error>([&] { e.run(); }, "offset 9 is past its 4 rows");
  expectThrow<index_error>([&] { e.copyToRemoteBuffer(out, "rb", 4); }, "row 4 is past its 4 rows");
  expectThrow<unknown_field>([&] { e.copyToRemoteBuffer(out, "nope", 0); }, "remote buffers: rb");
}

void test_programs_and_prints(void **) {
  Fixture f;
  Tensor m = f.graph.addVariable(INT, {2, 3}, "m");
  f.graph.setTileMapping(m, 0);
  f.graph.setInitialValue(m, std::vector<int>{1, 2, 3, 4, 5, 6});
  Tensor v = f.graph.addConstant<float>(FLOAT, {2}, {1.0f, 1.5f});
  f.graph.setTileMapping(v, 2);
  Tensor w = f.graph.addVariable(FLOAT, {2}, "w");
  f.graph.setTileMapping(w, 3);
  Sequence p(WriteUndef(w), Copy(v, w, true), Sync(SyncType::INTERNAL), Sync(SyncType::EXTERNAL),
             Sync(SyncType::GLOBAL), PrintTensor("m", m), PrintTensor("w", w));
  Engine e(f.graph, p);
  std::ostringstream out;
  e.setPrintTensorStream(out);
  e.load(f.device);
  e.run();
  assert_string_equal(out.str().c_str(), "m: [\n [1 2 3]\n [4 5 6]\n]\nw: [1.0000000 1.5000000]\n");
  // A second run prints again (the tiles' stdio starts fresh on every run).
  out.str("");
  e.run();
  assert_string_equal(out.str().c_str(), "m: [\n [1 2 3]\n [4 5 6]\n]\nw: [1.0000000 1.5000000]\n");
  e.resetExecutionProfile();
  assert_int_equal(e.getLastRunCycles(), 0);
}

void test_error_program(void **) {
  Fixture f;
  Tensor x = f.scalar(INT, 1, "x");
  f.graph.createHostWrite("xw", x);
  f.graph.createHostRead("xr", x);
  Engine e(f.graph, {Sequence(ErrorProgram("bad input", x), f.inc(x, 1)), Sequence(AbortOnCondition(x, "x set"), f.inc(x, 1))});
  e.load(f.device);
  int seven = 7, zero = 0;
  e.writeTensor("xw", &seven);
  expectThrow<application_runtime_error>([&] { e.run(0); }, "ErrorProgram: bad input\n[7]");
  e.writeTensor("xw", &zero);
  e.run(1); // x == 0: no abort
  assert_int_equal(readInt(e, "xr"), 1);
  expectThrow<application_runtime_error>([&] { e.run(1); }, "x set");
}

void test_callbacks_with_index(void **) {
  Fixture f;
  Tensor x = f.graph.addVariable(INT, {2}, "x");
  f.graph.setTileMapping(x, 2);
  DataStream in = f.graph.addHostToDeviceFIFO("in", INT, 2);
  DataStream out = f.graph.addDeviceToHostFIFO("out", INT, 2);
  Engine e(f.graph, Sequence(Copy(in, x), Copy(x, out)));
  int got[2] = {0, 0};
  e.connectStreamToCallback("in", 0, [](void *p) {
    int v[2] = {3, 4};
    std::memcpy(p, v, sizeof v);
  });
  e.connectStreamToCallback("out", 0, [&](void *p) { std::memcpy(got, p, sizeof got); });
  expectThrow<invalid_option>([&] { e.connectStreamToCallback("in", 1, [](void *) {}); }, "replica index 1");
  e.load(f.device);
  e.run();
  assert_int_equal(got[0], 3);
  assert_int_equal(got[1], 4);
}

// Streams and copies of 0 elements are accepted, as in the SDK: they move nothing, their buffers and callbacks are
// accepted (and never called), and the copies around them still run.
void test_zero_element_streams(void **) {
  Fixture f;
  Tensor x = f.graph.addVariable(INT, {2}, "x"), none = f.graph.addVariable(INT, {0}, "none");
  Tensor none2 = f.graph.addVariable(INT, {3, 0}, "none2");
  f.graph.setTileMapping(x, 1);
  f.graph.setTileMapping(none, 0);
  f.graph.setTileMapping(none2, 2);
  DataStream in = f.graph.addHostToDeviceFIFO("in", INT, 2), in0 = f.graph.addHostToDeviceFIFO("in0", INT, 0);
  DataStream out = f.graph.addDeviceToHostFIFO("out", INT, 2), out0 = f.graph.addDeviceToHostFIFO("out0", INT, 0);
  DataStream cb0 = f.graph.addHostToDeviceFIFO("cb0", INT, 0);
  Engine e(f.graph, Sequence(Copy(in0, none), Copy(in, x), Copy(none, none2.flatten()), Copy(cb0, none2),
                             Copy(x, out), Copy(none2, out0)));
  int src[2] = {7, -5}, got[2] = {0, 0}, unused = 42;
  unsigned calls = 0;
  e.connectStream("in", src, src + 2);
  e.connectStream("out", got, got + 2);
  e.connectStream("in0", &unused, &unused);
  e.connectStream("out0", &unused);
  e.connectStreamToCallback("cb0", [&](void *) { ++calls; });
  e.load(f.device);
  e.run();
  assert_int_equal(got[0], 7);
  assert_int_equal(got[1], -5);
  assert_int_equal(unused, 42);
  assert_int_equal(calls, 0);
  expectThrow<poplar_error>([&] { Copy(in0, x); }, "the tensor has 2 elements, the other side 0");
}

void test_load_forms_and_graph_output(void **) {
  Fixture f;
  Tensor x = f.scalar(INT, 1, "x");
  f.graph.setInitialValue(x, 0);
  f.graph.createHostRead("xr", x);
  Program p = f.inc(x, 1);
  Engine e(f.graph, p);
  e.loadAndRun(f.device);
  assert_int_equal(readInt(e, "xr"), 1);
  Engine d(f.graph, p);
  expectThrow<application_runtime_error>([&] { d.deploy(); }, "call engine.prepare(device) first");
  d.prepare(f.device);
  d.deploy();
  d.run();
  assert_int_equal(readInt(d, "xr"), 1);
  std::ostringstream vg, cg;
  f.graph.outputVertexGraph(vg);
  f.graph.outputComputeGraph(cg);
  assert_non_null(std::strstr(vg.str().c_str(), "[label=\"Inc (tile 1)\"]"));
  assert_non_null(std::strstr(vg.str().c_str(), "-> var0 [label=\"x\"]"));
  assert_non_null(std::strstr(cg.str().c_str(), "cs0 -> var0;"));
}

void test_graph_forms(void **) {
  IPUModel model("tiny");
  Device d = model.createDevice();
  expectThrow<invalid_option>([&] { Graph g(d, replication_factor(2)); }, "replication factor 2 does not divide the target's 1 IPUs");
  Graph g(d.getTarget(), replication_factor(1));
  assert_int_equal(g.getReplicationFactor(), 1);
  Graph vg = g.createVirtualGraph(std::vector<unsigned>{3, 1});
  assert_int_equal(vg.getTarget().getNumTiles(), 2);
  Tensor t = vg.addVariable(INT, {2}, "t");
  vg.setTileMapping(t[0], 0);
  vg.setTileMapping(t[1], 1);
  auto m = g.getTileMapping(t);
  assert_int_equal(m[3].size(), 1);
  assert_int_equal(m[1].size(), 1);
  assert_int_equal(vg.getTileMapping(t)[0].size(), 1);
  expectThrow<poplar_error>([&] { g.createVirtualGraph(std::vector<unsigned>{1, 1}); }, "listed twice");
  Tensor lin = g.addVariable(FLOAT, {2, 5}, VariableMappingMethod::LINEAR, "lin");
  auto lm = g.getTileMapping(lin);
  assert_int_equal(lm[0][0].size(), 3);
  assert_int_equal(lm[3][0].size(), 1);
  Tensor twin = g.clone(lin.transpose(), "twin");
  assert_int_equal(g.getTileMapping(twin)[3][0].begin(), 9);
  Graph first = g.createVirtualGraph(2u);
  assert_int_equal(first.getTarget().getNumTiles(), 2);
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_option_validation),   cmocka_unit_test(test_no_programs),
      cmocka_unit_test(test_second_engine_on_device), cmocka_unit_test(test_recover_after_fault),
      cmocka_unit_test(test_one_read_and_one_write_per_handle), cmocka_unit_test(test_buffer_end_bounds_the_copy),
      cmocka_unit_test(test_load_dma_error_recovery_text),
      cmocka_unit_test(test_set_field_size_of_scalar), cmocka_unit_test(test_engine_moves),
      cmocka_unit_test(test_engine_outlives_device),
      cmocka_unit_test(test_executable_round_trip), cmocka_unit_test(test_remote_buffer),
      cmocka_unit_test(test_corrupted_executable_refused),
      cmocka_unit_test(test_programs_and_prints), cmocka_unit_test(test_error_program),
      cmocka_unit_test(test_callbacks_with_index), cmocka_unit_test(test_graph_forms),
      cmocka_unit_test(test_load_forms_and_graph_output), cmocka_unit_test(test_zero_element_streams),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
