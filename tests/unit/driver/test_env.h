/* Test environment for driver tests: a private lock directory and no real
 * PCI cards, so that tests neither see nor disturb other users' devices. */
#ifndef DRIVER_TEST_ENV_H
#define DRIVER_TEST_ENV_H

#include <stdio.h>
#include <stdlib.h>

static char test_lock_dir[64];

static inline void test_env_setup(const char *devices)
{
    if (!test_lock_dir[0]) {
        snprintf(test_lock_dir, sizeof test_lock_dir, "/tmp/ipudrv-test-XXXXXX");
        if (!mkdtemp(test_lock_dir))
            abort();
    }
    setenv("IPU_EMU_LOCK_DIR", test_lock_dir, 1);
    setenv("IPU_EMU_PCI_ROOT", "/nonexistent-ipudrv-test", 1);
    setenv("IPU_EMU_DEVICES", devices, 1);
}

static inline void test_env_cleanup(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", test_lock_dir);
    if (test_lock_dir[0] && system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", test_lock_dir);
}

#endif
