/* ipu-mmio-latency: round-trip latency of one BAR0 register read through the
 * driver, for the QEMU guest's benchmark figures (issue 8: "MMIO read
 * round-trip latency from inside the guest"). Through vfio each read is a
 * trap into QEMU and the card's MMIO handler; the figure shows what a driver
 * pays per register access. Every read must return the card's ID, so the tool
 * also checks that reads reach the card.
 * Usage: ipu-mmio-latency [DEVICE [READS]]     (defaults 0 and 10000)
 * Exit: 0, 1 on a failed or wrong read. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ipu_card/hw.h"
#include "ipudrv/ipudrv.h"

#define WARMUP 1000u

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    unsigned id = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 0;
    unsigned long reads = argc > 2 ? strtoul(argv[2], NULL, 0) : 10000;
    if (argc > 3 || reads == 0 || reads > 10000000) {
        fprintf(stderr, "usage: ipu-mmio-latency [DEVICE [READS (1..10000000)]]\n");
        return 2;
    }
    ipudrv_device *dev = NULL;
    int rc = ipudrv_open(id, 0, &dev);
    if (rc) {
        fprintf(stderr, "ipu-mmio-latency: cannot open device %u: %s\n", id, ipudrv_last_error(NULL));
        return 1;
    }
    double *t = malloc(reads * sizeof *t);
    if (!t) {
        ipudrv_close(dev);
        return 1;
    }
    int status = 0;
    /* The first reads fault in the mapping and warm QEMU's dispatch: not measured. */
    for (unsigned long i = 0; i < WARMUP + reads && !status; i++) {
        uint32_t v = 0;
        double t0 = now_us();
        rc = ipudrv_reg_read(dev, IPU_REG_ID, &v);
        double t1 = now_us();
        if (rc || v != IPU_REG_ID_RESET_VALUE) {
            fprintf(stderr, "ipu-mmio-latency: read %lu of ID returned %d, value 0x%08x (want 0x%08x): %s\n", i, rc,
                    (unsigned)v, IPU_REG_ID_RESET_VALUE, rc ? ipudrv_last_error(dev) : "wrong value");
            status = 1;
        } else if (i >= WARMUP) {
            t[i - WARMUP] = t1 - t0;
        }
    }
    if (!status) {
        qsort(t, reads, sizeof *t, cmp_double);
        printf("reads: %lu\nmin_us: %.2f\nmedian_us: %.2f\np99_us: %.2f\nmax_us: %.2f\n", reads, t[0],
               t[reads / 2], t[reads - 1 - reads / 100], t[reads - 1]);
    }
    free(t);
    ipudrv_close(dev);
    return status;
}
