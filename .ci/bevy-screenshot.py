#!/usr/bin/env python3
"""Checks a screenshot of a Bevy example (a binary PPM, as COLLIDE2D_SCREENSHOT writes it):
each expected colour covers at least so many pixels.

    bevy-screenshot.py SHOT.ppm NAME=RRGGBB:MIN [NAME=RRGGBB:MIN ...]

A pixel counts for a colour when each of its channels is within TOLERANCE of it. Prints every
colour's count, and the image's most common colours (to set expectations from); exits 1 when a
colour has fewer pixels than its minimum, 2 when the file is not a PPM of the stated size."""
import collections
import sys

TOLERANCE = 6


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    fields, at = [], 0
    while len(fields) < 4:
        while data[at : at + 1].isspace():
            at += 1
        start = at
        while not data[at : at + 1].isspace():
            at += 1
        fields.append(data[start:at])
    if fields[0] != b"P6" or fields[3] != b"255":
        sys.exit(f"{path}: not an 8-bit binary PPM (header {fields})")
    width, height = int(fields[1]), int(fields[2])
    pixels = data[at + 1 :]
    if len(pixels) != width * height * 3:
        print(f"{path}: {len(pixels)} bytes of pixels, not {width}x{height}x3", file=sys.stderr)
        sys.exit(2)
    return width, height, pixels


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    path = sys.argv[1]
    width, height, pixels = read_ppm(path)
    counts = collections.Counter(
        pixels[i : i + 3] for i in range(0, len(pixels), 3)
    )
    print(f"{path}: {width}x{height}, {len(counts)} distinct colours; most common:")
    for colour, n in counts.most_common(12):
        print(f"  {colour.hex()} {n}")
    failed = False
    for expectation in sys.argv[2:]:
        name, rest = expectation.split("=", 1)
        hexcode, minimum = rest.split(":", 1)
        want = bytes.fromhex(hexcode)
        n = sum(
            count
            for colour, count in counts.items()
            if all(abs(colour[k] - want[k]) <= TOLERANCE for k in range(3))
        )
        ok = n >= int(minimum)
        failed |= not ok
        print(f"  {'ok  ' if ok else 'FAIL'} {name} #{hexcode}: {n} pixels (at least {minimum})")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
