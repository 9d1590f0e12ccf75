/* The environment of the rtl transport tests: a private lock directory and no
 * PCI cards, so that the tests neither see nor disturb other users' devices
 * (as tests/unit/driver/test_env.h), and no lock-step unless a test asks. */
#ifndef RTL_TEST_ENV_H
#define RTL_TEST_ENV_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char rtl_test_lock_dir[64];

/* Makes the lock directory; returns 0, or -1 (a CMocka group setup failure). */
static inline int rtl_test_env_setup(void)
{
    snprintf(rtl_test_lock_dir, sizeof rtl_test_lock_dir, "/tmp/ipudrv-rtl-test-XXXXXX");
    if (!mkdtemp(rtl_test_lock_dir))
        return -1;
    setenv("IPU_EMU_LOCK_DIR", rtl_test_lock_dir, 1);
    setenv("IPU_EMU_PCI_ROOT", "/nonexistent-ipudrv-rtl-test", 1);
    unsetenv("IPU_EMU_RTL_LOCKSTEP");
    return 0;
}

/* Removes the lock directory and the lock files in it; returns 0 or -1. */
static inline int rtl_test_env_teardown(void)
{
    DIR *d = opendir(rtl_test_lock_dir);
    if (!d)
        return -1;
    struct dirent *e;
    char path[512];
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') {
            snprintf(path, sizeof path, "%s/%s", rtl_test_lock_dir, e->d_name);
            remove(path);
        }
    closedir(d);
    return rmdir(rtl_test_lock_dir) == 0 ? 0 : -1;
}

#endif
