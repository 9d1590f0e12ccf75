// PopLibs' later name of Reduce.hpp.
#ifndef POPOPS_REDUCTION_HPP
#define POPOPS_REDUCTION_HPP

#include "popops/Reduce.hpp"

#endif // POPOPS_REDUCTION_HPP
