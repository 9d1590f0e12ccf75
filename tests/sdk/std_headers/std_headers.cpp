// A user's program that, like many written for Graphcore's SDK, uses standard names after including only Poplar
// headers: assert (<cassert>), std::cout and std::endl (<iostream>), std::setw and std::fixed (<iomanip>),
// std::accumulate and std::iota (<numeric>), std::sort and std::max_element (<algorithm>), std::map, std::vector,
// std::string. Graphcore's public headers bring those in; a program that relies on it must compile here too.
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>

int main() {
  std::vector<int> values(5);
  std::iota(values.begin(), values.end(), 1);
  std::sort(values.begin(), values.end(), std::greater<int>());
  const int total = std::accumulate(values.begin(), values.end(), 0);
  assert(total == 15);
  std::map<std::string, int> named;
  named["largest"] = *std::max_element(values.begin(), values.end());
  std::cout << "total:" << std::setw(4) << total << " largest: " << named["largest"] << std::endl;
  std::cout << std::fixed << std::setprecision(2) << "type size: " << double(poplar::FLOAT.getSize()) << std::endl;
  return 0;
}
