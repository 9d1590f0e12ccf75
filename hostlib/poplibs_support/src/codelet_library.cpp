// poplibs_support::addLibraryCodelets: each library's addCodelets. The .gp is found next to the shared library
// itself (dladdr of a symbol in it), so a build tree and an install tree both work and nothing comes from the
// user's cache.
#include <dlfcn.h>

#include <filesystem>

#include "log.hpp"
#include "poplibs_support.hpp"
#include "poputil/exceptions.hpp"

namespace poplibs_support {

namespace fs = std::filesystem;

namespace {

fs::path libraryDir(const std::string &lib, const void *symbolInLib) {
  Dl_info info{};
  if (!dladdr(symbolInLib, &info) || !info.dli_fname)
    throw poputil::poplibs_error(lib + "::addCodelets: cannot find where lib" + lib + ".so was loaded from");
  return fs::absolute(info.dli_fname).parent_path();
}

} // namespace

void addLibraryCodelets(poplar::Graph &graph, const std::string &lib, const void *symbolInLib,
                        const std::string &dataRelDir) {
  const std::string isa = graph.getTarget().getTargetArchString();
  const fs::path dir = libraryDir(lib, symbolInLib) / dataRelDir / "codelets";
  const fs::path gp = dir / isa / (lib + ".gp");
  if (!fs::exists(gp)) {
    std::string built;
    if (fs::is_directory(dir))
      for (const auto &e : fs::directory_iterator(dir))
        if (fs::exists(e.path() / (lib + ".gp")))
          built += (built.empty() ? "" : ", ") + e.path().filename().string();
    throw poputil::poplibs_error(lib + "::addCodelets: no " + lib + " codelets for the tile ISA " + isa + " (" +
                                 gp.string() + " is missing; built for: " + (built.empty() ? "none" : built) +
                                 "); reinstall PopLibs or use a target of a built ISA");
  }
  poputil::detail::log(poputil::detail::LogLevel::Info, lib + "::addCodelets: " + gp.string());
  graph.addCodelets(gp.string(), poplar::CodeletFileType::Object);
}

} // namespace poplibs_support
