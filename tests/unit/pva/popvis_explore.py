#!/usr/bin/env python3
"""popvis_explore: drives popvis's explorable page in headless Chromium through the DevTools protocol (over
--remote-debugging-pipe, so no extra package is needed) and checks what the views show against the report:
chooses a tile and compares its memory by category with the graph profile, zooms and pans the execution timeline and
reads a step's estimated and measured cycles, picks a program step in the liveness view and compares the variables
listed, and opens a comparison of two reports. Usage: popvis_explore.py PVA_READER POPVIS WORKDIR."""
import fcntl, json, os, shutil, subprocess, sys, time

reader, popvis, work = sys.argv[1:4]


def fail(msg):
    sys.exit("popvis_explore: " + msg)


chrome = shutil.which("chromium") or shutil.which("chromium-browser")
if not chrome:
    # Never a skip: the page is a product, and CI installs Chromium (scripts/apt/packages.txt).
    fail("chromium is not installed (apt-get install chromium)")

shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
report = os.path.join(work, "report")
env = dict(os.environ, PVA_TEST_REPORT_DIR=report)
r = subprocess.run([reader], env=env, capture_output=True, text=True, timeout=240)
if r.returncode:
    fail("pva_reader failed:\n" + r.stdout + r.stderr)
subprocess.run([popvis, "report", report], check=True, capture_output=True, timeout=60)
graph = json.load(open(os.path.join(report, "profile.json")))
execution = json.load(open(os.path.join(report, "execution.json")))

# A second report for the comparison: the same one with one step slower and more memory on tile 0, read from JSON.
report_b = os.path.join(work, "report-b")
os.makedirs(report_b)
graph_b, execution_b = json.loads(json.dumps(graph)), json.loads(json.dumps(execution))
graph_b["memory"]["byCategory"]["variable"]["total"][0] += 1000
execution_b["simulation"]["steps"][0]["cycles"] += 500
json.dump(graph_b, open(os.path.join(report_b, "profile.json"), "w"))
json.dump(execution_b, open(os.path.join(report_b, "execution.json"), "w"))
compare_page = os.path.join(work, "compare.html")
subprocess.run([popvis, "compare", report, report_b, "--output", compare_page], check=True, capture_output=True,
               timeout=60)


class Browser:
    """Chromium with the DevTools protocol on fds 3 (commands in) and 4 (replies out), messages ending in NUL."""

    def __init__(self):
        cmd_r, self.cmd_w = os.pipe()
        self.rep_r, rep_w = os.pipe()
        # Copies above 100 (close-on-exec), so that moving them to 3 and 4 in the child cannot clobber each other.
        hi_r = fcntl.fcntl(cmd_r, fcntl.F_DUPFD_CLOEXEC, 100)
        hi_w = fcntl.fcntl(rep_w, fcntl.F_DUPFD_CLOEXEC, 100)

        def child():
            os.dup2(hi_r, 3)
            os.dup2(hi_w, 4)

        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--remote-debugging-pipe", "--user-data-dir=" + os.path.join(work, "chrome-profile"),
                 "--window-size=1200,2000", "about:blank"]
        self.proc = subprocess.Popen([chrome] + flags, preexec_fn=child, close_fds=False,
                                     stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "chrome.log"), "w"))
        for fd in (cmd_r, rep_w, hi_r, hi_w):
            os.close(fd)
        self.next_id, self.buf, self.session = 0, b"", None

    def call(self, method, params=None, session=True):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + 30
        while time.time() < deadline:
            while b"\0" not in self.buf:
                chunk = os.read(self.rep_r, 65536)
                if not chunk:
                    fail("chromium closed the DevTools pipe (see %s/chrome.log)" % work)
                self.buf += chunk
            line, self.buf = self.buf.split(b"\0", 1)
            reply = json.loads(line)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    fail("%s: %s" % (method, reply["error"]))
                return reply["result"]
        fail("no reply to " + method)

    def open(self, url):
        target = self.call("Target.createTarget", {"url": url}, session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]
        for _ in range(100):
            # A new target first shows about:blank, already "complete": wait for the page asked for.
            if self.js("location.href") == url and self.js("document.readyState") == "complete":
                return
            time.sleep(0.1)
        fail("the page did not load: " + url)

    def js(self, expr):
        r = self.call("Runtime.evaluate", {"expression": expr, "returnByValue": True})
        if "exceptionDetails" in r:
            fail("script error: %s in %s" % (r["exceptionDetails"], expr))
        return r["result"].get("value")

    def close(self):
        self.proc.kill()
        self.proc.wait()


