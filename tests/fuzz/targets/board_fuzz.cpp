// libFuzzer entry point for the board file reader (boards/lib/ipu_board.c): any text must be refused with a
// message or give a board that passes ipu_board_check, the check every layer relies on before sizing a card.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "ipu_board.h"
#include "memfile.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  ipu_board board;
  char err[512];
  std::memset(err, 0x55, sizeof err);
  const int rc = ipu_board_load_file(ipu::fuzz::memoryFile(data, size), &board, err, sizeof err);
  if (rc != 0 && std::memchr(err, '\0', sizeof err) == nullptr) {
    std::fprintf(stderr, "ipu_board_load_file left its message unterminated\n");
    std::abort();
  }
  if (rc == 0) {
    // Accepted: the strings are terminated and the values are ones a card can have.
    const struct {
      const char *text;
      std::size_t cap;
    } strings[] = {{board.name, sizeof board.name},   {board.description, sizeof board.description},
                   {board.isa, sizeof board.isa},     {board.abi, sizeof board.abi},
                   {board.transport, sizeof board.transport}};
    for (const auto &s : strings)
      if (std::memchr(s.text, '\0', s.cap) == nullptr) {
        std::fprintf(stderr, "an accepted board has an unterminated string\n");
        std::abort();
      }
    char why[512];
    if (ipu_board_check(&board, "the accepted board", why, sizeof why) != 0) {
      std::fprintf(stderr, "ipu_board_load_file accepted a board that ipu_board_check refuses: %s\n", why);
      std::abort();
    }
  } else if (rc > 0 || err[0] == '\0') {
    std::fprintf(stderr, "ipu_board_load_file refused a file with code %d and no message\n", rc);
    std::abort();
  }
  return 0;
}
