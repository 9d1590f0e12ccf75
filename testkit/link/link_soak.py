#!/usr/bin/env python3
"""The host link soak: gc-info and gc-run requests through ipu-link-fault-proxy.

ipu-board-sim (the Verilated board top) listens on a socket; the proxy
sits in front of it and gives about half of the connections one fault (dropped,
duplicated, cut or noisy frames, floods of unsolicited IRQ and DMA_REQ frames,
a card that never stops talking). Each request is one process, as a user runs
them: `gc-info -d 0 -i` or `gc-run -t 0 PROGRAM`. Every request must end
within its deadline with either the right answer (exit 0 and the output of the
same request made straight to the card, without the proxy) or a clear error (a
sysexits status and a message naming the card's socket), and a request that met
no fault must succeed, above all right after one that did: a fault never
outlives its connection. Prints the counts and the request times (p50, p99, max).

The card is a simulation, and a busy machine may not run it for a while; a real
card never pauses. ipu-board-sim logs such stalls (--stall-log), and a request
that met no fault but failed while the simulation stood still for half a link
timeout or more is counted as "card stalled", not held against the link (its
deadline is lengthened by the stall too). Their count is printed; more than one
request in 20 (and more than one) fails the soak: it then tested the machine.

PROGRAM is a small tile program for the gc-run requests: the bare console
program (tests/unit/rtl/console.S, built as tile-tests/rtl/console.elf) loads in
a few frames, where the SDK's hello takes seconds through the simulated UART.
The icebreaker board (1 tile) is the default: its cycles are the fastest, so a
request costs little more than its fault.

Usage: link_soak.py BIN_DIR PROGRAM [--requests N] [--seed S] [--timeout-ms T] [--run-every K] [--board B]
                    [--plan K@F,...] [--stop-card REQ,AFTER,FOR]
Exit status 0 when no request was over its deadline, wrong, unclear or failed
with no fault of its own, and both answers and faults were seen.
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

# What a tool exits with for a card it cannot use (sysexits: 69 unavailable, 70 the
# tile faulted or the card's state is wrong, 74 I/O, 75 busy/temporary, 1 a failed check).
CLEAR_STATUS = {1, 69, 70, 74, 75}


def wait_socket(path, proc, what):
    for _ in range(200):
        if os.path.exists(path):
            return
        if proc.poll() is not None:
            sys.exit(f"FAIL: {what} exited with {proc.returncode} before listening on {path}")
        time.sleep(0.05)
    sys.exit(f"FAIL: {what} did not listen on {path}")


def stable(text):
    """The answer without what differs by path or by time: the card's location (the proxy's socket, not the
    card's), its free-running cycle counters, and its state (DONE after a gc-run, IDLE before)."""
    return "\n".join(l for l in text.splitlines() if not re.match(r"\s*(location|state|card_cycles\w*)\s*:", l))


def stall_seconds(path, t0, t1):
    """How long the simulation stood still (its --stall-log) between monotonic times t0 and t1, in seconds."""
    total = 0.0
    try:
        with open(path) as f:
            for line in f:
                m = re.match(r"stall (\d+) (\d+)$", line.strip())
                if m:
                    lo, hi = max(t0, int(m.group(1)) / 1000), min(t1, int(m.group(2)) / 1000)
                    total += max(0.0, hi - lo)
    except FileNotFoundError:
        pass
    return total


def run_request(cmd, env, timeout, stop):
    """Runs one request; with stop = (pid, after, for) the simulation is stopped that long meanwhile."""
    if not stop:
        return subprocess.run(cmd, env=env, capture_output=True, text=True, errors="replace", timeout=timeout)
    pid, after, dur = stop
    with subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          errors="replace") as p:
        time.sleep(after)
        os.kill(pid, signal.SIGSTOP)
        time.sleep(dur)
        os.kill(pid, signal.SIGCONT)
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            raise
    return subprocess.CompletedProcess(cmd, p.returncode, out, err)


