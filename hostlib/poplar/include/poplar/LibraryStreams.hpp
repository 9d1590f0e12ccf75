// The host side of streams that a library (not the program) creates and serves, an ipu-emu extension that
// Graphcore's Poplar does not have. gcl's collectives across instances use it: their device-to-host and
// host-to-device copies meet MPI in host callbacks that the program never sees, so every Engine built from a
// graph with such a stream connects it by itself. A program's own connectStream* call on the handle replaces it.
#ifndef POPLAR_LIBRARY_STREAMS_HPP
#define POPLAR_LIBRARY_STREAMS_HPP

#include <functional>
#include <string>

namespace poplar {

/// The host side of one copy of a library stream: `replica` is the local replica whose staging bytes `data`
/// holds (0 in a graph that is not replicated); it fills them (host to device) or reads them (device to host).
/// Replicas are served in order 0, 1, ... within one copy.
typedef std::function<void(unsigned replica, void *data)> LibraryStreamFunction;

/// Makes `f` the host side of stream `handle` in every Engine constructed afterwards from a graph that has the
/// stream (a second registration of the handle replaces the first). Libraries name their handles uniquely, with
/// a "__<library>/" prefix that keeps them out of the program's stream listings.
void registerLibraryStream(const std::string &handle, LibraryStreamFunction f);

} // namespace poplar

#endif // POPLAR_LIBRARY_STREAMS_HPP
