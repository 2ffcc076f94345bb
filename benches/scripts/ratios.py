#!/usr/bin/env python3
"""Ratio table from criterion's saved estimates (run the benches first).

Usage: python3 benches/scripts/ratios.py [target/criterion] [--stat median|mean]

For every `<query>/<pair>` group prints the per-pair times and
parry2d / collide2d and collide2d / plain_f32, both from the same run. A parry2d / collide2d
ratio above 1 means collide2d is faster; collide2d / plain_f32 is the cost of exactness
(goal: at most 1.2). Then the world benches (`world/<workload>/<broad phase>/<size>`): each
broad phase's time per frame and parry2d / it.
"""
import json
import pathlib
import sys

args = [a for a in sys.argv[1:] if not a.startswith("--")]
stat = "median"
if "--stat" in sys.argv:
    stat = sys.argv[sys.argv.index("--stat") + 1]
    args = [a for a in args if a != stat]
root = pathlib.Path(args[0] if args else "target/criterion")

times = {}  # (group, function) -> ns per iteration
elements = {}  # group -> pairs per iteration
world = {}  # (workload, size) -> {broad phase: ns per frame}
for bench in root.glob("**/new/benchmark.json"):
    meta = json.loads(bench.read_text())
    est = json.loads((bench.parent / "estimates.json").read_text())
    group, function = meta["group_id"], meta["function_id"]
    if group.startswith("world/"):
        size = meta.get("value_str") or ""
        world.setdefault((group, size), {})[function] = est[stat]["point_estimate"]
        continue
    times[(group, function)] = est[stat]["point_estimate"]
    thr = meta.get("throughput") or {}
    elements[group] = thr.get("Elements", 1)

if not times and not world:
    sys.exit(f"no criterion results under {root}")


def fmt(x):
    return f"{x:.2f}" if x is not None else "-"


print(f"per-pair {stat} times in ns; ratios of the same")
print("| group | collide2d | parry2d | plain_f32 | plain_f32_dispatch | parry2d / collide2d | collide2d / plain_f32 | collide2d / plain_f32_dispatch |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for group in sorted(elements, key=lambda g: (not g.startswith("intersects"), g)):
    n = elements[group]
    c, p, f, fd = (times.get((group, k)) for k in ("collide2d", "parry2d", "plain_f32", "plain_f32_dispatch"))
    per = lambda t: t / n if t is not None else None
    r_parry = p / c if p is not None and c else None
    r_plain = c / f if c is not None and f else None
    r_dispatch = c / fd if c is not None and fd else None
    print(
        f"| {group} | {fmt(per(c))} | {fmt(per(p))} | {fmt(per(f))} | {fmt(per(fd))} | {fmt(r_parry)} | {fmt(r_plain)} | {fmt(r_dispatch)} |"
    )

if world:
    print()
    print(f"world: {stat} ms per frame (per pass for rays); parry2d / each")
    print("| workload | size | grid | tree | collide2d | parry2d | parry2d / grid | parry2d / tree | parry2d / collide2d |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for (group, size), libs in sorted(world.items()):
        ms = {k: v / 1e6 for k, v in libs.items()}
        p = ms.get("parry2d")
        cells = [fmt(ms.get(k)) for k in ("grid", "tree", "collide2d", "parry2d")]
        ratios = [fmt(p / ms[k]) if p is not None and ms.get(k) else "-" for k in ("grid", "tree", "collide2d")]
        print(f"| {group} | {size} | " + " | ".join(cells + ratios) + " |")