ok = lambda cond, msg: cond or fail(msg)
b = Browser()
try:
    b.open("file://" + os.path.join(report, "report.html"))
    ok(b.js("document.querySelectorAll('script[src], link[href^=\"http\"], img[src^=\"http\"]').length") == 0,
       "the page fetches something")
    errors = b.js("document.body.innerText.indexOf('Uncaught') < 0")
    ok(errors, "the page shows a script error")

    # 1. Tile view: click the last tile's bar (its variable bytes differ from the others').
    cats = graph["memory"]["byCategory"]
    tiles = graph["target"]["numTiles"]
    vertices = 0
    for tile in range(tiles):
        b.js("document.querySelector('#memory-per-tile rect[data-tile=\"%d\"]')"
             ".dispatchEvent(new MouseEvent('click', {bubbles: true}))" % tile)
        shown = b.js("Object.fromEntries([...document.querySelectorAll('#tile-memory tr[data-category]')]"
                     ".map(r => [r.dataset.category, +r.dataset.bytes]))")
        ok(b.js("document.getElementById('tile-detail').dataset.tile") == str(tile), "tile %d not chosen" % tile)
        want = {c: v["total"][tile] for c, v in cats.items() if v["total"][tile]}
        want["total"] = sum(v["total"][tile] for v in cats.values())
        ok(shown == want, "tile %d memory shown %s, profile says %s" % (tile, shown, want))
        vertices += b.js("[...document.querySelectorAll('#tile-vertices tr[data-count]')]"
                         ".reduce((s, r) => s + +r.dataset.count, 0)")
    ok(vertices == graph["graph"]["numVertices"], "tiles show %d vertices, the graph has %d" %
       (vertices, graph["graph"]["numVertices"]))
    print("tile view: %d tiles, memory by category as in the profile (last: %s), %d vertices" % (tiles, shown,
                                                                                                  vertices))

    # 2. Timeline: wheel zoom at the middle, the zoom button, panning, and a step's cycles.
    total = execution["simulation"]["cycles"]
    rng = lambda: b.js("(d => [+d.from, +d.to])(document.getElementById('timeline-range').dataset)")
    ok(rng() == [0, total], "timeline starts at %s, not the whole run 0..%d" % (rng(), total))
    b.js("(s => { const r = s.getBoundingClientRect(); s.dispatchEvent(new WheelEvent('wheel', {deltaY: -100, "
         "clientX: r.left + 10 + 450, clientY: r.top + 30, bubbles: true, cancelable: true})); })"
         "(document.getElementById('step-timeline'))")
    z = rng()
    ok(abs((z[1] - z[0]) - total / 2) <= 1 and z[0] > 0, "wheel zoom gave %s of 0..%d" % (z, total))
    b.js("document.getElementById('zoom-in').click()")
    z2 = rng()
    ok(abs((z2[1] - z2[0]) - total / 4) <= 1, "zoom in gave %s" % z2)
    b.js("document.getElementById('pan-right').click()")
    z3 = rng()
    ok(z3[0] > z2[0] and abs((z3[1] - z3[0]) - (z2[1] - z2[0])) <= 1, "pan right went from %s to %s" % (z2, z3))
    b.js("document.getElementById('zoom-reset').click()")
    ok(rng() == [0, total], "whole run button gave %s" % rng())
    steps = execution["simulation"]["steps"]
    for i, s in enumerate(steps):
        b.js("document.querySelector('#step-timeline rect[data-step=\"%d\"]')"
             ".dispatchEvent(new MouseEvent('click', {bubbles: true}))" % i)
        text = b.js("document.getElementById('step-detail').textContent")
        want = "%s estimated, %s measured" % ("{:,}".format(s["cycles"]), "{:,}".format(s["measuredCycles"]))
        ok(want in text, "step %d shows '%s', expected '%s'" % (i, text, want))
    print("timeline: wheel zoom %s, zoom in %s, pan %s of %d cycles; %d steps' cycles shown" % (z, z2, z3, total,
                                                                                              len(steps)))

    # 3. Liveness: every step of every program, the variables listed against the profile.
    live = graph["memory"]["liveness"]
    names, sizes = live["variables"]["names"], live["variables"]["bytes"]
    listed_any = 0
    for pi, p in enumerate(live["byProgram"]):
        for si in range(len(p["stepNames"])):
            b.js("(s => { s.value = '%d:%d'; s.dispatchEvent(new Event('change')); })"
                 "(document.getElementById('liveness-step'))" % (pi, si))
            shown = b.js("Object.fromEntries([...document.querySelectorAll('#liveness-vars tr[data-var]')]"
                         ".map(r => [r.dataset.var, +r.dataset.bytes]))")
            want = {names[v]: sizes[v] for v in p["liveVariables"][si]}
            ok(shown == want, "program %d step %d lists %s, profile says %s" % (pi, si, shown, want))
            listed_any += len(shown)
    ok(listed_any > 0, "no step lists any live variable")
    print("liveness: %d variable rows over %d steps, as in the profile" % (listed_any, sum(
        len(p["stepNames"]) for p in live["byProgram"])))

    # 4. Comparison of the two reports.
    b.open("file://" + compare_page)
    row = lambda table, key, val: b.js("(r => r && [+r.dataset.a, +r.dataset.b])(document.querySelector("
                                       "'#%s tr[data-%s=\"%s\"]'))" % (table, key, val))
    va = sum(cats["variable"]["total"])
    ok(row("compare-memory", "category", "variable") == [va, va + 1000], "compare variable row %s" %
       row("compare-memory", "category", "variable"))
    t0 = sum(v["total"][0] for v in cats.values())
    ok(row("compare-tiles", "tile", 0) == [t0, t0 + 1000], "compare tile 0 row %s" % row("compare-tiles", "tile", 0))
    c0 = steps[0]["cycles"]
    ok(row("compare-steps", "step", 0) == [c0, c0 + 500], "compare step 0 row %s" % row("compare-steps", "step", 0))
    ok(b.js("document.querySelectorAll('#compare-steps tr[data-step]').length") == len(steps), "compare step rows")
    print("compare: variable %d vs %d B, tile 0 %d vs %d B, step 0 %d vs %d cycles" % (va, va + 1000, t0, t0 + 1000,
                                                                                         c0, c0 + 500))
finally:
    b.close()
print("popvis_explore: ok")
