// A Poplar-style C++ vertex for the control-program image: IPU_VERTEX_ENTRY turns
// Increment::compute() into the bool(void *) entry point the trampoline calls.
#include <stdint.h>

#include "ipu_rt/vertex.h"

namespace {

// The vertex state the host lays out: one field, the counter to bump.
class Increment {
public:
    bool compute()
    {
        ++*counter;
        return true;
    }

private:
    uint32_t *counter;
};

} // namespace

IPU_VERTEX_ENTRY(cp_increment_cxx, Increment)
