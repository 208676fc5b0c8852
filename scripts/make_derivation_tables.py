#!/usr/bin/env python3
"""Test tables for deriving v and a from q (doc/tables.md "Deriving missing derivatives"), with
their exact torques from the closed-form inverse dynamics of robots/planar_2r.urdf
(make_trajectories.planar_2r_tau, Lagrange) at the analytic derivatives: independent of eom.

Run from the repository root: python3 scripts/make_derivation_tables.py
(python3 scripts/make_derivation_tables.py --accuracy build/eom prints the rows of the accuracy
table of doc/tables.md from those files.)
Writes tests/data/derivation/:
  planar_2r_50hz.csv, .tau.csv      a slowly sampled log: q1 = 0.3 + 0.8 sin(1.3 t),
                                    q2 = -0.5 + 0.6 cos(2.1 t) + 0.1 t at 50 Hz for 2 s
  planar_2r_50hz_slow.csv, .tau.csv a 0.4 Hz motion at 50 Hz for 10 s: q1 = 0.3 + 0.8 sin(w t),
                                    q2 = -0.5 + 0.6 cos(w t) + 0.1 t, w = 0.8 pi
  planar_2r_1khz_noisy.csv, .tau.csv
                                    the jittered 1 kHz log with noise uniform in +-1e-4 rad on q
                                    (seeded: the same file every run)
  planar_2r_1khz.csv, .tau.csv      the same motion at 1 kHz for 1 s, with jitter: each stamp
                                    off its k / 1000 by up to 0.15 ms
  planar_2r_1khz_gap.csv, .tau.csv  that log with a dropped stretch: rows 401-419 (19 messages,
                                    a 20 ms step) and rows 700-702 are missing
  planar_2r_spin.csv, .tau.csv      joint1 spinning, q1 = 0.3 + 5 t + 0.5 sin(2 t), written
                                    wrapped into (-pi, pi], at 200 Hz for 2 s (joint1 then needs
                                    the continuous or wide-limit copies of the arm in
                                    tests/data/urdf)
  kinova_spin.csv, kinova_spin_wrapped.csv
                                    tests/data/robots/kinova.urdf with its continuous joints
                                    turning through several turns at 100 Hz for 3 s, unwrapped and
                                    wrapped into (-pi, pi]: eom gives both the same torques
"""
import math
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_trajectories import planar_2r_tau  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "derivation")


def slow(t):
    """q, v, a of a 0.4 Hz motion."""
    w = 0.8 * math.pi
    q = (0.3 + 0.8 * math.sin(w * t), -0.5 + 0.6 * math.cos(w * t) + 0.1 * t)
    v = (0.8 * w * math.cos(w * t), -0.6 * w * math.sin(w * t) + 0.1)
    a = (-0.8 * w ** 2 * math.sin(w * t), -0.6 * w ** 2 * math.cos(w * t))
    return q, v, a


def wrap(x):
    """x in (-pi, pi]."""
    y = math.fmod(x + math.pi, 2 * math.pi)
    if y <= 0:
        y += 2 * math.pi
    return y - math.pi


def smooth(t):
    """q, v, a of the two joints (the motion of make_planar_2r_deriv_tables.py)."""
    q = (0.3 + 0.8 * math.sin(1.3 * t), -0.5 + 0.6 * math.cos(2.1 * t) + 0.1 * t)
    v = (0.8 * 1.3 * math.cos(1.3 * t), -0.6 * 2.1 * math.sin(2.1 * t) + 0.1)
    a = (-0.8 * 1.3 ** 2 * math.sin(1.3 * t), -0.6 * 2.1 ** 2 * math.cos(2.1 * t))
    return q, v, a


def spin(t):
    """joint1 turning (5 rad/s on average), joint2 as in smooth()."""
    q, v, a = smooth(t)
    return ((0.3 + 5 * t + 0.5 * math.sin(2 * t), q[1]),
            (5 + math.cos(2 * t), v[1]),
            (-2 * math.sin(2 * t), a[1]))


def write(name, header, rows):
    with open(os.path.join(OUT, name), "w") as f:
        f.write(",".join(header) + "\n")
        for row in rows:
            f.write(",".join(repr(float(x)) for x in row) + "\n")


def planar_tables(name, times, motion, wrapped=False, noise=0.0):
    q_rows, tau_rows = [], []
    jitter = random.Random(37)
    for t in times:
        q, v, a = motion(t)
        tau_rows.append((t,) + planar_2r_tau(q[0], q[1], v[0], v[1], a[0], a[1]))
        q = [x + jitter.uniform(-noise, noise) if noise else x for x in q]
        q_rows.append((t, wrap(q[0]) if wrapped else q[0], q[1]))
    write(name + ".csv", ["t", "q.joint1", "q.joint2"], q_rows)
    write(name + ".tau.csv", ["t", "tau.joint1", "tau.joint2"], tau_rows)


