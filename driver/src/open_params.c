/* ipudrv_open_params: every field checked, then resolved into the node that
 * the transports open and, for simulated cards, the board the card is created
 * from. ipudrv_open's discovered cards come through here too, so a card named
 * by id and one named by parameters are opened by the same code. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* A string field of a board: terminated inside its array. */
static int board_string_ok(const char *s, size_t size)
{
    return memchr(s, '\0', size) != NULL;
}

/* What a card needs of a board given in memory (a board file gets the same
 * checks from ipu_board_load). */
static int check_board_values(const struct ipu_board *b)
{
    if (!board_string_ok(b->name, sizeof b->name) || !b->name[0] || !board_string_ok(b->isa, sizeof b->isa) ||
        !board_string_ok(b->abi, sizeof b->abi) || !board_string_ok(b->transport, sizeof b->transport) ||
        !board_string_ok(b->description, sizeof b->description))
        return ipudrv_fail(NULL, -EINVAL, "ipudrv_open_with: board_values has an empty name or a string that is not "
                           "NUL-terminated; fill it from ipu_board_load or ipu_board_default and then change it");
    uint32_t tiles = ipu_board_num_tiles(b);
    if (tiles == 0 || tiles > 65535 || b->bytes_per_tile == 0 || b->bytes_per_tile % 4096)
        return ipudrv_fail(NULL, -EINVAL, "ipudrv_open_with: board_values '%s' has %u tiles of %u bytes; a card has "
                           "1..65535 tiles and a non-zero multiple of 4096 bytes per tile", b->name, tiles,
                           b->bytes_per_tile);
    /* Every other field in its board-file range: the card model refuses the rest, and this names the field. */
    char why[400];
    if (ipu_board_check(b, "ipudrv_open_with: board_values", why, sizeof why) != 0)
        return ipudrv_fail(NULL, -EINVAL, "%s; fill it from ipu_board_load or ipu_board_default and then change it",
                           why);
    return 0;
}

/* Copies the caller's struct, which may be of an older (smaller) or newer
 * (larger) version of the library. */
static int copy_params(const struct ipudrv_open_params *params, struct ipudrv_open_params *p)
{
    if (params->size < IPUDRV_OPEN_PARAMS_SIZE_V1)
        return ipudrv_fail(NULL, -EINVAL, "ipudrv_open_with: params->size is %zu, smaller than the first version of "
                           "struct ipudrv_open_params (%zu bytes); set size = sizeof(struct ipudrv_open_params)",
                           params->size, (size_t)IPUDRV_OPEN_PARAMS_SIZE_V1);
    const unsigned char *extra = (const unsigned char *)params;
    for (size_t i = sizeof *p; i < params->size; i++)
        if (extra[i])
            return ipudrv_fail(NULL, -ENOTSUP, "ipudrv_open_with: params->size is %zu and byte %zu is set, but this "
                               "libipudrv %s knows %zu bytes: the caller uses fields of a newer library; update "
                               "libipudrv or leave those fields zero", params->size, i, ipudrv_version(),
                               sizeof *p);
    memset(p, 0, sizeof *p);
    memcpy(p, params, params->size < sizeof *p ? params->size : sizeof *p);
    return 0;
}

static int check_knobs(const struct ipudrv_open_params *p)
{
    if (p->lock_policy != IPUDRV_LOCK_TRY && p->lock_policy != IPUDRV_LOCK_WAIT)
        return ipudrv_fail(NULL, -EINVAL, "ipudrv_open_with: lock_policy %u is not IPUDRV_LOCK_TRY (0) or "
                           "IPUDRV_LOCK_WAIT (1)", p->lock_policy);
    if (p->trace != 0 && p->trace != 1)
        return ipudrv_fail(NULL, -EINVAL, "ipudrv_open_with: trace is %d; use 0 (off) or 1 (per-instruction trace)",
                           p->trace);
    if (p->host_threads > IPUDRV_HOST_THREADS_MAX)
        return ipudrv_fail(NULL, -EINVAL, "ipudrv_open_with: host_threads is %u; use 0 (one per core) to %u",
                           p->host_threads, IPUDRV_HOST_THREADS_MAX);
    if (p->board && p->board_values)
        return ipudrv_fail(NULL, -EINVAL, "ipudrv_open_with: both board ('%s') and board_values are set; set one",
                           p->board);
    if (p->board && (!p->board[0] || strlen(p->board) >= IPUDRV_BOARD_SPEC_MAX))
        return ipudrv_fail(NULL, -EINVAL, "ipudrv_open_with: board is %s; name a board (\"tiny\") or a board file "
                           "path shorter than %d characters", p->board[0] ? "too long" : "empty",
                           IPUDRV_BOARD_SPEC_MAX);
    return p->board_values ? check_board_values(p->board_values) : 0;
}

