/* The hardened tile ELF loader (elf_image.hpp) for C callers: one validated
 * image per call, every field checked against the board before any byte is
 * handed out, so C programs and tests load tiles through the same checks as
 * the host runtime instead of a reader of their own. */
#ifndef IPU_RUNTIME_TILE_ELF_H
#define IPU_RUNTIME_TILE_ELF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ipu_board;

/** One loadable segment: `memsz` bytes at `vaddr` (the file bytes, then zeros). */
struct ipu_tile_elf_segment {
    uint32_t vaddr;
    uint32_t memsz;
    uint32_t flags;      /**< ELF PF_R (4), PF_W (2), PF_X (1). */
    const uint8_t *data; /**< `memsz` bytes, owned by the image. */
};

/** A validated tile image (opaque). */
struct ipu_tile_elf;

/**
 * Reads and validates the tile ELF at `path` for tiles of `board`.
 * Returns the image, or NULL with the reason (the field, its value and the fix)
 * written to `err` (`err_len` bytes, always terminated when err_len > 0).
 */
struct ipu_tile_elf *ipu_tile_elf_load(const char *path, const struct ipu_board *board, char *err, size_t err_len);

/** The same for an ELF held in memory; `name` is quoted in messages. */
struct ipu_tile_elf *ipu_tile_elf_parse(const void *data, size_t size, const char *name, const struct ipu_board *board,
                                        char *err, size_t err_len);

/** e_entry of the image. */
uint32_t ipu_tile_elf_entry(const struct ipu_tile_elf *image);

/** Number of non-empty PT_LOAD segments (at least one). */
size_t ipu_tile_elf_num_segments(const struct ipu_tile_elf *image);

/** Segment `i` (by ascending address), or NULL when i is out of range. */
const struct ipu_tile_elf_segment *ipu_tile_elf_get_segment(const struct ipu_tile_elf *image, size_t i);

/** Frees the image (NULL is allowed). */
void ipu_tile_elf_free(struct ipu_tile_elf *image);

#ifdef __cplusplus
}
#endif

#endif /* IPU_RUNTIME_TILE_ELF_H */
