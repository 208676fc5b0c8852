#!/usr/bin/env python3
"""Turn samples of tests/data/reference/*.json (Pinocchio 3.7 values) into eom tables for the CLI
tests: tests/data/id/<name>.csv holds t, q, v, a per sample, <name>.tau.csv the reference tau and
tests/data/fk/<name>.poses.csv the reference poses of two frames, tests/data/deriv/<name>.csv
t, q, v, a, jerk, snap per sample with <name>.dtau.csv the reference tau, dtau/dt, d2tau/dt2 and
<name>.partials.csv the reference tau, dtau/dq, dtau/dv. Independent of eom. Continuous joints are stored by the reference as (cos, sin): converted to the angle.
Run from the repository root: python3 scripts/make_reference_tables.py"""
import json
import math
import os

ROOT = ['x', 'y', 'z', 'qx', 'qy', 'qz', 'qw']
ROOT_V = ['vx', 'vy', 'vz', 'wx', 'wy', 'wz']
ROOT_TAU = ['fx', 'fy', 'fz', 'mx', 'my', 'mz']


FK_FRAMES = {'ur5_robot': ['tool0', 'forearm_link'],
             'kinova': ['j2s6s200_end_effector', 'j2s6s200_link_finger_tip_2'],
             'solo12_freeflyer': ['FL_FOOT', 'HR_FOOT']}


def columns(ref):
    q, v, tau = [], [], []
    for name, jtype in zip(ref['joint_names'], ref['joint_types']):
        if jtype == 'JointModelFreeFlyer':
            q += ['root.' + s for s in ROOT]
            v += ['root.' + s for s in ROOT_V]
            tau += ['root.' + s for s in ROOT_TAU]
        else:
            q.append(name)
            v.append(name)
            tau.append(name)
    return q, v, tau


def q_values(ref, sample):
    out = []
    for k, jtype in enumerate(ref['joint_types']):
        i = ref['joint_idx_q'][k]
        n = ref['joint_nq'][k]
        block = sample['q'][i:i + n]
        if 'RUB' in jtype or 'RevoluteUnbounded' in jtype:
            out.append(math.atan2(block[1], block[0]))
        else:
            out += block
    return out


def write(path, header, rows):
    with open(path, 'w') as f:
        f.write(','.join(header) + '\n')
        for row in rows:
            f.write(','.join(repr(float(x)) for x in row) + '\n')


def quaternion(R):
    """Unit quaternion (x, y, z, w) of a rotation matrix, w >= 0 (Shepperd's method)."""
    tr = R[0][0] + R[1][1] + R[2][2]
    if tr > 0:
        s = math.sqrt(tr + 1.0) * 2
        q = [(R[2][1] - R[1][2]) / s, (R[0][2] - R[2][0]) / s, (R[1][0] - R[0][1]) / s, 0.25 * s]
    elif R[0][0] > R[1][1] and R[0][0] > R[2][2]:
        s = math.sqrt(1.0 + R[0][0] - R[1][1] - R[2][2]) * 2
        q = [0.25 * s, (R[0][1] + R[1][0]) / s, (R[0][2] + R[2][0]) / s, (R[2][1] - R[1][2]) / s]
    elif R[1][1] > R[2][2]:
        s = math.sqrt(1.0 + R[1][1] - R[0][0] - R[2][2]) * 2
        q = [(R[0][1] + R[1][0]) / s, 0.25 * s, (R[1][2] + R[2][1]) / s, (R[0][2] - R[2][0]) / s]
    else:
        s = math.sqrt(1.0 + R[2][2] - R[0][0] - R[1][1]) * 2
        q = [(R[0][2] + R[2][0]) / s, (R[1][2] + R[2][1]) / s, 0.25 * s, (R[1][0] - R[0][1]) / s]
    return [-x for x in q] if q[3] < 0 else q


def main():
    for name in ['ur5_robot', 'kinova', 'solo12_freeflyer']:
        with open(f'tests/data/reference/{name}.json') as f:
            ref = json.load(f)
        qn, vn, taun = columns(ref)
        header = ['t'] + ['q.' + n for n in qn] + ['v.' + n for n in vn] + ['a.' + n for n in vn]
        rows, taus = [], []
        for k, s in enumerate(ref['samples']):
            rows.append([k] + q_values(ref, s) + s['v'] + s['a'])
            taus.append([k] + s['tau'])
        os.makedirs('tests/data/id', exist_ok=True)
        write(f'tests/data/id/{name}.csv', header, rows)
        write(f'tests/data/id/{name}.tau.csv', ['t'] + ['tau.' + n for n in taun], taus)
        # eom fk expectations for two frames: position and quaternion
        frames = FK_FRAMES[name]
        fk_header = ['t'] + [f + '.' + c for f in frames for c in ['x', 'y', 'z', 'qx', 'qy', 'qz', 'qw']]
        fk_rows = []
        for k, s in enumerate(ref['samples']):
            row = [k]
            for f in frames:
                row += s['frames'][f]['p'] + quaternion(s['frames'][f]['R'])
            fk_rows.append(row)
        os.makedirs('tests/data/fk', exist_ok=True)
        write(f'tests/data/fk/{name}.poses.csv', fk_header, fk_rows)
        # eom deriv: the time derivatives and partial derivatives of tau
        header = header + ['jerk.' + n for n in vn] + ['snap.' + n for n in vn]
        rows = [row + s['jerk'] + s['snap'] for row, s in zip(rows, ref['samples'])]
        os.makedirs('tests/data/deriv', exist_ok=True)
        write(f'tests/data/deriv/{name}.csv', header, rows)
        write(f'tests/data/deriv/{name}.dtau.csv',
              ['t'] + [p + '.' + n for p in ['tau', 'd1tau', 'd2tau'] for n in taun],
              [[k] + s['tau'] + s['dtau_dt'] + s['d2tau_dt2'] for k, s in enumerate(ref['samples'])])
        write(f'tests/data/deriv/{name}.partials.csv',
              ['t'] + ['tau.' + n for n in taun] +
              [m + '.' + r + '.' + c for m in ['dtau_dq', 'dtau_dv'] for r in vn for c in vn],
              [[k] + s['tau'] + [x for m in ['dtau_dq', 'dtau_dv'] for r in s[m] for x in r]
               for k, s in enumerate(ref['samples'])])


if __name__ == '__main__':
    main()
