// Vertex and field handles are plain values; their behaviour lives in Graph (connect, setTileMapping).
#include "poplar/VertexRef.hpp"
