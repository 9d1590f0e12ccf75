// Internal: tile image linking (riscv64-unknown-elf-gcc with the board's generated linker script) and ELF symbols.
#include "tile_link.hpp"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "codelets.hpp"
#include "poplar/exceptions.hpp"
#include "target_values.hpp"

namespace fs = std::filesystem;

namespace poplar::detail {

static std::string slurp(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream os;
  os << f.rdbuf();
  return os.str();
}

static std::map<std::string, std::uint32_t> readSymbols(const std::string &path) {
  std::map<std::string, std::uint32_t> out;
  elf_version(EV_CURRENT);
  int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0)
    throw graph_program_compilation_error("cannot open the linked tile image " + path);
  Elf *e = elf_begin(fd, ELF_C_READ, nullptr);
  Elf_Scn *scn = nullptr;
  while (e && (scn = elf_nextscn(e, scn)) != nullptr) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
      continue;
    Elf_Data *data = elf_getdata(scn, nullptr);
    std::size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
    for (std::size_t i = 0; i < n; ++i) {
      GElf_Sym sym;
      if (!gelf_getsym(data, int(i), &sym))
        continue;
      const char *name = elf_strptr(e, sh.sh_link, sym.st_name);
      if (name && *name)
        out[name] = std::uint32_t(sym.st_value);
    }
  }
  if (e)
    elf_end(e);
  ::close(fd);
  return out;
}

LinkedImage linkTileImage(const std::vector<std::string> &objects, const ipu_board &board,
                          const std::vector<std::string> &keepSymbols, std::uint32_t heapBytes) {
  std::string data = dataDir();
  std::string boardPath = writeBoardFile(board);
  // The tile runtime built for the board's ISA/ABI (rv32im boards for the RTL, rv32imf for the others);
  // tile/lib is the default runtime of installs that stage only one.
  std::string runtimeDir = data + "/tile/" + board.isa + "-" + board.abi + "/lib";
  if (!fs::exists(runtimeDir + "/libipurt.a"))
    runtimeDir = data + "/tile/lib";
  std::string runtimeLib = runtimeDir + "/libipurt.a", crt0 = runtimeDir + "/crt0.o",
              graphStart = runtimeDir + "/graph_start.o";
  // The script generator (with the board rules it imports) and the start symbol are part of the image too
  // (kLinkRecipe names this recipe).
  static constexpr const char *kLinkRecipe = "graph-start/no-heap v1";
  std::string key = slurp(boardPath) + slurp(runtimeLib) + slurp(graphStart) + slurp(data + "/tile/gen-ldscript.py") +
                    slurp(data + "/tile/board_rules.py") + kLinkRecipe + std::to_string(heapBytes);
  for (const auto &o : objects)
    key += slurp(o);
  for (const auto &s : keepSymbols)
    key += s;
  fs::path dir = fs::path(cacheDir()) / "images";
  fs::create_directories(dir);
  std::string hash = contentHash(key);
  fs::path elf = dir / ("tile-" + std::string(board.name) + "-" + hash + ".elf");
  std::string log;
  if (!fs::exists(elf)) {
    std::string tag = std::to_string(::getpid());
    fs::path ld = dir / ("tile-" + hash + "-" + tag + ".ld");
    if (runCommand("python3 '" + data + "/tile/gen-ldscript.py' '" + boardPath + "' " +
                       (heapBytes ? "--heap " + std::to_string(heapBytes) : std::string("--no-heap")) + " -o '" + ld.string() + "'", log) != 0)
      throw graph_program_compilation_error("cannot generate the tile linker script for board " +
                                            std::string(board.name) + ":\n" + log);
    requireTileCompiler();
    std::string libc = tileLibcDir(board.isa, board.abi);
    std::string cmd = "riscv64-unknown-elf-gcc -march=" + std::string(board.isa) + " -mabi=" + board.abi +
                      " -nostdlib -nostartfiles -Wl,--gc-sections -Wl,--no-warn-rwx-segments -T '" + ld.string() +
                      "' '" + crt0 + "'";
    // The lean start (firmware/crt/graph_start.c) in place of libipurt's start.c: see there why.
    cmd += " '" + graphStart + "'";
    for (const auto &o : objects)
      cmd += " '" + o + "'";
    for (const auto &s : keepSymbols)
      cmd += " -Wl,-u," + s;
    fs::path tmp = dir / ("tile-" + hash + "-" + tag + ".elf");
    cmd += " -L'" + runtimeDir + "' -L'" + libc + "/lib' -Wl,--start-group -lipurt -lc -lm "
           "-lgcc -Wl,--end-group -o '" + tmp.string() + "'";
    int rc = runCommand(cmd, log);
    fs::remove(ld);
    if (rc != 0)
      throw graph_program_compilation_error("linking the tile image for board " + std::string(board.name) +
                                            " failed (code and codelets do not fit, or a codelet uses a missing "
                                            "function):\n" + log);
    fs::rename(tmp, elf);
  }
  LinkedImage out;
  out.path = elf.string();
  out.image = ipu::runtime::loadTileElf(out.path, ipu::runtime::ElfTarget::fromBoard(board));
  out.symbols = readSymbols(out.path);
  out.freeStart = out.symbols.count("__ipu_free_start") ? out.symbols["__ipu_free_start"] : 0;
  out.freeEnd = out.symbols.count("__ipu_free_end") ? out.symbols["__ipu_free_end"] : 0;
  if (!out.freeStart || out.freeEnd <= out.freeStart)
    throw graph_program_compilation_error("the tile image " + out.path + " leaves no memory for tensors on board " +
                                          board.name);
  out.codeBytes = out.freeStart - 0x00100000u;
  return out;
}

} // namespace poplar::detail
