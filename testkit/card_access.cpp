// The card-independent half of the test harnesses (see card_access.hpp).
#include "card_access.hpp"

#include <fstream>
#include <iterator>
#include <stdexcept>

#include "ipu_runtime/elf_image.hpp"

namespace ipu::test {

uint32_t CardAccess::read_tile_u32(unsigned tile, uint32_t addr)
{
    uint32_t v = 0;
    read_tile(tile, addr, &v, 4);
    return v;
}

void CardAccess::setup_tile(unsigned tile, uint32_t entry, uint32_t boot_arg, bool enable)
{
    set_reg(IPU_REG_TILE_SEL, tile);
    set_reg(IPU_REG_TILE_ENTRY, entry);
    set_reg(IPU_REG_TILE_BOOT_ARG, boot_arg);
    set_reg(IPU_REG_TILE_CTRL, enable ? IPU_REG_TILE_CTRL_ENABLE_MASK : 0);
}

uint32_t CardAccess::load_elf(const std::string &path, const std::vector<unsigned> &tiles, uint32_t boot_arg)
{
    std::ifstream f(path, std::ios::binary);
    if (!f)
        throw std::runtime_error("cannot open tile binary " + path);
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    // The runtime's hardened loader: the test programs meet the checks every user program meets.
    const runtime::TileImage image =
        runtime::parseTileElf(bytes.data(), bytes.size(), runtime::ElfTarget::fromBoard(card_board()), path);
    std::vector<unsigned> targets = tiles;
    if (targets.empty())
        for (unsigned t = 0; t < num_tiles(); t++)
            targets.push_back(t);
    for (const runtime::TileSegment &seg : image.segments) {
        std::vector<uint8_t> memory = seg.bytes;
        memory.resize(seg.memsz, 0); // bss as zeros
        for (unsigned t : targets)
            write_tile(t, seg.vaddr, memory.data(), memory.size());
    }
    symbols_ = runtime::tileElfSymbols(bytes.data(), bytes.size(), path);
    for (unsigned t : targets)
        setup_tile(t, image.entry, boot_arg);
    return image.entry;
}

uint32_t CardAccess::symbol(const std::string &name) const
{
    auto it = symbols_.find(name);
    return it == symbols_.end() ? 0 : it->second;
}

void CardAccess::map(unsigned entry, uint32_t dev_addr, const void *host, size_t bytes, bool card_reads, bool card_writes)
{
    const uint64_t bus = bus_address(host);
    const uint32_t pages = static_cast<uint32_t>((bytes + 4095) / 4096);
    const uint32_t base = IPU_REG_XLAT_BASE + entry * IPU_REG_XLAT_STRIDE;
    set_reg(base + IPU_XLAT_ENTRY_DEV_BASE_OFFSET, dev_addr);
    set_reg(base + IPU_XLAT_ENTRY_BUS_LO_OFFSET, static_cast<uint32_t>(bus));
    set_reg(base + IPU_XLAT_ENTRY_BUS_HI_OFFSET, static_cast<uint32_t>(bus >> 32));
    set_reg(base + IPU_XLAT_ENTRY_CTRL_OFFSET, IPU_XLAT_CTRL_VALID_MASK | (card_reads ? IPU_XLAT_CTRL_READ_MASK : 0) |
                                                   (card_writes ? IPU_XLAT_CTRL_WRITE_MASK : 0) |
                                                   ((pages - 1) << IPU_XLAT_CTRL_PAGES_MINUS_1_SHIFT));
}

RunResult CardAccess::run(uint64_t budget_per_round, uint64_t max_rounds,
                          const std::function<void(uint32_t)> &on_host_sync)
{
    console_.clear();
    host_syncs_ = 0;
    set_reg(IPU_REG_RUN_CTRL, IPU_REG_RUN_CTRL_START_MASK);
    return resume(budget_per_round, max_rounds, on_host_sync);
}

RunResult CardAccess::resume(uint64_t budget_per_round, uint64_t max_rounds,
                             const std::function<void(uint32_t)> &on_host_sync)
{
    for (uint64_t round = 0; round < max_rounds; round++) {
        advance(budget_per_round);
        for (uint32_t v; (v = reg(IPU_REG_CONSOLE_DATA)) & IPU_REG_CONSOLE_DATA_VALID_MASK;)
            console_[(v & IPU_REG_CONSOLE_DATA_TILE_MASK) >> IPU_REG_CONSOLE_DATA_TILE_SHIFT] +=
                static_cast<char>(v & IPU_REG_CONSOLE_DATA_BYTE_MASK);
        const uint32_t state = reg(IPU_REG_STATUS) & IPU_REG_STATUS_STATE_MASK;
        if (state == IPU_CARD_STATE_HOST_SYNC) {
            host_syncs_++;
            if (on_host_sync)
                on_host_sync(reg(IPU_REG_HSYNC_ID));
            set_reg(IPU_REG_HSYNC_RELEASE, 1);
            continue;
        }
        if (state != IPU_CARD_STATE_RUNNING)
            break;
    }
    return collect();
}

RunResult CardAccess::collect()
{
    RunResult r;
    r.card_state = reg(IPU_REG_STATUS) & IPU_REG_STATUS_STATE_MASK;
    r.console = console_;
    r.cycles = reg(IPU_REG_CARD_CYCLES_LO) | (static_cast<uint64_t>(reg(IPU_REG_CARD_CYCLES_HI)) << 32);
    r.host_syncs = host_syncs_;
    for (unsigned t = 0; t < num_tiles(); t++) {
        set_reg(IPU_REG_TILE_SEL, t);
        r.tile_state.push_back(reg(IPU_REG_TILE_STATE));
        r.exit_code.push_back(reg(IPU_REG_TILE_EXIT_CODE));
    }
    while (reg(IPU_REG_ERR_COUNT)) {
        r.errors.push_back(ErrorRecord{reg(IPU_REG_ERR_CAUSE), reg(IPU_REG_ERR_TILE), reg(IPU_REG_ERR_CONTEXT),
                                       reg(IPU_REG_ERR_PC), reg(IPU_REG_ERR_ADDR), reg(IPU_REG_ERR_INFO)});
        set_reg(IPU_REG_ERR_POP, 1);
    }
    return r;
}

void CardAccess::reset()
{
    set_reg(IPU_REG_RESET, IPU_RESET_KEY);
    console_.clear();
}

} // namespace ipu::test
