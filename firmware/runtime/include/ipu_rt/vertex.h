/* Vertex entry points: the functions a compute-set table's VERTEX_ENTRY.ENTRY names. */
#ifndef IPU_RT_VERTEX_H
#define IPU_RT_VERTEX_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the worker trampoline calls: `state` is VERTEX_ENTRY.STATE; returning
 * false makes the supervisor fault the tile with IPU_ERR_VERTEX_FAILED. */
typedef bool (*ipu_vertex_fn)(void *state);

/* Keeps a function or variable that only the host refers to (a vertex entry,
 * a tensor, a vertex state) in the image although tile programs link with
 * --gc-sections. */
#define IPU_KEEP __attribute__((used, retain))

/* Places a zero-initialised variable that the host fills after loading the
 * image and before starting the tile (a control program, an exchange list, a
 * vertex table or state) in .ipu_host: crt0 clears .bss at start-up, which
 * would wipe it there. Implies IPU_KEEP. */
#define IPU_HOST_DATA __attribute__((section(".ipu_host"), used, retain))

#ifdef __cplusplus
}

/* Defines `extern "C" bool NAME(void *state)` that runs `Class::compute()` on
 * the vertex state, for codelets written as Poplar-style classes whose fields
 * are the state's layout. The entry is kept (IPU_KEEP): only the host's
 * compute-set tables refer to it. */
#define IPU_VERTEX_ENTRY(NAME, Class) \
    extern "C" IPU_KEEP bool NAME(void *state) { return static_cast<Class *>(state)->compute(); }
#endif

#endif /* IPU_RT_VERTEX_H */
