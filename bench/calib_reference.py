#!/usr/bin/env python3
"""Reference cycles for the calibration table (issue 37 item 6): what Graphcore's PopLibs cycle estimators give for
the vertices PopLibs would put on one tile of an ipu2 IPU Model for each operation bench_calib_ops runs.

Every formula below follows a named estimator in Graphcore's public PopLibs sources (github.com/graphcore/poplibs),
restated in our words; the sources are
  P  lib/popops/popopsCycleEstimators.cpp, popopsCycleEstimators.hpp (perf tables), PerformanceEstimation.cpp
     at commit 7eac0f26 (mk2-main);
  R  lib/popops/reduction/CycleEstimationFunctions.cpp at the same commit;
  L  lib/poplin/PerformanceEstimation.hpp at commit 01bd6700 (the AMP supervisor estimates).
The ipu2 Target figures used: 6 worker contexts, a 64-bit data path (2 floats or 4 halves per vector), the AMP
for half inputs with 16 conv units, 4 input elements loaded per cycle and 16 coefficient bytes per cycle.

Which vertices PopLibs would use is our reading of PopLibs for a single tile, stated per row (the "vertices"
string); the worker split is PopLibs' even split over the six workers.
"""
import math

WORKERS = 6
VEC = {"float": 2, "half": 4}  # elements per 64-bit data-path vector


