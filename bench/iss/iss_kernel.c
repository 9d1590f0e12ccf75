/* The ISS benchmark kernel (bench/bench_iss.cpp): sorting, CRC32 and a small
 * float matrix multiply, mixed so that no single instruction class dominates.
 * It is compiled once to an object file and linked both into a bare tile
 * program (tile_main.S) and into a Linux user program (linux_main.S) for
 * qemu-riscv32, so both emulators run the same instructions. Freestanding:
 * no C library, no globals outside this file. */
#include <stdint.h>

#define SORT_N 256
#define MAT_N 12

static uint32_t sort_buf[SORT_N];
static float mat_a[MAT_N * MAT_N], mat_b[MAT_N * MAT_N], mat_c[MAT_N * MAT_N];
static uint32_t crc_table[256];

static uint32_t lcg(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state;
}

/* Shell sort over a pseudo-random array; returns a position-weighted sum so
 * that a wrong order changes the result. */
static uint32_t sort_step(uint32_t *seed)
{
    for (int i = 0; i < SORT_N; i++)
        sort_buf[i] = lcg(seed) >> 8;
    for (int gap = SORT_N / 2; gap > 0; gap /= 2) {
        for (int i = gap; i < SORT_N; i++) {
            uint32_t v = sort_buf[i];
            int j = i;
            while (j >= gap && sort_buf[j - gap] > v) {
                sort_buf[j] = sort_buf[j - gap];
                j -= gap;
            }
            sort_buf[j] = v;
        }
    }
    uint32_t sum = 0;
    for (int i = 0; i < SORT_N; i++)
        sum += sort_buf[i] * (uint32_t)(i + 1);
    return sum;
}

static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
}

/* CRC32 (table-driven, then bitwise over the same bytes) of the sorted array. */
static uint32_t crc_step(void)
{
    const uint8_t *p = (const uint8_t *)sort_buf;
    uint32_t crc = 0xffffffffu;
    for (unsigned i = 0; i < sizeof sort_buf; i++)
        crc = crc_table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
    uint32_t bitwise = 0xffffffffu;
    for (unsigned i = 0; i < 64; i++) {
        bitwise ^= p[i];
        for (int k = 0; k < 8; k++)
            bitwise = (bitwise >> 1) ^ (0xedb88320u & (0u - (bitwise & 1)));
    }
    return ~crc ^ ~bitwise;
}

/* C = A * B on MAT_N x MAT_N floats; returns the bits of a trace-weighted sum. */
static uint32_t matmul_step(uint32_t *seed)
{
    for (int i = 0; i < MAT_N * MAT_N; i++) {
        mat_a[i] = (float)(lcg(seed) >> 20) * (1.0f / 4096.0f);
        mat_b[i] = (float)(lcg(seed) >> 20) * (1.0f / 4096.0f) - 0.5f;
    }
    for (int i = 0; i < MAT_N; i++)
        for (int j = 0; j < MAT_N; j++) {
            float acc = 0.0f;
            for (int k = 0; k < MAT_N; k++)
                acc += mat_a[i * MAT_N + k] * mat_b[k * MAT_N + j];
            mat_c[i * MAT_N + j] = acc;
        }
    float s = 0.0f;
    for (int i = 0; i < MAT_N; i++)
        s += mat_c[i * MAT_N + i] * (float)(i + 1);
    union {
        float f;
        uint32_t u;
    } bits = {s};
    return bits.u;
}

/* Runs `rounds` rounds of the three steps; returns a checksum of all results. */
uint32_t iss_kernel(uint32_t rounds)
{
    uint32_t seed = 12345, check = 0;
    crc_init();
    for (uint32_t r = 0; r < rounds; r++) {
        check = check * 31 + sort_step(&seed);
        check = check * 31 + crc_step();
        check = check * 31 + matmul_step(&seed);
    }
    return check;
}
