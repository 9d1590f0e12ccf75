// libFuzzer entry point for the board file reader (boards/lib/ipu_board.c): any text must be refused with a
// message or give a board that passes ipu_board_check, the check every layer relies on before sizing a card, and
// that the board writer writes so that it reads back unchanged.
//
// Built twice. board_fuzz reads the input as it is, so most mutants stop at the UTF-8 check (board_text.c).
// board_utf8_fuzz (IPU_BOARD_FUZZ_WELL_FORMED) first makes the input well-formed UTF-8, so that every mutant
// reaches toml11 (which overflowed its buffer on ill-formed bytes, the reason for that check), and asserts that
// the check accepts such text when it holds no control character.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "board_keys.h"
#include "ipu_board.h"
#include "memfile.hpp"

namespace {

#ifdef IPU_BOARD_FUZZ_WELL_FORMED
// Decodes the input leniently (a lead byte says how many bytes follow, whatever they are) and encodes each code
// point again: well-formed input comes out unchanged; an ill-formed sequence becomes some well-formed character
// (a value past U+10FFFF wraps, then a surrogate moves up past U+DFFF), so mutants of any byte stay mostly text.
std::string wellFormed(const std::uint8_t *data, std::size_t size) {
  std::string out;
  for (std::size_t i = 0; i < size;) {
    std::uint32_t cp = data[i];
    std::size_t len = 1;
    if (data[i] >= 0xc0) {
      len = data[i] >= 0xf0 ? 4 : data[i] >= 0xe0 ? 3 : 2;
      cp = data[i] & (0x3fu >> (len - 1));
      for (std::size_t k = 1; k < len; k++)
        cp = cp << 6 | (i + k < size ? data[i + k] & 0x3fu : 0u);
    }
    i += len;
    cp %= 0x110000; // before the surrogate shift, which a wrapped value may need too
    if (cp >= 0xd800 && cp < 0xe000)
      cp += 0x800;
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else {
      const std::size_t n = cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      out += static_cast<char>((0xf00u >> n & 0xf0u) | cp >> (6 * (n - 1)));
      for (std::size_t k = n - 1; k-- > 0;)
        out += static_cast<char>(0x80u | (cp >> (6 * k) & 0x3fu));
    }
  }
  return out;
}

bool hasControl(const std::string &text) {
  for (const char c : text) {
    const auto b = static_cast<unsigned char>(c);
    if ((b < 0x20 && b != '\t' && b != '\n' && b != '\r') || b == 0x7f)
      return true;
  }
  return false;
}
#endif

// What ipu_board_write makes of an accepted board reads back as the same board, key for key (boards/lib/board_write.c).
void checkWrittenBoardReadsBack(const ipu_board &board) {
  char text[IPU_BOARD_WRITE_MAX], why[512] = "";
  const int n = ipu_board_write(&board, text, sizeof text, why, sizeof why);
  if (n < 0 || n >= int(sizeof text)) {
    std::fprintf(stderr, "ipu_board_write refused an accepted board (%d): %s\n", n, why);
    std::abort();
  }
  ipu_board back;
  if (ipu_board_load_file(ipu::fuzz::memoryFile(reinterpret_cast<const std::uint8_t *>(text), std::size_t(n)), &back,
                          why, sizeof why) != 0) {
    std::fprintf(stderr, "the written board does not read back: %s\n%s", why, text);
    std::abort();
  }
  for (std::size_t i = 0; i < IPU_BOARD_NUM_KEYS; i++) {
    const ipu_board_key &k = ipu_board_keys[i];
    const char *a = reinterpret_cast<const char *>(&board) + k.offset;
    const char *b = reinterpret_cast<const char *>(&back) + k.offset;
    const bool same = k.kind == IPU_BOARD_KEY_TEXT ? std::strcmp(a, b) == 0
                                                   : std::memcmp(a, b, k.kind == IPU_BOARD_KEY_U32 ? 4 : 8) == 0;
    if (!same) {
      std::fprintf(stderr, "key '%s' of a written board reads back changed:\n%s", k.key, text);
      std::abort();
    }
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  ipu_board board;
  char err[512];
  std::memset(err, 0x55, sizeof err);
#ifdef IPU_BOARD_FUZZ_WELL_FORMED
  const std::string text = wellFormed(data, size);
  if (!hasControl(text) && ipu_board_check_text(text.data(), text.size(), "input", err, sizeof err) != 0) {
    std::fprintf(stderr, "the UTF-8 check refused well-formed text: %s\n", err);
    std::abort();
  }
  data = reinterpret_cast<const std::uint8_t *>(text.data());
  size = text.size();
#endif
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
    checkWrittenBoardReadsBack(board);
  } else if (rc > 0 || err[0] == '\0') {
    std::fprintf(stderr, "ipu_board_load_file refused a file with code %d and no message\n", rc);
    std::abort();
  }
  return 0;
}
