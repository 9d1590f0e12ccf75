// The registry behind poplar/LibraryStreams.hpp: handle -> host function, read by every Engine at construction.
#include "library_streams.hpp"

#include <map>
#include <mutex>

namespace poplar {

namespace {

std::mutex &registryMutex() {
  static std::mutex m;
  return m;
}

std::map<std::string, LibraryStreamFunction> &registry() {
  static std::map<std::string, LibraryStreamFunction> r;
  return r;
}

} // namespace

void registerLibraryStream(const std::string &handle, LibraryStreamFunction f) {
  std::lock_guard<std::mutex> lock(registryMutex());
  registry()[handle] = std::move(f);
}

namespace detail {

LibraryStreamFunction libraryStream(const std::string &handle) {
  std::lock_guard<std::mutex> lock(registryMutex());
  auto it = registry().find(handle);
  return it == registry().end() ? LibraryStreamFunction() : it->second;
}

} // namespace detail

} // namespace poplar
