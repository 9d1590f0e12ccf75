// Shared helpers of popnn's tests: the PopLibs fixture with popnn's codelets added too.
#pragma once

#include <popnn/codelets.hpp>

#include "poplibs_test.hpp"

namespace popnn_test {

/// A graph on an ipu2-like IPU Model of `tiles` tiles with popops' and popnn's codelets.
struct NnFixture : poplibs_test::Fixture {
  explicit NnFixture(unsigned tiles = 16) : poplibs_test::Fixture(tiles) { popnn::addCodelets(graph); }
};

} // namespace popnn_test
