// Writes the seed corpora of the fuzz targets (tests/fuzz/targets), all made by the tree's own code: a tile ELF
// from ElfBuilder, a serialized poplar::Executable and its profiles from a graph compiled here, a trace recorded on
// the card model, the board files of boards/, and the answers a well-behaved card gives to link_script.hpp.
// Usage: fuzz_seeds DIR BOARD_DIR. Writes DIR/<target>/<seed> for every target; exits 1 when a seed fails.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "elf_builder.hpp"
#include "ipu_backends/record.h"
#include "ipu_backends/registry.h"
#include "ipu_board.h"
#include "link_script.hpp"
#include "poplar/Engine.hpp"
#include "poplar/Graph.hpp"
#include "poplar/IPUModel.hpp"
#include "poplar/ProfileValue.hpp"
#include "poplar/Program.hpp"

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;

namespace {

std::string outDir;
bool ok = true;

void save(const std::string &target, const std::string &name, const std::string &bytes) {
  const fs::path dir = fs::path(outDir) / target;
  std::error_code ec;
  fs::create_directories(dir, ec);
  std::ofstream f(dir / name, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), std::streamsize(bytes.size()));
  if (!f.flush()) {
    std::fprintf(stderr, "fuzz_seeds: cannot write %s\n", (dir / name).c_str());
    ok = false;
  }
}
void save(const std::string &target, const std::string &name, const Bytes &b) {
  save(target, name, std::string(b.begin(), b.end()));
}

// The ELF loader: the valid minimal image and variants that reach deeper checks.
void elfSeeds() {
  using namespace ipu::runtime::testing;
  save("elf_fuzz", "minimal.elf", minimalElf().build());
  ElfBuilder three = minimalElf();
  three.data(0x00102000u, {1, 1, 2, 3, 5, 8, 13, 21});
  ElfBuilder::Segment note;
  note.type = 4;
  note.bytes = {4, 0, 0, 0};
  three.segments.push_back(note);
  save("elf_fuzz", "three_segments.elf", three.build());
  Bytes sections = minimalElf().build();
  put32(sections, off::e_shoff, 52);
  put16(sections, off::e_shnum, 1);
  put16(sections, off::e_shentsize, 40);
  save("elf_fuzz", "with_sections.elf", sections);
}

// A profile with every kind of value the readers know, nested as the real profiles are.
poplar::ProfileValue handMadeProfile() {
  using PV = poplar::ProfileValue;
  PV p;
  p["target"]["type"] = "IPU_MODEL";
  p["target"]["numTiles"] = 4u;
  p["target"]["clockFrequency"] = 1.33e9;
  p["target"]["negative"] = -42;
  p["target"]["big"] = 18446744073709551615ull;
  p["text"] = "tab\there \"quoted\" back\\slash \x01 caf\xc3\xa9";
  p["flags"] = PV::Vector{PV(true), PV(false), PV(0.5), PV(-1.25e-300)};
  p["nested"] = PV::Vector{PV::Vector{PV::Vector{PV(1u), PV(2u)}}, PV::Map{{"k", PV("v")}}};
  p["empty"] = PV::Map{};
  p["emptyVector"] = PV::Vector{};
  return p;
}

void profileSeeds(const poplar::ProfileValue &graph, const poplar::ProfileValue &execution) {
  const std::pair<const char *, poplar::ProfileValue> values[] = {
      {"hand", handMadeProfile()}, {"graph", graph}, {"execution", execution}};
  for (const auto &[name, v] : values) {
    std::ostringstream json, pretty, cbor;
    poplar::serializeToJSON(json, v, false);
    poplar::serializeToJSON(pretty, v, true);
    poplar::serializeToCBOR(cbor, v);
    save("profile_json_fuzz", std::string(name) + ".json", json.str());
    save("profile_json_fuzz", std::string(name) + "_pretty.json", pretty.str());
    save("profile_cbor_fuzz", std::string(name) + ".cbor", cbor.str());
  }
}

// A small graph on the tiny IPU Model, compiled with and without instrumentation: the executables, and the
// profiles of a run.
void poplarSeeds() {
  using namespace poplar;
  using namespace poplar::program;
  IPUModel model("tiny");
  Device device = model.createDevice();
  Graph g(device.getTarget());
  Tensor x = g.addVariable(INT, {}, "x");
  Tensor y = g.addVariable(INT, {}, "y");
  g.setTileMapping(x, 0);
  g.setTileMapping(y, 1);
  g.setInitialValue(x, 40);
  g.createHostWrite("xw", x);
  g.createHostRead("yr", y);
  const std::vector<Program> progs = {Sequence{Copy(x, y), Copy(y, x)}, Copy(x, y)};
  for (const char *instrument : {"true", "false"}) {
    std::ostringstream out(std::ios::binary);
    compileGraph(g, progs, OptionFlags{{"debug.instrument", instrument}}).serialize(out);
    save("exe_fuzz", std::string("instrument_") + instrument + ".exe", out.str());
  }
  Engine e(g, progs, OptionFlags{{"debug.instrument", "true"}});
  e.load(device);
  e.run(0);
  e.run(1);
  profileSeeds(e.getGraphProfile(), e.getExecutionProfile());
}

