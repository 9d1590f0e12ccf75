/* Fault injection on the card model, for driver developers: the faults a real
 * card and its PCIe link produce, on demand (struct ipu_backend_faults, armed
 * through the backend interface: ipu_backend_inject). The QEMU device exposes
 * them as properties (qemu-device/README.md); in-process cards read them from
 * $IPU_EMU_INJECT when they are created, in the text form parsed here. */
#ifndef IPU_MODEL_INJECT_H
#define IPU_MODEL_INJECT_H

#include <stddef.h>
#include <stdint.h>

#include "ipu_card/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parses a comma-separated spec: "dma_error=N", "drop_irq=V", "delay_irq=V:N"
 * (vector V, N advances), "removed", "stall_dma"; V is a vector number 0-3,
 * N a number (decimal without a leading zero, or 0x hex: "012" is refused, not
 * read as octal). Each key at most once. Returns 0, or -EINVAL with a message
 * in err naming the bad item (or the repeated key) and the accepted forms. */
int ipu_model_faults_parse(const char *spec, struct ipu_backend_faults *out, char *err, size_t err_len);

#ifdef __cplusplus
}
#endif
#endif /* IPU_MODEL_INJECT_H */
