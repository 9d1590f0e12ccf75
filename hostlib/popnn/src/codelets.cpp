// popnn::addCodelets: loads popnn.gp, which popc built for the tiles with the library. It is found relative to
// libpopnn.so itself (<libdir>/POPNN_DATA_RELDIR/codelets/<isa>/popnn.gp), as popops finds popops.gp.
#include "popnn/codelets.hpp"

#include <dlfcn.h>

#include <filesystem>

#include "log.hpp"
#include "poputil/exceptions.hpp"

namespace popnn {

namespace fs = std::filesystem;

static fs::path libraryDir() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void *>(&addCodelets), &info) || !info.dli_fname)
    throw poputil::poplibs_error("popnn::addCodelets: cannot find where libpopnn.so was loaded from");
  return fs::absolute(info.dli_fname).parent_path();
}

void addCodelets(poplar::Graph &graph) {
  const std::string isa = graph.getTarget().getTargetArchString();
  fs::path gp = libraryDir() / POPNN_DATA_RELDIR / "codelets" / isa / "popnn.gp";
  if (!fs::exists(gp))
    throw poputil::poplibs_error("popnn::addCodelets: no popnn codelets for the tile ISA " + isa + " (" +
                                 gp.string() + " is missing); reinstall PopLibs or use a target of a built ISA");
  poputil::detail::log(poputil::detail::LogLevel::Info, "popnn::addCodelets: " + gp.string());
  graph.addCodelets(gp.string(), poplar::CodeletFileType::Object);
}

} // namespace popnn
