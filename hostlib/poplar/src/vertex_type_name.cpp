// Internal: the process-wide table of vertex type names (vertex_type_name.hpp).
#include "vertex_type_name.hpp"

#include <mutex>
#include <unordered_set>

namespace poplar::detail {

namespace {
// Names are few (a program uses tens of vertex types) and never removed. A node-based set keeps each string where it
// was inserted, so the pointers handed out stay valid. Graphs may be built on several threads: a lock guards it.
struct Table {
  std::mutex lock;
  std::unordered_set<std::string> names;
};

Table &table() {
  static Table *t = new Table; // never destroyed: vertices of static graphs may name types during exit
  return *t;
}

const std::string *intern(const std::string &name) {
  Table &t = table();
  std::lock_guard<std::mutex> hold(t.lock);
  return &*t.names.insert(name).first;
}
} // namespace

VertexTypeName::VertexTypeName() {
  static const std::string *const none = intern(std::string());
  s_ = none;
}

VertexTypeName::VertexTypeName(const std::string &name) {
  // Programs add vertices of one type in long runs: the name last interned on this thread saves the lock and the hash.
  thread_local const std::string *last = nullptr;
  if (!last || *last != name)
    last = intern(name);
  s_ = last;
}

} // namespace poplar::detail
