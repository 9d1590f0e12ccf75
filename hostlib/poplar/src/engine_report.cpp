// Engine::getReport: the engine's profiles as libpva's pva::Report. libpva links libpoplar, so libpoplar reaches
// libpva at run time: through the program's own link (-lpva) when it has one, else by loading libpva.so.0, which
// the installed libpoplar's RUNPATH ($ORIGIN) finds beside it.
#include <dlfcn.h>
#include <new>
#include <string>

#include "poplar/Engine.hpp"
#include "poplar/exceptions.hpp"

namespace poplar {

namespace {

typedef void (*ReportFromProfiles)(const ProfileValue *, const ProfileValue *, void *);

ReportFromProfiles findLibpva() {
  const char *entry = "ipu_emu_pva_report_from_profiles";
  if (void *f = ::dlsym(RTLD_DEFAULT, entry))
    return reinterpret_cast<ReportFromProfiles>(f);
  void *lib = ::dlopen("libpva.so.0", RTLD_NOW | RTLD_GLOBAL);
  if (!lib)
    throw poplar_error(std::string("Engine::getReport: cannot load libpva.so.0 (") + ::dlerror() +
                       "); link the program with -lpva or keep libpva next to libpoplar");
  void *f = ::dlsym(lib, entry);
  if (!f)
    throw poplar_error("Engine::getReport: libpva.so.0 has no " + std::string(entry) +
                       "; it is not this library's libpva: install libpoplar and libpva of one build");
  return reinterpret_cast<ReportFromProfiles>(f);
}

} // namespace

pva::Report Engine::getReport(bool reportExecution) const {
  static const ReportFromProfiles fromProfiles = findLibpva();
  const ProfileValue graph = getGraphProfile();
  const ProfileValue execution = reportExecution ? getExecutionProfile() : ProfileValue(ProfileValue::Map{});
  alignas(pva::Report) unsigned char storage[sizeof(pva::Report)];
  fromProfiles(&graph, &execution, storage);
  pva::Report *made = std::launder(reinterpret_cast<pva::Report *>(storage));
  pva::Report out(std::move(*made));
  made->~Report();
  return out;
}

} // namespace poplar
