#!/usr/bin/env python3
"""Closed-form oracle for eom deriv on robots/planar_2r.urdf (point masses; robots/README.md):
the Lagrangian M(q), Christoffel C(q, qd) and g(q) of the planar 2R arm, tau along
q1(t) = 0.3 + 0.8 sin(1.3 t), q2(t) = -0.5 + 0.6 cos(2.1 t) + 0.1 t and its time derivatives,
all by sympy from the energies, independent of eom. Writes tests/data/deriv/planar_2r.csv
(t, q, v, a, d3q ... d6q, exact), planar_2r.dtau.csv (tau, d1tau ... d4tau),
planar_2r.matrices.csv (tau, d1tau, d2tau, M, C, g and their first two time derivatives) and
planar_2r.christoffel.csv (tau, Gamma).
Run from the repository root: python3 scripts/make_planar_2r_deriv_tables.py"""
import os

import sympy as sp

m1, m2, l1, l2, g = 1.0, 0.5, 1.0, 0.8, 9.81
t = sp.symbols('t')
q = [sp.Rational(3, 10) + sp.Rational(4, 5) * sp.sin(sp.Rational(13, 10) * t),
     -sp.Rational(1, 2) + sp.Rational(3, 5) * sp.cos(sp.Rational(21, 10) * t) + t / 10]
Q = sp.symbols('q1 q2')
QD = sp.symbols('qd1 qd2')
c2 = sp.cos(Q[1])
M = sp.Matrix([[(m1 + m2) * l1**2 + m2 * l2**2 + 2 * m2 * l1 * l2 * c2, m2 * l2**2 + m2 * l1 * l2 * c2],
               [m2 * l2**2 + m2 * l1 * l2 * c2, m2 * l2**2]])
V = (m1 + m2) * g * l1 * sp.sin(Q[0]) + m2 * g * l2 * sp.sin(Q[0] + Q[1])
G = sp.Matrix([sp.diff(V, Q[i]) for i in range(2)])
# Christoffel symbols of the first kind: C_ij = sum_k (dM_ij/dq_k + dM_ik/dq_j - dM_jk/dq_i) / 2 qd_k
C = sp.Matrix(2, 2, lambda i, j: sum(
    (sp.diff(M[i, j], Q[k]) + sp.diff(M[i, k], Q[j]) - sp.diff(M[j, k], Q[i])) / 2 * QD[k]
    for k in range(2)))
on_path = {Q[0]: q[0], Q[1]: q[1], QD[0]: sp.diff(q[0], t), QD[1]: sp.diff(q[1], t)}
qdd = sp.Matrix([sp.diff(q[i], t, 2) for i in range(2)])
qd = sp.Matrix([sp.diff(q[i], t) for i in range(2)])
tau = M.subs(on_path) * qdd + C.subs(on_path) * qd + G.subs(on_path)
# M, C and g along the path, whose time derivatives d<k>M, d<k>C, d<k>g eom deriv --matrices writes
M_t, C_t, G_t = M.subs(on_path), C.subs(on_path), G.subs(on_path)

names = ['joint1', 'joint2']
prefixes = ['q', 'v', 'a'] + [f'd{k}q' for k in range(3, 7)]
times = [0.0, 0.25, 0.5, 0.75, 1.0]


def num(expr, at):
    return float(sp.N(expr.subs(t, at), 30))


def write(path, header, rows):
    with open(path, 'w') as f:
        f.write(','.join(header) + '\n')
        for row in rows:
            f.write(','.join(repr(float(x)) for x in row) + '\n')


os.makedirs('tests/data/deriv', exist_ok=True)
write('tests/data/deriv/planar_2r.csv',
      ['t'] + [p + '.' + n for p in prefixes for n in names],
      [[s] + [num(sp.diff(q[i], t, k), s) for k in range(len(prefixes)) for i in range(2)]
       for s in times])
tau_names = ['tau'] + [f'd{k}tau' for k in range(1, 5)]
write('tests/data/deriv/planar_2r.dtau.csv',
      ['t'] + [p + '.' + n for p in tau_names for n in names],
      [[s] + [num(sp.diff(tau[i], t, k), s) for k in range(5) for i in range(2)] for s in times])
matrix = lambda m: [m + '.' + r + '.' + c for r in names for c in names]
vector = lambda v: [v + '.' + n for n in names]


def orders(k, s):
    d = lambda e: num(sp.diff(e, t, k), s)
    return ([d(M_t[i, j]) for i in range(2) for j in range(2)] +
            [d(C_t[i, j]) for i in range(2) for j in range(2)] + [d(G_t[i]) for i in range(2)])


write('tests/data/deriv/planar_2r.matrices.csv',
      ['t'] + vector('tau') + vector('d1tau') + vector('d2tau') + matrix('M') + matrix('C') +
      vector('g') + [c for k in (1, 2) for c in matrix(f'd{k}M') + matrix(f'd{k}C') +
                     vector(f'd{k}g')],
      [[s] + [num(sp.diff(tau[i], t, k), s) for k in range(3) for i in range(2)] +
       orders(0, s) + orders(1, s) + orders(2, s)
       for s in times])
# Christoffel symbols of the first kind, Gamma.<i>.<j>.<k>
gamma = lambda i, j, k: (sp.diff(M[i, j], Q[k]) + sp.diff(M[i, k], Q[j]) - sp.diff(M[j, k], Q[i])) / 2
write('tests/data/deriv/planar_2r.christoffel.csv',
      ['t'] + ['tau.' + n for n in names] +
      ['Gamma.' + a + '.' + b + '.' + c for a in names for b in names for c in names],
      [[s] + [num(tau[i], s) for i in range(2)] +
       [num(gamma(i, j, k).subs(on_path), s) for i in range(2) for j in range(2) for k in range(2)]
       for s in times])
