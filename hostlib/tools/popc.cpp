// popc: precompiles Poplar codelets (C++ vertex classes) for the tiles into a .gp that Graph::addCodelets loads.
// The command line is the SDK's: --target NAME or --target=NAME, also a comma-separated list (cpu,ipu1,ipu2),
// -o FILE, and -I/-D/-O (joined or with a separate argument) for the tile compiler.
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "codelets.hpp"
#include "poplar/Graph.hpp"
#include "poplar/exceptions.hpp"
#include "target_values.hpp"

static void usage(FILE *f) {
  std::fprintf(f,
               "usage: popc [options] codelets.cpp -o codelets.gp\n"
               "  -o FILE              output .gp (default: the source name with .gp)\n"
               "  --target NAME[,...]  targets to compile for: cpu, ipu1, ipu2, ipu21 or a board name; a list\n"
               "                       needs one tile ISA (default ipu2); also --target=NAME\n"
               "  -I DIR, -D NAME[=V], -O LEVEL (also joined: -IDIR, -DNAME, -O2)  passed to the tile compiler\n"
               "  --list               print the vertex classes and their fields after compiling\n"
               "  -h, --help           this text;  --version  the Poplar SDK version emulated\n"
               "exit codes: 0 ok, 1 compile error, 2 usage error\n");
}

// Shell-quotes one argument for the tile compiler's command line.
static std::string shellQuoted(const std::string &a) {
  std::string q = "'";
  for (char c : a)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

static std::vector<std::string> splitTargets(const std::string &list) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t comma = list.find(',', start);
    if (comma == std::string::npos)
      comma = list.size();
    out.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

int main(int argc, char **argv) {
  std::string input, output, targets = "ipu2", flags;
  bool list = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    bool hasNext = i + 1 < argc;
    if (a == "-h" || a == "--help") {
      usage(stdout);
      return 0;
    } else if (a == "--version") {
      std::printf("POPLAR version %s\nipu-emu popc: codelets for the emulated tiles (riscv64-unknown-elf-g++)\n",
                  poplar::versionString().c_str());
      return 0;
    } else if (a == "-o" && hasNext) {
      output = argv[++i];
    } else if (a == "--target" && hasNext) {
      targets = argv[++i];
    } else if (a.rfind("--target=", 0) == 0) {
      targets = a.substr(std::strlen("--target="));
    } else if ((a == "-I" || a == "-D" || a == "-O") && hasNext) {
      flags += " " + shellQuoted(a + argv[++i]);
    } else if (a == "-o" || a == "--target" || a == "-I" || a == "-D") {
      std::fprintf(stderr, "popc: %s needs a value (e.g. %s)\n", a.c_str(),
                   a == "-o" ? "-o codelets.gp" : a == "--target" ? "--target ipu2" : (a + " VALUE").c_str());
      return 2;
    } else if (a == "--list") {
      list = true;
    } else if (a.size() > 1 && a[0] == '-') {
      flags += " " + shellQuoted(a);
    } else if (input.empty()) {
      input = a;
    } else {
      std::fprintf(stderr, "popc: more than one source file ('%s', '%s'); popc compiles one, put the vertices of "
                           "both in one file or run popc once per file\n", input.c_str(), a.c_str());
      return 2;
    }
  }
  if (input.empty()) {
    usage(stderr);
    return 2;
  }
  if (output.empty())
    output = std::filesystem::path(input).replace_extension(".gp").string();
  // Every target of the list must run the same tile code: the CPU target has the tiny board's tiles.
  ipu_board board{};
  std::string first;
  try {
    for (const std::string &t : splitTargets(targets)) {
      if (t.empty()) {
        std::fprintf(stderr, "popc: empty name in --target '%s'; give names separated by commas (cpu,ipu2)\n",
                     targets.c_str());
        return 2;
      }
      ipu_board b = poplar::detail::loadBoard(t == "cpu" ? "tiny" : t);
      if (first.empty()) {
        board = b;
        first = t;
      } else if (std::strcmp(b.isa, board.isa) != 0 || std::strcmp(b.abi, board.abi) != 0) {
        std::fprintf(stderr, "popc: targets '%s' (%s/%s) and '%s' (%s/%s) need different tile code; run popc once "
                             "per target with its own -o\n", first.c_str(), board.isa, board.abi, t.c_str(), b.isa,
                     b.abi);
        return 2;
      }
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "popc: %s\n", e.what());
    return 2;
  }
  try {
    std::string gp = poplar::detail::compileCodelets(input, flags, board.isa, board.abi, output + ".tmp");
    std::filesystem::rename(gp, output);
    if (list)
      for (const auto &c : poplar::detail::readVertexClasses(output)) {
        std::printf("%s (%u bytes)\n", c.name.c_str(), c.stateSize);
        for (const auto &[n, f] : c.fields)
          std::printf("  %-16s offset %3u size %2u %s\n", n.c_str(), f.offset, f.size, f.elemTypeName.c_str());
      }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "popc: %s\n", e.what());
    return 1;
  }
  return 0;
}
