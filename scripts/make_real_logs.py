#!/usr/bin/env python3
"""Generate the robot-log test tables in tests/data/logs/ (issue 20, doc/logs.md).

Usage (from the repository root):

    python3 scripts/make_real_logs.py          # (re)write every file
    python3 scripts/make_real_logs.py --check  # rewrite in memory, fail if a file differs

Plain Python 3 standard library only; deterministic. One exact UR5 motion,
q_i(t) = A_i cos(w_i t + phi_i) + c_i at 1 kHz for 200 rows, written the way
robots log it and once cleanly:

  ur5_clean.csv        t in seconds from 0 (k / 1000), q only: the reference
  ur5_epoch_ns.csv     ROS 1 `rostopic echo -p` style: %time and field.header.stamp
                       in integer nanoseconds since the epoch (1.7e18, beyond a
                       double's 53 bits), field.header.seq, a text frame id and a
                       quoted text note with a comma
  ur5_zero_ns.csv      the same log with stamps counted from zero
  ur5_epoch_s.csv      t in seconds since the epoch with microsecond digits
                       (1700000000.123456, more digits than a double keeps)
  ur5_ros2.ndjson      ROS 2 style: {"header": {"stamp": {"sec", "nanosec"},
                       "frame_id"}, "q": {joint: angle}, "ok": true}, nested
  ur5_ros2.csv         the flattened columns of ur5_ros2.ndjson, as eom convert
                       writes them (header.stamp.sec, header.stamp.nanosec, ...)
  ur5_semicolon.csv    a spreadsheet's export: byte order mark, ';' separators,
                       CRLF line ends, a text column
  ur5_repeated_rows.csv the clean log with two rows written twice (t = 0.008,
                       0.048), as loggers do

Stamps are integers (or decimal strings built from integers): the digits
written are exact by construction. The angles are Python repr() of the
doubles of the formula at t = k / 1000 s, the same in every file.
"""

import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "logs")

JOINTS = ("shoulder_pan_joint", "shoulder_lift_joint", "elbow_joint",
          "wrist_1_joint", "wrist_2_joint", "wrist_3_joint")
AMPLITUDE = (0.4, 0.3, 0.5, 0.35, 0.45, 0.6)
FREQUENCY = (1.5, 1.1, 1.3, 1.7, 0.9, 2.0)  # Hz
PHASE = (0.0, 0.7, 1.4, 2.1, 2.8, 3.5)
OFFSET = (0.0, -1.2, 1.5, -0.8, 1.57, 0.0)

ROWS = 200
STEP_NS = 1000000  # 1 kHz
EPOCH_NS = 1700000000123456789  # a stamp of November 2023, to the nanosecond
EPOCH_US = 1700000000123456  # microseconds, for the seconds-since-the-epoch log


def q(k):
    t = k / 1000
    return [a * math.cos(2 * math.pi * f * t + p) + c
            for a, f, p, c in zip(AMPLITUDE, FREQUENCY, PHASE, OFFSET)]


def q_columns():
    return ["q." + j for j in JOINTS]


def csv_line(fields, sep=","):
    return sep.join(fields) + "\n"


def clean():
    lines = [csv_line(["t"] + q_columns())]
    for k in range(ROWS):
        lines.append(csv_line([repr(k / 1000)] + [repr(x) for x in q(k)]))
    return "".join(lines)


def repeated_rows():
    """The clean log with rows k = 8 and 48 written twice, as loggers do."""
    lines = clean().splitlines(keepends=True)
    for k in (48, 8):
        lines.insert(k + 2, lines[k + 1])
    return "".join(lines)


def rostopic(origin_ns):
    header = ["%time", "field.header.seq", "field.header.stamp", "field.header.frame_id"]
    lines = [csv_line(header + q_columns() + ["note"])]
    for k in range(ROWS):
        stamp = origin_ns + k * STEP_NS
        received = stamp + 250000 + 37 * (k % 7)  # arrival: later, with jitter
        note = '"ok, nominal"' if k % 50 else '"phase ' + str(k // 50) + ', ""start"""'
        lines.append(csv_line([str(received), str(k), str(stamp), "base_link"] +
                              [repr(x) for x in q(k)] + [note]))
    return "".join(lines)


def epoch_seconds():
    lines = [csv_line(["t"] + q_columns())]
    for k in range(ROWS):
        us = EPOCH_US + k * 1000
        lines.append(csv_line(["%d.%06d" % (us // 1000000, us % 1000000)] +
                              [repr(x) for x in q(k)]))
    return "".join(lines)


def ros2_rows():
    for k in range(ROWS):
        stamp = EPOCH_NS + k * STEP_NS
        yield k, stamp // 1000000000, stamp % 1000000000


def ros2_ndjson():
    lines = []
    for k, sec, nanosec in ros2_rows():
        row = {"header": {"stamp": {"sec": sec, "nanosec": nanosec}, "frame_id": "base_link"},
               "q": dict(zip(JOINTS, q(k))), "ok": True}
        lines.append(json.dumps(row, separators=(",", ":")) + "\n")
    return "".join(lines)


def ros2_csv():
    header = ["header.stamp.sec", "header.stamp.nanosec", "header.frame_id"] + q_columns() + ["ok"]
    lines = [csv_line(header)]
    for k, sec, nanosec in ros2_rows():
        lines.append(csv_line([str(sec), str(nanosec), "base_link"] +
                              [repr(x) for x in q(k)] + ["true"]))
    return "".join(lines)


def semicolon():
    lines = ["\ufeff" + ";".join(["t"] + q_columns() + ["label"]) + "\r\n"]
    for k in range(ROWS):
        lines.append(";".join([repr(k / 1000)] + [repr(x) for x in q(k)] +
                              ["run 1, take " + str(k // 100)]) + "\r\n")
    return "".join(lines)


FILES = {
    "ur5_clean.csv": clean,
    "ur5_epoch_ns.csv": lambda: rostopic(EPOCH_NS),
    "ur5_zero_ns.csv": lambda: rostopic(0),
    "ur5_epoch_s.csv": epoch_seconds,
    "ur5_ros2.ndjson": ros2_ndjson,
    "ur5_ros2.csv": ros2_csv,
    "ur5_semicolon.csv": semicolon,
    "ur5_repeated_rows.csv": repeated_rows,
}


def main():
    check = "--check" in sys.argv[1:]
    os.makedirs(OUT, exist_ok=True)
    stale = []
    for name, make in FILES.items():
        path = os.path.join(OUT, name)
        text = make().encode("utf-8")
        if check:
            with open(path, "rb") as f:
                if f.read() != text:
                    stale.append(name)
        else:
            with open(path, "wb") as f:
                f.write(text)
    if stale:
        sys.exit("out of date: " + ", ".join(stale))


if __name__ == "__main__":
    main()
