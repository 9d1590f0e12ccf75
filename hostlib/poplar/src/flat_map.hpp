// Internal: a small map kept as one sorted vector.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

namespace poplar::detail {

/// A map with std::map's order and the parts of its interface the library uses, stored as a vector sorted by key.
/// A vertex's edges live in one: a vertex has a handful, and a tree node per edge was an allocation per connect and
/// a cache miss per lookup (tutorial 7 connects 240,000 edges, and its estimators look one up per vertex).
/// Inserting invalidates iterators, as for a vector.
template <class Key, class Value> class FlatMap {
public:
  using value_type = std::pair<Key, Value>;
  using iterator = typename std::vector<value_type>::iterator;
  using const_iterator = typename std::vector<value_type>::const_iterator;

  const_iterator begin() const { return items_.begin(); }
  const_iterator end() const { return items_.end(); }
  iterator begin() { return items_.begin(); }
  iterator end() { return items_.end(); }
  std::size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }

  const_iterator find(const Key &k) const {
    auto it = lowerBound(items_, k);
    return it != items_.end() && it->first == k ? it : items_.end();
  }
  iterator find(const Key &k) {
    auto it = lowerBound(items_, k);
    return it != items_.end() && it->first == k ? it : items_.end();
  }
  std::size_t count(const Key &k) const { return find(k) != end() ? 1 : 0; }

  Value &operator[](const Key &k) { return emplace(k, Value()).first->second; }
  std::pair<iterator, bool> emplace(const Key &k, Value v) {
    if (items_.empty())
      items_.reserve(kFirstCapacity); // before the search: reserving moves the storage the iterator points into
    auto it = lowerBound(items_, k);
    if (it != items_.end() && it->first == k)
      return {it, false};
    return {items_.insert(it, value_type(k, std::move(v))), true};
  }

private:
  // Vertices have up to a few edges: room for four at the first insertion saves the vector's regrowths.
  static constexpr std::size_t kFirstCapacity = 4;
  template <class Items> static auto lowerBound(Items &items, const Key &k) {
    return std::lower_bound(items.begin(), items.end(), k,
                            [](const value_type &item, const Key &key) { return item.first < key; });
  }

  std::vector<value_type> items_;
};

} // namespace poplar::detail
