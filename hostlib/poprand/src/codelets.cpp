// poprand::addCodelets: loads poprand.gp, which popc built for the tiles with the library, found relative to
// libpoprand.so itself (<libdir>/POPRAND_DATA_RELDIR/codelets/<isa>/poprand.gp) in the build tree and in an
// install tree alike, and gives the graph its generator state.
#include "poprand/codelets.hpp"

#include <dlfcn.h>

#include <filesystem>

#include "hw_state.hpp"
#include "log.hpp"
#include "poputil/exceptions.hpp"

namespace poprand {

namespace fs = std::filesystem;

static fs::path libraryDir() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void *>(&addCodelets), &info) || !info.dli_fname)
    throw poputil::poplibs_error("poprand::addCodelets: cannot find where libpoprand.so was loaded from");
  return fs::absolute(info.dli_fname).parent_path();
}

void addCodelets(poplar::Graph &graph) {
  const std::string isa = graph.getTarget().getTargetArchString();
  const fs::path dir = libraryDir() / POPRAND_DATA_RELDIR / "codelets";
  const fs::path gp = dir / isa / "poprand.gp";
  if (!fs::exists(gp)) {
    std::string built;
    if (fs::is_directory(dir))
      for (const auto &e : fs::directory_iterator(dir))
        if (fs::exists(e.path() / "poprand.gp"))
          built += (built.empty() ? "" : ", ") + e.path().filename().string();
    throw poputil::poplibs_error("poprand::addCodelets: no poprand codelets for the tile ISA " + isa + " (" +
                                 gp.string() + " is missing; built for: " + (built.empty() ? "none" : built) +
                                 "); reinstall PopLibs or use a target of a built ISA");
  }
  poputil::detail::log(poputil::detail::LogLevel::Info, "poprand::addCodelets: " + gp.string());
  graph.addCodelets(gp.string(), poplar::CodeletFileType::Object);
  detail::createHwState(graph);
}

} // namespace poprand
