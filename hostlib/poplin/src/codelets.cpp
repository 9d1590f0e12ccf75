// poplin::addCodelets: loads poplin.gp, which popc built for the tiles with the library. It is found relative to
// libpoplin.so itself (<libdir>/POPLIN_DATA_RELDIR/codelets/<isa>/poplin.gp), which holds both in the build tree
// and in an install tree; nothing comes from the user's cache.
#include "poplin/codelets.hpp"

#include <dlfcn.h>

#include <filesystem>

#include "log.hpp"
#include "poputil/exceptions.hpp"

namespace poplin {

namespace fs = std::filesystem;

static fs::path libraryDir() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void *>(&addCodelets), &info) || !info.dli_fname)
    throw poputil::poplibs_error("poplin::addCodelets: cannot find where libpoplin.so was loaded from");
  return fs::absolute(info.dli_fname).parent_path();
}

void addCodelets(poplar::Graph &graph) {
  const std::string isa = graph.getTarget().getTargetArchString();
  fs::path dir = libraryDir() / POPLIN_DATA_RELDIR / "codelets";
  fs::path gp = dir / isa / "poplin.gp";
  if (!fs::exists(gp)) {
    std::string built;
    if (fs::is_directory(dir))
      for (const auto &e : fs::directory_iterator(dir))
        built += (built.empty() ? "" : ", ") + e.path().filename().string();
    throw poputil::poplibs_error("poplin::addCodelets: no poplin codelets for the tile ISA " + isa + " (" +
                                 gp.string() + " is missing; built for: " + (built.empty() ? "none" : built) +
                                 "); reinstall PopLibs or use a target of a built ISA");
  }
  poputil::detail::log(poputil::detail::LogLevel::Info, "poplin::addCodelets: " + gp.string());
  graph.addCodelets(gp.string(), poplar::CodeletFileType::Object);
}

} // namespace poplin