// The board files of the tree, and near-misses that reach the value checks; the same for both board targets.
void boardSeeds(const std::string &boardDir) {
  const auto saveBoard = [](const std::string &name, const std::string &text) {
    for (const char *target : {"board_fuzz", "board_utf8_fuzz"})
      save(target, name, text);
  };
  for (const auto &entry : fs::directory_iterator(boardDir)) {
    if (entry.path().extension() != ".toml")
      continue;
    std::ifstream f(entry.path(), std::ios::binary);
    std::stringstream text;
    text << f.rdbuf();
    saveBoard(entry.path().filename().string(), text.str());
    if (entry.path().stem() == "tiny") {
      std::string hex = text.str();
      const std::size_t at = hex.find("tiles_per_ipu");
      if (at != std::string::npos)
        hex.insert(at, "# a comment line\n\n");
      saveBoard("tiny_commented.toml", hex);
      // Characters past ASCII in a comment and in strings (2, 3 and 4 bytes of UTF-8).
      saveBoard("tiny_utf8.toml", "# tiny \u2014 caf\u00e9\nname = \"tiny \U0001F600\"\n" + text.str().substr(
                                      text.str().find('\n', text.str().find("name =")) + 1));
    }
  }
}

// Frames of the link protocol (contract/card.toml [link]): SOF, TYPE, LEN, payload, CHECK.
struct Frames {
  Bytes bytes;
  Frames &frame(std::uint8_t type, const Bytes &payload) {
    std::uint8_t sum = std::uint8_t(type + payload.size());
    bytes.push_back(IPU_LINK_SOF);
    bytes.push_back(type);
    bytes.push_back(std::uint8_t(payload.size()));
    for (std::uint8_t b : payload) {
      bytes.push_back(b);
      sum = std::uint8_t(sum + b);
    }
    bytes.push_back(std::uint8_t(0u - sum));
    return *this;
  }
  Frames &word(std::uint8_t type, std::uint32_t v) {
    return frame(type, {std::uint8_t(v), std::uint8_t(v >> 8), std::uint8_t(v >> 16), std::uint8_t(v >> 24)});
  }
  Frames &words(unsigned n) { return frame(IPU_LINK_TYPE_MEM_DATA, Bytes(4 * n, 0x11)); }
  Frames &ack() { return frame(IPU_LINK_TYPE_ACK, {}); }
  Frames &irq() { return frame(IPU_LINK_TYPE_IRQ, {1}); }
  // The card reads 4 bytes of the harness's DMA block (the host answers with DMA_DATA, and the card ACKs it).
  Frames &dmaRead() {
    Bytes p(10, 0);
    for (int i = 0; i < 8; i++)
      p[i] = std::uint8_t(ipu::fuzz::kLinkDmaBus >> (8 * i));
    p[8] = 4;
    return frame(IPU_LINK_TYPE_DMA_REQ, p);
  }
  Frames &dmaWrite() {
    Bytes p(14, 0x22);
    for (int i = 0; i < 8; i++)
      p[i] = std::uint8_t((ipu::fuzz::kLinkDmaBus + 16) >> (8 * i));
    p[8] = 4;
    p[9] = 1;
    return frame(IPU_LINK_TYPE_DMA_REQ, p);
  }
  Bytes with(std::uint8_t mode) const {
    Bytes b{mode};
    b.insert(b.end(), bytes.begin(), bytes.end());
    return b;
  }
};

// The answers to link_script.hpp, step by step, from a card that answers everything.
Frames goodCard(bool chatty) {
  Frames f;
  if (chatty)
    f.irq();
  f.word(IPU_LINK_TYPE_REG_DATA, IPU_REG_ID_RESET_VALUE); // ID
  f.ack();                                                // IRQ_MASK
  if (chatty)
    f.dmaRead();
  f.words(3); // window read of 10 bytes at 2
  if (chatty)
    f.ack(); // the card's ACK of the host's DMA_DATA
  f.words(1).words(1).ack(); // window write of 6 bytes at 1
  if (chatty)
    f.dmaWrite().ack().irq();
  f.words(63).words(12); // window read of 300 bytes
  f.ack().words(1);      // reset, then the word read that waits for the clear
  if (chatty)
    f.irq(); // the wait
  f.word(IPU_LINK_TYPE_REG_DATA, IPU_REG_VERSION_RESET_VALUE);
  return f;
}

