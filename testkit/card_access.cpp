// The card-independent half of the test harnesses (see card_access.hpp).
#include "card_access.hpp"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

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
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (bytes.size() < sizeof(Elf32_Ehdr) || std::memcmp(bytes.data(), ELFMAG, SELFMAG) != 0)
        throw std::runtime_error("not an ELF file: " + path);
    Elf32_Ehdr eh;
    std::memcpy(&eh, bytes.data(), sizeof eh);
    std::vector<unsigned> targets = tiles;
    if (targets.empty())
        for (unsigned t = 0; t < num_tiles(); t++)
            targets.push_back(t);
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        Elf32_Phdr ph;
        std::memcpy(&ph, bytes.data() + eh.e_phoff + i * sizeof ph, sizeof ph);
        if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
            continue;
        std::vector<uint8_t> image(ph.p_memsz, 0);
        std::memcpy(image.data(), bytes.data() + ph.p_offset, ph.p_filesz);
        for (unsigned t : targets)
            write_tile(t, ph.p_paddr, image.data(), image.size());
    }
    symbols_.clear();
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        Elf32_Shdr sh;
        std::memcpy(&sh, bytes.data() + eh.e_shoff + i * sizeof sh, sizeof sh);
        if (sh.sh_type != SHT_SYMTAB)
            continue;
        Elf32_Shdr strtab;
        std::memcpy(&strtab, bytes.data() + eh.e_shoff + sh.sh_link * sizeof sh, sizeof strtab);
        for (size_t off = 0; off + sizeof(Elf32_Sym) <= sh.sh_size; off += sizeof(Elf32_Sym)) {
            Elf32_Sym sym;
            std::memcpy(&sym, bytes.data() + sh.sh_offset + off, sizeof sym);
            symbols_[reinterpret_cast<const char *>(bytes.data() + strtab.sh_offset + sym.st_name)] = sym.st_value;
        }
    }
    for (unsigned t : targets)
        setup_tile(t, eh.e_entry, boot_arg);
    return eh.e_entry;
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
