// The handles of a graph's elements (ComputeSet, VertexRef, FieldRef, Function), gathered in the header of the same
// path as the SDK's. Each is declared in a header of its own here; this one includes them.
#ifndef POPLAR_GRAPH_ELEMENTS_HPP
#define POPLAR_GRAPH_ELEMENTS_HPP

#include "poplar/ComputeSet.hpp"
#include "poplar/Program.hpp"
#include "poplar/VertexRef.hpp"

#endif // POPLAR_GRAPH_ELEMENTS_HPP
