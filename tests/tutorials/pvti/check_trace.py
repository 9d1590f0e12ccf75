#!/usr/bin/env python3
"""Checks a system trace (docs/system-trace.md) of tutorial 7 with the user's events (user_trace.cpp): the file is
complete, every phase libpoplar records is there in order and nested where it runs, the user's events enclose
them, and the durations agree with the wall times the tutorial prints itself.
With REPORT (popvis --trace's page), also that the page's host timeline shows each of those intervals and events
and the IPU's steps inside the device run.
Usage: check_trace.py TRACE.pvti.jsonl TUTORIAL_OUTPUT [REPORT.html]"""
import json
import re
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


trace_path, output_path = sys.argv[1], sys.argv[2]
with open(trace_path) as f:
    lines = f.read().splitlines()
records = [json.loads(line) for line in lines]
header, close = records[0], records[-1]
if header.get("format") != "ipu-emu-pvti" or header.get("version") != 1:
    fail("first record is not the version 1 header: %r" % header)
if close.get("type") != "close" or close.get("records") != len(records):
    fail("the file does not end with a close record counting its %d lines: %r" % (len(records), close))

# Pair begins with ends per (channel, name, thread), innermost first.
open_, spans, events = {}, [], []
for r in records[1:-1]:
    kind = r["type"]
    key = (r.get("channel"), r.get("name"), r.get("tid"))
    if kind == "begin":
        open_.setdefault(key, []).append(r["ts"])
    elif kind == "end":
        if not open_.get(key):
            fail("end without a begin: %r" % r)
        spans.append({"channel": key[0], "name": key[1], "tid": key[2], "begin": open_[key].pop(), "end": r["ts"]})
    elif kind == "event":
        events.append(r)
unclosed = [k for k, v in open_.items() if v]
if unclosed:
    fail("intervals never ended: %r" % unclosed)


def span(name, channel=None):
    found = [s for s in spans if s["name"] == name and (channel is None or s["channel"] == channel)]
    if not found:
        fail("no interval '%s' in the trace" % name)
    return found[0]


def seconds(s):
    return (s["end"] - s["begin"]) / 1e9


def inside(inner, outer):
    if not (outer["begin"] <= inner["begin"] and inner["end"] <= outer["end"]):
        fail("'%s' is not inside '%s'" % (inner["name"], outer["name"]))


whole = span("user: whole program", "User")
order = ["Graph construction", "compileGraph", "Engine construction", "Engine::load", "Engine::run(0)"]
phases = [span(n, "Poplar") for n in order]
for a, b in zip(phases, phases[1:]):
    if not a["end"] <= b["begin"]:
        fail("'%s' does not end before '%s' begins" % (a["name"], b["name"]))
for p in phases:
    inside(p, whole)
compile_, run = phases[1], phases[4]
passes = ["link tile image", "lower", "estimate cycles", "liveness", "layout", "encode", "tables", "graph profile"]
prev = None
for n in passes:
    s = span(n, "Poplar")
    inside(s, compile_)
    if prev and not prev["end"] <= s["begin"]:
        fail("compile phase '%s' does not follow '%s'" % (n, prev["name"]))
    prev = s
device_run = span("device run", "Drivers")
inside(device_run, run)
syncs = [s for s in spans if s["name"] == "host sync"]
copies = [s for s in spans if s["name"].startswith("stream copy ")]
waits = [s for s in spans if s["name"] == "device wait"]
for group, what in ((syncs, "host sync"), (copies, "stream copy"), (waits, "device wait")):
    if not group:
        fail("no '%s' interval" % what)
    for s in group:
        inside(s, device_run)
# Tutorial 7 copies three streams (inputVector, inputMatrix in; out back), each with two host syncs.
names = sorted(set(re.sub(r", sync [12]$", "", s["name"]) for s in copies))
want = ["stream copy inputMatrix host-to-device", "stream copy inputVector host-to-device",
        "stream copy out device-to-host"]
if names != want or len(copies) != 6 or len(syncs) != 6:
    fail("stream copies %r (%d intervals, %d host syncs); expected %r, 6 and 6" % (names, len(copies), len(syncs), want))
for c in copies:
    if not any(s["begin"] <= c["begin"] and c["end"] <= s["end"] for s in syncs):
        fail("'%s' is outside every host sync" % c["name"])

starts = [e for e in events if e["name"] == "user: started"]
ends = [e for e in events if e["name"] == "user: finished"]
if not starts or not ends or not (starts[0]["ts"] < phases[0]["begin"] and phases[-1]["end"] < ends[0]["ts"]):
    fail("the user's instant events do not come before and after the tutorial's phases")
