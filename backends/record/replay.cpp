// Replay of a trace (ipu_backends/record.h) on a fresh card model, with the
// trace standing in for the host: its DMA reads are served from the recorded
// data, everything the card produces is compared with the recording.
#include <cerrno>
#include <cstdarg>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ipu_backends/record.h"
#include "ipu_board.h"
#include "ipu_model/model.h"
#include "trace_format.hpp"

namespace {

namespace tr = ipu::trace;

const char *kind_name(uint8_t k)
{
    switch (k) {
    case tr::kBarRead: return "a BAR read";
    case tr::kBarWrite: return "a BAR write";
    case tr::kAdvance: return "an advance";
    case tr::kAdvanceEnd: return "the end of an advance";
    case tr::kDmaRead: return "a DMA read";
    case tr::kDmaWrite: return "a DMA write";
    case tr::kIrq: return "an interrupt";
    default: return "an unknown record";
    }
}

struct Replay {
    tr::Reader in{nullptr, 0};
    ipu_replay_result *res;
    bool stopped = false;
    bool cut = false; // the trace ended while the card still made calls: exit 2, not a difference
    size_t record_start = 0;

    // Stops at the first difference; later ones are consequences.
    void differ(const char *fmt, ...) __attribute__((format(printf, 2, 3)))
    {
        if (stopped)
            return;
        stopped = true;
        res->differs = 1;
        char what[400];
        va_list ap;
        va_start(ap, fmt);
        std::vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        std::snprintf(res->message, sizeof res->message, "record %" PRIu64 " (byte %zu of the trace): %s",
                      res->records, record_start, what);
    }

    // The next record's kind without consuming it (0 at the end).
    uint8_t peek() const { return in.pos < in.size ? in.data[in.pos] : 0; }

    // Starts the next record, which must be of kind `want` for the card's
    // callback `doing`; false (and a difference) otherwise.
    bool expect(uint8_t want, const std::string &doing)
    {
        if (stopped)
            return false;
        if (in.pos >= in.size) {
            // The card still works and the recording has stopped: a cut trace, not a difference.
            cut = true;
            stopped = true;
            return false;
        }
        const uint8_t k = peek();
        if (k != want) {
            differ("the replayed card did %s, the recording has %s here", doing.c_str(),
                   k ? kind_name(k) : "the end of the trace");
            return false;
        }
        record_start = in.pos;
        in.get<uint8_t>();
        res->records++;
        return true;
    }

    int dma(uint8_t kind, uint64_t bus, void *buf, size_t len)
    {
        char doing[96];
        std::snprintf(doing, sizeof doing, "a DMA %s of %zu bytes at bus address 0x%" PRIx64,
                      kind == tr::kDmaRead ? "read" : "write", len, bus);
        if (!expect(kind, doing))
            return -EIO;
        const uint64_t rbus = in.get<uint64_t>();
        const uint32_t rlen = in.get<uint32_t>();
        const int32_t rc = in.get<int32_t>();
        if (!in.ok) { // cut inside the record's fields
            cut = true;
            stopped = true;
            return -EIO;
        }
        if (rbus != bus || rlen != len) {
            differ("%s, the recording has %u bytes at 0x%" PRIx64, doing, rlen, rbus);
            return -EIO;
        }
        const uint8_t *data = kind == tr::kDmaWrite || rc == 0 ? in.get_bytes(rlen) : nullptr;
        if (!in.ok) {
            cut = true;
            stopped = true;
            return -EIO;
        }
        res->dma_bytes += len;
        if (kind == tr::kDmaRead && rc == 0)
            std::memcpy(buf, data, len);
        if (kind == tr::kDmaWrite && std::memcmp(buf, data, len) != 0) {
            size_t i = 0;
            while (static_cast<const uint8_t *>(buf)[i] == data[i])
                i++;
            differ("%s: byte %zu is 0x%02x in the recording, 0x%02x in the replay", doing, i, data[i],
                   static_cast<const uint8_t *>(buf)[i]);
        }
        return rc;
    }
};

int replay_dma_read(void *opaque, uint64_t bus, void *buf, size_t len)
{
    return static_cast<Replay *>(opaque)->dma(tr::kDmaRead, bus, buf, len);
}

int replay_dma_write(void *opaque, uint64_t bus, const void *buf, size_t len)
{
    return static_cast<Replay *>(opaque)->dma(tr::kDmaWrite, bus, const_cast<void *>(buf), len);
}

void replay_irq(void *opaque, unsigned vector)
{
    auto *r = static_cast<Replay *>(opaque);
    const std::string doing = "an interrupt on vector " + std::to_string(vector);
    if (!r->expect(tr::kIrq, doing))
        return;
    const uint32_t rv = r->in.get<uint32_t>();
    if (!r->in.ok) {
        r->cut = true;
        r->stopped = true;
    } else if (rv != vector)
        r->differ("the replayed card raised vector %u, the recording has vector %u", vector, rv);
}

int fail(ipu_replay_result *res, int code, const std::string &why)
{
    std::snprintf(res->message, sizeof res->message, "%s", why.c_str());
    return code;
}

} // namespace

