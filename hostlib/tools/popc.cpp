// popc: precompiles Poplar codelets (C++ vertex classes) for the tiles into a .gp that Graph::addCodelets loads.
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <string>

#include "codelets.hpp"
#include "poplar/exceptions.hpp"
#include "target_values.hpp"

static void usage(FILE *f) {
  std::fprintf(f,
               "usage: popc [options] codelets.cpp -o codelets.gp\n"
               "  -o FILE        output .gp (default: the source name with .gp)\n"
               "  --target NAME  board whose tile ISA/ABI to compile for (default ipu2)\n"
               "  -D/-I/-O...    passed to the tile compiler\n"
               "  --list         print the vertex classes and their fields after compiling\n"
               "  -h, --help     this text;  --version  the version\n"
               "exit codes: 0 ok, 1 compile error, 2 usage error\n");
}

int main(int argc, char **argv) {
  std::string input, output, target = "ipu2", flags;
  bool list = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      usage(stdout);
      return 0;
    } else if (a == "--version") {
      std::printf("popc (ipu-emu) 0.1.0\n");
      return 0;
    } else if (a == "-o" && i + 1 < argc) {
      output = argv[++i];
    } else if (a == "--target" && i + 1 < argc) {
      target = argv[++i];
    } else if (a == "--list") {
      list = true;
    } else if (a.size() > 1 && a[0] == '-') {
      flags += " '" + a + "'";
    } else if (input.empty()) {
      input = a;
    } else {
      usage(stderr);
      return 2;
    }
  }
  if (input.empty()) {
    usage(stderr);
    return 2;
  }
  if (output.empty())
    output = std::filesystem::path(input).replace_extension(".gp").string();
  try {
    ipu_board b = poplar::detail::loadBoard(target);
    std::string gp = poplar::detail::compileCodelets(input, flags, b.isa, b.abi, output + ".tmp");
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