def ceil_div(a, b):
    return -(-a // b)


def supervisor_overhead():
    # P basicOpSupervisorOverhead: 11 cycles common to the 1-D (supervisor) element-wise vertices.
    return 11


def binary_op_1d(n, typ, cycles_per_loop=1):
    """P BinaryOp1D: six workers each take ceil(n/6) elements; a worker pays 29 (float) or 26 (half) plus, for an op
    at the natural vector width with an assembly codelet (ADD, SUB, MUL), (cyclesPerLoop + 2) per vector; the vertex
    is workers x worker cycles + the supervisor overhead."""
    per_worker = ceil_div(n, WORKERS)
    worker = (29 if typ == "float" else 26) + ceil_div(per_worker, VEC[typ]) * (cycles_per_loop + 2)
    return WORKERS * worker + supervisor_overhead()


def binary_op_1d_unrolled(n, typ, cycles_per_loop, unroll):
    """P BinaryOp1D for an op without a natural-width loop (DIVIDE float: 10 cycles per 2 elements, the perf table)."""
    worker = (29 if typ == "float" else 26) + ceil_div(ceil_div(n, WORKERS), unroll) * cycles_per_loop
    return WORKERS * worker + supervisor_overhead()


def unary_exp_1d(n):
    """P UnaryOp1D for EXPONENT float: worker 33 + ceil(elements/2) x 6 (the table's {6, unroll 2}); the vertex is
    workers x worker + 9 + the supervisor overhead."""
    worker = 33 + ceil_div(ceil_div(n, WORKERS), 2) * 6
    return WORKERS * worker + 9 + supervisor_overhead()


def reduce_continuous(outputs, partials):
    """R getCycleEstimateReduceAllRegionsContinuous for float partials with a one-cycle op (ADD, MAX): per output
    partials / min(accumulator width 4, data path 2) cycles, + 2 when the partial count is odd, + 12 per output,
    + 10, + 7 call/return. PopLibs passes the vertex's numOutputsM1 as the output count; we follow that. The rows are
    dealt to six worker vertices, and a tile's time is its busiest worker x 6 (the barrel)."""
    per_worker = ceil_div(outputs, WORKERS)
    m1 = per_worker - 1
    cycles = m1 * (partials // 2) + (2 if partials & 1 else 0) + 12 * m1 + 10 + 7
    return WORKERS * cycles


def amp_1x1_inner(n, zeroing):
    """L getConvPartial1x1SupervisorInnerLoopCycleEstimate, half activations, float partials: a worker's partition of
    n output positions costs 28 (n = 0), 41/42 (n = 1/2) or 43 + 4 (n - 3), plus (2 + 4 n) when it zeroes its
    outputs; the figure is the busiest worker x 6, at least the least busy one x 6 + 14."""
    def worker(k):
        if k == 0:
            return 28
        base = {1: 41, 2: 42}.get(k, 43 + (k - 3) * 4)
        return base + ((2 + 4 * k) if zeroing else 0)
    parts = [ceil_div(n, WORKERS)] * (n % WORKERS or WORKERS) + [n // WORKERS] * (WORKERS - (n % WORKERS or WORKERS))
    costs = [WORKERS * worker(k) for k in parts]
    return max(max(costs), min(costs) + 14)


def amp_loads():
    # L: input loads per inner loop 4 x 4 elements x 16 units x 2 bytes / 16 coefficient bytes per cycle.
    return 4 * 4 * 16 * 2 // 16


def matmul_1x1(m, k, n):
    """L getConvPartial1x1SupervisorCycleEstimate for a matmul as PopLibs plans it on one tile: a 1x1 convolution
    with m output positions, k input channels in groups of 16 and n output channels in groups of 16, half inputs,
    float partials, one output pass per group (16 channels / 16 conv units). The first input group zeroes the
    partials: 50 + 11 + (inGroups - 1)(13 + outGroups (18 + 6 + loads + inner)) + 10 + outGroups (18 + 6 + loads +
    inner with zeroing)."""
    in_groups, out_groups = ceil_div(k, 16), ceil_div(n, 16)
    loads = amp_loads()
    plain, zero = amp_1x1_inner(m, False), amp_1x1_inner(m, True)
    return (50 + 11 + (in_groups - 1) * (13 + out_groups * (18 + 6 + loads + plain)) +
            (10 + out_groups * (18 + 6 + loads + zero)))


def conv_nx1(out_h, out_w, kh, kw, in_chans, out_chans):
    """L getConvPartialnx1SupervisorCycleEstimate for a kh x kw convolution on one tile, half inputs, filter height 1
    (each kernel row a separate pass), 16 in and 16 out channels per group, one out-channel pass. The out_h rows of
    out_w positions are dealt to six workers; a worker costs 19 + per row (46 float / 35 half + (w - 3) x 4 for
    w >= 3); per kernel position the busiest worker x 6 (at least the least busy x 6 + 9) + loads + 15; per kernel
    row 15, per kernel column 20; outer: 95 + 16 + 23 + 23 per (conv, in, out) group."""
    rows = [out_h // WORKERS + (1 if i < out_h % WORKERS else 0) for i in range(WORKERS)]
    def row_cost(w):
        return {0: 18, 1: 30, 2: 34}.get(w, 35 + (w - 3) * 4)
    workers = [WORKERS * (19 + r * row_cost(out_w)) for r in rows]
    per_pos = amp_loads() + 15 + max(max(workers), min(workers) + 9)
    inner = kh * (15 + kw * (20 + per_pos))
    groups_in, groups_out = ceil_div(in_chans, 16), ceil_div(out_chans, 16)
    return 95 + (16 + groups_in * (23 + groups_out * (23 + inner)))


def softmax_stable(rows, cols):
    """PopLibs' stable softmax over the inner dimension is five steps: reduce MAX per row, subtract the row's max,
    exp, reduce ADD per row, divide by the row's sum. Each step costed with the estimators above on one tile
    (the broadcast subtract and divide as 1-D binary ops over all elements)."""
    n = rows * cols
    return (reduce_continuous(rows, cols) + binary_op_1d(n, "float") + unary_exp_1d(n) +
            reduce_continuous(rows, cols) + binary_op_1d_unrolled(n, "float", 10, 2))


def dynamic_slice_2d(rows, cols):
    """P DynamicSlice2D, float: 27 + per region ((29 + vectors) x sub-elements + 13). Slicing one of `rows` rows of
    `cols` floats, PopLibs deals the columns to six worker vertices (one region each); the tile's time is the
    busiest x 6."""
    region = ceil_div(cols, WORKERS)
    return WORKERS * (27 + (29 + ceil_div(region, VEC["float"])) * 1 + 13)


# op name and shape string as bench_calib_ops prints them -> (reference cycles, vertices, source)
def reference(op, shape):
    if op == "add":
        n = int(shape)
        return binary_op_1d(n, "float"), "BinaryOp1D ADD", "P BinaryOp1D"
    if op == "reduce":
        dims, _ = shape.split("/")
        r, c = map(int, dims.split("x"))
        return reduce_continuous(r, c), "6 x ReduceAllRegionsContinuous", "R AllRegionsContinuous"
    if op == "matmul":
        m, k, n = map(int, shape.split("x"))
        return matmul_1x1(m, k, n), "ConvPartial1x1Out (AMP)", "L ConvPartial1x1Supervisor"
    if op == "conv":
        # "1x16x10x10,3x3,16": batch x channels x H x W, kernel, output channels; no padding, stride 1.
        inp, kern, oc = shape.split(",")
        _, ic, h, w = map(int, inp.split("x"))
        kh, kw = map(int, kern.split("x"))
        return conv_nx1(h - kh + 1, w - kw + 1, kh, kw, ic, int(oc)), "ConvPartialnx1 (AMP)", "L ConvPartialnx1Supervisor"
    if op == "softmax":
        r, c = map(int, shape.split("x"))
        return softmax_stable(r, c), "reduce MAX, sub, exp, reduce ADD, div", "P+R, five steps"
    if op == "dynamicSlice":
        dims, _ = shape.split("/")
        r, c = map(int, dims.split("x"))
        return dynamic_slice_2d(r, c), "6 x DynamicSlice2D", "P DynamicSlice2D"
    raise KeyError(f"no reference for {op} {shape}")


if __name__ == "__main__":
    for op, shape in (("add", "6000"), ("reduce", "96x64/1"), ("matmul", "96x64x64"), ("matmul", "192x128x64"),
                      ("matmul", "256x128x128"), ("conv", "1x16x10x10,3x3,16"), ("softmax", "8x256"),
                      ("dynamicSlice", "64x256/0:1")):
        print(op, shape, reference(op, shape))
