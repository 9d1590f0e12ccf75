/* Linux user entry for the ISS benchmark kernel under qemu-riscv32: rounds
 * from the first command-line argument (decimal), exit status = the low byte
 * of the checksum. Only the exit syscall (93) is used: no C library. */
    .text
    .globl _start
_start:
    lw t0, 0(sp)          /* argc */
    li a0, 1
    li t1, 2
    blt t0, t1, 2f
    lw t2, 8(sp)          /* argv[1] */
    li a0, 0
    li t3, 10
1:  lbu t4, 0(t2)
    beqz t4, 2f
    addi t4, t4, -48
    mul a0, a0, t3
    add a0, a0, t4
    addi t2, t2, 1
    j 1b
2:  call iss_kernel
    andi a0, a0, 0xff
    li a7, 93
    ecall
