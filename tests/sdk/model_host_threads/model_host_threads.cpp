// IPU_EMU_HOST_THREADS on an IPU Model: the card steps its tiles on that many host threads (the calling thread and
// N-1 workers, started at attach and joined at detach), and a value that is not a thread count is refused at attach
// with an error that names the variable.
#include <cstdlib>
#include <dirent.h>
#include <string>

#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>

#include "sdk_check.hpp"

using namespace poplar;

// The threads of this process now.
static int threadCount() {
  int n = 0;
  if (DIR *d = opendir("/proc/self/task")) {
    while (dirent *e = readdir(d))
      n += e->d_name[0] != '.';
    closedir(d);
  }
  return n;
}

// The threads an 8-tile IPU Model adds while attached with IPU_EMU_HOST_THREADS=value.
static int threadsAdded(const char *value) {
  setenv("IPU_EMU_HOST_THREADS", value, 1);
  IPUModel model("ipu2");
  model.tilesPerIPU = 8;
  Device device = model.createDevice();
  const int before = threadCount();
  if (!device.attach())
    return -1;
  const int added = threadCount() - before;
  device.detach();
  return added;
}

int main() {
  check(threadsAdded("1") == 0, "IPU_EMU_HOST_THREADS=1: the model adds no thread");
  check(threadsAdded("3") == 2, "IPU_EMU_HOST_THREADS=3: the model adds 2 worker threads");
  bool named = false;
  try {
    threadsAdded("two");
  } catch (const poplar_error &e) {
    named = std::string(e.what()).find("IPU_EMU_HOST_THREADS='two'") != std::string::npos;
  }
  check(named, "IPU_EMU_HOST_THREADS=two: attach refused, naming the variable");
  unsetenv("IPU_EMU_HOST_THREADS");
  IPUModel model("ipu2");
  model.tilesPerIPU = 8;
  Device device = model.createDevice();
  check(device.attach(), "after the refusal, a model attaches with the variable unset");
  return checksDone("all checks passed");
}
