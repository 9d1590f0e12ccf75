/* _getpid: a tile runs exactly one program, process 1. */
int _getpid(void)
{
    return 1;
}
