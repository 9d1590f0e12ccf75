// The executable file format: a magic line ("poplar-executable"), a format version, then every field of the
// compiled graph in a fixed order. Integers are little-endian 64-bit, strings and byte vectors are a length then
// their bytes, containers are a count then their items. A reader checks every length against what is left, so a
// truncated or foreign file fails with a message instead of a huge allocation.
#include <cstring>
#include <string>
#include <type_traits>

#include "executable_impl.hpp"
#include "poplar/exceptions.hpp"

namespace poplar::detail {

namespace {

constexpr const char kMagic[] = "poplar-executable\n";
constexpr std::uint64_t kVersion = 2; ///< 2: replicas (graph and streams)
constexpr std::uint64_t kMaxCount = std::uint64_t(1) << 32; ///< no field of a real executable is this long

struct Writer {
  std::ostream &out;
  void u64(std::uint64_t v) {
    unsigned char b[8];
    for (int i = 0; i < 8; ++i)
      b[i] = static_cast<unsigned char>(v >> (8 * i));
    out.write(reinterpret_cast<const char *>(b), 8);
  }
  void bytes(const void *p, std::size_t n) {
    u64(n);
    out.write(static_cast<const char *>(p), std::streamsize(n));
  }
  void put(const std::string &s) { bytes(s.data(), s.size()); }
  void put(const std::vector<std::uint8_t> &v) { bytes(v.data(), v.size()); }
  template <typename T> typename std::enable_if<std::is_integral<T>::value>::type put(T v) { u64(std::uint64_t(v)); }
  void put(const Type &t) { u64(t.id()); }
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
  void put(const ipu::runtime::TileSegment &s) {
    put(s.vaddr);
    put(s.memsz);
    put(s.flags);
    put(s.bytes);
  }
  void put(const MemItem &m) {
    put(m.category);
    put(m.name);
    put(m.addr);
    put(m.size);
    put(m.initialised);
  }
  void put(const TileData &t) {
    put(t.top);
    put(t.bytes);
    put(t.items);
  }
  void put(const CompiledStream &s) {
    put(s.name);
    put(s.id);
    put(s.toDevice);
    put(s.bytes);
    put(s.devAddr);
    put(s.replicas);
  }
  void put(const HostPiece &p) {
    put(p.tile);
    put(p.addr);
    put(p.len);
    put(p.hostOffset);
  }
  void put(const CompiledHandle &h) {
    put(h.write);
    put(h.bytes);
    put(h.pieces);
  }
  void put(const PrintInfo &p) {
    put(p.title);
    put(p.shape);
    put(p.type);
  }
  void put(const StepInfo &s) {
    put(s.what);
    put(s.bytes);
    put(s.depth);
  }
  void put(const CompiledRemoteBuffer &r) {
    put(r.name);
    put(r.rowBytes);
    put(r.repeats);
    put(r.offsetStream);
    put(r.toDeviceStream);
    put(r.toHostStream);
  }
  void put(const CompiledErrorStream &e) {
    put(e.stream);
    put(e.message);
    put(e.shape);
    put(e.type);
  }
};

struct Reader {
  std::istream &in;
  [[noreturn]] void fail(const std::string &why) {
    throw poplar_error("Executable::deserialize: " + why +
                       "; give it a stream opened with std::ios::binary on a file written by Executable::serialize");
  }
  std::uint64_t u64() {
    unsigned char b[8];
    if (!in.read(reinterpret_cast<char *>(b), 8))
      fail("the executable ends early (truncated file?)");
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
  template <typename T> typename std::enable_if<std::is_integral<T>::value>::type get(T &v) { v = T(u64()); }
  void get(Type &t) { t = Type(unsigned(u64())); }
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
  void get(ipu::runtime::TileSegment &s) {
    get(s.vaddr);
    get(s.memsz);
    get(s.flags);
    get(s.bytes);
  }
  void get(MemItem &m) {
    get(m.category);
    get(m.name);
    get(m.addr);
    get(m.size);
    get(m.initialised);
  }
  void get(TileData &t) {
    get(t.top);
    get(t.bytes);
    get(t.items);
  }
  void get(CompiledStream &s) {
    get(s.name);
    get(s.id);
    get(s.toDevice);
    get(s.bytes);
    get(s.devAddr);
    get(s.replicas);
  }
  void get(HostPiece &p) {
    get(p.tile);
    get(p.addr);
    get(p.len);
    get(p.hostOffset);
  }
  void get(CompiledHandle &h) {
    get(h.write);
    get(h.bytes);
    get(h.pieces);
  }
  void get(PrintInfo &p) {
    get(p.title);
    get(p.shape);
    get(p.type);
  }
  void get(StepInfo &s) {
    get(s.what);
    get(s.bytes);
    get(s.depth);
  }
  void get(CompiledRemoteBuffer &r) {
    get(r.name);
    get(r.rowBytes);
    get(r.repeats);
    get(r.offsetStream);
    get(r.toDeviceStream);
    get(r.toHostStream);
  }
  void get(CompiledErrorStream &e) {
    get(e.stream);
    get(e.message);
    get(e.shape);
    get(e.type);
  }
};

/// The board is a C struct of fixed-size text fields and integers: written as its bytes, with its size first so
/// that a build with another layout refuses the file.
void putBoard(Writer &w, const ipu_board &b) { w.bytes(&b, sizeof b); }
void getBoard(Reader &r, ipu_board &b) {
  std::uint64_t n = r.u64();
  if (n != sizeof b)
    r.fail("the board description has " + std::to_string(n) + " bytes, this library's has " +
           std::to_string(sizeof b) + " (written by another version)");
  r.rawBytes(&b, sizeof b);
  b.name[sizeof b.name - 1] = b.description[sizeof b.description - 1] = b.isa[sizeof b.isa - 1] = '\0';
  b.abi[sizeof b.abi - 1] = b.transport[sizeof b.transport - 1] = '\0';
}

} // namespace

void writeExecutable(std::ostream &out, const ExecutableImpl &exe) {
  Writer w{out};
  out.write(kMagic, sizeof kMagic - 1);
  w.u64(kVersion);
  w.put(unsigned(exe.target.type));
  putBoard(w, exe.target.board);
  w.put(exe.target.boardSpec);
  w.put(exe.target.deviceId);
  const CompiledGraph &cg = exe.cg;
  w.put(cg.image.path);
  w.put(cg.image.image.name);
  w.put(cg.image.image.entry);
  w.put(cg.image.image.flags);
  w.put(cg.image.image.segments);
  w.put(cg.image.freeStart);
  w.put(cg.image.freeEnd);
  w.put(cg.image.symbols);
  w.put(cg.image.codeBytes);
  putBoard(w, cg.board);
  w.put(cg.replicas);
  w.put(cg.tiles);
  w.put(cg.tileData);
  w.put(cg.programAddr);
  w.put(cg.streams);
  w.put(cg.handles);
  w.put(cg.prints);
  w.put(cg.remoteBuffers);
  w.put(cg.errorStreams);
  w.put(cg.steps);
  w.put(cg.liveBytes);
  w.put(cg.numVars);
  w.put(cg.numVertices);
  w.put(cg.numEdges);
  w.put(cg.numComputeSets);
  w.put(cg.exchangeBytes);
  w.put(cg.bytesByCategory);
  w.put(cg.instr.enabled);
  w.put(cg.instr.tile);
  w.put(cg.instr.slots);
  w.put(cg.instr.topSteps);
  w.put(std::string("end"));
  if (!out)
    throw poplar_error("Executable::serialize: writing failed (disk full, or the stream is not open?)");
}

ExecutableImpl readExecutable(std::istream &in) {
  Reader r{in};
  char magic[sizeof kMagic - 1];
  if (!in.read(magic, sizeof magic) || std::memcmp(magic, kMagic, sizeof magic) != 0)
    r.fail("the stream does not hold a poplar executable");
  std::uint64_t version = r.u64();
  if (version != kVersion)
    r.fail("the executable has format version " + std::to_string(version) + ", this library reads version " +
           std::to_string(kVersion) + "; compile it again");
  ExecutableImpl exe;
  unsigned type = 0;
  r.get(type);
  exe.target.type = TargetType(type);
  getBoard(r, exe.target.board);
  r.get(exe.target.boardSpec);
  r.get(exe.target.deviceId);
  CompiledGraph &cg = exe.cg;
  r.get(cg.image.path);
  r.get(cg.image.image.name);
  r.get(cg.image.image.entry);
  r.get(cg.image.image.flags);
  r.get(cg.image.image.segments);
  r.get(cg.image.freeStart);
  r.get(cg.image.freeEnd);
  r.get(cg.image.symbols);
  r.get(cg.image.codeBytes);
  getBoard(r, cg.board);
  r.get(cg.replicas);
  r.get(cg.tiles);
  r.get(cg.tileData);
  r.get(cg.programAddr);
  r.get(cg.streams);
  r.get(cg.handles);
  r.get(cg.prints);
  r.get(cg.remoteBuffers);
  r.get(cg.errorStreams);
  r.get(cg.steps);
  r.get(cg.liveBytes);
  r.get(cg.numVars);
  r.get(cg.numVertices);
  r.get(cg.numEdges);
  r.get(cg.numComputeSets);
  r.get(cg.exchangeBytes);
  r.get(cg.bytesByCategory);
  r.get(cg.instr.enabled);
  r.get(cg.instr.tile);
  r.get(cg.instr.slots);
  r.get(cg.instr.topSteps);
  std::string end;
  r.get(end);
  if (end != "end")
    r.fail("the executable's last field is not its end marker (corrupt file?)");
  return exe;
}

} // namespace poplar::detail
