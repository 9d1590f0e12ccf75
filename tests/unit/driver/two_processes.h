/* Test helper: two processes that each open a card at the same time (issue 12: in-process cards are private to
 * their process, so neither may block the other). */
#ifndef IPU_TEST_TWO_PROCESSES_H
#define IPU_TEST_TWO_PROCESSES_H

#include "ipudrv/ipudrv.h"

/* Opens a card; returns 0 or a negative code (ipudrv_last_error(NULL) says why). */
typedef int (*open_card_fn)(ipudrv_device **out);

/* Forks; the child and this process each call `open_card` and hold the card until both have opened (pipes make
 * the opens overlap; the child never outlives a failed parent). Fails the calling cmocka test unless both opens
 * succeed, the parent's card answers the ID register, and both close cleanly. Call it with no card open in this
 * process: the child of a fork has only the forking thread, so a lock that a card's host thread held at that moment
 * (ASan's allocator's, for one: seen as a hang in the sanitizer build) is never released there. */
void expect_two_processes_hold_cards(open_card_fn open_card);

#endif
