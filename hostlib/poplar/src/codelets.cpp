// Codelets: compile C++ vertex source for the tiles (cached by content), and read vertex layouts from DWARF.
#include "codelets.hpp"

#include <algorithm>
#include <dlfcn.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <glob.h>
#include <sstream>

#include "poplar/exceptions.hpp"
#include "log.hpp"
#include "target_values.hpp"

#ifndef POPLAR_BUILD_DATA_DIR
#define POPLAR_BUILD_DATA_DIR ""
#endif

namespace fs = std::filesystem;

namespace poplar::detail {

int runCommand(const std::string &command, std::string &output) {
  output.clear();
  FILE *p = ::popen((command + " 2>&1").c_str(), "r");
  if (!p)
    return -1;
  std::array<char, 4096> buf;
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0)
    output.append(buf.data(), n);
  int st = ::pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static bool isDataDir(const fs::path &p) { return fs::exists(p / "device/include/poplar/Vertex.hpp"); }

std::string dataDir() {
  static const std::string dir = [] {
    if (const char *env = std::getenv("IPU_POPLAR_DATA_DIR"); env && *env && isDataDir(env))
      return std::string(env);
    Dl_info info{};
    if (dladdr(reinterpret_cast<void *>(&dataDir), &info) && info.dli_fname) {
      fs::path lib = fs::absolute(info.dli_fname).parent_path();
      for (fs::path cand : {lib.parent_path() / "share/poplar", lib / "../share/poplar"})
        if (isDataDir(cand))
          return fs::weakly_canonical(cand).string();
    }
    if (isDataDir(POPLAR_BUILD_DATA_DIR))
      return std::string(POPLAR_BUILD_DATA_DIR);
    throw poplar_error("libpoplar cannot find its data folder (device headers, tile runtime): install with "
                       "`cmake --install`, or set IPU_POPLAR_DATA_DIR to <prefix>/share/poplar");
  }();
  return dir;
}

std::string deviceIncludeDir() { return dataDir() + "/device/include"; }

std::string tileLibcDir(const std::string &isa, const std::string &abi) {
  std::string dir = dataDir() + "/newlib/" + isa + "-" + abi;
  if (!fs::exists(dir + "/include/stdlib.h") || !fs::exists(dir + "/lib/libc.a"))
    throw graph_object_load_error("libpoplar's install has no C library for tiles of ISA " + isa + "/" + abi +
                                  " (" + dir + " is missing or incomplete): build ipu-emu after `make deps` has "
                                  "built newlib for it, then install again");
  return dir;
}

void requireTileCompiler() {
  static const bool found = [] {
    std::string out;
    return runCommand("command -v riscv64-unknown-elf-g++", out) == 0;
  }();
  if (!found)
    throw graph_object_load_error("the tile compiler riscv64-unknown-elf-g++ is not on the PATH: install the "
                                  "Debian package gcc-riscv64-unknown-elf (apt-get install gcc-riscv64-unknown-elf)");
}

static std::string readFile(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    throw graph_object_load_error("cannot read '" + path + "'");
  std::ostringstream os;
  os << f.rdbuf();
  return os.str();
}

/// Every device header's text: codelets compiled against other headers are compiled again.
static std::string deviceHeadersText() {
  std::vector<fs::path> files;
  for (const auto &e : fs::recursive_directory_iterator(deviceIncludeDir()))
    if (e.is_regular_file())
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::string text;
  for (const auto &f : files)
    text += f.string() + "\n" + readFile(f.string());
  return text;
}

std::vector<std::string> entrySymbols(const VertexClass &vc) {
  if (!vc.workers)
    return {vc.entrySymbol};
  std::vector<std::string> out;
  for (unsigned k = 0; k < vc.workers; ++k)
    out.push_back(vc.entrySymbol + "_w" + std::to_string(k));
  return out;
}

std::string entrySymbolFor(const std::string &className) {
  std::string s = "__poplar_vertex_";
  for (char c : className)
    s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s + "_" + contentHash(className).substr(0, 8);
}

static std::string compilerCommand(const std::string &isa, const std::string &abi, const std::string &srcDir,
                                   const std::string &flags) {
  requireTileCompiler();
  std::string libc = tileLibcDir(isa, abi), out;
  std::string arch = "-march=" + isa + " -mabi=" + abi;
  if (runCommand("riscv64-unknown-elf-gcc " + arch + " -print-file-name=include", out) != 0)
    throw graph_object_load_error("riscv64-unknown-elf-gcc does not run (reinstall the Debian package "
                                  "gcc-riscv64-unknown-elf): " + out);
  while (!out.empty() && std::isspace(static_cast<unsigned char>(out.back())))
    out.pop_back();
  return "riscv64-unknown-elf-g++ " + arch + " -mcmodel=medlow -nostdinc -isystem '" + libc +
         "/include' -isystem '" + out + "' -I'" + deviceIncludeDir() + "' -I'" + srcDir +
         "' -D__POPC__ -D__IPU__ -std=c++17 -O2 -g -fno-eliminate-unused-debug-types -ffunction-sections "
         "-fdata-sections "
         "-fno-exceptions -fno-rtti -fno-threadsafe-statics -fno-asynchronous-unwind-tables " + flags;
}

std::string compileCodelets(const std::string &path, const std::string &flags, const std::string &isa,
                            const std::string &abi, const std::string &output) {
  checkLogEnvironment();
  std::string source = readFile(path);
  fs::path abs = fs::canonical(path);
  std::string cc = compilerCommand(isa, abi, abs.parent_path().string(), flags);
  std::string key = contentHash(source + "\n" + cc + "\n" + deviceHeadersText() +
                                "\n" + abs.string());
  fs::path cache = fs::path(cacheDir()) / "codelets";
  fs::create_directories(cache);
  fs::path gp = cache / (abs.stem().string() + "-" + key + ".gp");
  if (fs::exists(gp) && output.empty())
    return gp.string();

  log(LogLevel::Info, "compiling codelets " + abs.string() + " for " + isa + "/" + abi);
  // Pass 1: compile the source alone and find its vertex classes in the DWARF.
  std::string tag = std::to_string(::getpid()) + "-" + key;
  fs::path pass1 = cache / ("pass1-" + tag + ".o");
  std::string log;
  if (runCommand(cc + " -c '" + abs.string() + "' -o '" + pass1.string() + "'", log) != 0)
    throw graph_object_load_error("codelet '" + path + "' does not compile for the tiles:\n" + log);
  std::vector<VertexClass> classes = readVertexClasses(pass1.string());
  fs::remove(pass1);

  // Pass 2: the same source plus one trampoline per vertex class, which the compute-set tables name.
  fs::path wrapper = cache / ("wrap-" + tag + ".cpp");
  {
    std::ofstream w(wrapper);
    w << "// Generated by libpoplar: " << abs.string() << " plus its vertex entry points.\n"
      << "#include \"" << abs.string() << "\"\n";
    for (const auto &c : classes) {
      // A MultiVertex runs once per worker: one entry point per worker index, all on the same state.
      std::vector<std::string> entries = entrySymbols(c);
      for (std::size_t k = 0; k < entries.size(); ++k)
        w << "extern \"C\" __attribute__((used)) bool " << entries[k] << "(void *state) { return static_cast< ::"
          << c.name << " *>(state)->compute(" << (c.workers ? std::to_string(k) : "") << "); }\n";
    }
  }
  fs::path tmp = cache / ("gp-" + tag + ".o");
  int rc = runCommand(cc + " -c '" + wrapper.string() + "' -o '" + tmp.string() + "'", log);
  fs::remove(wrapper);
  if (rc != 0)
    throw graph_object_load_error("codelet '" + path + "': a vertex class cannot be run (compute() must be "
                                  "`bool compute()`, or `bool compute(unsigned workerId)` in a MultiVertex):\n" +
                                  log);
  fs::path dest = output.empty() ? gp : fs::path(output);
  fs::rename(tmp, dest);
  return dest.string();
}

std::string builtinCodelets(const std::string &isa, const std::string &abi) {
  static const char *kSource =
      "// Generated by libpoplar: its built-in codelets.\n"
      "#include <poplar/Vertex.hpp>\n"
      "namespace poplar_rt {\n"
      "// Writes the tile's cycle counter (as the worker sees it) to out[0]: per-step profiling.\n"
      "class CycleStamp : public poplar::Vertex {\n"
      "public:\n"
      "  poplar::Output<poplar::Vector<unsigned>> out;\n"
      "  bool compute() {\n"
      "    unsigned c;\n"
      "    asm volatile(\"csrr %0, cycle\" : \"=r\"(c));\n"
      "    out[0] = c;\n"
      "    return true;\n"
      "  }\n"
      "};\n"
      "} // namespace poplar_rt\n";
  fs::path dir = fs::path(cacheDir()) / "codelets";
  fs::create_directories(dir);
  fs::path src = dir / ("poplar_builtin-" + contentHash(kSource) + ".cpp");
  if (!fs::exists(src)) {
    fs::path tmp = src.string() + "." + std::to_string(::getpid());
    std::ofstream(tmp) << kSource;
    fs::rename(tmp, src);
  }
  return compileCodelets(src.string(), "", isa, abi);
}

namespace {

const Dwfl_Callbacks kOffline = {dwfl_build_id_find_elf, dwfl_standard_find_debuginfo, dwfl_offline_section_address,
                                 nullptr};

bool typeOf(Dwarf_Die *die, Dwarf_Die *out) {
  Dwarf_Attribute a;
  return dwarf_attr_integrate(die, DW_AT_type, &a) && dwarf_formref_die(&a, out);
}

/// Follows typedefs and cv-qualifiers.
bool stripType(Dwarf_Die *die) {
  for (;;) {
    int tag = dwarf_tag(die);
    if (tag != DW_TAG_typedef && tag != DW_TAG_const_type && tag != DW_TAG_volatile_type)
      return true;
    if (!typeOf(die, die))
      return false;
  }
}

std::string name(Dwarf_Die *d) {
  const char *n = dwarf_diename(d);
  return n ? n : "";
}

bool startsWith(const std::string &s, const char *p) { return s.rfind(p, 0) == 0; }

/// Fills kind, direction and element type of an edge field from its class DIE.
void edgeInfo(Dwarf_Die *cls, FieldInfo &f) {
  std::string n = name(cls);
  f.dir = startsWith(n, "Input<") ? FieldDir::In : startsWith(n, "Output<") ? FieldDir::Out : FieldDir::InOut;
  Dwarf_Die c;
  if (dwarf_child(cls, &c) != 0)
    return;
  do {
    if (dwarf_tag(&c) != DW_TAG_inheritance)
      continue;
    Dwarf_Die base;
    if (!typeOf(&c, &base))
      continue;
    std::string bn = name(&base);
    f.kind = startsWith(bn, "Span<") ? FieldKind::Vector : startsWith(bn, "ListEdge<") ? FieldKind::List
                                                                                         : FieldKind::Scalar;
    Dwarf_Die p;
    if (dwarf_child(&base, &p) != 0)
      return;
    do {
      if (dwarf_tag(&p) == DW_TAG_template_type_parameter) {
        Dwarf_Die t;
        if (typeOf(&p, &t) && stripType(&t)) {
          f.elemTypeName = name(&t);
          Dwarf_Word sz = 0;
          if (dwarf_aggregate_size(&t, &sz) == 0)
            f.elemSize = std::uint32_t(sz);
        }
      }
    } while (dwarf_siblingof(&p, &p) == 0);
  } while (dwarf_siblingof(&c, &c) == 0);
}

/// What a class derives from, directly or through other bases: Vertex (compute()), MultiVertex (compute(worker)).
enum class VertexBase { None, Vertex, Multi };
VertexBase vertexBaseOf(Dwarf_Die *cls, int depth = 0) {
  Dwarf_Die c;
  if (depth > 16 || dwarf_child(cls, &c) != 0)
    return VertexBase::None;
  do {
    Dwarf_Die base;
    if (dwarf_tag(&c) != DW_TAG_inheritance || !typeOf(&c, &base) || !stripType(&base))
      continue;
    std::string n = name(&base);
    if (n == "Vertex")
      return VertexBase::Vertex;
    if (n == "MultiVertex")
      return VertexBase::Multi;
    if (VertexBase b = vertexBaseOf(&base, depth + 1); b != VertexBase::None)
      return b;
  } while (dwarf_siblingof(&c, &c) == 0);
  return VertexBase::None;
}

void readClass(Dwarf_Die *cls, const std::string &qualified, bool multi, std::vector<VertexClass> &out) {
  VertexClass vc;
  vc.name = qualified;
  vc.workers = multi ? kMultiVertexWorkers : 0;
  vc.entrySymbol = entrySymbolFor(qualified);
  Dwarf_Word sz = 0;
  if (dwarf_aggregate_size(cls, &sz) == 0)
    vc.stateSize = std::uint32_t(sz);
  Dwarf_Die c;
  if (dwarf_child(cls, &c) == 0) {
    do {
      if (dwarf_tag(&c) != DW_TAG_member || !dwarf_hasattr(&c, DW_AT_data_member_location))
        continue;
      FieldInfo f;
      f.name = name(&c);
      Dwarf_Attribute a;
      Dwarf_Word off = 0;
      if (dwarf_attr(&c, DW_AT_data_member_location, &a))
        dwarf_formudata(&a, &off);
      f.offset = std::uint32_t(off);
      Dwarf_Die t;
      if (!typeOf(&c, &t) || !stripType(&t))
        continue;
      Dwarf_Word fsz = 0;
      if (dwarf_aggregate_size(&t, &fsz) == 0)
        f.size = std::uint32_t(fsz);
      std::string tn = name(&t);
      int tag = dwarf_tag(&t);
      if ((tag == DW_TAG_class_type || tag == DW_TAG_structure_type) &&
          (startsWith(tn, "Input<") || startsWith(tn, "Output<") || startsWith(tn, "InOut<")))
        edgeInfo(&t, f);
      else {
        f.kind = FieldKind::Plain;
        f.elemTypeName = tn;
        f.elemSize = f.size;
      }
      vc.fields[f.name] = f;
    } while (dwarf_siblingof(&c, &c) == 0);
  }
  out.push_back(vc);
}

void walk(Dwarf_Die *die, const std::string &scope, std::vector<VertexClass> &out) {
  Dwarf_Die c;
  if (dwarf_child(die, &c) != 0)
    return;
  do {
    int tag = dwarf_tag(&c);
    std::string n = name(&c);
    if (tag == DW_TAG_namespace) {
      if (n != "poplar")
        walk(&c, scope + (n.empty() ? "" : n + "::"), out);
    } else if ((tag == DW_TAG_class_type || tag == DW_TAG_structure_type) && !n.empty() &&
               !dwarf_hasattr(&c, DW_AT_declaration)) {
      if (VertexBase base = vertexBaseOf(&c); base != VertexBase::None) {
        bool dup = false;
        for (const auto &v : out)
          dup = dup || v.name == scope + n;
        if (!dup)
          readClass(&c, scope + n, base == VertexBase::Multi, out);
      }
      walk(&c, scope + n + "::", out);
    }
  } while (dwarf_siblingof(&c, &c) == 0);
}

} // namespace

std::vector<VertexClass> readVertexClasses(const std::string &gpPath) {
  Dwfl *dwfl = dwfl_begin(&kOffline);
  Dwfl_Module *mod = dwfl_report_offline(dwfl, "codelets", gpPath.c_str(), -1);
  Dwarf *dw = nullptr;
  Dwarf_Addr bias = 0;
  if (mod) {
    dwfl_report_end(dwfl, nullptr, nullptr);
    dw = dwfl_module_getdwarf(mod, &bias);
  }
  if (!dw) {
    std::string err = dwfl_errmsg(-1) ? dwfl_errmsg(-1) : "unknown";
    dwfl_end(dwfl);
    throw graph_object_load_error("'" + gpPath + "' is not a codelet object with debug information (" + err +
                                  "); make .gp files with popc");
  }
  std::vector<VertexClass> out;
  Dwarf_Off off = 0, next = 0;
  std::size_t hsize = 0;
  while (dwarf_nextcu(dw, off, &next, &hsize, nullptr, nullptr, nullptr) == 0) {
    Dwarf_Die cu;
    if (dwarf_offdie(dw, off + hsize, &cu))
      walk(&cu, "", out);
    off = next;
  }
  dwfl_end(dwfl);
  return out;
}

Type typeForCName(const std::string &n, std::uint32_t size) {
  if (n == "float")
    return FLOAT;
  if (n == "_Float16" || n == "__fp16" || n == "half")
    return HALF;
  if (n == "bool" || n == "_Bool")
    return BOOL;
  if (n == "char" || n == "signed char")
    return CHAR;
  if (n == "unsigned char")
    return UNSIGNED_CHAR;
  bool isUnsigned = n.find("unsigned") != std::string::npos;
  if (size == 2)
    return isUnsigned ? UNSIGNED_SHORT : SHORT;
  if (size == 4 && n.find("float") == std::string::npos)
    return isUnsigned ? UNSIGNED_INT : INT;
  if (size == 8 && n.find("double") == std::string::npos)
    return isUnsigned ? UNSIGNED_LONGLONG : LONGLONG; // long long on the tiles; also LONG's 8 bytes
  return Type();
}

} // namespace poplar::detail