/* The transport: the caller's, else the board's own `transport` key. */
static int pick_transport(const struct ipudrv_open_params *p, struct ipudrv_node *node, struct ipu_board *board,
                          int *loaded)
{
    const char *name = p->transport;
    if (!name) {
        if (p->board_values) {
            name = p->board_values->transport[0] ? p->board_values->transport : "model";
        } else if (p->board) {
            char err[512];
            int rc = ipu_board_load(p->board, board, err, sizeof err);
            if (rc)
                return ipudrv_fail(NULL, rc, "%s: %s", node->label, err);
            *loaded = 1;
            name = board->transport[0] ? board->transport : "model";
        } else {
            return ipudrv_fail(NULL, -EINVAL, "ipudrv_open_with: no card named; set board or board_values for a "
                               "simulated card, or transport and location for a PCI card (transport \"vfio\")");
        }
    }
    if (!ipudrv_transport_find(name))
        return ipudrv_fail(NULL, -ENOTSUP, "%s: unknown transport '%s'; this libipudrv has \"model\", \"rtl\", "
                           "\"socket\", \"usb\" and \"vfio\"", node->label, name);
    snprintf(node->transport, sizeof node->transport, "%s", name);
    return 0;
}

static int resolve_shared(const struct ipudrv_open_params *p, struct ipudrv_node *node)
{
    if (p->board || p->board_values)
        return ipudrv_fail(NULL, -EINVAL, "ipudrv_open_with: a %s card reports its own board; leave board and "
                           "board_values NULL", node->transport);
    if (p->host_threads || p->trace)
        return ipudrv_fail(NULL, -EINVAL, "ipudrv_open_with: host_threads and trace configure simulated cards; a %s "
                           "card takes neither, leave them 0", node->transport);
    if (!p->location || !p->location[0] || strlen(p->location) >= sizeof node->location)
        return ipudrv_fail(NULL, -EINVAL, "ipudrv_open_with: a %s card needs location, what identifies it (the PCI "
                           "slot, e.g. \"0000:00:04.0\"; gc-info -l lists the cards)", node->transport);
    snprintf(node->location, sizeof node->location, "%s", p->location);
    return 0;
}

static int resolve_private(const struct ipudrv_open_params *p, struct ipudrv_node *node, struct ipu_board *board,
                           int loaded)
{
    if (p->location)
        return ipudrv_fail(NULL, -EINVAL, "ipudrv_open_with: location names shared cards; a %s card is created in "
                           "this process, leave location NULL", node->transport);
    if (p->board_values) {
        *board = *p->board_values;
        snprintf(node->board, sizeof node->board, "%s", board->name);
    } else if (p->board) {
        char err[512];
        int rc = loaded ? 0 : ipu_board_load(p->board, board, err, sizeof err);
        if (rc)
            return ipudrv_fail(NULL, rc, "%s: %s", node->label, err);
        snprintf(node->board, sizeof node->board, "%s", p->board);
    } else {
        return ipudrv_fail(NULL, -EINVAL, "ipudrv_open_with: a %s card needs a board; set board (e.g. \"tiny\") or "
                           "board_values", node->transport);
    }
    snprintf(node->location, sizeof node->location, "%s:%s", node->transport, node->board);
    node->host_threads = p->host_threads;
    node->trace = p->trace;
    return 0;
}

int ipudrv_params_resolve(const struct ipudrv_open_params *params, struct ipudrv_node *node, struct ipu_board *board,
                          int *has_board, unsigned *lock_policy)
{
    struct ipudrv_open_params p;
    int rc, loaded = 0;
    if (!params)
        return ipudrv_fail(NULL, -EINVAL, "ipudrv_open_with: params is NULL");
    if ((rc = copy_params(params, &p)) || (rc = check_knobs(&p)) || (rc = pick_transport(&p, node, board, &loaded)))
        return rc;
    *has_board = !ipudrv_transport_is_shared(node->transport);
    *lock_policy = p.lock_policy;
    return *has_board ? resolve_private(&p, node, board, loaded) : resolve_shared(&p, node);
}
