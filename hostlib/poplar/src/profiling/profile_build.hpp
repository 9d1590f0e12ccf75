// Internal: building profile values by moving their parts into place. ProfileValue's public constructors copy,
// and a braced Map{{key, value}, ...} copies every value out of its initializer list; a profile of a large graph
// is deep (per-tile tables of every compute set, exchange and memory category), so its parts are moved instead.
#pragma once

#include <utility>

#include "poplar/ProfileValue.hpp"

namespace poplar::detail::profile_build {

using Vec = ProfileValue::Vector;
using Map = ProfileValue::Map;

/// A vector value that takes over `v`'s elements.
inline ProfileValue adopt(Vec &&v) {
  ProfileValue out{Vec{}};
  out.asVector().swap(v);
  return out;
}

/// A map value that takes over `m`'s entries.
inline ProfileValue adopt(Map &&m) {
  ProfileValue out{Map{}};
  out.asMap().swap(m);
  return out;
}

inline void put(Map &) {}

template <typename V, typename... Rest> void put(Map &m, const char *key, V &&value, Rest &&...rest) {
  m.emplace(key, ProfileValue(std::forward<V>(value)));
  put(m, std::forward<Rest>(rest)...);
}

/// The map of `key, value, key, value, ...`, each value moved in when it is a temporary.
template <typename... Entries> ProfileValue mapOf(Entries &&...entries) {
  Map m;
  put(m, std::forward<Entries>(entries)...);
  return adopt(std::move(m));
}

} // namespace poplar::detail::profile_build
