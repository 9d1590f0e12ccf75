// libFuzzer entry point for the host link protocol (driver/src/link.c): the input is everything the card sends
// while the host makes the requests of link_script.hpp. Whatever the card sends, every request must end with a
// documented code, the host must send only well-formed frames, and once the link is dead every later request must
// fail at once with the same code (issue 36, findings 5 and 9: floods, duplicated and cut frames).
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" {
#include "link.h"
}
#include "link_script.hpp"

namespace {

struct Card {
  const std::uint8_t *data;
  std::size_t size, pos, chunk;
  bool gone_at_end;
};

[[noreturn]] void broken(const char *what, int step, int rc) {
  std::fprintf(stderr, "link_fuzz: step %d: %s (rc %d)\n", step, what, rc);
  std::abort();
}

int card_read(void *ctx, std::uint8_t *buf, std::size_t cap, int) {
  Card &c = *static_cast<Card *>(ctx);
  if (c.pos == c.size)
    return c.gone_at_end ? -ENODEV : -ETIMEDOUT; // silence costs no time: the input is all the card ever says
  std::size_t n = c.size - c.pos;
  n = n < cap ? n : cap;
  n = n < c.chunk ? n : c.chunk;
  std::memcpy(buf, c.data + c.pos, n);
  c.pos += n;
  return static_cast<int>(n);
}

// The host's frames: one whole frame per write, with a correct length and CHECK.
int card_write(void *, const std::uint8_t *buf, std::size_t len) {
  if (len < 4 || buf[0] != IPU_LINK_SOF || len != 4u + buf[2])
    broken("the host wrote something that is not one frame", -1, int(len));
  std::uint8_t sum = 0;
  for (std::size_t i = 1; i < len; i++)
    sum = std::uint8_t(sum + buf[i]);
  if (sum != 0)
    broken("the host wrote a frame with a bad CHECK", -1, 0);
  return 0;
}

bool documented(int rc) {
  return rc == 0 || rc == -EPROTO || rc == -EREMOTEIO || rc == -EIO || rc == -ENODEV;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  if (size == 0)
    return 0;
  Card card{data + 1, size - 1, 0, ipu::fuzz::kLinkChunks[(data[0] >> 1) & 7], (data[0] & 1) != 0};
  const ipudrv_link_port port{card_write, card_read, &card};
  ipudrv_link link;
  ipudrv_link_init(&link, &port, 1000);
  void *va = nullptr;
  std::uint64_t bus = 0;
  if (ipudrv_link_mem_alloc(&link, ipu::fuzz::kLinkDmaBytes, &va, &bus) != 0 || bus != ipu::fuzz::kLinkDmaBus)
    broken("the DMA block", -1, 0);
  int step = 0;
  for (const ipu::fuzz::LinkStep &s : ipu::fuzz::kLinkScript) {
    const int dead_before = link.dead;
    std::uint8_t buf[512];
    std::memset(buf, 0x5a, sizeof buf);
    std::uint32_t value = 0;
    int rc = 0;
    switch (s.op) {
    case ipu::fuzz::LinkStep::RegRead: rc = ipudrv_link_reg_read(&link, s.offset, &value); break;
    case ipu::fuzz::LinkStep::RegWrite: rc = ipudrv_link_reg_write(&link, s.offset, s.arg); break;
    case ipu::fuzz::LinkStep::WindowRead: rc = ipudrv_link_window_read(&link, s.offset, buf, s.arg); break;
    case ipu::fuzz::LinkStep::WindowWrite: rc = ipudrv_link_window_write(&link, s.offset, buf, s.arg); break;
    case ipu::fuzz::LinkStep::Wait: rc = ipudrv_link_wait(&link, 0); break;
    }
    if (!documented(rc))
      broken("a request ended with a code link.h does not document", step, rc);
    if (dead_before && rc != dead_before)
      broken("a dead link answered a request with another code than its own", step, rc);
    if (link.dead && link.dead != -EIO && link.dead != -ENODEV)
      broken("the link died with a code link.h does not document", step, link.dead);
    if (link.rx_pos > link.rx_len || link.rx_len > sizeof link.rx)
      broken("the receive buffer's positions", step, 0);
    step++;
  }
  ipudrv_link_release(&link);
  return 0;
}
