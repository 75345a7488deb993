#!/usr/bin/python3
"""Renders a `nisa run --trace FILE.json` timeline as a self-contained SVG (one
lane per engine, one bar per instruction labelled with its mnemonic, arrows for
dependencies across engines), for viewing without Perfetto's web UI.

    scripts/trace_to_svg.py TRACE.json OUT.svg [--width 1400]
"""
import argparse
import html
import json

COLOURS = {0: "#4e79a7", 1: "#f28e2b", 2: "#59a14f", 3: "#b07aa1"}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trace")
    parser.add_argument("out")
    parser.add_argument("--width", type=int, default=1400)
    args = parser.parse_args()
    with open(args.trace) as f:
        trace = json.load(f)
    events = trace["traceEvents"]
    threads = {e["tid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    process = next((e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "process_name"), "nisa")
    slices = [e for e in events if e["ph"] == "X"]
    by_index = {e["args"]["index"]: e for e in slices}
    span = max((e["ts"] + e["dur"] for e in slices), default=1.0) or 1.0

    left, top, lane_h, gap = 150, 60, 46, 14
    plot_w = args.width - left - 30
    height = top + len(threads) * (lane_h + gap) + 50
    x = lambda us: left + plot_w * us / span  # noqa: E731
    lane_y = lambda tid: top + tid * (lane_h + gap)  # noqa: E731

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{args.width}" height="{height}" font-family="sans-serif">',
           '<rect width="100%" height="100%" fill="white"/>',
           '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto">'
           '<path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>',
           f'<text x="{left}" y="24" font-size="16" font-weight="bold">{html.escape(process)}: '
           f'{len(slices)} instructions, {span:.3f} us estimated (SEMANTICS S6)</text>']
    # Time axis.
    axis_y = top + len(threads) * (lane_h + gap) + 4
    steps = 10
    for k in range(steps + 1):
        t = span * k / steps
        out.append(f'<line x1="{x(t):.1f}" y1="{top - 6}" x2="{x(t):.1f}" y2="{axis_y}" stroke="#ddd"/>')
        out.append(f'<text x="{x(t):.1f}" y="{axis_y + 16}" font-size="11" text-anchor="middle">{t:.2f} us</text>')
    for tid, name in sorted(threads.items()):
        y = lane_y(tid)
        out.append(f'<rect x="{left}" y="{y}" width="{plot_w}" height="{lane_h}" fill="#f6f6f6"/>')
        out.append(f'<text x="{left - 8}" y="{y + lane_h / 2 + 4}" font-size="13" text-anchor="end">{html.escape(name)}</text>')
    for e in slices:
        y, x0, w = lane_y(e["tid"]), x(e["ts"]), max(x(e["ts"] + e["dur"]) - x(e["ts"]), 1.0)
        tip = f'{e["name"]} {e["args"]["source"]} {e["args"]["cycles"]} cycles, {e["dur"]:.3f} us'
        out.append(f'<rect x="{x0:.1f}" y="{y + 4}" width="{w:.1f}" height="{lane_h - 8}" fill="{COLOURS.get(e["tid"], "#888")}" '
                   f'stroke="white" stroke-width="0.8"><title>{html.escape(tip)}</title></rect>')
        if w > 7 * len(e["name"]):
            out.append(f'<text x="{x0 + w / 2:.1f}" y="{y + lane_h / 2 + 4}" font-size="11" fill="white" '
                       f'text-anchor="middle">{html.escape(e["name"])}</text>')
    for e in slices:
        for d in e["args"]["deps"]:
            src = by_index.get(d["index"])
            if src is None or src["tid"] == e["tid"]:
                continue
            x1, y1 = x(src["ts"] + src["dur"]), lane_y(src["tid"]) + lane_h / 2
            x2, y2 = x(e["ts"]), lane_y(e["tid"]) + lane_h / 2
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#555" stroke-width="0.8" '
                       f'marker-end="url(#arrow)" opacity="0.7"/>')
    out.append("</svg>")
    with open(args.out, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
