// The RTL card as the backend sees it: one interface over every Verilated configuration.
#pragma once
#include <cstdint>
#include <memory>

#include "ipu_board.h"
#include "ipu_card/backend.h"

namespace ipu::rtl {

class CardIf {
public:
    virtual ~CardIf() = default;
    // BAR accesses and advance() as struct ipu_backend_ops defines them.
    virtual int bar_read(unsigned bar, uint64_t offset, unsigned size, uint64_t *value) = 0;
    virtual int bar_write(unsigned bar, uint64_t offset, unsigned size, uint64_t value) = 0;
    virtual int advance(uint64_t budget) = 0;
    virtual void set_observer(ipu_retire_observer observer, void *opaque) = 0;
    virtual uint64_t cycles() const = 0;
};

// One Verilated configuration of ipu_card.
struct Variant {
    uint32_t tiles, sram_bytes, workers;
    bool host_service; // CAPS.HOST_SERVICE: the host services the tiles' requests (the iCE40 card)
    std::unique_ptr<CardIf> (*make)(const ipu_board &board, const ipu_backend_host &host,
                                    const ipu_backend_options &options);
};

// The configurations this build has (rtl/CMakeLists.txt generates the list).
extern const Variant kVariants[];
extern const unsigned kNumVariants;

// ipu_rtl_create with the configuration `v` (which must fit `board`): the
// benchmark's Verilator-threaded variant is not in kVariants, so that the
// tests and the driver never pick it. Returns as ipu_rtl_create.
int create_variant(const Variant &v, const ipu_board &board, const ipu_backend_host &host,
                   const ipu_backend_options *options, ipu_backend **out);

} // namespace ipu::rtl
