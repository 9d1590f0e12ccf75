// Device-side <poplar/AvailableVTypes.h>: which vector and vector-list layouts codelets may name. Every layout is
// accepted on this target (all are stored as {pointer, size}), so every "available" macro is defined.
#ifndef POPLAR_DEVICE_AVAILABLE_VTYPES_H
#define POPLAR_DEVICE_AVAILABLE_VTYPES_H
#define VECTOR_AVAIL_SCALED_PTR32
#define VECTOR_AVAIL_SCALED_PTR64
#define VECTOR_AVAIL_SHORT_SPAN
#define VECTORLIST_AVAIL_DELTAN
#endif // POPLAR_DEVICE_AVAILABLE_VTYPES_H
