// RTL test harness implementation (see rtl_harness.hpp).
#include "rtl_harness.hpp"

#include <cstdlib>

#include <cstdio>

#include "ipu_backends/lockstep.h"
#include "ipu_backends/registry.h"

namespace ipu::test {

namespace {
// Every card comes from the registry, as QEMU and the driver make theirs.
template <const char *Name>
int from_registry(const ipu_board *board, const ipu_backend_host *host, const ipu_backend_options *options,
                  ipu_backend **out)
{
    char err[512] = "";
    const int rc = ipu_backend_find(Name)->create(board, host, options, out, err, sizeof err);
    if (rc)
        std::fprintf(stderr, "%s\n", err);
    return rc;
}

constexpr char kRtl[] = "rtl", kLockstep[] = "lockstep", kModel[] = "model";

CardFactory factory_for(Backend backend)
{
    switch (backend) {
    case Backend::Rtl: return from_registry<kRtl>;
    case Backend::Lockstep: return from_registry<kLockstep>;
    case Backend::Model: break;
    }
    return from_registry<kModel>;
}
} // namespace

RtlHarness::RtlHarness(Backend backend, const std::string &board) : Harness(board, factory_for(backend)) {}

std::string RtlHarness::divergence()
{
    const char *d = ipu_lockstep_divergence(card());
    return d ? d : "";
}

uint64_t RtlHarness::compared() { return ipu_lockstep_compared(card()); }

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
