// ipu-replay: replays a recorded card session on the card model, without QEMU,
// and says whether every register read matched (docs/trace-format.md).
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "ipu_backends/record.h"

int main(int argc, char **argv)
{
    if (argc != 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
        std::fprintf(argc == 2 ? stdout : stderr,
                     "usage: ipu-replay TRACE\n"
                     "Replays a trace recorded with IPU_EMU_RECORD=TRACE (in-process cards) or the QEMU device's\n"
                     "record=TRACE property on the card model, checking every register read, DMA write and\n"
                     "interrupt against the recording. Exit status: 0 all matched, 1 a difference (printed with\n"
                     "both values), 2 the trace cannot be read.\n");
        return argc == 2 ? 0 : 2;
    }
    ipu_replay_result r;
    const int rc = ipu_replay_file(argv[1], 1, &r);
    if (rc < 0) {
        std::fprintf(stderr, "ipu-replay: %s\n", r.message);
        return 2;
    }
    if (rc == 1) {
        std::fprintf(stderr, "ipu-replay: difference at %s\n", r.message);
        return 1;
    }
    std::printf("ipu-replay: %llu records replayed, %llu register reads and %llu DMA bytes matched\n",
                (unsigned long long)r.records, (unsigned long long)r.reads, (unsigned long long)r.dma_bytes);
    return 0;
}
