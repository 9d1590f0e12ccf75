/* A small client of QEMU's qtest protocol: starts QEMU with -accel qtest, then
 * drives port I/O, memory and IRQ interception over a Unix socket, with no guest.
 *
 * Every command waits for QEMU's answer with a timeout; a QEMU that dies or
 * stops answering makes the call fail (qt_ok() turns false), so tests report a
 * crash or a hang instead of blocking. */
#ifndef IPU_QTEST_CLIENT_H
#define IPU_QTEST_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct qt;

/* Starts `qemu` with the qtest accelerator, a q35 machine and `args` (extra
 * command-line words, space separated). Guest errors go to the log file
 * qt_log_path() names. Returns NULL with a message in `err` on failure. */
struct qt *qt_start(const char *qemu, const char *args, char *err, size_t err_len);

/* Stops QEMU. Returns 0 when it was alive and exited cleanly on SIGTERM, -1
 * when it had crashed, hung or reported a sanitizer error. A clean quit
 * removes QEMU's log; otherwise the log is kept and its path printed. */
int qt_quit(struct qt *q);

bool qt_ok(const struct qt *q);          /* false once QEMU failed to answer */
const char *qt_log_path(const struct qt *q);
const char *qt_last_error(const struct qt *q);

uint32_t qt_in(struct qt *q, uint16_t port, unsigned size);
void qt_out(struct qt *q, uint16_t port, unsigned size, uint32_t value);
uint64_t qt_read(struct qt *q, uint64_t addr, unsigned size);   /* size 1, 2, 4, 8 */
void qt_write(struct qt *q, uint64_t addr, unsigned size, uint64_t value);
void qt_memread(struct qt *q, uint64_t addr, void *buf, size_t len);
void qt_memwrite(struct qt *q, uint64_t addr, const void *buf, size_t len);

/* Intercepts the I/O APIC's inputs; qt_irq_level() then reports line `n`. */
void qt_irq_intercept(struct qt *q);
bool qt_irq_level(struct qt *q, unsigned n);

#endif /* IPU_QTEST_CLIENT_H */
