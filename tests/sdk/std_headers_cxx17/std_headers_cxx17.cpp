// A user's C++17 program that uses std::optional after including only Poplar headers, as Graphcore's headers
// include <optional> (built with -std=c++17 after the SDK's --std=c++11).
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

static std::optional<unsigned> tilesOf(const poplar::Target &target) {
  if (target.getNumTiles() == 0)
    return std::nullopt;
  return target.getNumTiles();
}

int main() {
  poplar::IPUModel model;
  model.tilesPerIPU = 6;
  std::optional<unsigned> tiles = tilesOf(model.createTarget());
  assert(tiles.has_value());
  std::cout << "tiles: " << tiles.value() << std::endl;
  return 0;
}