samples = [r for r in records if r.get("type") == "sample"]
cycles = [r for r in samples if r["graph"] == "IPU cycles" and r["series"] == "Engine::run(0)"]
user = [r for r in samples if r["graph"] == "User progress" and r["value"] == 1.0]
if not cycles or not user:
    fail("missing metric samples (IPU cycles of the run, the user's progress): %r" % samples)

# Durations against the tutorial's own clock ("Wall time: graph construction A s, compile B s, load C s, run D s").
out = open(output_path).read()
m = re.search(r"Wall time: graph construction ([0-9.e-]+) s, compile ([0-9.e-]+) s, load ([0-9.e-]+) s, "
              r"run ([0-9.e-]+) s", out)
if not m:
    fail("the tutorial printed no wall times")
build, comp, load, runs = (float(x) for x in m.groups())
program_cycles = int(re.search(r"Program cycles: (\d+)", out).group(1))
if int(cycles[0]["value"]) != program_cycles:
    fail("the IPU cycles sample %s is not the tutorial's Program cycles %d" % (cycles[0]["value"], program_cycles))


def close_to(name, traced, printed, low, high):
    """The traced time is within [printed x low - 5 ms, printed x high + 20 ms]."""
    print("%-20s trace %.4f s, tutorial %.4f s" % (name, traced, printed))
    if not (printed * low - 0.005 <= traced <= printed * high + 0.02):
        fail("%s: the trace's %.4f s does not fit the tutorial's %.4f s" % (name, traced, printed))


# The tutorial's stop watches are wider or narrower than libpoplar's intervals in known ways: its graph
# construction starts before the device is made and ends before it fills the host data (the trace's ends at the
# compile); its compile is compileGraph plus the Engine's construction; its load and run are the calls themselves.
close_to("graph construction", seconds(phases[0]), build, 0.8, 5.0)
close_to("compile", seconds(compile_) + seconds(phases[2]), comp, 0.9, 1.02)
close_to("load", seconds(phases[3]), load, 0.9, 1.02)
close_to("run", seconds(run), runs, 0.9, 1.02)
if len(sys.argv) > 3:
    page = open(sys.argv[3]).read()
    shown = re.findall(r'<rect class="host-event" data-name="([^"]*)" data-channel="([^"]*)" data-begin-ns="(\d+)" '
                       r'data-duration-ns="(\d+)"', page)
    if len(shown) != len(spans):
        fail("the page shows %d host intervals, the trace has %d" % (len(shown), len(spans)))
    names = [n for n, _, _, _ in shown]
    for n in order + passes + ["device run", "host sync", "device wait", "user: whole program"]:
        if n not in names:
            fail("the page's host timeline lacks '%s'" % n)
    begins = {n: int(b) for n, _, b, _ in reversed(shown)}
    if [begins[n] for n in order] != sorted(begins[n] for n in order):
        fail("the page's host timeline has the phases out of order")
    for n in ("User: user: started", "User: user: finished"):
        if 'class="host-instant" data-name="%s"' % n not in page:
            fail("the page's host timeline lacks the instant event '%s'" % n)
    ipu = re.findall(r'<rect class="ipu-step" data-name="([^"]*)" x="([0-9.e+-]+)" y="[^"]*" width="([0-9.e+-]+)"', page)
    run_box = re.search(r'<rect class="host-event" data-name="device run"[^>]* x="([0-9.e+-]+)" y="[^"]*" '
                        r'width="([0-9.e+-]+)"', page)
    if not ipu or not run_box:
        fail("the page shows no IPU steps or no device run")
    x0, w = float(run_box.group(1)), float(run_box.group(2))
    if not all(x0 - 0.5 <= float(x) and float(x) + float(wi) <= x0 + w + 1.5 for _, x, wi in ipu):
        fail("the IPU steps are not inside the device run on the page")
    print("report: %d host intervals and %d IPU steps on the host timeline" % (len(shown), len(ipu)))

print("%d records, %d intervals, %d instant events, %d samples; %d stream copies, %d host syncs, %d device waits"
      % (len(records), len(spans), len(events), len(samples), len(copies), len(syncs), len(waits)))
for s in sorted(spans, key=lambda s: s["begin"]):
    if s["channel"] != "Drivers" or s["name"] == "device run":
        print("  %10.3f ms  %9.3f ms  %-8s %s" % (s["begin"] / 1e6, (s["end"] - s["begin"]) / 1e6, s["channel"],
                                                s["name"]))
print("PASS")
