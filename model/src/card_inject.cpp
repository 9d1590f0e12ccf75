// Fault injection (ipu_model/inject.h): interrupts dropped or held back, and
// the spec parser shared by $IPU_EMU_INJECT and the tools. The DMA error,
// stall and surprise removal act where the card does that work (card_dma.cpp,
// card_run.cpp, card_regs.cpp).
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>

#include "card.hpp"

namespace ipu::model {

void Card::set_faults(const ipu_backend_faults &f)
{
    std::lock_guard<std::recursive_mutex> g(lock_);
    rescan_chunks_ = true; // conservatively: a fault may change what the tiles do
    faults_ = f;
    if (!f.delay_irq_mask) { // nothing held back any more: deliver what was
        auto held = std::move(delayed_irqs_);
        delayed_irqs_.clear();
        for (auto [vector, left] : held)
            if (host_.irq && !faults_.removed)
                host_.irq(host_.opaque, vector);
    }
}

ipu_backend_faults Card::faults()
{
    std::lock_guard<std::recursive_mutex> g(lock_);
    return faults_;
}

void Card::deliver_irq(unsigned vector)
{
    const uint32_t bit = 1u << vector;
    if (faults_.removed || !host_.irq)
        return;
    if (faults_.drop_irq_mask & bit) {
        faults_.drop_irq_mask &= ~bit; // one message lost
        return;
    }
    if ((faults_.delay_irq_mask & bit) && faults_.irq_delay) {
        delayed_irqs_.emplace_back(vector, faults_.irq_delay);
        return;
    }
    host_.irq(host_.opaque, vector);
}

void Card::tick_delayed_irqs()
{
    for (auto it = delayed_irqs_.begin(); it != delayed_irqs_.end();) {
        if (--it->second == 0) {
            const unsigned vector = it->first;
            it = delayed_irqs_.erase(it);
            if (host_.irq)
                host_.irq(host_.opaque, vector);
        } else {
            ++it;
        }
    }
}

} // namespace ipu::model

namespace {

// A number in decimal or 0x hex. strtoul's base 0 would read "012" as octal 10,
// which nobody writing a fault spec means: a leading zero is refused.
bool parse_number(const std::string &text, uint32_t &out)
{
    if (text.empty() || text[0] == '-' || text[0] == '+' || std::isspace(static_cast<unsigned char>(text[0])))
        return false;
    const bool hex = text.size() > 2 && text[0] == '0' && text[1] == 'x';
    if (!hex && text.size() > 1 && text[0] == '0')
        return false;
    char *end = nullptr;
    errno = 0;
    const unsigned long v = std::strtoul(text.c_str() + (hex ? 2 : 0), &end, hex ? 16 : 10);
    if (errno || *end || v > 0xffffffffu || !std::isxdigit(static_cast<unsigned char>(text[hex ? 2 : 0])))
        return false;
    out = static_cast<uint32_t>(v);
    return true;
}

int bad(char *err, size_t err_len, const std::string &item)
{
    if (err && err_len)
        std::snprintf(err, err_len,
                      "fault injection: cannot use '%s'; give a comma-separated list of dma_error=ERR_CODE (1-255), "
                      "drop_irq=VECTOR (0-3), delay_irq=VECTOR:ADVANCES, removed, stall_dma, each at most once, "
                      "numbers in decimal (no leading zero) or 0x hex",
                      item.c_str());
    return -EINVAL;
}

} // namespace

extern "C" int ipu_model_faults_parse(const char *spec, ipu_backend_faults *out, char *err, size_t err_len)
{
    if (!spec || !out)
        return -EINVAL;
    ipu_backend_faults f{};
    std::set<std::string> seen;
    std::string rest = spec;
    while (!rest.empty()) {
        const size_t comma = rest.find(',');
        const std::string item = rest.substr(0, comma);
        rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
        const size_t eq = item.find('=');
        const std::string key = item.substr(0, eq), value = eq == std::string::npos ? "" : item.substr(eq + 1);
        uint32_t n = 0, m = 0;
        // A key given twice would silently override the first (or merge masks): say so instead.
        if (!item.empty() && !seen.insert(key).second) {
            if (err && err_len)
                std::snprintf(err, err_len, "fault injection: '%s' is given twice in '%s'; give each fault once",
                              key.c_str(), spec);
            return -EINVAL;
        }
        if (key == "removed" && eq == std::string::npos) {
            f.removed = 1;
        } else if (key == "stall_dma" && eq == std::string::npos) {
            f.stall_dma = 1;
        } else if (key == "dma_error" && parse_number(value, n) && n >= 1 && n <= 255) {
            f.dma_error = n;
        } else if (key == "drop_irq" && parse_number(value, n) && n < IPU_PCI_MSIX_VECTORS) {
            f.drop_irq_mask |= 1u << n;
        } else if (key == "delay_irq" && value.find(':') != std::string::npos &&
                   parse_number(value.substr(0, value.find(':')), n) && n < IPU_PCI_MSIX_VECTORS &&
                   parse_number(value.substr(value.find(':') + 1), m) && m >= 1) {
            f.delay_irq_mask |= 1u << n;
            f.irq_delay = m;
        } else if (!item.empty()) {
            return bad(err, err_len, item);
        }
    }
    *out = f;
    return 0;
}
