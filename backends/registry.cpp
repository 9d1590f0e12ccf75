// The registry of card embodiments (ipu_backends/registry.h): the one place that
// maps a name to a constructor, for QEMU, the driver and the tests alike.
#include "ipu_backends/registry.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "ipu_backends/lockstep.h"
#include "ipu_backends/record.h"
#include "ipu_board.h"
#include "ipu_card/hw.h"
#include "ipu_model/inject.h"
#include "ipu_model/model.h"
#if IPU_BACKENDS_HAVE_RTL
#include "ipu_rtl/rtl.h"
#endif

namespace {

const char *name_of(const ipu_board *board) { return board ? board->name : "?"; }

// Faults armed from $IPU_EMU_INJECT on every model card this process makes
// (ipu_model/inject.h): the in-process counterpart of the QEMU properties.
int inject_from_env(ipu_backend *card, char *err, size_t err_len)
{
    const char *spec = std::getenv("IPU_EMU_INJECT");
    if (!spec || !*spec)
        return 0;
    ipu_backend_faults faults{};
    char why[256] = "";
    int rc = ipu_model_faults_parse(spec, &faults, why, sizeof why);
    if (rc == 0)
        rc = ipu_backend_inject(card, &faults);
    if (rc)
        std::snprintf(err, err_len, "IPU_EMU_INJECT='%s': %s", spec, why[0] ? why : std::strerror(-rc));
    return rc;
}

int create_plain_model(const ipu_board *board, const ipu_backend_host *host, const ipu_backend_options *options,
                       ipu_backend **out, char *err, size_t err_len)
{
    int rc = ipu_model_create(board, host, options, out);
    if (rc == 0 && (rc = inject_from_env(*out, err, err_len))) {
        (*out)->ops->destroy(*out);
        *out = nullptr;
        return rc;
    }
    char why[320] = "";
    if (rc == -EINVAL && board && ipu_board_check(board, "the card model refused the board", why, sizeof why))
        std::snprintf(err, err_len, "%s; fix the board file", why); // names the field and its range
    else if (rc == -EINVAL)
        std::snprintf(err, err_len, "the card model refused board '%s': it needs 1 or more tiles, 1 to %u bytes "
                      "per tile and at most %u worker contexts; fix the board file", name_of(board),
                      IPU_TILE_SRAM_MAX_BYTES, IPU_TILE_CONTEXTS_MAX - 1);
    else if (rc)
        std::snprintf(err, err_len, "the card model for board '%s': out of memory (%s)", name_of(board),
                      std::strerror(-rc));
    return rc;
}

const ipu_backend_factory plain_model_factory = {"model", "the functional card model", 1, create_plain_model};

// The model, recorded to $IPU_EMU_RECORD when that is set (ipu_backends/record.h).
int create_model(const ipu_board *board, const ipu_backend_host *host, const ipu_backend_options *options,
                 ipu_backend **out, char *err, size_t err_len)
{
    const char *trace = std::getenv(IPU_RECORD_ENV);
    if (trace && *trace)
        return ipu_record_create(&plain_model_factory, board, host, options, trace, out, err, err_len);
    return create_plain_model(board, host, options, out, err, err_len);
}

#if IPU_BACKENDS_HAVE_RTL
int create_rtl(const ipu_board *board, const ipu_backend_host *host, const ipu_backend_options *options,
               ipu_backend **out, char *err, size_t err_len)
{
    if (!board || !host || !out) {
        std::snprintf(err, err_len, "the RTL card needs a board and a host");
        return -EINVAL;
    }
    // The RTL has no F extension yet: say so rather than a bare -EINVAL.
    if (ipu_board_has_fpu(board)) {
        std::snprintf(err, err_len, "board '%s' needs %s, but the RTL tiles are rv32im; use an rv32im board such as "
                      "rtl-tiny", board->name, board->isa);
        return -ENOTSUP;
    }
    const int rc = ipu_rtl_create(board, host, options, out);
    if (rc == -EINVAL)
        std::snprintf(err, err_len, "the RTL card refused board '%s': the RTL is Verilated only for some shapes "
                      "(tiles x bytes per tile x workers, see rtl/cmake/ipu_rtl.cmake), e.g. rtl-tiny; add a "
                      "variant there for %u x %u x %u", board->name, ipu_board_num_tiles(board),
                      board->bytes_per_tile, board->worker_contexts);
    else if (rc)
        std::snprintf(err, err_len, "the RTL card for board '%s': %s", board->name, std::strerror(-rc));
    return rc;
}

// The RTL as primary, the model beside it as secondary: the model only
// computes, so interrupts belong to the RTL and the model runs on one thread.
int create_lockstep(const ipu_board *board, const ipu_backend_host *host, const ipu_backend_options *options,
                    ipu_backend **out, char *err, size_t err_len)
{
    ipu_backend *rtl = nullptr, *model = nullptr;
    int rc = create_rtl(board, host, options, &rtl, err, err_len);
    if (rc)
        return rc;
    const ipu_backend_host quiet{host->opaque, host->dma_read, host->dma_write, nullptr};
    const ipu_backend_options one_thread{1, 0};
    if ((rc = create_plain_model(board, &quiet, &one_thread, &model, err, err_len))) {
        rtl->ops->destroy(rtl);
        return rc;
    }
    if ((rc = ipu_lockstep_create(rtl, model, out)))
        std::snprintf(err, err_len, "cannot pair the RTL card and the model for board '%s' (%s)", board->name,
                      std::strerror(-rc));
    return rc;
}
#else
int not_built(const char *what, const ipu_board *board, char *err, size_t err_len)
{
    std::snprintf(err, err_len, "the %s is not in this build (Verilator was not found when it was configured, so "
                  "the RTL card for board '%s' was not built); run `make deps` to install Verilator, then "
                  "reconfigure and rebuild (for QEMU: scripts/qemu/build.sh)", what, name_of(board));
    return -ENOTSUP;
}

int create_rtl(const ipu_board *board, const ipu_backend_host *, const ipu_backend_options *, ipu_backend **,
               char *err, size_t err_len)
{
    return not_built("RTL card", board, err, err_len);
}

int create_lockstep(const ipu_board *board, const ipu_backend_host *, const ipu_backend_options *, ipu_backend **,
                    char *err, size_t err_len)
{
    return not_built("lock-step card (RTL beside the model)", board, err, err_len);
}
#endif

const ipu_backend_factory model_factory = {"model", "the functional card model (model/)", 1,
                                           create_model};
const ipu_backend_factory rtl_factory = {"rtl", "the Verilated RTL tile array (rtl/sim)", IPU_BACKENDS_HAVE_RTL,
                                         create_rtl};
const ipu_backend_factory lockstep_factory = {
    "lockstep", "the RTL with the model beside it, compared instruction by instruction (backends/lockstep)",
    IPU_BACKENDS_HAVE_RTL, create_lockstep};

const ipu_backend_factory *const factories[] = {&model_factory, &rtl_factory, &lockstep_factory, nullptr};

} // namespace

extern "C" const ipu_backend_factory *ipu_backend_find(const char *name)
{
    for (const ipu_backend_factory *const *f = factories; name && *f; f++)
        if (std::strcmp((*f)->name, name) == 0)
            return *f;
    return nullptr;
}

extern "C" const ipu_backend_factory *const *ipu_backend_factories(void) { return factories; }

extern "C" const char *ipu_backend_default_for(const ipu_board *board)
{
    if (board && board->transport[0] && ipu_backend_find(board->transport))
        return board->transport;
    return "model";
}

extern "C" int ipu_backend_create(const ipu_backend_factory *factory, const ipu_board *board,
                                  const ipu_backend_host *host, const ipu_backend_options *options, ipu_backend **out,
                                  char *err, size_t err_len)
{
    if (!factory) {
        std::snprintf(err, err_len, "no card embodiment given (model, rtl or lockstep)");
        return -EINVAL;
    }
    if (options && options->record_path && *options->record_path) {
        // The recorder creates the card through the factory itself; the inner card records nothing more.
        ipu_backend_options inner = *options;
        inner.record_path = nullptr;
        return ipu_record_create(factory, board, host, &inner, options->record_path, out, err, err_len);
    }
    return factory->create(board, host, options, out, err, err_len);
}
