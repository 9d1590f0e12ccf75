// Links poplar::poplar through find_package: makes a target and prints what it is.
#include <iostream>
#include <poplar/Target.hpp>

int main() {
  poplar::Target target = poplar::Target::createIPUTarget(1, "ipu2");
  std::cout << "tiles per IPU: " << target.getTilesPerIPU() << "\n";
  return target.getTilesPerIPU() == 1472 ? 0 : 1;
}