extern "C" int ipu_replay_file(const char *path, unsigned host_threads, ipu_replay_result *res)
{
    *res = ipu_replay_result{};
    std::ifstream f(path, std::ios::binary);
    if (!f)
        return fail(res, -ENOENT, std::string(path) + ": cannot open the trace: " + std::strerror(errno));
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    Replay rp;
    rp.res = res;
    rp.in = tr::Reader{bytes.data(), bytes.size()};
    const uint8_t *magic = rp.in.get_bytes(sizeof tr::kMagic);
    if (!magic || std::memcmp(magic, tr::kMagic, sizeof tr::kMagic) != 0)
        return fail(res, -EINVAL, std::string(path) + ": not an ipu-emu trace (no IPUTRACE header)");
    const uint32_t version = rp.in.get<uint32_t>();
    const uint32_t board_size = rp.in.get<uint32_t>();
    if (version != tr::kVersion || board_size != sizeof(ipu_board))
        return fail(res, -EINVAL, std::string(path) + ": trace version " + std::to_string(version) +
                                      " with a " + std::to_string(board_size) + "-byte board; this replayer reads "
                                      "version " + std::to_string(tr::kVersion) + " from the same build");
    ipu_board board;
    const uint8_t *b = rp.in.get_bytes(sizeof board);
    const uint32_t name_len = rp.in.get<uint32_t>();
    const uint8_t *name = rp.in.get_bytes(name_len);
    const uint8_t had_irq = rp.in.get<uint8_t>();
    if (!rp.in.ok || !b || !name)
        return fail(res, -EINVAL, std::string(path) + ": the trace header is cut short");
    std::memcpy(&board, b, sizeof board);
    // The board sizes the card: a corrupted one must be refused here, naming the field, not crash the model.
    char why[400];
    const std::string what = std::string(path) + ": the board stored in the trace";
    if (ipu_board_check(&board, what.c_str(), why, sizeof why) != 0)
        return fail(res, -EINVAL, std::string(why) + "; the trace is corrupt (record it again)");
    if (std::string(reinterpret_cast<const char *>(name), name_len) != "model")
        return fail(res, -ENOTSUP, std::string(path) + ": recorded on the '" +
                                       std::string(reinterpret_cast<const char *>(name), name_len) +
                                       "' card; replay runs the model, so record with backend=model");
    const ipu_backend_host host{&rp, replay_dma_read, replay_dma_write, had_irq ? replay_irq : nullptr};
    const ipu_backend_options options{host_threads, 0};
    ipu_backend *card = nullptr;
    if (int rc = ipu_model_create(&board, &host, &options, &card))
        return fail(res, rc, std::string(path) + ": the model refused the recorded board '" + board.name + "'");
    while (!rp.stopped && rp.in.pos < rp.in.size) {
        rp.record_start = rp.in.pos;
        const uint8_t kind = rp.in.get<uint8_t>();
        res->records++;
        if (kind == tr::kBarRead) {
            const unsigned bar = rp.in.get<uint8_t>(), size = rp.in.get<uint8_t>();
            const uint64_t offset = rp.in.get<uint64_t>(), want = rp.in.get<uint64_t>();
            const int32_t want_rc = rp.in.get<int32_t>();
            if (!rp.in.ok)
                break;
            const uint64_t at = rp.record_start;
            uint64_t got = 0;
            const int rc = card->ops->bar_read(card, bar, offset, size, &got);
            res->reads++;
            if (got != want || rc != want_rc) {
                rp.record_start = at;
                rp.differ("BAR%u read of offset 0x%" PRIx64 " (size %u): recorded 0x%" PRIx64 " (rc %d), replayed 0x%"
                          PRIx64 " (rc %d)", bar, offset, size, want, want_rc, got, rc);
            }
        } else if (kind == tr::kBarWrite) {
            const unsigned bar = rp.in.get<uint8_t>(), size = rp.in.get<uint8_t>();
            const uint64_t offset = rp.in.get<uint64_t>(), value = rp.in.get<uint64_t>();
            if (!rp.in.ok)
                break;
            card->ops->bar_write(card, bar, offset, size, value);
        } else if (kind == tr::kAdvance) {
            const uint64_t budget = rp.in.get<uint64_t>();
            if (!rp.in.ok)
                break;
            if (budget > IPU_REPLAY_BUDGET_MAX) {
                card->ops->destroy(card);
                return fail(res, -EINVAL, std::string(path) + ": record " + std::to_string(res->records) +
                                              " (byte " + std::to_string(rp.record_start) + ") is an advance of " +
                                              std::to_string(budget) + " instructions per tile, more than the " +
                                              std::to_string(IPU_REPLAY_BUDGET_MAX) + " any host asks for; the "
                                              "trace is corrupt (record it again)");
            }
            const int more = card->ops->advance(card, budget);
            if (rp.expect(tr::kAdvanceEnd, "the end of an advance")) {
                const int32_t want = rp.in.get<int32_t>();
                if (!rp.in.ok)
                    rp.cut = rp.stopped = true;
                else if (want != more)
                    rp.differ("advance(%" PRIu64 ") returned %d in the recording, %d in the replay", budget, want,
                              more);
            }
        } else {
            rp.differ("%s that the replayed card did not make (it comes from the card, not the host)",
                      kind_name(kind));
        }
    }
    card->ops->destroy(card);
    if (rp.cut)
        return fail(res, -EINVAL, std::string(path) + ": the trace ends at byte " + std::to_string(rp.in.size) +
                                      " while the replayed card still works (record " +
                                      std::to_string(res->records) + "): it is cut short (a full disk or a killed "
                                      "recorder?); record it again");
    if (!rp.stopped && !rp.in.ok)
        return fail(res, -EINVAL, std::string(path) + ": the trace ends inside a record (cut short?)");
    return rp.stopped ? 1 : 0;
}