def cpu_ticks(pid):
    """The CPU time a process has had (user + system, in clock ticks), from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def wait_card_ran(pid, limit=30.0):
    """Waits until the simulation has had two clock ticks of CPU: then a stall that covered the end of the last
    request is over and in its log (it writes the line the moment it runs again)."""
    try:
        start, t_end = cpu_ticks(pid), time.monotonic() + limit
        while cpu_ticks(pid) < start + 2 and time.monotonic() < t_end:
            time.sleep(0.01)
    except OSError:
        pass  # the simulation has gone: the request's own verdict says so


def percentile(sorted_values, q):
    if not sorted_values:
        return 0.0
    i = min(len(sorted_values) - 1, max(0, int(round(q * (len(sorted_values) - 1)))))
    return sorted_values[i]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bin")
    ap.add_argument("program", help="the tile program the gc-run requests load and run")
    ap.add_argument("--requests", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout-ms", type=int, default=500, help="the driver's link timeout (IPU_EMU_LINK_TIMEOUT_MS)")
    ap.add_argument("--run-every", type=int, default=4, help="every K-th request is a gc-run, the rest gc-info")
    ap.add_argument("--rate", default="0.5", help="the share of connections the proxy gives a fault")
    ap.add_argument("--board", default="icebreaker", choices=("icebreaker", "rtl-tiny"),
                    help="the board ipu-board-sim simulates (icebreaker: 1 tile, the fastest cycles)")
    ap.add_argument("--plan", help="the proxy's --plan: request i meets the i-th fault (K@F or none), in place of "
                    "the seeded choice; replays a sequence a soak reported")
    ap.add_argument("--stop-card", help="REQ,AFTER,FOR: stop the simulation (SIGSTOP) AFTER s into request REQ for "
                    "FOR s, as a busy machine does (tests the stall accounting)")
    args = ap.parse_args()

    tools = {t: os.path.join(args.bin, t) for t in ("ipu-board-sim", "ipu-link-fault-proxy", "gc-info", "gc-run")}
    for name, path in tools.items():
        if not os.access(path, os.X_OK):
            sys.exit(f"FAIL: {name} is not built at {path}")
    work = tempfile.mkdtemp(prefix="ipu-link-soak.")
    card, proxy_sock, log, stall_log = (os.path.join(work, n) for n in ("card", "proxy", "proxy.log", "stalls"))
    stop_card = None
    if args.stop_card:
        try:
            req, after, dur = args.stop_card.split(",")
            stop_card = (int(req), float(after), float(dur))
        except ValueError:
            sys.exit(f"FAIL: --stop-card '{args.stop_card}': expected REQ,AFTER,FOR (e.g. 1,1.0,0.7)")
    procs = []
    try:
        sim = subprocess.Popen([tools["ipu-board-sim"], "--board", args.board, "--socket", card,
                                "--stall-log", stall_log],
                               stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "sim.txt"), "w"))
        procs.append(sim)
        wait_socket(card, sim, "ipu-board-sim")
        env = dict(os.environ, IPU_EMU_PCI_ROOT="/nonexistent-link-soak", IPU_EMU_LOCK_DIR=work,
                   IPU_EMU_LINK_TIMEOUT_MS=str(args.timeout_ms))
        commands = {"gc-info": [tools["gc-info"], "-d", "0", "-i"],
                    "gc-run": [tools["gc-run"], "-t", "0", args.program]}

        # The right answers, and how long a request takes with no proxy in the way.
        reference, base = {}, 0.0
        for kind, cmd in commands.items():
            for _ in range(2):
                t0 = time.monotonic()
                r = subprocess.run(cmd, env=dict(env, IPU_EMU_DEVICES="socket:" + card), capture_output=True,
                                   text=True, timeout=120)
                base = max(base, time.monotonic() - t0)
                if r.returncode != 0:
                    sys.exit(f"FAIL: {kind} straight to the card exited with {r.returncode}:\n{r.stdout}{r.stderr}")
                if reference.setdefault(kind, stable(r.stdout)) != stable(r.stdout):
                    sys.exit(f"FAIL: {kind} straight to the card answers differently twice:\n"
                             f"{reference[kind]}---\n{r.stdout}")
        # A request's bound: the slowest clean request twice over (a busy machine), plus two link timeouts (the
        # request a fault hit, then the resynchronisation after it), plus a second for the process itself.
        deadline = 2 * base + 2 * args.timeout_ms / 1000 + 1.0

        proxy_cmd = [tools["ipu-link-fault-proxy"], "--listen", proxy_sock, "--card", card, "--seed", str(args.seed),
                     "--rate", args.rate, "--log", log] + (["--plan", args.plan] if args.plan else [])
        proxy = subprocess.Popen(proxy_cmd,
                                 stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "proxy.txt"), "w"))
        procs.append(proxy)
        wait_socket(proxy_sock, proxy, "ipu-link-fault-proxy")
        env["IPU_EMU_DEVICES"] = "socket:" + proxy_sock
        names_card = re.compile(re.escape("socket:" + proxy_sock) + "|" + re.escape(proxy_sock))

        counts = {"ok": 0, "clear error": 0, "over deadline": 0, "wrong answer": 0, "unclear error": 0,
                  "not recovered": 0, "failed with no fault": 0, "card stalled": 0}
        faults, times, examples = {}, [], []
        log_lines = 0
        prev_fault, prev_kind = [], None  # the faults that hit the previous request, which the next must survive
        t_start = time.monotonic()
        for i in range(args.requests):
            kind = "gc-run" if args.run_every and i % args.run_every == args.run_every - 1 else "gc-info"
            t0 = time.monotonic()
            try:
                r = run_request(commands[kind], env, deadline * 3 + 10,
                                (sim.pid,) + stop_card[1:] if stop_card and stop_card[0] == i else None)
                rc, out, err = r.returncode, r.stdout, r.stderr
            except subprocess.TimeoutExpired as e:
                rc, out, err = None, str(e.stdout or ""), str(e.stderr or "")
            t1 = time.monotonic()
            took = t1 - t0
            times.append(took)
            # The proxy logs a connection when it ends, which the request's exit has caused: wait for the line.
            hit = []
            for _ in range(100):
                with open(log) as f:
                    lines = f.read().splitlines()
                if len(lines) > log_lines:
                    break
                time.sleep(0.01)
            for line in lines[log_lines:]:
                m = re.match(r"conn \d+ fault (\S+) frame \d+ hit (\d)", line)
                if m and m.group(2) == "1":
                    hit.append(m.group(1))
                    faults[m.group(1)] = faults.get(m.group(1), 0) + 1
            log_lines = len(lines)
            # Only a request that failed with no fault, or took too long, asks whether the card stood still.
            stalled = 0.0
            if (rc != 0 and not hit) or took > deadline:
                wait_card_ran(sim.pid)
                stalled = stall_seconds(stall_log, t0, t1)
            verdict = None
            if rc is None or took - stalled > deadline:
                verdict = "over deadline"
            elif rc == 0:
                verdict = "ok" if stable(out) == reference[kind] else "wrong answer"
            elif rc in CLEAR_STATUS and names_card.search(err):
                verdict = "clear error"
            else:
                verdict = "unclear error"
            counts[verdict] += 1
            if not hit and verdict != "ok" and stalled >= args.timeout_ms / 2000:
                # Not the link: the card did not run for half a link timeout or more while this request waited.
                counts["card stalled"] += 1
                hit = [f"card stalled {stalled:.2f} s"]
            elif not hit and prev_fault and verdict != "ok":
                counts["not recovered"] += 1
                verdict += f", after a fault ({', '.join(prev_fault)} on request {i - 1}, {prev_kind})"
            elif not hit and verdict != "ok":
                counts["failed with no fault"] += 1
            stall_hit = bool(hit) and hit[0].startswith("card stalled")
            if (verdict not in ("ok", "clear error") or stall_hit) and len(examples) < 8:
                examples.append(f"request {i} ({kind}, faults {hit or 'none'}): {verdict}, exit {rc}, "
                                f"{took:.2f} s\n  stdout: {out.strip()[:400]}\n  stderr: {err.strip()[:400]}")
            prev_fault, prev_kind = hit, kind
        wall = time.monotonic() - t_start

        times.sort()
        print(f"link soak: {args.requests} requests (gc-info -i; 1 in {args.run_every} a gc-run "
              f"{os.path.basename(args.program)}) on the {args.board} board simulation through "
              f"ipu-link-fault-proxy seed {args.seed} " + (f"plan {args.plan}" if args.plan else f"rate {args.rate}") +
              f", link timeout {args.timeout_ms} ms, "
              f"{wall:.1f} s")
        print("faults met: " + (", ".join(f"{k} {v}" for k, v in sorted(faults.items())) or "none") +
              f" ({sum(faults.values())} in all)")
        for k in counts:
            print(f"{k}: {counts[k]}")
        print(f"request time: p50 {percentile(times, 0.5):.3f} s, p99 {percentile(times, 0.99):.3f} s, "
              f"max {times[-1]:.3f} s (deadline {deadline:.2f} s; a clean request straight to the card "
              f"at most {base:.3f} s)")
        for e in examples:
            print(e)
        bad = sum(counts[k] for k in ("over deadline", "wrong answer", "unclear error", "not recovered",
                                      "failed with no fault"))
        if bad:
            print("FAIL: a request was over its deadline, wrong, unclear, or failed though it met no fault")
            return 1
        if counts["card stalled"] > max(1, args.requests // 20):
            print(f"FAIL: {counts['card stalled']} requests failed while the card's simulation stood still: the "
                  "machine is too busy for this soak to test the link; run it on a quieter machine")
            return 1
        if counts["ok"] == 0 or not faults:
            print("FAIL: the soak saw no answers or no faults: it tested nothing")
            return 1
        print("PASS")
        return 0
    finally:
        for p in reversed(procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
