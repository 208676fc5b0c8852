#!/usr/bin/env python3
"""Turn the Jacobians of tests/data/reference/*.json (Pinocchio 3.7 jacobian_world, local world
aligned) into eom jac expectations: tests/data/jac/<name>.csv holds t and q per sample,
<name>.expected.csv the reference J.<row>.<coordinate> (task rows) of the first Jacobian frame and what an
independent SVD (numpy's LAPACK) says of it under eom jac's documented rank rule (relative 1e-6):
sigma.1..sigma.m, rank, rank_margin, inverse_condition, manipulability, nullity. Independent of eom.
For --dynamics, <name>.static.csv holds t, q and v = 0 and <name>.dynamics.csv the task-space
dynamics from the reference M, g and Jacobian (Khatib; with v = 0 the bias mu vanishes):
Lambda = (J M^-1 J^T)^-1, p = Lambda J M^-1 g, Jbar = M^-1 J^T Lambda.
For --analytical euler-zyx, <name>.analytical.csv holds JA = [J_P; E^-1 J_R] (lecture notes
2.8.4) with the ZYX angles (z, y, x) of the reference rotation, R = Rz Ry Rx, and
omega = E (z', y', x')', E = [[0, -sin z, cos y cos z], [0, cos z, cos y sin z], [1, 0, -sin y]].
For --jdot, <name> planar_3r: the arm of robots/planar_3r.urdf by hand (unit links turning
about +y, tip p = sum_i (cos phi_i, 0, -sin phi_i), phi_i = q_1 + ... + q_i), its J, dJ/dt and
dJ/dt v over the task rows vx vz wy: planar_3r.motion.csv (q, v), planar_3r.jdot.csv.
Run from the repository root: python3 scripts/make_reference_jacobians.py"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from make_reference_tables import columns, q_values, write  # noqa: E402

# robot: the task rows (eom jac --task); a foot of the fixed-base ANYmal moves with 3 joints, so
# its task is the position (the full 6 rows would be rank 3, with round-off singular values)
ROBOTS = {'ur5_robot': 'full', 'kinova': 'full', 'panda': 'full', 'z1': 'full',
          'anymal': 'position', 'solo12_freeflyer': 'full', 'anymal_freeflyer': 'full'}
ROWS = ['vx', 'vy', 'vz', 'wx', 'wy', 'wz']
TASKS = {'full': ROWS, 'position': ROWS[:3]}
RELATIVE = 1e-6


def report(J):
    """sigma, rank, rank_margin, inverse_condition, manipulability, nullity of a 6 x nv Jacobian."""
    m, nv = J.shape
    sigma = np.linalg.svd(J, compute_uv=False)
    threshold = RELATIVE * sigma[0]
    rank = int(np.sum(sigma > threshold))
    margin = float(np.min(np.abs(sigma - threshold)) / (1 + RELATIVE))
    inverse_condition = sigma[-1] / sigma[0]
    manipulability = float(np.prod(sigma)) if m <= nv else 0.0
    return list(sigma) + [rank, margin, inverse_condition, manipulability, nv - rank]


# robot: the task rows of the --dynamics expectation (square or wide, full rank)
DYNAMICS = {'double_pendulum': ['vy', 'wx'], 'anymal_freeflyer': ROWS}


def dynamics(name, task):
    with open(f'tests/data/reference/{name}.json') as f:
        ref = json.load(f)
    qn, vn, _ = columns(ref)
    frame = ref['jacobian_frames'][0]
    rows_used = [ROWS.index(r) for r in task]
    m, nv = len(task), ref['nv']
    write(f'tests/data/jac/{name}.static.csv', ['t'] + ['q.' + n for n in qn] + ['v.' + n for n in vn],
          [[k] + q_values(ref, s) + [0.0] * nv for k, s in enumerate(ref['samples'])])
    header = ['t'] + [f'sigma.{k}' for k in range(1, min(m, nv) + 1)]
    header += ['rank', 'rank_margin', 'inverse_condition', 'manipulability', 'nullity']
    header += [f'Lambda.{a}.{b}' for a in task for b in task]
    header += [f'mu.{r}' for r in task] + [f'p.{r}' for r in task]
    header += [f'Jbar.{c}.{r}' for c in vn for r in task] + ['Lambda_rank']
    rows = []
    for k, s in enumerate(ref['samples']):
        J = np.array(s['jacobian_world'][frame], dtype=float)[rows_used, :]
        M = np.array(s['M'], dtype=float)
        g = np.array(s['g'], dtype=float)
        MinvJt = np.linalg.solve(M, J.T)
        Lambda = np.linalg.inv(J @ MinvJt)
        p = Lambda @ (J @ np.linalg.solve(M, g))
        Jbar = MinvJt @ Lambda
        rows.append([k] + report(J) + list(Lambda.flatten()) + [0.0] * m + list(p) +
                    list(Jbar.flatten()) + [m])
    write(f'tests/data/jac/{name}.dynamics.csv', header, rows)
    print(name, frame, 'dynamics', task)


def analytical_euler_zyx(name):
    with open(f'tests/data/reference/{name}.json') as f:
        ref = json.load(f)
    _, vn, _ = columns(ref)
    frame = ref['jacobian_frames'][0]
    header = ['t'] + [f'JA.{r}.{c}' for r in ['x', 'y', 'z', 'ez', 'ey', 'ex'] for c in vn]
    header += [f'sigma.{k}' for k in range(1, min(6, ref['nv']) + 1)]
    header += ['rank', 'rank_margin', 'inverse_condition', 'manipulability', 'nullity']
    rows = []
    for k, s in enumerate(ref['samples']):
        J = np.array(s['jacobian_world'][frame], dtype=float)
        R = np.array(s['frames'][frame]['R'], dtype=float)
        z = np.arctan2(R[1, 0], R[0, 0])
        y = np.arcsin(-R[2, 0])
        E = np.array([[0, -np.sin(z), np.cos(y) * np.cos(z)],
                      [0, np.cos(z), np.cos(y) * np.sin(z)],
                      [1, 0, -np.sin(y)]])
        JA = np.vstack([J[:3], np.linalg.solve(E, J[3:])])
        rows.append([k] + list(JA.flatten()) + report(J))
    write(f'tests/data/jac/{name}.analytical.csv', header, rows)
    print(name, frame, 'analytical euler-zyx')


def planar_3r_jdot():
    names = ['joint1', 'joint2', 'joint3']
    task = ['vx', 'vz', 'wy']
    states = [([0.3, 0.4, -0.2], [0.5, -1.0, 2.0]), ([1.0, -0.7, 2.2], [-0.3, 0.8, 0.1]),
              ([0.0, 0.0, 0.0], [1.0, 1.0, 1.0])]
    header = ['t'] + [f'J.{r}.{c}' for r in task for c in names]
    header += [f'Jdot.{r}.{c}' for r in task for c in names] + [f'Jdot_v.{r}' for r in task]
    header += ['sigma.1', 'sigma.2', 'sigma.3', 'rank', 'rank_margin', 'inverse_condition',
               'manipulability', 'nullity']
    rows, motion = [], []
    for k, (q, v) in enumerate(states):
        phi = np.cumsum(q)
        phid = np.cumsum(v)
        J = np.zeros((3, 3))
        dJ = np.zeros((3, 3))
        for j in range(3):
            for i in range(j, 3):
                J[:, j] += [-np.sin(phi[i]), -np.cos(phi[i]), 0]
                dJ[:, j] += [-np.cos(phi[i]) * phid[i], np.sin(phi[i]) * phid[i], 0]
            J[2, j] = 1
        rows.append([k] + list(J.flatten()) + list(dJ.flatten()) + list(dJ @ v) + report(J))
        motion.append([k] + q + v)
    write('tests/data/jac/planar_3r.motion.csv',
          ['t'] + ['q.' + n for n in names] + ['v.' + n for n in names], motion)
    write('tests/data/jac/planar_3r.jdot.csv', header, rows)
    print('planar_3r jdot')


def main():
    os.makedirs('tests/data/jac', exist_ok=True)
    for name, task in ROBOTS.items():
        rows_used = [ROWS.index(r) for r in TASKS[task]]
        with open(f'tests/data/reference/{name}.json') as f:
            ref = json.load(f)
        qn, vn, _ = columns(ref)
        frame = ref['jacobian_frames'][0]
        p = min(len(rows_used), ref['nv'])
        write(f'tests/data/jac/{name}.csv', ['t'] + ['q.' + n for n in qn],
              [[k] + q_values(ref, s) for k, s in enumerate(ref['samples'])])
        header = ['t'] + [f'J.{r}.{c}' for r in TASKS[task] for c in vn]
        header += [f'sigma.{k}' for k in range(1, p + 1)]
        header += ['rank', 'rank_margin', 'inverse_condition', 'manipulability', 'nullity']
        rows = []
        for k, s in enumerate(ref['samples']):
            J = np.array(s['jacobian_world'][frame], dtype=float)[rows_used, :]
            rows.append([k] + list(J.flatten()) + report(J))
        write(f'tests/data/jac/{name}.expected.csv', header, rows)
        print(name, frame, task)
    for name, task in DYNAMICS.items():
        dynamics(name, task)
    analytical_euler_zyx('ur5_robot')
    planar_3r_jdot()


if __name__ == '__main__':
    main()
