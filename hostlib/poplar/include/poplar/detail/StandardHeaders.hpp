// The standard headers that Graphcore's public Poplar headers bring in with them. Programs written for the SDK use
// assert, std::cout, std::setw, std::accumulate, std::sort, std::map, std::optional (C++17) and the like after
// including only Poplar headers; they compile there, so they must compile here. The basic public headers (Type,
// ArrayRef, OptionFlags, exceptions) include this one, and every other public header includes one of them.
#ifndef POPLAR_DETAIL_STANDARDHEADERS_HPP
#define POPLAR_DETAIL_STANDARDHEADERS_HPP

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <string>
#include <utility>
#include <vector>
#if __cplusplus >= 201703L
#include <optional>
#endif

#endif // POPLAR_DETAIL_STANDARDHEADERS_HPP
