#!/usr/bin/env python3
"""trajectories/iiwa_gaz.csv: the excitation trajectory of Gaz et al. (RA-L 2019, eq. 31) that
Mueller & Kumar evaluate on the KUKA LBR iiwa: q_i(t) = A_i cos(w_i t), T = 5 s sampled at
0.5 ms, with exact derivative columns v, a, d3q ... d6q (d^k/dt^k A cos(w t) = A w^k times
cos, -sin, -cos, sin of w t for k = 0, 1, 2, 3 modulo 4), and the paper's end-effector wrench,
10 sin(pi t) on all six components, on frame iiwa_link_ee in world axes (eom's default
--wrench-frame world), with its exact derivatives d1wrench (10 pi cos(pi t)) and d2wrench
(-10 pi^2 sin(pi t)). Use with --gravity 0,0,-9.80665 and --order 2 at most.
Run from the repository root: python3 scripts/make_gaz_trajectory.py"""
import math

A = [-1.2943753211777664, 0.7175341454355011, -0.5691380764966176, 0.5848944158627155,
     1.6216297151633214, -0.9187855709752027, 0.4217605991935227]
W = [1.7073873117335832, 3.079992797637052, 2.1084514453622774, 3.5903916041026207,
     1.4183262544423447, 2.285625793808507, 5.927533308659986]
PREFIXES = ['q', 'v', 'a', 'd3q', 'd4q', 'd5q', 'd6q']
JOINTS = [f'iiwa_joint_{i + 1}' for i in range(7)]
WRENCH = [f'wrench.iiwa_link_ee.{c}' for c in ['fx', 'fy', 'fz', 'mx', 'my', 'mz']]
WRENCH_PREFIXES = ['', 'd1', 'd2']
STEP = 0.0005
ROWS = 10001  # t = 0 .. 5 s

with open('trajectories/iiwa_gaz.csv', 'w') as f:
    f.write(','.join(['t'] + [p + '.' + j for p in PREFIXES for j in JOINTS] +
                     [p + w for p in WRENCH_PREFIXES for w in WRENCH]) + '\n')
    for n in range(ROWS):
        t = n * STEP
        row = [t]
        for k in range(len(PREFIXES)):
            for i in range(7):
                c, s = math.cos(W[i] * t), math.sin(W[i] * t)
                row.append(A[i] * W[i]**k * [c, -s, -c, s][k % 4])
        c, s = math.cos(math.pi * t), math.sin(math.pi * t)
        for k in range(len(WRENCH_PREFIXES)):
            row += [10 * math.pi**k * [s, c, -s][k]] * len(WRENCH)
        f.write(','.join(repr(x) for x in row) + '\n')
