// RTL test harness implementation (see rtl_harness.hpp).
#include "rtl_harness.hpp"

#include <cstdlib>

#include "ipu_model/model.h"
#include "ipu_rtl/rtl.h"

namespace ipu::test {

namespace {
CardFactory factory_for(Backend backend)
{
    switch (backend) {
    case Backend::Rtl: return ipu_rtl_create;
    case Backend::Lockstep: return ipu_rtl_lockstep_create;
    case Backend::Model: break;
    }
    return ipu_model_create;
}
} // namespace

RtlHarness::RtlHarness(Backend backend, const std::string &board) : Harness(board, factory_for(backend)) {}

std::string RtlHarness::divergence()
{
    const char *d = ipu_rtl_lockstep_divergence(card());
    return d ? d : "";
}

uint64_t RtlHarness::compared() { return ipu_rtl_lockstep_compared(card()); }

std::string RtlHarness::program(const std::string &name)
{
    const char *dir = std::getenv("IPU_RTL_TILE_DIR");
#ifdef IPU_RTL_TILE_DIR_DEFAULT
    if (!dir)
        dir = IPU_RTL_TILE_DIR_DEFAULT;
#endif
    return std::string(dir ? dir : ".") + "/" + name + ".elf";
}

} // namespace ipu::test
