#!/usr/bin/env python3
"""Synthetic large models for the scale tests (tests/cli/large.sh): a 200-joint serial chain and a
100-body tree, with a short trajectory table each (t, q, v, a of every joint).

    python3 scripts/make_large_robots.py tests/data/large

Deterministic (fixed seed, no randomness in the models). Joint types cycle through revolute,
continuous and prismatic; axes through x, y, z; every link has a physical inertia (positive
principal moments satisfying the triangle inequality) so every algorithm accepts the model.
"""
import math
import sys
from pathlib import Path

TYPES = ["revolute", "continuous", "prismatic"]
AXES = ["0 0 1", "0 1 0", "1 0 0"]


def link(name, mass):
    # a thin box-like body: principal moments 1 : 1.2 : 1.5 (a + b > c holds)
    i = 0.001 * mass
    return (f'  <link name="{name}">\n    <inertial>\n      <origin xyz="0.02 0 0.01"/>\n'
            f'      <mass value="{mass:g}"/>\n'
            f'      <inertia ixx="{i:g}" ixy="0" ixz="0" iyy="{1.2 * i:g}" iyz="0" izz="{1.5 * i:g}"/>\n'
            f'    </inertial>\n  </link>\n')


def joint(k, parent, child, offset):
    kind = TYPES[k % 3]
    limit = ""
    if kind == "revolute":
        limit = '    <limit lower="-3" upper="3" effort="100000" velocity="10"/>\n'
    elif kind == "prismatic":
        limit = '    <limit lower="-1" upper="1" effort="100000" velocity="10"/>\n'
    return (f'  <joint name="j{k}" type="{kind}">\n    <parent link="{parent}"/>\n'
            f'    <child link="{child}"/>\n    <origin xyz="{offset}" rpy="0 0.1 0"/>\n'
            f'    <axis xyz="{AXES[k % 3]}"/>\n{limit}    <damping damping="0.01"/>\n  </joint>\n')


def urdf(name, parents):
    """parents[k] is the parent body of body k + 1 (body 0 is the base)."""
    out = [f'<?xml version="1.0"?>\n<robot name="{name}">\n', link("base", 2.0)]
    for k, parent in enumerate(parents, start=1):
        out.append(link(f"b{k}", 1.0 + 0.01 * (k % 7)))
        out.append(joint(k, "base" if parent == 0 else f"b{parent}", f"b{k}",
                         f"0.05 0.01 {0.02 * (1 + k % 2)}"))
    out.append("</robot>\n")
    return "".join(out)


def table(n):
    """t, q, v, a of n joints: q = 0.3 sin(w t + phase), v and a its derivatives."""
    names = [f"j{k}" for k in range(1, n + 1)]
    header = ["t"] + [f"{p}.{j}" for p in ("q", "v", "a") for j in names]
    rows = [",".join(header)]
    for r in range(5):
        t = 0.01 * r
        q, v, a = [], [], []
        for k in range(1, n + 1):
            w, phase = 1.0 + 0.01 * k, 0.1 * k
            q.append(0.3 * math.sin(w * t + phase))
            v.append(0.3 * w * math.cos(w * t + phase))
            a.append(-0.3 * w * w * math.sin(w * t + phase))
        rows.append(",".join(repr(x) for x in [t] + q + v + a))
    return "\n".join(rows) + "\n"


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "tests/data/large")
    out.mkdir(parents=True, exist_ok=True)
    chain = list(range(0, 200))             # body k + 1 on body k
    tree = [k // 2 for k in range(0, 100)]  # body k + 1 on body k // 2: a binary tree
    (out / "chain200.urdf").write_text(urdf("chain200", chain))
    (out / "tree100.urdf").write_text(urdf("tree100", tree))
    (out / "chain200.csv").write_text(table(200))
    (out / "tree100.csv").write_text(table(100))


if __name__ == "__main__":
    main()