def kinova_tables():
    # tests/data/robots/kinova.urdf (Kinova JACO2, j2s6s200): joints 1, 4 and 6 are continuous
    # (several turns here), 2, 3 and 5 revolute within their limits
    names = ["j2s6s200_joint_%d" % k for k in range(1, 7)]
    middle = {2: 3.1, 3: 3.1, 5: 3.1}
    rows, wrapped = [], []
    for k in range(301):
        t = k / 100
        q, w = [], []
        for j in range(1, 7):
            if j in middle:
                q.append(middle[j] + 0.4 * math.sin((0.7 + 0.2 * j) * t + j))
                w.append(q[-1])
            else:
                q.append(0.2 * j + (3 + j) * t + 0.3 * math.sin((1 + 0.3 * j) * t))
                w.append(wrap(q[-1]))
        rows.append([t] + q)
        wrapped.append([t] + w)
    header = ["t"] + ["q." + n for n in names]
    write("kinova_spin.csv", header, rows)
    write("kinova_spin_wrapped.csv", header, wrapped)


# The rows of doc/tables.md's accuracy table: (log, options, what the row says).
ACCURACY_ROWS = [
    ("planar_2r_50hz", [], "fits, window chosen from the data (default)"),
    ("planar_2r_50hz", ["--derive-window", "17"], "fits over 17 rows (`--derive-window 17`)"),
    ("planar_2r_50hz", ["--derive-window", "9"], "fits over 9 rows (`--derive-window 9`)"),
    ("planar_2r_50hz", ["--derive", "three-point"], "`--derive three-point`"),
    ("planar_2r_50hz_slow", [], "fits, window chosen from the data (default)"),
    ("planar_2r_50hz_slow", ["--derive-window", "17"], "fits over 17 rows (`--derive-window 17`)"),
    ("planar_2r_50hz_slow", ["--derive-window", "9"], "fits over 9 rows (`--derive-window 9`)"),
    ("planar_2r_50hz_slow", ["--derive", "three-point"], "`--derive three-point`"),
    ("planar_2r_1khz", [], "fits, window chosen from the data (default)"),
    ("planar_2r_1khz", ["--derive-window", "17"], "fits over 17 rows (`--derive-window 17`)"),
    ("planar_2r_1khz", ["--derive", "three-point"], "`--derive three-point`"),
    ("planar_2r_1khz_noisy", [], "fits, window chosen from the data (default)"),
    ("planar_2r_1khz_noisy", ["--derive-window", "17"], "fits over 17 rows (`--derive-window 17`)"),
    ("planar_2r_1khz_gap", [], "fits (default), rows near the gaps included"),
]


def read_table(text):
    lines = text.strip().splitlines()
    return [[float(x) for x in line.split(",")[1:]] for line in lines[1:]]


def accuracy_table(eom):
    """The rows of the accuracy table: eom id's largest error relative to the largest exact
    torque, in the interior and at the ends (the first and last 8 rows), and the window."""
    for name, options, how in ACCURACY_ROWS:
        csv = os.path.join("tests", "data", "derivation", name + ".csv")
        run = subprocess.run([eom, "id", "robots/planar_2r.urdf", csv] + options,
                             capture_output=True, text=True, check=True, cwd=ROOT)
        got = read_table(run.stdout)
        with open(os.path.join(ROOT, "tests", "data", "derivation", name + ".tau.csv")) as f:
            exact = read_table(f.read())
        largest = max(abs(x) for row in exact for x in row)
        errors = [max(abs(a - b) for a, b in zip(g, e)) / largest for g, e in zip(got, exact)]
        window = run.stderr.split(" over ")[1].split(" rows")[0] if " over " in run.stderr else "3"
        print("| %s | %s | %s | %.1e | %.1e |" % (name, how, window, max(errors[8:-8]),
                                                 max(errors[:8] + errors[-8:])))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--accuracy":
        accuracy_table(sys.argv[2])
        return
    os.makedirs(OUT, exist_ok=True)
    planar_tables("planar_2r_50hz", [k / 50 for k in range(101)], smooth)
    planar_tables("planar_2r_50hz_slow", [k / 50 for k in range(501)], slow)
    jittered = [k / 1000 + 0.00015 * math.sin(2.7 * k) for k in range(1001)]
    planar_tables("planar_2r_1khz", jittered, smooth)
    planar_tables("planar_2r_1khz_noisy", jittered, smooth, noise=1e-4)
    dropped = [t for k, t in enumerate(jittered) if not (401 <= k <= 419 or 700 <= k <= 702)]
    planar_tables("planar_2r_1khz_gap", dropped, smooth)
    planar_tables("planar_2r_spin", [k / 200 for k in range(401)], spin, wrapped=True)
    kinova_tables()


if __name__ == "__main__":
    main()
