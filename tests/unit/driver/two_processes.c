/* Test helper: two processes that each open a card at the same time (see two_processes.h). */
#include "two_processes.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "ipu_card/hw.h"

void expect_two_processes_hold_cards(open_card_fn open_card)
{
    int to_parent[2], to_child[2];
    assert_int_equal(pipe(to_parent), 0);
    assert_int_equal(pipe(to_child), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        /* Only the parent writes to_child: its exit (a failed test) ends the wait. */
        close(to_child[1]);
        ipudrv_device *dev = NULL;
        char c = open_card(&dev) == 0 ? 'y' : 'n';
        if (write(to_parent[1], &c, 1) != 1 || read(to_child[0], &c, 1) != 1)
            _exit(2);
        _exit(dev && ipudrv_close(dev) == 0 ? 0 : 1);
    }
    char c = 0;
    assert_int_equal(read(to_parent[0], &c, 1), 1); /* the child holds its card from here on */
    ipudrv_device *dev = NULL;
    int rc = open_card(&dev);
    uint32_t id = 0;
    int id_rc = rc ? rc : ipudrv_reg_read(dev, IPU_REG_ID, &id);
    /* Both cards are open here; let the child go before judging. */
    assert_int_equal(write(to_child[1], "x", 1), 1);
    int status = 0;
    assert_int_equal(waitpid(child, &status, 0), child);
    close(to_parent[0]), close(to_parent[1]), close(to_child[0]), close(to_child[1]);
    if (rc)
        fail_msg("the parent's card: %s", ipudrv_last_error(NULL));
    assert_int_equal(c, 'y');
    assert_int_equal(id_rc, 0);
    assert_int_equal(id, IPU_REG_ID_RESET_VALUE);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_int_equal(ipudrv_close(dev), 0);
}