void linkSeeds() {
  save("link_fuzz", "good_bytewise", goodCard(false).with(0));
  save("link_fuzz", "good_chunks", goodCard(false).with(5 << 1));
  save("link_fuzz", "chatty", goodCard(true).with(3 << 1));
  save("link_fuzz", "chatty_gone", goodCard(true).with(1 | 6 << 1));
  // A card without block frames: NAK TYPE, then word by word.
  Frames words;
  words.word(IPU_LINK_TYPE_REG_DATA, IPU_REG_ID_RESET_VALUE).ack();
  words.frame(IPU_LINK_TYPE_NAK, {IPU_LINK_NAK_TYPE}).words(1).words(1).words(1);
  words.words(1).words(1).ack().ack();
  save("link_fuzz", "no_blocks", words.with(4 << 1));
  // A corrupted request (NAK CHECK, sent again), a duplicated answer, noise and a cut frame.
  Frames faults;
  faults.frame(IPU_LINK_TYPE_NAK, {IPU_LINK_NAK_CHECK}).word(IPU_LINK_TYPE_REG_DATA, IPU_REG_ID_RESET_VALUE);
  faults.ack().ack();
  faults.bytes.insert(faults.bytes.end(), {0x00, 0xff, IPU_LINK_SOF, IPU_LINK_TYPE_MEM_DATA, 12, 1, 2});
  faults.word(IPU_LINK_TYPE_REG_DATA, IPU_REG_ID_RESET_VALUE); // the recovery's ID probe
  save("link_fuzz", "faults", faults.with(2 << 1));
}

// The host's memory for the recorded card: DMA reads give a pattern, writes are taken.
int seedDmaRead(void *, std::uint64_t bus, void *buf, std::size_t len) {
  for (std::size_t i = 0; i < len; i++)
    static_cast<std::uint8_t *>(buf)[i] = std::uint8_t(bus + i);
  return 0;
}
int seedDmaWrite(void *, std::uint64_t, const void *, std::size_t) { return 0; }
void seedIrq(void *, unsigned) {}

// A trace of a short session on the tiny model: identity registers, tile memory through BAR2, a reset, advances.
void traceSeeds(const fs::path &tmp) {
  ipu_board board;
  char err[512];
  if (ipu_board_load("tiny", &board, err, sizeof err) != 0) {
    std::fprintf(stderr, "fuzz_seeds: %s\n", err);
    ok = false;
    return;
  }
  const ipu_backend_host host{nullptr, seedDmaRead, seedDmaWrite, seedIrq};
  const ipu_backend_options options{1, 0, nullptr};
  const fs::path path = tmp / "session.trace";
  ipu_backend *card = nullptr;
  if (ipu_record_create(ipu_backend_find("model"), &board, &host, &options, path.c_str(), &card, err, sizeof err)) {
    std::fprintf(stderr, "fuzz_seeds: %s\n", err);
    ok = false;
    return;
  }
  std::uint64_t v = 0;
  for (std::uint32_t reg : {IPU_REG_ID, IPU_REG_VERSION, IPU_REG_NUM_TILES, IPU_REG_TILE_MEM_BYTES})
    card->ops->bar_read(card, IPU_BAR_REGS, reg, 4, &v);
  card->ops->bar_write(card, IPU_BAR_TILEMEM, 0x100, 4, 0xdeadbeef);
  card->ops->bar_read(card, IPU_BAR_TILEMEM, 0x100, 4, &v);
  card->ops->bar_write(card, IPU_BAR_REGS, IPU_REG_IRQ_MASK, 4, 0xffffffffu);
  card->ops->advance(card, 1000);
  card->ops->bar_write(card, IPU_BAR_REGS, IPU_REG_RESET, 4, IPU_RESET_KEY);
  card->ops->advance(card, 100000);
  card->ops->bar_read(card, IPU_BAR_REGS, IPU_REG_ID, 4, &v);
  card->ops->destroy(card);
  std::ifstream f(path, std::ios::binary);
  std::stringstream bytes;
  bytes << f.rdbuf();
  save("trace_fuzz", "session.trace", bytes.str());
  fs::remove(path);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: fuzz_seeds DIR BOARD_DIR\n");
    return 2;
  }
  outDir = argv[1];
  try {
    elfSeeds();
    boardSeeds(argv[2]);
    linkSeeds();
    traceSeeds(fs::path(outDir));
    poplarSeeds();
  } catch (const std::exception &e) {
    std::fprintf(stderr, "fuzz_seeds: %s\n", e.what());
    return 1;
  }
  return ok ? 0 : 1;
}
