#!/usr/bin/env bash
# popvis_page: writes a small report (the pva_reader program), turns it into a page with popvis, opens the page in
# headless Chromium, and checks that every chart was drawn: the rendered DOM has each chart's SVG with shapes in it,
# and the screenshot is not blank. Usage: popvis_page.sh PVA_READER POPVIS WORKDIR. Exit 77 (skip): no Chromium.
set -euo pipefail
reader=$1 popvis=$2 work=$3
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
  echo "popvis_page: chromium is not installed (apt-get install chromium; it is in scripts/apt/packages.txt)" >&2
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
PVA_TEST_REPORT_DIR="$work/report" "$reader" > "$work/reader.log" 2>&1 || { cat "$work/reader.log"; exit 1; }
"$popvis" report "$work/report" | tee "$work/summary.txt"
grep -q "^Report: $work/report/report.html" "$work/summary.txt"
grep -q "^  Total cycles: .*[0-9]" "$work/summary.txt"  # Poplar's execution summary
page="$work/report/report.html"
if grep -Eq '(src|href)="(https?:)?//' "$page"; then
  echo "popvis_page: the page fetches something from the network" >&2
  exit 1
fi
flags=(--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars
       --user-data-dir="$work/chrome-profile" --window-size=1100,2200)
timeout 120 "$chrome" "${flags[@]}" --dump-dom "file://$page" > "$work/dom.html" 2> "$work/chrome-dom.log"
timeout 120 "$chrome" "${flags[@]}" --screenshot="$work/page.png" "file://$page" > /dev/null 2> "$work/chrome-shot.log"
python3 - "$work/dom.html" "$work/page.png" <<'PY'
import re, struct, sys, zlib
dom = open(sys.argv[1]).read()
charts = ["memory-per-tile", "memory-by-category", "memory-by-vertex-type", "cycles-by-vertex-type", "liveness",
          "timeline"]
for c in charts:
    m = re.search(r'<svg[^>]*id="%s"[^>]*>(.*?)</svg>' % c, dom, re.S)
    if not m:
        sys.exit("popvis_page: chart '%s' is missing from the rendered page" % c)
    shapes = len(re.findall(r'<(rect|polyline)\b', m.group(1)))
    if shapes == 0:
        sys.exit("popvis_page: chart '%s' has no shapes" % c)
    print("chart %-22s %d shapes" % (c, shapes))

# Decode the PNG (8-bit RGB or RGBA, non-interlaced) and count pixels that are not the white background.
data = open(sys.argv[2], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, width = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
        assert depth == 8 and ctype in (2, 6), "unexpected PNG format"
        bpp = 3 if ctype == 2 else 4
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
raw, stride, prev, coloured, out = zlib.decompress(idat), width * bpp, None, 0, 0
for y in range(height):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i] if prev else 0
        c = prev[i - bpp] if prev and i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        if line[x] < 200 or line[x + 1] < 200 or line[x + 2] < 200:
            coloured += 1
    prev = line
total = width * height
print("screenshot %dx%d, %d coloured pixels" % (width, height, coloured))
if coloured < total // 200:
    sys.exit("popvis_page: the screenshot is (nearly) blank")
PY
echo "popvis_page: ok ($page, screenshot $work/page.png)"
