// ipu-board-sim: the Verilated FPGA board top (rtl/fpga/ipu_board_top.sv: the
// card behind the host link bridge) as its own process, its UART wired to a Unix
// socket. The host link bytes a client writes to the socket are shifted into the
// top's uart_rx_i bit by bit; the bits the top sends on uart_tx_o come back as
// bytes. The simulation is clocked all the time, so tiles run between requests.
// One client at a time; the card keeps its state across connections, as a board
// on its cable does. The card finishes what a client sent before it left (its
// answers go nowhere), and only then is the next client let in.
//
// Usage: ipu-board-sim --socket PATH [--board icebreaker|rtl-tiny] [--cycles N] [--stall-log FILE] [--stats]
//   --board B      the board's shape: icebreaker (1 tile, 10.5 MHz; the default) or
//                  rtl-tiny (4 tiles), each a Verilated model of its own
//   --cycles N     stop after N clock cycles (tests); default: run until killed.
//   --stall-log F  appends "stall FROM TO" (CLOCK_MONOTONIC ms) to F whenever the
//                  process was not clocking the card for kStallMs or more (the host
//                  did not schedule it, or it was stopped). A real card never
//                  pauses, so a host link timeout during such a stall says nothing
//                  about the link: the link soak reads this file to tell them apart.
//   --stats        prints on exit where the clocks went: the clocks the host's bytes
//                  were on the line to the card, those the card's bytes were on the line
//                  back, those the link was idle with a client connected (the card
//                  computing, the host between requests) or with none, and the clocks
//                  simulated per second of wall time.
//
// Built with IPU_BOARD_SIM_NETLIST=BOARD (ipu-board-netlist-sim, rtl/fpga/sim/netlist_sim.sh)
// it runs that board's card as a synthesized netlist instead (yosys's write_verilog
// after synth_ice40, on yosys's iCE40 cell models): the same socket, the netlist's own
// UART bit period, that board only (icebreaker's, or rtl-tiny's 4-tile card).
#include <poll.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "ipu_card/hw.h"

// Verilator's own headers are not held to the project's warning flags.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wshadow"
#ifdef IPU_BOARD_SIM_NETLIST
#include "Vipu_board_net.h"
#else
#include "Vipu_board_sim.h"
#include "Vipu_board_sim4.h"
#endif
#include "verilated.h"
#pragma GCC diagnostic pop

