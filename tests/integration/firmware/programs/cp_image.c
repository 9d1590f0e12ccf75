/* A runtime image for the every-opcode control-program test: vertices and data, no main().
 *
 * The host test builds the control program with the host copy of the encoder
 * (ipu_cp), using the addresses of these symbols, writes it to cp_program
 * and passes its address in TILE_BOOT_ARG; libipurt's main() runs it.
 * IPU_KEEP keeps what only the host refers to through --gc-sections. */
#include <stdbool.h>
#include <stdint.h>

#include "ipu_card/hw.h"
#include "ipu_rt/runtime.h"
#include "ipu_rt/tile.h"
#include "ipu_rt/vertex.h"

#define ADDR(p) ((uint32_t)(uintptr_t)(p))

/* The interpreter refers to PRINT_TENSOR weakly (it pulls in stdio); this image's program prints, so it asks for
 * it the way the graph compiler does for programs with a PrintTensor step. */
IPU_KEEP int (*const cp_print_tensor)(const char *, uint32_t, const void *, uint32_t) = ipu_rt_print_tensor;

/* Written by the host: the program and this tile's exchange and host-exchange lists. */
IPU_HOST_DATA uint32_t cp_program[256];
IPU_HOST_DATA uint32_t cp_exchange_list[1 + 4];
IPU_HOST_DATA uint32_t cp_hx_list[1 + 8];

/* EXECUTE: eight scale vertices (more than the six workers: two batches). */
struct scale_state {
    const float *in;
    float *out;
    float k;
    uint32_t context; /* written by the vertex: the worker that ran it */
    uint32_t sp;      /* written by the vertex: its stack pointer */
};
IPU_KEEP float cp_scale_in[8] = {1, 2, 3, 4, 5, 6, 7, 8};
IPU_KEEP float cp_scale_out[8];
IPU_HOST_DATA struct scale_state cp_scale_state[8];

IPU_KEEP bool cp_scale(void *state)
{
    struct scale_state *s = state;
    uint32_t sp;
    __asm__ volatile("mv %0, sp" : "=r"(sp));
    s->context = ipu_context_id();
    s->sp = sp;
    *s->out = *s->in * s->k;
    return true;
}

/* The vertex state pointers are set up by the host too (it knows the addresses). */
struct cs_table {
    uint32_t count;
    struct ipu_vertex_entry v[8];
};
IPU_HOST_DATA struct cs_table cp_scale_table;

/* REPEAT, WHILE bodies: counters. */
IPU_KEEP bool cp_increment(void *state)
{
    ++*(uint32_t *)state;
    return true;
}
IPU_KEEP uint32_t cp_repeat_counter;
/* State of the C++ vertex cp_increment_cxx (cp_vertices.cpp) that REPEAT runs:
 * a pointer to cp_repeat_counter, written by the host. */
IPU_HOST_DATA uint32_t cp_repeat_state[1];
IPU_KEEP uint32_t cp_while_counter;
IPU_KEEP uint32_t cp_until_counter;
IPU_HOST_DATA struct cs_table cp_repeat_table;
IPU_HOST_DATA struct cs_table cp_while_body_table;
IPU_HOST_DATA struct cs_table cp_until_body_table;

/* WHILE condition bodies: count `remaining` down and publish the predicate
 * (1 byte for the while-true loop, 4 bytes "done" for the loop-while-false). */
struct countdown_state {
    uint32_t remaining;
    uint8_t *more;    /* set to remaining != 0 (WHILE) */
    uint32_t *done;   /* set to remaining == 0 (WHILE with loop-while-false) */
};
IPU_KEEP uint8_t cp_while_more;
IPU_KEEP uint32_t cp_until_done;
IPU_KEEP struct countdown_state cp_while_countdown = {3, &cp_while_more, 0};
IPU_KEEP struct countdown_state cp_until_countdown = {4, 0, &cp_until_done};
IPU_HOST_DATA struct cs_table cp_while_cond_table;
IPU_HOST_DATA struct cs_table cp_until_cond_table;

IPU_KEEP bool cp_countdown(void *state)
{
    struct countdown_state *s = state;
    if (s->remaining > 0)
        s->remaining--;
    if (s->more)
        *s->more = s->remaining != 0;
    if (s->done)
        *s->done = s->remaining == 0;
    return true;
}

/* IF and SWITCH predicates (already "brought to every tile") and their results. */
IPU_KEEP uint32_t cp_if_true = 7;
IPU_KEEP uint8_t cp_if_false;
IPU_KEEP uint16_t cp_switch_value = 20;
IPU_KEEP uint16_t cp_switch_miss = 5;
IPU_KEEP uint32_t cp_const_a = 0xaaaa0001u, cp_const_b = 0xbbbb0002u, cp_const_c = 0xcccc0003u;
IPU_KEEP uint32_t cp_if_result_1, cp_if_result_2, cp_switch_result_1, cp_switch_result_2;

/* EXCHANGE: each tile sends cp_send to its right neighbour's cp_recv. */
IPU_HOST_DATA uint32_t cp_send[4];
IPU_KEEP uint32_t cp_recv[4];

/* STREAM_COPY: host-to-tile into cp_stream_in, tile-to-host from cp_stream_out. */
IPU_KEEP uint32_t cp_stream_in[4];
IPU_KEEP uint32_t cp_stream_out[4] = {11, 22, 33, 44};

/* PRINT_TENSOR operands. */
IPU_KEEP float cp_print_floats[3] = {1.5f, -2.0f, 0.25f};
IPU_KEEP int32_t cp_print_ints[2] = {-7, 8};
IPU_KEEP uint16_t cp_print_halves[2] = {0x3c00, 0xc000}; /* 1.0, -2.0 */
IPU_KEEP const char cp_name_floats[] = "floats";
IPU_KEEP const char cp_name_ints[] = "ints";
IPU_KEEP const char cp_name_halves[] = "halves";

/* COPY */
IPU_KEEP uint32_t cp_copy_src[3] = {5, 6, 7};
IPU_KEEP uint32_t cp_copy_dst[3];
