#!/usr/bin/env python3
"""Instruction counts per pair (callgrind), the noise-free companion of ratios.py.

Usage: python3 benches/scripts/instructions.py [filter]

Builds the `instructions` example, runs every bench loop (or those whose id contains `filter`)
under callgrind, collecting only inside `collide2d_benches::runs::*` (and what those loops call,
Box2D's C functions included), and prints instructions per pair with the same ratios as
ratios.py: parry2d's and Box2D's beside ours. Needs valgrind. Instructions are not time (cache
misses, branch mispredictions and division latency are not in them), but they do not depend on
what else the machine is doing.
"""
import os
import re
import subprocess
import sys

PAIRS = ["circle_circle", "circle_aabb", "aabb_aabb", "obb_obb", "polygon_polygon", "capsule_circle"]
FUNCTIONS = {
    "intersects": ["collide2d", "collide2d_shape", "parry2d", "box2d", "plain_f32", "plain_f32_dispatch"],
    "contact": ["collide2d", "collide2d_shape", "parry2d", "box2d"],
    "cast": ["collide2d", "collide2d_shape", "parry2d", "box2d"],
}
flt = sys.argv[1] if len(sys.argv) > 1 else ""

# From benches/, so that Cargo reads benches/.cargo/config.toml (Box2D's release flags).
BENCHES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
subprocess.run(
    ["cargo", "build", "-q", "--release", "-p", "collide2d-benches", "--example", "instructions"],
    check=True,
    cwd=BENCHES,
)
meta = subprocess.run(
    ["cargo", "metadata", "--format-version", "1", "--no-deps"], check=True, capture_output=True, text=True
).stdout
target = re.search(r'"target_directory":"([^"]+)"', meta).group(1)
exe = f"{target}/release/examples/instructions"

per_pair = {}
for query, functions in FUNCTIONS.items():
    for pair in PAIRS:
        for function in functions:
            bench = f"{query}/{pair}/{function}"
            if flt not in bench:
                continue
            out = subprocess.run(
                [
                    "valgrind", "--tool=callgrind", "--collect-atstart=no",
                    "--toggle-collect=collide2d_benches::runs::*", "--callgrind-out-file=/dev/null",
                    exe, bench,
                ],
                check=True, capture_output=True, text=True,
            )
            collected = int(re.search(r"Collected : (\d+)", out.stderr).group(1))
            m = re.search(r"rounds (\d+) pairs (\d+)", out.stdout)
            per_pair[bench] = collected / (int(m.group(1)) * int(m.group(2)))


def fmt(x):
    return f"{x:.2f}" if x is not None else "-"


print("instructions per pair (callgrind); ratios of the same")
print("| group | collide2d | collide2d_shape | parry2d | box2d | plain_f32 | plain_f32_dispatch | parry2d / collide2d | box2d / collide2d | collide2d / plain_f32 | collide2d / plain_f32_dispatch |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for query in FUNCTIONS:
    for pair in PAIRS:
        group = f"{query}/{pair}"
        c, s, p, b, f, fd = (
            per_pair.get(f"{group}/{k}")
            for k in ("collide2d", "collide2d_shape", "parry2d", "box2d", "plain_f32", "plain_f32_dispatch")
        )
        if c is None and p is None and b is None and f is None and fd is None:
            continue
        r_parry = p / c if p is not None and c else None
        r_box2d = b / c if b is not None and c else None
        r_plain = c / f if c is not None and f else None
        r_dispatch = c / fd if c is not None and fd else None
        print(
            f"| {group} | {fmt(c)} | {fmt(s)} | {fmt(p)} | {fmt(b)} | {fmt(f)} | {fmt(fd)} | {fmt(r_parry)} | {fmt(r_box2d)} | {fmt(r_plain)} | {fmt(r_dispatch)} |"
        )
