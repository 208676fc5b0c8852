#!/usr/bin/env python3
"""Test tables for a ball joint (tests/data/mjcf/ball_pendulum.xml, a spherical pendulum), with
exact values from closed forms independent of eom.

The body turns at a constant angular velocity w in its own axes: R(t) = R0 exp([w] t), so
v = w and a = 0, and with c its centre of mass, m its mass, I_o its inertia about the pivot (body
axes) and g gravity, Euler's equations about the pivot give the moment the joint transmits
  tau = w x I_o w - m c x (R^T g),   d tau/dt = m c x (w x R^T g)    (d R^T/dt = -[w] R^T).

Run from the repository root: python3 scripts/make_ball_tables.py
Writes tests/data/mjcf/:
  ball_spin.csv         t and q.ball.qx .qy .qz .qw at 100 Hz for 2 s (v and a to be derived)
  ball_spin_qva.csv     t, q, v = w and a = 0, and d3q = 0 (eom id, eom deriv)
  ball_spin_state.csv   t, q, v and tau (eom fd)
  ball_spin.tau.csv     t and tau.ball.mx .my .mz (eom id)
  ball_spin.deriv.csv   t, tau and d1tau.ball.mx .my .mz (eom deriv --order 1)
  ball_spin.fd.csv      t, q, v and a = 0 (eom fd)
  ball_spin.sim.csv     t, q and v: the motion eom sim gives without gravity under the constant
                        torque w x I_o w (printed)
"""
import math
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "mjcf")

MASS = 2.0
COM = (0.05, -0.02, -0.4)
INERTIA_COM = (0.03, 0.02, 0.01)  # principal, along the body axes
GRAVITY = (0.0, 0.0, -9.81)
W = (0.4, -0.7, 1.1)  # body-frame angular velocity
AXIS0, ANGLE0 = (1.0, 2.0, -0.5), 0.9  # the start orientation R0, as an axis and angle
RATE, DURATION = 100, 2.0


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def scale(s, a):
    return tuple(s * x for x in a)


def axis_angle_quaternion(axis, angle):
    """(x, y, z, w) of the rotation by angle about axis."""
    n = math.sqrt(sum(x * x for x in axis))
    s = math.sin(angle / 2)
    return (axis[0] / n * s, axis[1] / n * s, axis[2] / n * s, math.cos(angle / 2))


def multiply(p, q):
    """Hamilton product p q of quaternions (x, y, z, w)."""
    pv, pw, qv, qw = p[:3], p[3], q[:3], q[3]
    v = tuple(pw * b + qw * a + c for a, b, c in zip(pv, qv, cross(pv, qv)))
    return v + (pw * qw - sum(a * b for a, b in zip(pv, qv)),)


def rotate_inverse(q, x):
    """R^T x for the rotation R of the unit quaternion q."""
    conj = (-q[0], -q[1], -q[2], q[3])
    r = multiply(multiply(conj, x + (0.0,)), q)
    return r[:3]


def inertia_about_pivot(w):
    """I_o w = I_c w + m c x (w x c) (parallel axes)."""
    ic_w = tuple(i * x for i, x in zip(INERTIA_COM, w))
    return tuple(a + MASS * b for a, b in zip(ic_w, cross(COM, cross(w, COM))))


def state(t):
    rate = math.sqrt(sum(x * x for x in W))
    q = multiply(axis_angle_quaternion(AXIS0, ANGLE0), axis_angle_quaternion(W, rate * t))
    g_body = rotate_inverse(q, GRAVITY)
    tau = tuple(a - MASS * b for a, b in zip(cross(W, inertia_about_pivot(W)), cross(COM, g_body)))
    d1tau = scale(MASS, cross(COM, cross(W, g_body)))
    return q, tau, d1tau


def write(name, header, rows):
    with open(os.path.join(OUT, name), "w") as f:
        f.write(",".join(header) + "\n")
        for row in rows:
            f.write(",".join(repr(x) for x in row) + "\n")


def main():
    times = [k / RATE for k in range(int(DURATION * RATE) + 1)]
    states = [state(t) for t in times]
    q_names = ["q.ball.qx", "q.ball.qy", "q.ball.qz", "q.ball.qw"]
    v_names = ["v.ball.wx", "v.ball.wy", "v.ball.wz"]
    tau_names = ["tau.ball.mx", "tau.ball.my", "tau.ball.mz"]
    zero = (0.0, 0.0, 0.0)
    a_names = ["a.ball.wx", "a.ball.wy", "a.ball.wz"]
    d3q_names = ["d3q.ball.wx", "d3q.ball.wy", "d3q.ball.wz"]
    d1tau_names = ["d1tau.ball.mx", "d1tau.ball.my", "d1tau.ball.mz"]
    rows = list(zip(times, states))
    write("ball_spin.csv", ["t"] + q_names, [(t,) + s[0] for t, s in rows])
    write("ball_spin_qva.csv", ["t"] + q_names + v_names + a_names + d3q_names,
          [(t,) + s[0] + W + zero + zero for t, s in rows])
    write("ball_spin_state.csv", ["t"] + q_names + v_names + tau_names,
          [(t,) + s[0] + W + s[1] for t, s in rows])
    write("ball_spin.tau.csv", ["t"] + tau_names, [(t,) + s[1] for t, s in rows])
    write("ball_spin.deriv.csv", ["t"] + tau_names + d1tau_names,
          [(t,) + s[1] + s[2] for t, s in rows])
    write("ball_spin.fd.csv", ["t"] + q_names + v_names + a_names,
          [(t,) + s[0] + W + zero for t, s in rows])
    write("ball_spin.sim.csv", ["t"] + q_names + v_names, [(t,) + s[0] + W for t, s in rows])
    print("torque without gravity:", ",".join(repr(x) for x in cross(W, inertia_about_pivot(W))))

if __name__ == "__main__":
    main()
