/* Host link frames ([link] in contract/card.toml): SOF, TYPE, LEN, LEN payload
 * bytes, CHECK, where CHECK makes the byte sum of TYPE, LEN, the payload and
 * CHECK zero (mod 256). One encoder and one incremental reader for every side
 * of the link in C (the driver's link transport, the link fault proxy, the board
 * simulation's tests), so that the framing is written once beside the numbers
 * it uses. Header-only, C11 and C++. */
#ifndef IPU_CARD_LINK_FRAME_H
#define IPU_CARD_LINK_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "ipu_card/hw.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes of the longest frame: SOF, TYPE, LEN, 255 payload bytes, CHECK. */
#define IPU_LINK_FRAME_MAX (4u + IPU_LINK_MAX_PAYLOAD)

/** Writes the frame (TYPE, `len` payload bytes) to `buf` (IPU_LINK_FRAME_MAX
 * bytes); returns its length, 4 + len. */
static inline size_t ipu_link_frame_encode(uint8_t *buf, uint8_t type, const uint8_t *payload, uint8_t len)
{
    uint8_t sum = (uint8_t)(type + len);
    buf[0] = (uint8_t)IPU_LINK_SOF;
    buf[1] = type;
    buf[2] = len;
    for (unsigned i = 0; i < len; i++) {
        buf[3 + i] = payload[i];
        sum = (uint8_t)(sum + payload[i]);
    }
    buf[3 + len] = (uint8_t)(0u - sum);
    return 4u + len;
}

/** What ipu_link_framer_byte() made of a byte. */
enum ipu_link_framer_result {
    IPU_LINK_FRAMER_MORE = 0,      /**< inside a frame that is not complete yet */
    IPU_LINK_FRAMER_FRAME = 1,     /**< completed a frame whose CHECK is right */
    IPU_LINK_FRAMER_OUTSIDE = 2,   /**< a byte outside any frame (before a SOF) */
    IPU_LINK_FRAMER_BAD_CHECK = 3  /**< completed a frame whose CHECK is wrong */
};

/** A frame being read one byte at a time. Zero-initialise it. After FRAME or
 * BAD_CHECK the frame is in frame[0 .. len) (TYPE at [1], LEN at [2], the
 * payload from [3]) until the next byte starts over. */
struct ipu_link_framer {
    uint8_t frame[IPU_LINK_FRAME_MAX];
    size_t len;
    int done;
};

/** Takes the next byte of the stream; returns an ipu_link_framer_result. */
static inline int ipu_link_framer_byte(struct ipu_link_framer *f, uint8_t b)
{
    if (f->done) {
        f->len = 0;
        f->done = 0;
    }
    if (f->len == 0 && b != IPU_LINK_SOF)
        return IPU_LINK_FRAMER_OUTSIDE;
    f->frame[f->len++] = b;
    if (f->len < 4 || f->len != 4u + f->frame[2])
        return IPU_LINK_FRAMER_MORE;
    f->done = 1;
    uint8_t sum = 0;
    for (size_t i = 1; i < f->len; i++)
        sum = (uint8_t)(sum + f->frame[i]);
    return sum == 0 ? IPU_LINK_FRAMER_FRAME : IPU_LINK_FRAMER_BAD_CHECK;
}

#ifdef __cplusplus
}
#endif

#endif /* IPU_CARD_LINK_FRAME_H */
