#!/usr/bin/env python3
"""Ratio table from criterion's saved estimates (run the benches first).

Usage: python3 benches/scripts/ratios.py [target/criterion] [--stat median|mean]

For every `<query>/<pair>/<size>` group prints the per-pair times and
parry2d / collide2d, box2d / collide2d and collide2d / plain_f32, all from the same run. A
parry2d / collide2d or box2d / collide2d ratio above 1 means collide2d is faster;
collide2d / plain_f32 is the cost of exactness (goal: at most 1.2). Then the world benches
(`world/<workload>/<broad phase>/<size>`): each broad phase's time per frame, and parry2d / it
and box2d / it.
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
print("| group | collide2d | collide2d_shape | parry2d | box2d | plain_f32 | plain_f32_dispatch | parry2d / collide2d | box2d / collide2d | parry2d / collide2d_shape | box2d / collide2d_shape | collide2d / plain_f32 | collide2d / plain_f32_dispatch |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")


def order(group):
    parts = group.split("/")
    size = int(parts[-1]) if parts[-1].isdigit() else 0
    return (not group.startswith("intersects"), "/".join(p for p in parts if not p.isdigit()), size)


for group in sorted(elements, key=order):
    n = elements[group]
    c, s, p, b, f, fd = (
        times.get((group, k))
        for k in ("collide2d", "collide2d_shape", "parry2d", "box2d", "plain_f32", "plain_f32_dispatch")
    )
    per = lambda t: t / n if t is not None else None
    ratio = lambda x, y: x / y if x is not None and y else None
    print(
        f"| {group} | {fmt(per(c))} | {fmt(per(s))} | {fmt(per(p))} | {fmt(per(b))} | {fmt(per(f))} | {fmt(per(fd))} "
        f"| {fmt(ratio(p, c))} | {fmt(ratio(b, c))} | {fmt(ratio(p, s))} | {fmt(ratio(b, s))} "
        f"| {fmt(ratio(c, f))} | {fmt(ratio(c, fd))} |"
    )

if world:
    ours = ("default", "grid", "tree", "collide2d")
    print()
    print(f"world: {stat} ms per frame (per pass for rays); parry2d / each and box2d / each of collide2d's")
    print("| workload | size | " + " | ".join(ours) + " | parry2d | box2d | "
          + " | ".join(f"parry2d / {k}" for k in ours) + " | " + " | ".join(f"box2d / {k}" for k in ours) + " |")
    print("|---|---|" + "---:|" * (3 * len(ours) + 2))

    def world_order(item):
        (group, size), _ = item
        return (group, int(size) if size.isdigit() else 0, size)

    for (group, size), libs in sorted(world.items(), key=world_order):
        ms = {k: v / 1e6 for k, v in libs.items()}
        p, b = ms.get("parry2d"), ms.get("box2d")
        cells = [fmt(ms.get(k)) for k in ours + ("parry2d", "box2d")]
        ratios = [fmt(p / ms[k]) if p is not None and ms.get(k) else "-" for k in ours]
        ratios += [fmt(b / ms[k]) if b is not None and ms.get(k) else "-" for k in ours]
        print(f"| {group} | {size} | " + " | ".join(cells + ratios) + " |")
