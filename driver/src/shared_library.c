/* libipudrv.so: the driver as one shared library for programs built outside this tree (`cc x.c -lipudrv`). The
 * static libipudrv that the tree links holds the code; this unit only gives the shared library a source of its own,
 * and driver/libipudrv.map keeps everything but the public API (ipudrv_*, ipu_board_*) private, so the card model
 * and backends folded into it do not clash with a program's own symbols. */
typedef int ipudrv_shared_library_unit;
