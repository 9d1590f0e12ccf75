// The executable file format: a magic line ("poplar-executable"), a format version, then every field of the
// compiled graph in a fixed order. Integers are little-endian 64-bit, strings and byte vectors are a length then
// their bytes, containers are a count then their items. A reader checks every length against what is left, so a
// truncated or foreign file fails with a message instead of a huge allocation. After the end marker comes a CRC-32
// (zlib's) of every byte before it: a corruption that still parses (a host piece one byte shorter) is refused.
#include <algorithm>
#include <concepts>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <type_traits>

#include <zlib.h>

#include "executable_impl.hpp"
#include "ipu_board.h"
#include "ipu_card/hw.h"
#include "poplar/exceptions.hpp"

namespace poplar::detail {

namespace {

constexpr const char kMagic[] = "poplar-executable\n";
constexpr std::uint64_t kVersion = 6; ///< 2: replicas (graph and streams); 3: the time model's estimates; 4: CRC-32;
                                      ///< 5: host handles keyed by name and direction, estimates per program;
                                      ///< 6: each error stream's kind (ErrorProgram or Abort), each print's PrintTensorFmt
constexpr std::uint64_t kMaxCount = std::uint64_t(1) << 32; ///< no field of a real executable is this long

/// Running CRC-32 of `n` bytes more (zlib takes at most 4 GiB a call).
void crcAdd(uLong &crc, const void *p, std::size_t n) {
  const Bytef *b = static_cast<const Bytef *>(p);
  for (std::size_t k; n > 0; n -= k, b += k) {
    k = std::min<std::size_t>(n, std::size_t(1) << 30);
    crc = crc32(crc, b, uInt(k));
  }
}

/// A record of the file: `S` is T or const T (the writer walks const records, the reader fills mutable ones).
template <typename S, typename T> concept RecordOf = std::same_as<std::remove_const_t<S>, T>;

// The fields of each record in file order, written once for both directions: `visit` is called with them all.
template <typename S, typename V> requires RecordOf<S, ipu::runtime::TileSegment> void fields(S &s, V &&visit) {
  visit(s.vaddr, s.memsz, s.flags, s.bytes);
}
template <typename S, typename V> requires RecordOf<S, MemItem> void fields(S &m, V &&visit) {
  visit(m.category, m.name, m.addr, m.size, m.initialised);
}
template <typename S, typename V> requires RecordOf<S, TileData> void fields(S &t, V &&visit) {
  visit(t.top, t.bytes, t.items);
}
template <typename S, typename V> requires RecordOf<S, CompiledStream> void fields(S &s, V &&visit) {
  visit(s.name, s.id, s.toDevice, s.bytes, s.devAddr, s.replicas);
}
template <typename S, typename V> requires RecordOf<S, HostPiece> void fields(S &p, V &&visit) {
  visit(p.tile, p.addr, p.len, p.hostOffset);
}
template <typename S, typename V> requires RecordOf<S, HostHandleKey> void fields(S &k, V &&visit) {
  visit(k.name, k.write);
}
template <typename S, typename V> requires RecordOf<S, CompiledHandle> void fields(S &h, V &&visit) {
  visit(h.bytes, h.pieces);
}
template <typename S, typename V> requires RecordOf<S, PrintInfo> void fields(S &p, V &&visit) {
  visit(p.title, p.shape, p.type, p.formatted, p.fmt);
}
template <typename S, typename V> requires RecordOf<S, PrintTensorFmt> void fields(S &f, V &&visit) {
  visit(f.summariseThreshold, f.edgeItems, f.maxLineWidth, f.digits, f.floatFormat, f.separator, f.openBracket,
        f.closeBracket);
}
template <typename S, typename V> requires RecordOf<S, StepInfo> void fields(S &s, V &&visit) {
  visit(s.what, s.bytes, s.depth);
}
template <typename S, typename V> requires RecordOf<S, CompiledRemoteBuffer> void fields(S &r, V &&visit) {
  visit(r.name, r.rowBytes, r.repeats, r.offsetStream, r.toDeviceStream, r.toHostStream);
}
template <typename S, typename V> requires RecordOf<S, CompiledErrorStream> void fields(S &e, V &&visit) {
  visit(e.stream, e.message, e.shape, e.type, e.kind);
}
template <typename S, typename V> requires RecordOf<S, ProgramEstimate> void fields(S &e, V &&visit) {
  visit(e.cycles, e.topStepCycles);
}
template <typename S, typename V> requires RecordOf<S, CompiledGraph> void fields(S &cg, V &&visit) {
  visit(cg.image.path, cg.image.image.name, cg.image.image.entry, cg.image.image.flags, cg.image.image.segments,
        cg.image.freeStart, cg.image.freeEnd, cg.image.symbols, cg.image.codeBytes, cg.board, cg.replicas, cg.tiles,
        cg.tileData, cg.programAddr, cg.streams, cg.handles, cg.prints, cg.remoteBuffers, cg.errorStreams, cg.steps,
        cg.liveBytes, cg.numVars, cg.numVertices, cg.numEdges, cg.numComputeSets, cg.exchangeBytes,
        cg.bytesByCategory, cg.instr.enabled, cg.instr.tile, cg.instr.slots, cg.instr.topSteps, cg.estimate);
}

/// True for the types that have a fields() overload above.
template <typename S> concept Record = requires(S &s) { fields(s, [](auto &...) {}); };

struct Writer {
  std::ostream &out;
  uLong crc = crc32(0, Z_NULL, 0); ///< of every byte written
  void raw(const void *p, std::size_t n) {
    crcAdd(crc, p, n);
    out.write(static_cast<const char *>(p), std::streamsize(n));
  }
  void u64(std::uint64_t v) {
    unsigned char b[8];
    for (int i = 0; i < 8; ++i)
      b[i] = static_cast<unsigned char>(v >> (8 * i));
    raw(b, 8);
  }
  void bytes(const void *p, std::size_t n) {
    u64(n);
    raw(p, n);
  }
  void put(const std::string &s) { bytes(s.data(), s.size()); }
  void put(const std::vector<std::uint8_t> &v) { bytes(v.data(), v.size()); }
  void put(const TileBytes &v) { bytes(v.data(), v.size()); }
  template <typename T> typename std::enable_if<std::is_integral<T>::value>::type put(T v) { u64(std::uint64_t(v)); }
  void put(const Type &t) { u64(t.id()); }
  template <typename E> requires std::is_enum_v<E> void put(E e) { u64(std::uint64_t(e)); }
  /// The board is a C struct of fixed-size text fields and integers: written as its bytes, with its size first so
  /// that a build with another layout refuses the file.
  void put(const ipu_board &b) { bytes(&b, sizeof b); }
  template <typename A, typename B> void put(const std::pair<A, B> &p) {
    put(p.first);
    put(p.second);
  }
  template <typename T> void put(const std::vector<T> &v) {
    u64(v.size());
    for (const auto &x : v)
      put(x);
  }
  template <typename K, typename V> void put(const std::map<K, V> &m) {
    u64(m.size());
    for (const auto &kv : m) {
      put(kv.first);
      put(kv.second);
    }
  }
  template <Record S> void put(const S &r) {
    fields(r, [this](const auto &...f) { (put(f), ...); });
  }
};

struct Reader {
  std::istream &in;
  [[noreturn]] void fail(const std::string &why) {
    throw poplar_error("Executable::deserialize: " + why +
                       "; give it a stream opened with std::ios::binary on a file written by Executable::serialize");
  }
  uLong crc = crc32(0, Z_NULL, 0); ///< of every byte read
  std::uint64_t pos = 0;           ///< bytes read
  std::uint64_t u64() {
    unsigned char b[8];
    if (!in.read(reinterpret_cast<char *>(b), 8))
      fail("the executable ends early (truncated file?)");
    crcAdd(crc, b, 8);
    pos += 8;
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
      v |= std::uint64_t(b[i]) << (8 * i);
    return v;
  }
  std::uint64_t count() {
    std::uint64_t n = u64();
    if (n > kMaxCount)
      fail("a length of " + std::to_string(n) + " is not plausible (corrupt file?)");
    return n;
  }
  void rawBytes(void *p, std::size_t n) {
    if (n && !in.read(static_cast<char *>(p), std::streamsize(n)))
      fail("the executable ends early (truncated file?)");
    crcAdd(crc, p, n);
    pos += n;
  }
  void get(std::string &s) {
    std::uint64_t n = count();
    s.clear();
    // Read in chunks so that a bogus length cannot allocate more than the file holds.
    char buf[4096];
    while (n > 0) {
      std::size_t k = std::size_t(std::min<std::uint64_t>(n, sizeof buf));
      rawBytes(buf, k);
      s.append(buf, k);
      n -= k;
    }
  }
  void get(std::vector<std::uint8_t> &v) {
    std::string s;
    get(s);
    v.assign(s.begin(), s.end());
  }
  void get(TileBytes &v) { // the same bytes, in a vector of another allocator
    std::string s;
    get(s);
    v.assign(s.begin(), s.end());
  }
  template <typename T> typename std::enable_if<std::is_integral<T>::value>::type get(T &v) { v = T(u64()); }
  void get(Type &t) { t = Type(unsigned(u64())); }
  /// An enumeration is read as its number; checkExecutable refuses one that names no enumerator.
  template <typename E> requires std::is_enum_v<E> void get(E &e) {
    const std::uint64_t v = u64();
    if (v > std::uint64_t(std::numeric_limits<std::underlying_type_t<E>>::max()))
      fail("an enumeration holds " + std::to_string(v) + ", more than its type does (corrupt file?)");
    e = E(v);
  }
  void get(ipu_board &b) {
    std::uint64_t n = u64();
    if (n != sizeof b)
      fail("the board description has " + std::to_string(n) + " bytes, this library's has " +
           std::to_string(sizeof b) + " (written by another version)");
    rawBytes(&b, sizeof b);
    b.name[sizeof b.name - 1] = b.description[sizeof b.description - 1] = b.isa[sizeof b.isa - 1] = '\0';
    b.abi[sizeof b.abi - 1] = b.transport[sizeof b.transport - 1] = '\0';
  }
  template <typename A, typename B> void get(std::pair<A, B> &p) {
    get(p.first);
    get(p.second);
  }
  template <typename T> void get(std::vector<T> &v) {
    std::uint64_t n = count();
    v.clear();
    for (std::uint64_t i = 0; i < n; ++i) {
      T x{};
      get(x);
      v.push_back(std::move(x));
    }
  }
  template <typename K, typename V> void get(std::map<K, V> &m) {
    std::uint64_t n = count();
    m.clear();
    for (std::uint64_t i = 0; i < n; ++i) {
      K k{};
      V v{};
      get(k);
      get(v);
      m.emplace(std::move(k), std::move(v));
    }
  }
  template <Record S> void get(S &r) {
    fields(r, [this](auto &...f) { (get(f), ...); });
  }
};

/// True when [addr, addr + len) lies in a tile's SRAM (64-bit sums: no field can wrap past the check).
bool inSram(const ipu_board &b, std::uint64_t addr, std::uint64_t len) {
  return addr >= IPU_TILE_SRAM_BASE && len <= b.bytes_per_tile && addr - IPU_TILE_SRAM_BASE <= b.bytes_per_tile - len;
}

/// Every field that the Engine indexes with, allocates by or copies through is checked against the others, so
/// that a corrupted file is refused here, naming the field, instead of crashing or writing past a buffer later.
void checkExecutable(Reader &r, const ExecutableImpl &exe) {
  const CompiledGraph &cg = exe.cg;
  char why[400];
  if (ipu_board_check(&exe.target.board, "field 'target.board'", why, sizeof why) ||
      ipu_board_check(&cg.board, "field 'board'", why, sizeof why))
    r.fail(why);
  if (unsigned(exe.target.type) > unsigned(TargetType::CPU))
    r.fail("field 'target.type' is " + std::to_string(unsigned(exe.target.type)) + ", not a TargetType");
  const ipu_board &b = cg.board;
  const std::uint64_t numTiles = std::uint64_t(b.num_ipus) * b.tiles_per_ipu;
  auto field = [&](const std::string &name, bool ok, const std::string &what) {
    if (!ok)
      r.fail("field '" + name + "' " + what + " (corrupt file?)");
  };
  field("replicas", cg.replicas >= 1 && cg.replicas <= numTiles,
        "is " + std::to_string(cg.replicas) + ", not 1 .. the board's " + std::to_string(numTiles) + " tiles");
  for (const auto &seg : cg.image.image.segments)
    field("image.segments", inSram(b, seg.vaddr, seg.memsz) && seg.bytes.size() <= seg.memsz,
          "has a segment at 0x" + std::to_string(seg.vaddr) + " of " + std::to_string(seg.memsz) +
              " bytes outside tile SRAM or with more bytes than it covers");
  field("image.freeStart", inSram(b, cg.image.freeStart, 0) && cg.image.freeStart <= cg.image.freeEnd &&
                               inSram(b, cg.image.freeEnd, 0),
        "or 'image.freeEnd' lies outside tile SRAM");
  std::uint32_t previous = 0;
  for (std::size_t i = 0; i < cg.tiles.size(); ++i) {
    const std::uint32_t t = cg.tiles[i];
    field("tiles", t < numTiles && (i == 0 || t > previous),
          "names tile " + std::to_string(t) + " (not ascending, or not below the board's " + std::to_string(numTiles) +
              " tiles)");
    previous = t;
    field("tileData", cg.tileData.count(t) != 0, "has no entry for tile " + std::to_string(t));
    for (std::size_t p = 0; p < cg.programAddr.size(); ++p)
      field("programAddr", cg.programAddr[p].count(t) != 0,
            "of program " + std::to_string(p) + " has no entry for tile " + std::to_string(t));
  }
  for (const auto &[t, td] : cg.tileData) {
    const std::uint64_t dataEnd = std::uint64_t(cg.image.freeStart) + td.bytes.size();
    field("tileData", t < numTiles && inSram(b, cg.image.freeStart, td.bytes.size()),
          "of tile " + std::to_string(t) + " has " + std::to_string(td.bytes.size()) + " bytes from 0x" +
              std::to_string(cg.image.freeStart) + ", past tile SRAM or the board's tiles");
    for (const auto &item : td.items)
      field("tileData.items", !item.initialised || item.size == 0 ||
                                  (item.addr >= cg.image.freeStart && std::uint64_t(item.addr) + item.size <= dataEnd),
            "'" + item.name + "' of tile " + std::to_string(t) + " starts at " + std::to_string(item.addr) +
                " with " + std::to_string(item.size) + " initialised bytes outside the tile's data");
  }
  for (const auto &prog : cg.programAddr)
    for (const auto &[t, addr] : prog)
      field("programAddr", inSram(b, addr, 4), "of tile " + std::to_string(t) + " lies outside tile SRAM");
  std::map<std::string, const CompiledStream *> streams;
  for (const auto &st : cg.streams) {
    field("streams", st.replicas >= 1 && st.replicas <= cg.replicas && st.bytes <= b.bytes_per_tile,
          "'" + st.name + "' has " + std::to_string(st.replicas) + " replicas of " + std::to_string(st.bytes) +
              " bytes (at most " + std::to_string(cg.replicas) + " replicas of one tile's memory)");
    streams[st.name] = &st;
  }
  for (const auto &[key, h] : cg.handles)
    for (const auto &piece : h.pieces)
      field("handles", piece.tile < numTiles && inSram(b, piece.addr, piece.len) && piece.hostOffset <= h.bytes &&
                           piece.len <= h.bytes - piece.hostOffset,
            key.describe() + " has a piece of " + std::to_string(piece.len) + " bytes at host offset " +
                std::to_string(piece.hostOffset) + " of its " + std::to_string(h.bytes) +
                " bytes, or outside a tile's SRAM");
  for (const auto &rb : cg.remoteBuffers) {
    for (const std::string *sn : {&rb.offsetStream, &rb.toDeviceStream, &rb.toHostStream}) {
      auto it = streams.find(*sn);
      field("remoteBuffers", it != streams.end() && (sn == &rb.offsetStream ? it->second->bytes == 4
                                                                                : it->second->bytes == rb.rowBytes),
            "'" + rb.name + "' names stream '" + *sn + "', which is missing or of another size than its rows");
    }
    field("remoteBuffers", rb.repeats <= (std::uint64_t(1) << 40) / std::max<std::uint64_t>(1, rb.rowBytes) / cg.replicas,
          "'" + rb.name + "' holds " + std::to_string(rb.repeats) + " rows of " + std::to_string(rb.rowBytes) +
              " bytes per replica, more than 1 TiB");
  }
  for (const auto &es : cg.errorStreams) {
    field("errorStreams", streams.count(es.stream) != 0, "names stream '" + es.stream + "', which is missing");
    field("errorStreams.kind", es.kind == ErrorKind::ErrorProgram || es.kind == ErrorKind::Abort,
          "of stream '" + es.stream + "' is " + std::to_string(unsigned(es.kind)) + ", not ErrorProgram or Abort");
  }
  field("steps", cg.steps.size() == cg.programAddr.size(),
        "has " + std::to_string(cg.steps.size()) + " programs, 'programAddr' " + std::to_string(cg.programAddr.size()));
  if (cg.instr.enabled) {
    field("instr.tile", cg.instr.tile < numTiles, "is " + std::to_string(cg.instr.tile) + ", not a tile of the board");
    field("instr.slots", cg.instr.slots.size() == cg.programAddr.size() &&
                             cg.instr.topSteps.size() == cg.programAddr.size(),
          "has " + std::to_string(cg.instr.slots.size()) + " programs of cycle stamps for " +
              std::to_string(cg.programAddr.size()) + " programs");
    for (std::size_t p = 0; p < cg.instr.slots.size(); ++p) {
      for (std::uint32_t slot : cg.instr.slots[p])
        field("instr.slots", inSram(b, slot, 4), "of program " + std::to_string(p) + " lies outside tile SRAM");
      for (const auto &[first, last] : cg.instr.topSteps[p])
        field("instr.topSteps", first <= last && last <= cg.steps[p].size(),
              "of program " + std::to_string(p) + " names steps past the program's " +
                  std::to_string(cg.steps[p].size()));
    }
  }
}

} // namespace

void writeExecutable(std::ostream &out, const ExecutableImpl &exe) {
  Writer w{out};
  w.raw(kMagic, sizeof kMagic - 1);
  w.u64(kVersion);
  w.put(unsigned(exe.target.type));
  w.put(exe.target.board);
  w.put(exe.target.boardSpec);
  w.put(exe.target.deviceId);
  w.put(exe.cg);
  w.put(std::string("end"));
  w.u64(std::uint64_t(w.crc) & 0xffffffffu); // its own bytes are not in it
  if (!out)
    throw poplar_error("Executable::serialize: writing failed (disk full, or the stream is not open?)");
}

ExecutableImpl readExecutable(std::istream &in) {
  Reader r{in};
  char magic[sizeof kMagic - 1];
  if (!in.read(magic, sizeof magic) || std::memcmp(magic, kMagic, sizeof magic) != 0)
    r.fail("the stream does not hold a poplar executable");
  crcAdd(r.crc, magic, sizeof magic);
  r.pos = sizeof magic;
  std::uint64_t version = r.u64();
  if (version != kVersion)
    r.fail("the executable has format version " + std::to_string(version) + ", this library reads version " +
           std::to_string(kVersion) + "; compile it again");
  ExecutableImpl exe;
  unsigned type = 0;
  r.get(type);
  exe.target.type = TargetType(type);
  r.get(exe.target.board);
  r.get(exe.target.boardSpec);
  r.get(exe.target.deviceId);
  r.get(exe.cg);
  std::string end;
  r.get(end);
  if (end != "end")
    r.fail("the executable's last field is not its end marker (corrupt file?)");
  // The fields are checked first, so that a corruption they catch is named by its field; the checksum then
  // catches what still parses.
  checkExecutable(r, exe);
  const std::uint64_t crcAt = r.pos, computed = std::uint64_t(r.crc) & 0xffffffffu, stored = r.u64();
  if (stored != computed) {
    char hex[64];
    std::snprintf(hex, sizeof hex, "0x%08llx, the bytes before it give 0x%08llx", (unsigned long long)stored,
                  (unsigned long long)computed);
    r.fail("the CRC-32 at byte " + std::to_string(crcAt) + " is " + hex + ": the file is corrupt");
  }
  return exe;
}

} // namespace poplar::detail
