// Issue 12: IPU Model devices are cards of their own process. Two processes that each create an IPU Model device
// hold them at the same time; threads attach at once; attaching changes no environment variable and writes no
// board file.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "poplar/Device.hpp"
#include "poplar/IPUModel.hpp"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
extern "C" {
#include <cmocka.h>
}

using namespace poplar;
namespace fs = std::filesystem;

namespace {

fs::path g_tmp; // IPU_EMU_CACHE and IPU_EMU_LOCK_DIR of this test

int setup(void **) {
  char tmpl[] = "/tmp/poplar-model-open-XXXXXX";
  if (!mkdtemp(tmpl))
    return -1;
  g_tmp = tmpl;
  fs::create_directories(g_tmp / "locks");
  setenv("IPU_EMU_CACHE", g_tmp.c_str(), 1);
  setenv("IPU_EMU_LOCK_DIR", (g_tmp / "locks").c_str(), 1);
  // A board that does not exist: IPU Models must not be opened through the device list.
  setenv("IPU_EMU_DEVICES", "nosuchboard", 1);
  return 0;
}

int teardown(void **) {
  std::error_code ec;
  fs::remove_all(g_tmp, ec);
  return 0;
}

Device tinyModel(unsigned tiles = 4) {
  IPUModel model("tiny");
  model.tilesPerIPU = tiles;
  return model.createDevice();
}

void test_two_processes_each_attach_an_ipu_model(void **) {
  int toParent[2], toChild[2];
  assert_int_equal(pipe(toParent), 0);
  assert_int_equal(pipe(toChild), 0);
  const pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    close(toChild[1]); // the parent's exit ends the wait below
    char c = 'n';
    try {
      Device d = tinyModel();
      c = d.attach() ? 'y' : 'n';
      if (write(toParent[1], &c, 1) != 1 || read(toChild[0], &c, 1) != 1)
        _exit(2);
      d.detach();
    } catch (...) {
      _exit(3);
    }
    _exit(0);
  }
  char c = 0;
  assert_int_equal(read(toParent[0], &c, 1), 1); // the child holds its IPU Model now
  bool attached = false;
  Device mine = tinyModel();
  try {
    attached = mine.attach();
  } catch (const std::exception &e) {
    print_error("parent: %s\n", e.what());
  }
  assert_int_equal(write(toChild[1], "x", 1), 1);
  int status = 0;
  assert_int_equal(waitpid(child, &status, 0), child);
  assert_int_equal(c, 'y');
  assert_true(attached);
  assert_true(mine.isAttached());
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  mine.detach();
  close(toParent[0]), close(toParent[1]), close(toChild[0]), close(toChild[1]);
}

void test_threads_attach_at_once(void **) {
  constexpr unsigned kThreads = 4;
  std::vector<Device> devices;
  for (unsigned i = 0; i < kThreads; ++i)
    devices.push_back(tinyModel(1 + i));
  std::vector<int> ok(kThreads, 0);
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < kThreads; ++i)
    threads.emplace_back([&, i] {
      try {
        ok[i] = devices[i].attach() ? 1 : 0;
      } catch (...) {
        ok[i] = -1;
      }
    });
  for (auto &t : threads)
    t.join();
  for (unsigned i = 0; i < kThreads; ++i) {
    assert_int_equal(ok[i], 1);
    assert_int_equal(devices[i].getTarget().getNumTiles(), 1 + i);
  }
}

void test_attach_sets_no_environment_and_writes_no_board_file(void **) {
  Device d = tinyModel(3); // not a board on disk
  assert_true(d.attach());
  assert_string_equal(std::getenv("IPU_EMU_DEVICES"), "nosuchboard");
  assert_false(fs::exists(g_tmp / "boards"));
  // and no lock: the lock directory stays empty
  assert_true(fs::is_empty(g_tmp / "locks"));
  d.detach();
}

} // namespace

int main() {
  const CMUnitTest tests[] = {
      cmocka_unit_test(test_two_processes_each_attach_an_ipu_model),
      cmocka_unit_test(test_threads_attach_at_once),
      cmocka_unit_test(test_attach_sets_no_environment_and_writes_no_board_file),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
