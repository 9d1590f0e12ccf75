// Unit tests of ipu::runtime::Device's attach: a card from parameters with an in-memory board, and the typed
// device_busy_error for a shared card that someone else holds (a fake PCI card in a fake sysfs tree, its lock file
// held by this test), which callers catch without reading message text.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "ipu_card/hw.h"
#include "ipu_runtime/device.hpp"

// cmocka.h defines fail() and friends as macros, so it comes after the C++ headers.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
extern "C" {
#include <cmocka.h> // cmocka 1.1 declares some functions without C linkage for C++
}

using namespace ipu::runtime;
namespace fs = std::filesystem;

namespace {

fs::path g_root; // <root>/devices/<slot>/{vendor,device}, <root>/locks

int makeTree(void **) {
  char tmpl[] = "/tmp/runtime-device-XXXXXX";
  if (!mkdtemp(tmpl))
    return -1;
  g_root = tmpl;
  fs::create_directories(g_root / "devices" / "0000:00:04.0");
  fs::create_directories(g_root / "locks");
  std::ofstream(g_root / "devices" / "0000:00:04.0" / "vendor") << "0x1234\n";
  std::ofstream(g_root / "devices" / "0000:00:04.0" / "device") << "0x11e9\n";
  setenv("IPU_EMU_PCI_ROOT", (g_root / "devices").c_str(), 1);
  setenv("IPU_EMU_LOCK_DIR", (g_root / "locks").c_str(), 1);
  setenv("IPU_EMU_DEVICES", "", 1); // the fake PCI card is device 0
  return 0;
}

int removeTree(void **) {
  std::error_code ec;
  fs::remove_all(g_root, ec);
  return 0;
}

void test_open_with_board_values(void **) {
  ipu_board board;
  ipu_board_default(&board);
  std::snprintf(board.name, sizeof board.name, "runtime-test");
  board.tiles_per_ipu = 2;
  ipudrv_open_params params{};
  params.size = sizeof params;
  params.board_values = &board;
  Device a(params), b(params);
  assert_int_equal(a.numTiles(), 2);
  assert_int_equal(a.id(), IPUDRV_ID_NONE);
  assert_string_equal(a.info().location, "model:runtime-test");
  assert_true(a.describe().find("model:runtime-test") != std::string::npos);
  const std::uint32_t one = 1, two = 2;
  std::uint32_t got = 0;
  a.writeTile(1, IPU_TILE_SRAM_BASE, &one, 4);
  b.writeTile(1, IPU_TILE_SRAM_BASE, &two, 4);
  a.readTile(1, IPU_TILE_SRAM_BASE, &got, 4);
  assert_int_equal(got, one);
  a.reset(); // messages name the card by location
  assert_int_equal(a.resetCount(), 1);
}

void test_bad_params_are_not_busy(void **) {
  ipudrv_open_params params{};
  params.size = sizeof params;
  params.transport = "nosuchtransport";
  params.board = "tiny";
  bool threw = false;
  try {
    Device d(params);
  } catch (const device_busy_error &) {
    fail_msg("an unknown transport is not a busy card");
  } catch (const application_runtime_error &e) {
    threw = std::strstr(e.what(), "unknown transport") != nullptr;
  }
  assert_true(threw);
}

void test_busy_card_throws_device_busy_error(void **) {
  // Hold the card's lock as another attach would (flock on a separate open file description conflicts even
  // within this process), with a holder line for the message.
  const std::string lock = (g_root / "locks" / "pci-0000:00:04.0.lock").string();
  const int fd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  assert_true(fd >= 0);
  assert_int_equal(::flock(fd, LOCK_EX | LOCK_NB), 0);
  const std::string holder = std::to_string(::getpid()) + " holder\n";
  assert_int_equal(::pwrite(fd, holder.data(), holder.size(), 0), static_cast<ssize_t>(holder.size()));

  bool busy = false;
  try {
    Device d(0);
  } catch (const device_busy_error &e) {
    busy = std::strstr(e.what(), "in use by PID") != nullptr;
  }
  assert_true(busy);
  ipudrv_open_params params{};
  params.size = sizeof params;
  params.transport = "vfio";
  params.location = "0000:00:04.0";
  busy = false;
  try {
    Device d(params);
  } catch (const device_busy_error &) {
    busy = true;
  }
  assert_true(busy);
  ::close(fd);

  // Free again: attaching now fails for want of VFIO, which is not "busy".
  busy = false;
  bool other = false;
  try {
    Device d(0);
  } catch (const device_busy_error &) {
    busy = true;
  } catch (const runtime_error &) {
    other = true;
  }
  assert_false(busy);
  assert_true(other);
}

// A dead card is told by the driver's code, -ENOLINK, not by the words of its message (issue 36 mend): the code
// alone makes the error unrecoverable, and an -EIO whose message happens to say "stopped answering" stays a
// device fault that a reset may cure.
void test_dead_link_is_told_by_its_code(void **) {
  bool unrecoverable = false;
  try {
    checkDriver(-ENOLINK, "upload", "a message in other words");
  } catch (const unrecoverable_runtime_error &e) {
    unrecoverable = std::strstr(e.what(), "upload: a message in other words") != nullptr;
  }
  assert_true(unrecoverable);
  bool recoverable = false;
  try {
    checkDriver(-EIO, "run", "card 0 stopped answering: run failed");
  } catch (const recoverable_runtime_error &) {
    recoverable = true;
  }
  assert_true(recoverable);
  // With no message of the driver's, the code's own text explains.
  try {
    checkDriver(-ENOLINK, "wait", "");
  } catch (const unrecoverable_runtime_error &e) {
    assert_non_null(std::strstr(e.what(), "stopped answering over its transport"));
    return;
  }
  fail_msg("checkDriver(-ENOLINK) did not throw unrecoverable_runtime_error");
}

} // namespace

int main() {
  const CMUnitTest tests[] = {
      cmocka_unit_test(test_open_with_board_values),
      cmocka_unit_test(test_bad_params_are_not_busy),
      cmocka_unit_test(test_busy_card_throws_device_busy_error),
      cmocka_unit_test(test_dead_link_is_told_by_its_code),
  };
  return cmocka_run_group_tests(tests, makeTree, removeTree);
}
