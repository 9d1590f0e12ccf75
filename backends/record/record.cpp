// The recording card (ipu_backends/record.h): a wrapper that writes every
// call between the host and the card it wraps to a trace file.
#include "ipu_backends/record.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <string>

#include "ipu_board.h"
#include "ipu_card/backend_class.hpp"
#include "trace_format.hpp"

namespace {

using ipu::trace::Writer;
namespace tr = ipu::trace;

// A pure decorator: the operations it does not write here (the retire
// observer, save, fault injection) go to the card underneath unchanged
// (ipu::backend::Forwarding); faults so go to the inner card, whose effects
// (BAR reads, DMA, interrupts) are what the trace records.
struct Recorder : ipu::backend::Forwarding {
    ipu_backend_host host{};
    FILE *file = nullptr;
    std::recursive_mutex lock; // one order of records, whatever thread calls
    unsigned depth = 0;        // > 0 inside a call to the inner card

    std::string path;
    // Set once a write to the trace failed (a full disk, a file size limit): the
    // trace is cut, so every later host call fails (-EIO) instead of the run
    // going on as if it were recorded.
    bool failed = false;

    // Writes one record; flushes when it ends a host call, so that a killed
    // process (QEMU on SIGTERM) leaves a complete trace.
    void emit(const Writer &w)
    {
        if (failed)
            return;
        errno = 0;
        if (std::fwrite(w.bytes.data(), 1, w.bytes.size(), file) != w.bytes.size() ||
            (depth == 0 && std::fflush(file) != 0))
            fail(errno);
    }
    // Flushes what a host call wrote; false when the trace could not take it.
    bool flush()
    {
        if (!failed && std::fflush(file) != 0)
            fail(errno);
        return !failed;
    }
    int bar_read(unsigned bar, uint64_t offset, unsigned size, uint64_t *value);
    int bar_write(unsigned bar, uint64_t offset, unsigned size, uint64_t value);
    int advance(uint64_t budget);
    // A restored card is not the card the trace started from: replay could not follow.
    int restore(const void *, size_t) { return -ENOTSUP; }

    // The inner card goes first: what it does on the way out is still recorded.
    ~Recorder()
    {
        release_inner();
        if (file && std::fclose(file) != 0 && !failed)
            fail(errno);
    }

