#!/usr/bin/env python3
"""Renders a `wavesim run --timeline` file (Chrome trace JSON) as a PNG, with the standard
library only (zlib + struct), for the README: one row per wave track (grouped by workgroup),
x = cycles. Instruction spans are blue (VALU-ish names starting with v_), green (s_), orange
(memory: global_/ds_/scratch_/buffer_/flat_), s_waitcnt stalls red, barrier waits grey.

    python3 docs/timeline_png.py TIMELINE.json OUT.png [WIDTH]
"""
import json
import struct
import sys
import zlib

COLORS = {
    "wait": (220, 50, 47),
    "barrier": (150, 150, 150),
    "v": (38, 139, 210),
    "s": (133, 153, 0),
    "mem": (203, 75, 22),
}


def color(e):
    if e.get("cat") in ("wait", "barrier"):
        return COLORS[e["cat"]]
    n = e["name"]
    if n.startswith(("global_", "ds_", "scratch_", "buffer_", "flat_")):
        return COLORS["mem"]
    return COLORS["v"] if n.startswith("v_") else COLORS["s"]


def main():
    src, out = sys.argv[1], sys.argv[2]
    width = int(sys.argv[3]) if len(sys.argv) > 3 else 1600
    ev = json.load(open(src))["traceEvents"]
    spans = [e for e in ev if e["ph"] == "X"]
    tracks = sorted({(e["pid"], e["tid"]) for e in spans})
    row = {t: i for i, t in enumerate(tracks)}
    end = max(e["ts"] + e["dur"] for e in spans)
    rh, gap, margin = 18, 4, 10
    height = margin * 2 + len(tracks) * (rh + gap)
    img = [[(255, 255, 255)] * width for _ in range(height)]
    scale = (width - 2 * margin) / end
    for t, i in row.items():
        y0 = margin + i * (rh + gap)
        for x in range(margin, width - margin):
            img[y0 + rh][x] = (230, 230, 230)
    for e in spans:
        y0 = margin + row[(e["pid"], e["tid"])] * (rh + gap)
        x0 = margin + int(e["ts"] * scale)
        x1 = max(x0 + 1, margin + int((e["ts"] + e["dur"]) * scale))
        c = color(e)
        for y in range(y0, y0 + rh):
            line = img[y]
            for x in range(x0, min(x1, width - margin)):
                line[x] = c
    raw = b"".join(b"\0" + bytes(v for px in line for v in px) for line in img)
    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    open(out, "wb").write(png)
    print(f"{len(tracks)} tracks, {len(spans)} spans, {end} cycles", file=sys.stderr)


if __name__ == "__main__":
    main()
