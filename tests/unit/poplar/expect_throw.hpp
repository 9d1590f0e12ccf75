// Test support for the poplar unit tests: expectThrow<E>(fn, text) fails the CMocka test unless fn throws an E whose
// message contains `text`. Include after <cmocka.h>.
#pragma once

#include <string>

template <typename E, typename Fn> void expectThrow(Fn fn, const char *text) {
  try {
    fn();
  } catch (const E &e) {
    if (std::string(e.what()).find(text) == std::string::npos) {
      print_error("message '%s' lacks '%s'\n", e.what(), text);
      fail();
    }
    return;
  }
  print_error("no exception containing '%s'\n", text);
  fail();
}