namespace {

#ifdef IPU_BOARD_SIM_NETLIST
// The board whose card the netlist is, as a string (netlist_sim.sh defines the bare name).
#define IPU_BOARD_SIM_NAME_(b) #b
#define IPU_BOARD_SIM_NAME(b) IPU_BOARD_SIM_NAME_(b)
constexpr const char *kNetlistBoard = IPU_BOARD_SIM_NAME(IPU_BOARD_SIM_NETLIST);
#endif

// The Verilated top's UART bit period, in clocks (IPU_BOARD_SIM_CLKS_PER_BIT from
// CMake: ClockHz / Baud of the Verilated parameters). Short so that the link is fast.
constexpr unsigned kClksPerBit = IPU_BOARD_SIM_CLKS_PER_BIT;
// How often (in clocks) the socket is polled: every kPollBusy clocks while a client is
// connected (its next request waits at most that long: with 1024, the clocks tutorial 3's
// requests waited made up most of its idle link, and on the gate-level netlist every
// clock costs about 0.2 ms), every kPollEvery while nobody is (a poll is a system call,
// dear beside the source-level card's clock).
constexpr unsigned kPollEvery = 1024;
constexpr unsigned kPollBusy = 64;

// After a client leaves, the next is let in only once the card has taken every frame
// the last one sent and been silent this long (64 byte times), so that no answer to
// the old client's requests reaches the new one (a request sent while the card still
// answers the old ones would be matched with the wrong answer).
constexpr unsigned long long kSettleClocks = 64ull * 10 * kClksPerBit;

// A gap of at least this many ms between two socket polls is a stall (the loop polls
// every 64..1024 clocks, well under a millisecond when the Verilated source runs).
constexpr long long kStallMs = 50;

long long monotonic_ms()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<long long>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

volatile std::sig_atomic_t g_stop = 0;
void on_signal(int) { g_stop = 1; }

// Host -> board: one byte at a time as start, 8 data bits (LSB first), stop.
class UartDriver {
public:
    void push(uint8_t b) { queue_.push_back(b); }
    bool idle() const { return queue_.empty() && bit_ == 0; }
    // The line level for this clock.
    int level()
    {
        if (bit_ == 0) {
            if (queue_.empty())
                return 1;
            frame_ = static_cast<uint16_t>((1u << 9) | (static_cast<unsigned>(queue_.front()) << 1));
            queue_.pop_front();
            bit_ = 10;
            clk_ = 0;
        }
        const int v = (frame_ >> (10 - bit_)) & 1;
        if (++clk_ == kClksPerBit) {
            clk_ = 0;
            --bit_;
        }
        return v;
    }

private:
    std::deque<uint8_t> queue_;
    uint16_t frame_ = 0;
    unsigned bit_ = 0, clk_ = 0;
};

// Board -> host: samples each bit in its middle, from the start bit's falling edge.
class UartMonitor {
public:
    // Returns true with *out when a byte ended this clock.
    bool sample(int line, uint8_t *out)
    {
        if (!busy_) {
            if (line == 0) {
                busy_ = true;
                count_ = kClksPerBit + kClksPerBit / 2 - 1;
                bit_ = 0;
                shift_ = 0;
            }
            return false;
        }
        if (count_-- != 0)
            return false;
        if (bit_ < 8) {
            shift_ = static_cast<uint8_t>((shift_ >> 1) | (line ? 0x80 : 0));
            ++bit_;
            count_ = kClksPerBit - 1;
            return false;
        }
        busy_ = false;  // the stop bit
        *out = shift_;
        return line == 1;
    }
    bool idle() const { return !busy_; }

private:
    bool busy_ = false;
    unsigned count_ = 0, bit_ = 0;
    uint8_t shift_ = 0;
};

// The host's bytes reach the board a whole frame at a time (SOF, TYPE, LEN,
// payload, CHECK), so that a client that goes away in the middle of one leaves
// no half-received frame in the bridge to swallow the next client's requests:
// the part held here is dropped instead (contract [link]: the card drops a frame
// half-received when its host goes away). Bytes outside a frame are dropped, as
// the bridge would drop them.
class HostFramer {
public:
    // Takes one byte from the client; a completed frame goes to `to`.
    void feed(uint8_t b, UartDriver &to)
    {
        if (frame_.empty() && b != IPU_LINK_SOF)
            return;
        frame_.push_back(b);
        if (frame_.size() >= 3 && frame_.size() == 4u + frame_[2]) {
            for (uint8_t f : frame_)
                to.push(f);
            Tally &t = sent_[frame_[1]];
            ++t.frames;
            t.bytes += frame_.size();
            for (size_t i = 3; i + 1 < frame_.size(); ++i)
                t.zeros += frame_[i] == 0;
            frame_.clear();
        }
    }
    // The client went away: a frame it did not finish is dropped.
    void drop() { frame_.clear(); }
    // What the host sent, by frame type (--stats): which requests the link's clocks carried.
    void print() const
    {
        for (size_t type = 0; type < sent_.size(); ++type)
            if (sent_[type].frames)
                std::printf("ipu-board-sim stats: host frames of type %zu: %llu, %llu bytes (%llu payload bytes "
                            "zero)\n", type, sent_[type].frames, sent_[type].bytes, sent_[type].zeros);
    }

private:
    struct Tally {
        unsigned long long frames = 0, bytes = 0, zeros = 0;
    };
    std::vector<uint8_t> frame_;
    std::array<Tally, 256> sent_{};
};

int listen_on(const std::string &path)
{
    sockaddr_un addr{};
    if (path.size() >= sizeof addr.sun_path) {
        std::fprintf(stderr, "ipu-board-sim: socket path %s is too long (max %zu bytes)\n", path.c_str(),
                     sizeof addr.sun_path - 1);
        return -1;
    }
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        std::perror("ipu-board-sim: socket");
        return -1;
    }
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    // Only a stale socket is replaced: a regular file (or anything else) at PATH is the user's and stays, and a
    // socket another simulation still listens on is not taken from it.
    struct stat st;
    if (lstat(path.c_str(), &st) == 0) {
        if (!S_ISSOCK(st.st_mode)) {
            std::fprintf(stderr, "ipu-board-sim: %s exists and is not a socket; remove it or give another --socket "
                                 "path\n", path.c_str());
            close(fd);
            return -1;
        }
        // Non-blocking: a listener whose backlog is full answers EAGAIN (it is live), a stale path ECONNREFUSED.
        const int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        const bool live = probe >= 0 && (connect(probe, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0 ||
                                         errno == EAGAIN || errno == EINPROGRESS);
        if (probe >= 0)
            close(probe);
        if (live) {
            std::fprintf(stderr, "ipu-board-sim: another simulation is listening on %s; stop it or give another "
                                 "--socket path\n", path.c_str());
            close(fd);
            return -1;
        }
        unlink(path.c_str());
    }
    if (bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 || listen(fd, 1) != 0) {
        std::fprintf(stderr, "ipu-board-sim: cannot listen on %s: %s\n", path.c_str(), std::strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

// Where the simulated clocks went (--stats): a slow simulation is slow either per clock
// or in the number of clocks, and these say which clocks a shorter bit period would save.
struct ClockStats {
    unsigned long long down = 0;  // a host byte on the line to the card
    unsigned long long up = 0;    // a card byte on the line to the host (and none going down)
    unsigned long long idle = 0;  // neither, a client connected: the card computes or the host thinks
    unsigned long long alone = 0; // neither, no client connected
    void print(unsigned long long clocks, long long ms) const
    {
        std::printf("ipu-board-sim stats: %llu clocks: host->card %llu, card->host %llu, link idle %llu, "
                    "no client %llu; %.0f clocks/s\n", clocks, down, up, idle, alone,
                    ms > 0 ? static_cast<double>(clocks) * 1000.0 / static_cast<double>(ms) : 0.0);
        std::fflush(stdout);
    }
};

// Clocks the board top `Top` with its UART on the listening socket `lfd` until
// a signal or `max_cycles`.
template <typename Top>
void serve(int lfd, unsigned long long max_cycles, std::FILE *stall_log, bool stats)
{
    const long long start_ms = monotonic_ms();
    ClockStats where;
    long long last_poll_ms = monotonic_ms();
    auto ctx = std::make_unique<VerilatedContext>();
    ctx->randReset(0);
    auto top = std::make_unique<Top>(ctx.get(), "board");
    top->btn_ni = 1;
    top->uart_rx_i = 1;
    top->clk_i = 0;
    top->eval();

    UartDriver to_board;
    UartMonitor from_board;
    HostFramer framer;
    int cfd = -1;
    std::string out;
    bool settling = false;                  // a client left and the card may still answer it
    unsigned long long last_board_byte = 0; // the clock of the card's last byte
    unsigned long long cycle = 0;
    for (; !g_stop && (max_cycles == 0 || cycle < max_cycles); ++cycle) {
        const bool link_idle = to_board.idle() && from_board.idle() && out.empty();
        if (stats)
            ++(!to_board.idle() ? where.down : !from_board.idle() ? where.up : cfd >= 0 ? where.idle : where.alone);
        if (cycle % (link_idle && cfd < 0 ? kPollEvery : kPollBusy) == 0) {
            if (stall_log) {
                const long long now = monotonic_ms();
                if (now - last_poll_ms >= kStallMs) {
                    std::fprintf(stall_log, "stall %lld %lld\n", last_poll_ms, now);
                    std::fflush(stall_log);
                }
                last_poll_ms = now;
            }
            if (settling && to_board.idle() && from_board.idle() && cycle - last_board_byte >= kSettleClocks)
                settling = false;
            pollfd p{cfd >= 0 ? cfd : lfd, POLLIN, 0};
            // An idle link with nothing connected may as well sleep a little. A new client
            // waits in the listen backlog while the card settles.
            const int rc = cfd < 0 && settling ? 0 : poll(&p, 1, link_idle && cfd < 0 ? 1 : 0);
            if (rc > 0 && cfd < 0) {
                cfd = accept4(lfd, nullptr, nullptr, SOCK_CLOEXEC);
            } else if (rc > 0) {
                uint8_t buf[256];
                const ssize_t n = read(cfd, buf, sizeof buf);
                if (n <= 0) {
                    close(cfd);
                    cfd = -1;
                    framer.drop();
                    settling = true;
                } else {
                    for (ssize_t i = 0; i < n; ++i)
                        framer.feed(buf[i], to_board);
                }
            }
        }
        top->uart_rx_i = static_cast<uint8_t>(to_board.level());
        top->clk_i = 1;
        top->eval();
        top->clk_i = 0;
        top->eval();
        uint8_t byte;
        if (from_board.sample(top->uart_tx_o, &byte)) {
            out.push_back(static_cast<char>(byte));
            last_board_byte = cycle;
        }
        if (!out.empty() && cfd >= 0 && from_board.idle()) {
            const ssize_t n = write(cfd, out.data(), out.size());
            if (n > 0)
                out.erase(0, static_cast<size_t>(n));
        } else if (cfd < 0) {
            out.clear();  // nobody to tell: a board's UART drops bytes with no host attached
        }
    }
    if (cfd >= 0)
        close(cfd);
    top->final();
    if (stats) {
        where.print(cycle, monotonic_ms() - start_ms);
        framer.print();
    }
}

} // namespace

int main(int argc, char **argv)
{
#ifdef IPU_BOARD_SIM_NETLIST
    std::string path, board = kNetlistBoard, stall_path;
#else
    std::string path, board = "icebreaker", stall_path;
#endif
    unsigned long long max_cycles = 0;
    bool stats = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--socket" && i + 1 < argc) {
            path = argv[++i];
        } else if (a == "--stall-log" && i + 1 < argc) {
            stall_path = argv[++i];
        } else if (a == "--stats") {
            stats = true;
        } else if (a == "--board" && i + 1 < argc) {
            board = argv[++i];
        } else if (a == "--cycles" && i + 1 < argc) {
            const char *text = argv[++i];
            char *end = nullptr;
            errno = 0;
            max_cycles = std::strtoull(text, &end, 10);
            if (!std::isdigit(static_cast<unsigned char>(text[0])) || *end || errno) {
                std::fprintf(stderr, "ipu-board-sim: --cycles '%s' is not a number of clock cycles; give a whole "
                                     "number (0: run until killed)\n", text);
                return 2;
            }
        } else {
            std::fprintf(stderr, "usage: ipu-board-sim --socket PATH [--board icebreaker|rtl-tiny] [--cycles N] "
                                 "[--stall-log FILE] [--stats]\n"
                                 "  the FPGA board top (icebreaker: 1 tile x 64 KiB, 2 workers; rtl-tiny: 4 tiles)\n"
                                 "  with its host link on the Unix socket PATH\n");
            return 2;
        }
    }
    if (path.empty()) {
        std::fprintf(stderr, "ipu-board-sim: --socket PATH is required\n");
        return 2;
    }
#ifdef IPU_BOARD_SIM_NETLIST
    if (board != kNetlistBoard) {
        std::fprintf(stderr, "ipu-board-sim: this netlist simulation is the %s board's card; use --board %s\n",
                     kNetlistBoard, kNetlistBoard);
        return 2;
    }
#endif
    if (board != "icebreaker" && board != "rtl-tiny") {
        std::fprintf(stderr, "ipu-board-sim: unknown board '%s'; use --board icebreaker or --board rtl-tiny\n",
                     board.c_str());
        return 2;
    }
    std::FILE *stall_log = nullptr;
    if (!stall_path.empty() && !(stall_log = std::fopen(stall_path.c_str(), "a"))) {
        std::fprintf(stderr, "ipu-board-sim: cannot open the stall log %s: %s; give a writable --stall-log path\n",
                     stall_path.c_str(), std::strerror(errno));
        return 2;
    }
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    std::signal(SIGPIPE, SIG_IGN);
    const int lfd = listen_on(path);
    if (lfd < 0) {
        if (stall_log)
            std::fclose(stall_log);
        return 1;
    }
    std::printf("ipu-board-sim: %s listening on %s (%u clocks per UART bit)\n", board.c_str(), path.c_str(),
                kClksPerBit);
    std::fflush(stdout);
#ifdef IPU_BOARD_SIM_NETLIST
    serve<Vipu_board_net>(lfd, max_cycles, stall_log, stats);
#else
    if (board == "rtl-tiny")
        serve<Vipu_board_sim4>(lfd, max_cycles, stall_log, stats);
    else
        serve<Vipu_board_sim>(lfd, max_cycles, stall_log, stats);
#endif
    close(lfd);
    unlink(path.c_str());
    if (stall_log)
        std::fclose(stall_log);
    return 0;
}
