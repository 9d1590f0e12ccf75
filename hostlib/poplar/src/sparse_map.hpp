// Internal: a std::map that costs one pointer while it is empty.
#pragma once

#include <map>
#include <memory>
#include <utility>

namespace poplar::detail {

/// A map with std::map's interface (the parts the library uses) that allocates nothing until its first insertion.
/// A vertex keeps its VectorList, plain and late-init fields in these: most vertices have none of them, and each
/// empty std::map was 48 bytes of every vertex (tutorial 7 adds 80,000 vertices, and their memory is written for
/// the first time, one page fault per 4 KiB).
template <class Key, class Value> class SparseMap {
public:
  using Map = std::map<Key, Value>;
  using key_type = Key;
  using mapped_type = Value;
  using value_type = typename Map::value_type;
  using iterator = typename Map::iterator;
  using const_iterator = typename Map::const_iterator;

  SparseMap() = default;
  SparseMap(const SparseMap &o) : m_(o.m_ ? std::make_unique<Map>(*o.m_) : nullptr) {}
  SparseMap(SparseMap &&) noexcept = default;
  SparseMap &operator=(const SparseMap &o) {
    if (this != &o)
      m_ = o.m_ ? std::make_unique<Map>(*o.m_) : nullptr;
    return *this;
  }
  SparseMap &operator=(SparseMap &&) noexcept = default;

  // Reading an empty map reads a shared empty one, which is never written: only end iterators ever point into it.
  const_iterator begin() const { return read().begin(); }
  const_iterator end() const { return read().end(); }
  iterator begin() { return write().begin(); }
  iterator end() { return write().end(); }
  const_iterator find(const Key &k) const { return read().find(k); }
  iterator find(const Key &k) { return write().find(k); }
  std::size_t count(const Key &k) const { return read().count(k); }
  const Value &at(const Key &k) const { return read().at(k); }
  bool empty() const { return !m_ || m_->empty(); }
  std::size_t size() const { return m_ ? m_->size() : 0; }

  Value &operator[](const Key &k) { return own()[k]; }
  template <class... Args> std::pair<iterator, bool> emplace(Args &&...args) {
    return own().emplace(std::forward<Args>(args)...);
  }
  std::size_t erase(const Key &k) { return m_ ? m_->erase(k) : 0; }

private:
  static Map &shared() {
    static Map none;
    return none;
  }
  const Map &read() const { return m_ ? *m_ : shared(); }
  // Non-const access that does not insert: an empty map still needs no storage of its own.
  Map &write() { return m_ ? *m_ : shared(); }
  Map &own() {
    if (!m_)
      m_ = std::make_unique<Map>();
    return *m_;
  }

  std::unique_ptr<Map> m_;
};

} // namespace poplar::detail
