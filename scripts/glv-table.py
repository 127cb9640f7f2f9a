#!/usr/bin/env python3
"""The Markdown table of a `scripts/glv-ab.sh` output: per path, curve, scalars and size, the
noglv median and the auto and glv medians as ratios to it (same process, interleaved).

    python3 scripts/glv-table.py docs/bench/glv-raw.txt
"""
import re
import sys


def main(path):
    rows = []
    head = None
    medians = {}
    plans = {}
    for line in open(path):
        m = re.match(r"== path=(\S+) curve=(\S+) n=(\d+) scalars=(\S+)", line)
        if m:
            head = m.groups()
            medians, plans = {}, {}
            continue
        m = re.match(r"(auto|noglv|glv)\s+([\d.]+)\s+([\d.]+)\s+[\d.]+\s+(.*)", line)
        if m and head:
            medians[m.group(1)] = float(m.group(3))
            plans[m.group(1)] = m.group(4)
            continue
        if line.startswith("results agree") and head:
            path_, curve, n, scalars = head
            base = medians["noglv"]
            uses = "yes" if "GLV" in plans["auto"] else "no"
            log = int(n).bit_length() - 1
            rows.append(
                f"| {path_} | {curve} | {scalars} | 2^{log} | {base:.3f} | {uses} | "
                f"{medians['auto'] / base:.3f} | {medians['glv'] / base:.3f} | "
                f"{line.split(':')[1].strip()} |"
            )
            head = None
    print("| path | curve | scalars | n | noglv median ms | auto: GLV? | auto / noglv "
          "| glv / noglv | agree |")
    print("|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main(sys.argv[1])