    void fail(int e)
    {
        failed = true;
        std::fprintf(stderr, "ipu-emu: cannot write the trace file %s: %s; the trace is cut short, so this run's card "
                             "calls fail from here on (free space or raise the file size limit, then record again)\n",
                     path.c_str(), std::strerror(e ? e : EIO));
    }
};

// A guard for one host call: holds the lock, counts the depth.
struct Call {
    Recorder *r;
    std::lock_guard<std::recursive_mutex> g;
    explicit Call(Recorder *rr) : r(rr), g(rr->lock) { r->depth++; }
    ~Call() { r->depth--; }
};

int Recorder::bar_read(unsigned bar, uint64_t offset, unsigned size, uint64_t *value)
{
    Recorder *r = this;
    std::lock_guard<std::recursive_mutex> g(r->lock); // the read and its record, with no call between
    int rc;
    {
        Call c(r);
        rc = r->inner->ops->bar_read(r->inner, bar, offset, size, value);
    }
    Writer w;
    w.put<uint8_t>(tr::kBarRead);
    w.put<uint8_t>(static_cast<uint8_t>(bar));
    w.put<uint8_t>(static_cast<uint8_t>(size));
    w.put<uint64_t>(offset);
    w.put<uint64_t>(*value);
    w.put<int32_t>(rc);
    r->emit(w);
    return r->flush() ? rc : -EIO;
}

int Recorder::bar_write(unsigned bar, uint64_t offset, unsigned size, uint64_t value)
{
    Recorder *r = this;
    std::lock_guard<std::recursive_mutex> g(r->lock);
    Writer w;
    w.put<uint8_t>(tr::kBarWrite);
    w.put<uint8_t>(static_cast<uint8_t>(bar));
    w.put<uint8_t>(static_cast<uint8_t>(size));
    w.put<uint64_t>(offset);
    w.put<uint64_t>(value);
    r->emit(w);
    int rc;
    {
        Call c(r);
        rc = r->inner->ops->bar_write(r->inner, bar, offset, size, value);
    }
    // The write's callbacks are in the file too.
    return r->flush() ? rc : -EIO;
}

int Recorder::advance(uint64_t budget)
{
    Recorder *r = this;
    std::lock_guard<std::recursive_mutex> g(r->lock);
    Writer w;
    w.put<uint8_t>(tr::kAdvance);
    w.put<uint64_t>(budget);
    r->emit(w);
    int more;
    {
        Call c(r);
        more = r->inner->ops->advance(r->inner, budget);
    }
    Writer end;
    end.put<uint8_t>(tr::kAdvanceEnd);
    end.put<int32_t>(more);
    r->emit(end);
    return r->flush() ? more : 0; // no more work on a card whose calls now fail
}

// The host callbacks the inner card sees: pass through, then record.
int rec_dma(Recorder *r, tr::Kind kind, uint64_t bus, void *buf, size_t len)
{
    std::lock_guard<std::recursive_mutex> g(r->lock);
    int rc;
    if (kind == tr::kDmaRead)
        rc = r->host.dma_read ? r->host.dma_read(r->host.opaque, bus, buf, len) : -EIO;
    else
        rc = r->host.dma_write ? r->host.dma_write(r->host.opaque, bus, buf, len) : -EIO;
    Writer w;
    w.put<uint8_t>(kind);
    w.put<uint64_t>(bus);
    w.put<uint32_t>(static_cast<uint32_t>(len));
    w.put<int32_t>(rc);
    if (kind == tr::kDmaWrite || rc == 0)
        w.put_bytes(buf, len);
    r->emit(w);
    return rc;
}

int rec_dma_read(void *opaque, uint64_t bus, void *buf, size_t len)
{
    return rec_dma(static_cast<Recorder *>(opaque), tr::kDmaRead, bus, buf, len);
}

int rec_dma_write(void *opaque, uint64_t bus, const void *buf, size_t len)
{
    return rec_dma(static_cast<Recorder *>(opaque), tr::kDmaWrite, bus, const_cast<void *>(buf), len);
}

void rec_irq(void *opaque, unsigned vector)
{
    auto *r = static_cast<Recorder *>(opaque);
    {
        std::lock_guard<std::recursive_mutex> g(r->lock);
        Writer w;
        w.put<uint8_t>(tr::kIrq);
        w.put<uint32_t>(vector);
        r->emit(w);
    }
    if (r->host.irq)
        r->host.irq(r->host.opaque, vector);
}

constexpr ipu_backend_ops record_ops = ipu::backend::ops_of<Recorder>("record");

// Opens the trace for writing: a regular file only. A FIFO would block the
// open until a reader came (QEMU at realize, ignoring SIGTERM) and a device or
// socket is no trace: they are refused with a message, never waited on.
FILE *open_trace(const char *path, char *err, size_t err_len)
{
    const int fd = ::open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0666);
    if (fd < 0) {
        const int e = errno;
        if (e == ENXIO) // a FIFO with no reader, refused by O_NONBLOCK
            std::snprintf(err, err_len, "the trace file %s is a FIFO; give a regular file", path);
        else
            std::snprintf(err, err_len, "cannot create the trace file %s: %s", path, std::strerror(e));
        return nullptr;
    }
    struct stat st {};
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        std::snprintf(err, err_len, "the trace file %s is not a regular file (%s); give a regular file", path,
                      S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                                                                                            : "not a file");
        ::close(fd);
        return nullptr;
    }
    // Blocking again for the writes, and empty (the "wb" of fopen).
    if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 || ftruncate(fd, 0) != 0) {
        std::snprintf(err, err_len, "cannot create the trace file %s: %s", path, std::strerror(errno));
        ::close(fd);
        return nullptr;
    }
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        std::snprintf(err, err_len, "cannot create the trace file %s: %s", path, std::strerror(errno));
        ::close(fd);
    }
    return f;
}

} // namespace

extern "C" int ipu_record_create(const ipu_backend_factory *factory, const ipu_board *board,
                                 const ipu_backend_host *host, const ipu_backend_options *options, const char *path,
                                 ipu_backend **out, char *err, size_t err_len)
{
    if (!factory || !board || !host || !path || !out) {
        std::snprintf(err, err_len, "recording needs a factory, a board, a host and a trace path");
        return -EINVAL;
    }
    auto *r = new (std::nothrow) Recorder();
    if (!r) {
        std::snprintf(err, err_len, "out of memory");
        return -ENOMEM;
    }
    r->base.ops = &record_ops;
    r->host = *host;
    r->path = path;
    r->file = open_trace(path, err, err_len);
    if (!r->file) {
        delete r;
        return -EINVAL;
    }
    const ipu_backend_host mine{r, rec_dma_read, rec_dma_write, host->irq ? rec_irq : nullptr};
    const int rc = factory->create(board, &mine, options, &r->inner, err, err_len);
    if (rc) {
        r->inner = nullptr; // the factory made no card
        delete r;
        return rc;
    }
    Writer w;
    w.put_bytes(tr::kMagic, sizeof tr::kMagic);
    w.put<uint32_t>(tr::kVersion);
    w.put<uint32_t>(static_cast<uint32_t>(sizeof *board));
    w.put_bytes(board, sizeof *board);
    const std::string name = r->inner->ops->name;
    w.put<uint32_t>(static_cast<uint32_t>(name.size()));
    w.put_bytes(name.data(), name.size());
    w.put<uint8_t>(host->irq ? 1 : 0); // replay raises interrupts only if this host took them
    r->emit(w);
    if (!r->flush()) {
        std::snprintf(err, err_len, "cannot write the trace file %s", path);
        delete r;
        return -EIO;
    }
    *out = &r->base;
    return 0;
}
