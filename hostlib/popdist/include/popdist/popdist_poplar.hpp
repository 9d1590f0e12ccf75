// popdist/popdist_poplar.hpp: this project's original popdist header, kept for programs written against it. The
// functions are declared in popdist/context.hpp (Graphcore's header); this header brings that one in.
#ifndef POPDIST_POPDIST_POPLAR_HPP
#define POPDIST_POPDIST_POPLAR_HPP

#include <popdist/context.hpp>

#endif // POPDIST_POPDIST_POPLAR_HPP
