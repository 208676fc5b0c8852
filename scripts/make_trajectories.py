#!/usr/bin/env python3
"""Generate the example trajectories in trajectories/ and the 2R test oracle.

Usage (from the repository root):

    python3 scripts/make_trajectories.py          # (re)write every file
    python3 scripts/make_trajectories.py --check  # independent checks, writes nothing

Plain Python 3 standard library only; deterministic (no randomness in the
generated files; the checks use a fixed seed).

Files written:
  trajectories/<robot>_<motion>.csv / .json   smooth joint trajectories
  trajectories/solo12_floating_walk.csv / .json  floating-base trajectory
  trajectories/planar_2r_small.csv            5 rows for CLI tests
  trajectories/iiwa_circle_targets.csv        a Cartesian circle of the iiwa's tool (eom ik)
  trajectories/solo12_bob.csv                 Solo12 bobbing on its four planted feet
  trajectories/README.md                      formulas and parameters
  tests/data/planar_2r_small.tau.csv          closed-form 2R torques (oracle)

Every joint trajectory is q(t) = A cos(w t + phi) + c with the analytic
derivatives
  v   = -A w   sin(w t + phi)
  a   = -A w^2 cos(w t + phi)
  d3q =  A w^3 sin(w t + phi)
  d4q =  A w^4 cos(w t + phi)
sampled at t = k / 1000 for k = 0..3000. Numbers are written in Python repr()
form (shortest round-trip).
"""

import json
import math
import os
import random
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROBOTS = os.path.join(ROOT, "robots")
TRAJ = os.path.join(ROOT, "trajectories")
TESTDATA = os.path.join(ROOT, "tests", "data")

RATE = 1000  # samples per second
DURATION = 3  # seconds
MOVABLE = ("revolute", "continuous", "prismatic")
ORDERS = ("q", "v", "a", "d3q", "d4q")

# --------------------------------------------------------------------------
# planar 2R arm: geometry and closed-form inverse dynamics (Lagrange)
# --------------------------------------------------------------------------

# Geometry of robots/planar_2r.urdf. The arm moves in the vertical world x-z
# plane, both joint axes along -y: q1 is the angle of link 1 from the
# horizontal +x axis (positive = up, towards +z), q2 the angle of link 2
# relative to link 1 (0 = stretched). Point masses at the link ends.
L1, L2 = 1.0, 0.8
M1, M2 = 1.0, 0.5
G = 9.81  # eom's default gravity is (0, 0, -9.81): magnitude G along -z


def planar_2r_tau(q1, q2, qd1, qd2, qdd1, qdd2, g=G, l1=L1, l2=L2, m1=M1, m2=M2):
    """Closed-form inverse dynamics of the planar 2R arm with point masses.

    Mass positions (world x, z): p1 = l1 (cos q1, sin q1),
    p2 = p1 + l2 (cos(q1+q2), sin(q1+q2)).  Lagrangian L = T - V with
      T = 1/2 m1 l1^2 qd1^2
        + 1/2 m2 [l1^2 qd1^2 + l2^2 (qd1+qd2)^2 + 2 l1 l2 cos(q2) qd1 (qd1+qd2)]
      V = m1 g l1 sin(q1) + m2 g (l1 sin(q1) + l2 sin(q1+q2)).
    tau_i = d/dt dL/dqd_i - dL/dq_i gives the expressions below.
    """
    c1, c2 = math.cos(q1), math.cos(q2)
    s2 = math.sin(q2)
    c12 = math.cos(q1 + q2)
    tau1 = ((m1 + m2) * l1 ** 2 * qdd1
            + m2 * l2 ** 2 * (qdd1 + qdd2)
            + m2 * l1 * l2 * c2 * (2.0 * qdd1 + qdd2)
            - m2 * l1 * l2 * s2 * (2.0 * qd1 * qd2 + qd2 ** 2)
            + (m1 + m2) * g * l1 * c1
            + m2 * g * l2 * c12)
    tau2 = (m2 * l2 ** 2 * (qdd1 + qdd2)
            + m2 * l1 * l2 * c2 * qdd1
            + m2 * l1 * l2 * s2 * qd1 ** 2
            + m2 * g * l2 * c12)
    return tau1, tau2


def planar_3r_ee(q1, q2, q3):
    """World position of frame `ee` of robots/planar_3r.urdf (unit links, axes +y:
    a positive angle turns +x towards -z)."""
    a, b, c = q1, q1 + q2, q1 + q2 + q3
    return (math.cos(a) + math.cos(b) + math.cos(c), 0.0,
            -(math.sin(a) + math.sin(b) + math.sin(c)))


def planar_3r_gravity(q1, q2, q3, g=G):
    """Gravity torques g(q) = dV/dq of robots/planar_3r.urdf (1 kg links, com at
    mid-link): V = -g (2.5 sin q1 + 1.5 sin(q1+q2) + 0.5 sin(q1+q2+q3))."""
    c1, c12, c123 = math.cos(q1), math.cos(q1 + q2), math.cos(q1 + q2 + q3)
    return (-g * (2.5 * c1 + 1.5 * c12 + 0.5 * c123),
            -g * (1.5 * c12 + 0.5 * c123),
            -g * (0.5 * c123))


# --------------------------------------------------------------------------
# URDF reading (direct <joint> children of <robot> only)
# --------------------------------------------------------------------------

def urdf_joints(path):
    """Movable joints of a URDF in document order.

    Returns a list of dicts: name, type, lower, upper, velocity (None when
    absent), mimic (None or (joint, multiplier, offset)).
    """
    robot = ET.parse(path).getroot()
    out = []
    for j in robot.findall("joint"):  # direct children only: no <transmission> joints
        jtype = j.get("type")
        if jtype not in MOVABLE:
            continue
        lim = j.find("limit")
        lower = upper = vel = None
        if lim is not None:
            if jtype != "continuous" and lim.get("lower") is not None:
                lower = float(lim.get("lower"))
            if jtype != "continuous" and lim.get("upper") is not None:
                upper = float(lim.get("upper"))
            if lim.get("velocity") is not None:
                vel = float(lim.get("velocity"))
        if jtype != "continuous" and lower is None and upper is None and lim is not None:
            lower = upper = 0.0  # URDF default for revolute/prismatic
        mimic = None
        m = j.find("mimic")
        if m is not None:
            mimic = (m.get("joint"), float(m.get("multiplier", "1")), float(m.get("offset", "0")))
        out.append(dict(name=j.get("name"), type=jtype, lower=lower, upper=upper,
                        velocity=vel, mimic=mimic))
    return out


# --------------------------------------------------------------------------
# trajectory specification
# --------------------------------------------------------------------------

# Rule for joint i (0-based, URDF document order of the movable joints):
#   f_i   = f0 + df * i                 (Hz), w_i = 2 pi f_i
#   phi_i = 0.5 * i                     (rad)
#   c_i   = centre override, else the middle of [lower, upper] (0 if unbounded)
#   A_i   = min(cap_i, 0.4 * (upper - lower) / 2, 0.5 * velocity_limit / w_i)
# so |v| <= 0.5 * velocity limit and q stays in the middle 40 % of the range
# (or, with a centre override, within cap_i of the given centre).
# A mimic joint copies its leader: q = multiplier * q_leader + offset.

SOLO12_STAND = {}
for _leg, _sign in (("FL", 1.0), ("FR", 1.0), ("HL", -1.0), ("HR", -1.0)):
    SOLO12_STAND[_leg + "_HAA"] = 0.0
    SOLO12_STAND[_leg + "_HFE"] = 0.8 * _sign
    SOLO12_STAND[_leg + "_KFE"] = -1.6 * _sign
SOLO12_CAP = {n: {"HAA": 0.1, "HFE": 0.2, "KFE": 0.3}[n.split("_")[1]] for n in SOLO12_STAND}

SPECS = [
    dict(robot="ur5", motion="wave", cap=0.5, f0=0.2, df=0.05,
         note="UR5 (6 revolute joints), centred at q = 0 (mid of the +-2 pi / +-pi limits)."),
    dict(robot="panda", motion="wave", cap=0.5, f0=0.2, df=0.05,
         note="Franka Panda: 7 arm joints around the middle of their limits, plus the two "
              "finger joints (panda_finger_joint2 mimics panda_finger_joint1, so it gets "
              "the same motion)."),
    dict(robot="solo12", motion="legs", cap=0.3, f0=0.5, df=0.1, centres=SOLO12_STAND,
         caps=SOLO12_CAP,
         note="Solo-12 legs, fixed base. The URDF limits (+-10 rad) are placeholders, so the "
              "motion is centred on the standing posture of example-robot-data "
              "(HAA 0, HFE +-0.8, KFE -+1.6) instead of the middle of the limits."),
    dict(robot="planar_2r", motion="swing", cap=1.0, f0=0.3, df=0.1,
         note="Planar 2R arm (the closed-form oracle of robots/README.md)."),
    dict(robot="planar_3r", motion="wave", cap=0.8, f0=0.25, df=0.1,
         note="Planar 3R arm with unit links."),
    dict(robot="block", motion="oscillate", cap=0.5, f0=0.3, df=0.0,
         note="Sliding block on the prismatic joint `slide` (metres)."),
    dict(robot="iiwa14", motion="wave", cap=0.6, f0=0.15, df=0.04,
         note="KUKA LBR iiwa 14 with the Stuerz et al. 2017 inertial parameters."),
]


def joint_params(spec, joints):
    """(name, A, w, phi, c) per joint, following the rule above."""
    params = {}
    by_name = {j["name"]: j for j in joints}
    order = []
    for i, j in enumerate(joints):
        order.append(j["name"])
        if j["mimic"] is not None:
            continue
        f = spec["f0"] + spec["df"] * i
        w = 2.0 * math.pi * f
        phi = 0.5 * i
        cap = spec.get("caps", {}).get(j["name"], spec["cap"])
        amps = [cap]
        if j["lower"] is not None and j["upper"] is not None:
            c = 0.5 * (j["lower"] + j["upper"])
            amps.append(0.4 * 0.5 * (j["upper"] - j["lower"]))
        else:
            c = 0.0
        if j["name"] in spec.get("centres", {}):
            c = spec["centres"][j["name"]]
        if j["velocity"] is not None and j["velocity"] > 0:
            amps.append(0.5 * j["velocity"] / w)
        params[j["name"]] = (min(amps), w, phi, c, 1.0)
    for j in joints:
        if j["mimic"] is not None:
            lead, mult, off = j["mimic"]
            a, w, phi, c, _ = params[lead]
            params[j["name"]] = (mult * a, w, phi, mult * c + off, 1.0)
    return [(n,) + params[n][:4] for n in order]


def cos_derivs(a, w, phi, c, t):
    """[q, v, a, d3q, d4q] of a cos(w t + phi) + c."""
    x = w * t + phi
    cx, sx = math.cos(x), math.sin(x)
    return [a * cx + c, -a * w * sx, -a * w ** 2 * cx, a * w ** 3 * sx, a * w ** 4 * cx]


def clean(x):
    return x + 0.0  # turns -0.0 into 0.0


def times(n_rows=DURATION * RATE + 1):
    return [k / RATE for k in range(n_rows)]


def joint_table(params, ts, orders=ORDERS):
    header = ["t"] + ["%s.%s" % (o, p[0]) for o in orders for p in params]
    idx = [ORDERS.index(o) for o in orders]
    rows = []
    for t in ts:
        d = [cos_derivs(a, w, phi, c, t) for (_, a, w, phi, c) in params]
        rows.append([t] + [clean(d[j][k]) for k in idx for j in range(len(params))])
    return header, rows


# --------------------------------------------------------------------------
# floating base (solo12_floating_walk)
# --------------------------------------------------------------------------

# Truncated Taylor arithmetic: a "jet" is the list [f, f', f'', ..., f^(N)].
JET_N = 4


def _to_taylor(d):
    return [d[k] / math.factorial(k) for k in range(len(d))]


def _from_taylor(c):
    return [c[k] * math.factorial(k) for k in range(len(c))]


def jet_mul(f, g):
    n = len(f)
    return [sum(math.comb(k, i) * f[i] * g[k - i] for i in range(k + 1)) for k in range(n)]


def jet_add(f, g):
    return [x + y for x, y in zip(f, g)]


def jet_neg(f):
    return [-x for x in f]


def jet_cos_sin(u):
    """Exact derivatives of cos(u(t)) and sin(u(t)) from those of u(t)."""
    uc = _to_taylor(u)
    n = len(u)
    s = [math.sin(u[0])] + [0.0] * (n - 1)
    c = [math.cos(u[0])] + [0.0] * (n - 1)
    for k in range(1, n):
        s[k] = sum(j * uc[j] * c[k - j] for j in range(1, k + 1)) / k
        c[k] = -sum(j * uc[j] * s[k - j] for j in range(1, k + 1)) / k
    return _from_taylor(c), _from_taylor(s)


# Root motion: yaw psi(t) = 0.2 sin(t); position
#   x(t) = 0.05 t, y(t) = 0.02 sin(0.5 t), z(t) = 0.3 + 0.01 sin(2 t).
def root_psi(t):
    return [0.2 * math.sin(t), 0.2 * math.cos(t), -0.2 * math.sin(t), -0.2 * math.cos(t),
            0.2 * math.sin(t)]


def root_pos(t):
    x = [0.05 * t, 0.05, 0.0, 0.0, 0.0]
    y = [0.02 * math.sin(0.5 * t), 0.02 * 0.5 * math.cos(0.5 * t),
         -0.02 * 0.25 * math.sin(0.5 * t), -0.02 * 0.125 * math.cos(0.5 * t),
         0.02 * 0.0625 * math.sin(0.5 * t)]
    z = [0.3 + 0.01 * math.sin(2 * t), 0.02 * math.cos(2 * t), -0.04 * math.sin(2 * t),
         -0.08 * math.cos(2 * t), 0.16 * math.sin(2 * t)]
    return x, y, z


def root_state(t):
    """Root columns at time t: q (7), then the body twist and its derivatives.

    Returns (q7, [v6, a6, d3_6, d4_6]). Base-to-world rotation R = Rz(psi),
    quaternion (0, 0, sin(psi/2), cos(psi/2)). Body twist: linear R^T pdot,
    angular (0, 0, psi').
    """
    psi = root_psi(t)
    x, y, z = root_pos(t)
    c, s = jet_cos_sin(psi)
    xd, yd, zd = x[1:], y[1:], z[1:]  # derivatives of pdot, orders 0..3
    c4, s4 = c[:4], s[:4]
    vx = jet_add(jet_mul(c4, xd), jet_mul(s4, yd))
    vy = jet_add(jet_mul(jet_neg(s4), xd), jet_mul(c4, yd))
    vz = zd
    wz = psi[1:]
    q7 = [x[0], y[0], z[0], 0.0, 0.0, math.sin(0.5 * psi[0]), math.cos(0.5 * psi[0])]
    derivs = [[vx[k], vy[k], vz[k], 0.0, 0.0, wz[k]] for k in range(4)]
    return q7, derivs


ROOT_Q = ["x", "y", "z", "qx", "qy", "qz", "qw"]
ROOT_V = ["vx", "vy", "vz", "wx", "wy", "wz"]


def floating_table(params, ts):
    header = ["t"] + ["q.root." + n for n in ROOT_Q] + ["q." + p[0] for p in params]
    for o in ORDERS[1:]:
        header += ["%s.root.%s" % (o, n) for n in ROOT_V] + ["%s.%s" % (o, p[0]) for p in params]
    rows = []
    for t in ts:
        q7, rd = root_state(t)
        d = [cos_derivs(a, w, phi, c, t) for (_, a, w, phi, c) in params]
        row = [t] + q7 + [d[j][0] for j in range(len(params))]
        for k in range(1, 5):
            row += rd[k - 1] + [d[j][k] for j in range(len(params))]
        rows.append([clean(x) for x in row])
    return header, rows


# --------------------------------------------------------------------------
# writers
# --------------------------------------------------------------------------

def csv_text(header, rows):
    lines = [",".join(header)]
    lines += [",".join(repr(x) for x in r) for r in rows]
    return "\n".join(lines) + "\n"


def json_text(header, rows):
    keys = [json.dumps(h) for h in header]
    lines = ["{" + ",".join("%s:%s" % (k, repr(x)) for k, x in zip(keys, r)) + "}" for r in rows]
    return "[\n" + ",\n".join(lines) + "\n]\n"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def write_pair(stem, header, rows):
    """Write stem.csv and stem.json, both with all rows."""
    write(os.path.join(TRAJ, stem + ".csv"), csv_text(header, rows))
    write(os.path.join(TRAJ, stem + ".json"), json_text(header, rows))


# --------------------------------------------------------------------------
# small 2R table and its closed-form torques
# --------------------------------------------------------------------------

SMALL_TIMES = [0.0, 0.5, 1.0, 1.5, 2.0]


def planar_2r_small():
    joints = urdf_joints(os.path.join(ROBOTS, "planar_2r.urdf"))
    spec = [s for s in SPECS if s["robot"] == "planar_2r"][0]
    params = joint_params(spec, joints)
    header, rows = joint_table(params, SMALL_TIMES, orders=("q", "v", "a"))
    col = {h: i for i, h in enumerate(header)}
    tau_rows = []
    for r in rows:
        tau = planar_2r_tau(r[col["q.joint1"]], r[col["q.joint2"]],
                            r[col["v.joint1"]], r[col["v.joint2"]],
                            r[col["a.joint1"]], r[col["a.joint2"]])
        tau_rows.append([r[0], clean(tau[0]), clean(tau[1])])
    return (header, rows), (["t", "tau.joint1", "tau.joint2"], tau_rows)


# --------------------------------------------------------------------------
# Cartesian targets for eom ik
# --------------------------------------------------------------------------

# a horizontal circle of the iiwa's tool frame iiwa_link_ee, the tool pointing straight down
CIRCLE_CENTRE = (0.55, 0.0, 0.45)
CIRCLE_RADIUS = 0.15
CIRCLE_PERIOD = 4.0
CIRCLE_ROWS = 201  # one turn, t = 0 .. 4 s in steps of 0.02 s (the last row closes the circle)
CIRCLE_QUATERNION = (0.0, 1.0, 0.0, 0.0)  # (qx, qy, qz, qw): pi about y, tool z axis down


def iiwa_circle_targets():
    frame = "iiwa_link_ee"
    header = ["t"] + ["%s.%s" % (frame, s) for s in ("x", "y", "z", "qx", "qy", "qz", "qw")]
    rows = []
    for k in range(CIRCLE_ROWS):
        t = k * CIRCLE_PERIOD / (CIRCLE_ROWS - 1)
        theta = 2 * math.pi * k / (CIRCLE_ROWS - 1)
        cx, cy, cz = CIRCLE_CENTRE
        p = (cx + CIRCLE_RADIUS * math.cos(theta), cy + CIRCLE_RADIUS * math.sin(theta), cz)
        rows.append([clean(t)] + [clean(x) for x in p] + list(CIRCLE_QUATERNION))
    return header, rows


CIRCLE_README = (
    "### `iiwa_circle_targets.csv`\n\n"
    "Target poses for `eom ik robots/iiwa14.urdf trajectories/iiwa_circle_targets.csv "
    "--frame iiwa_link_ee`: the tool frame `iiwa_link_ee` goes once around a horizontal "
    "circle of radius %s m centred at %s (world, m), tool pointing straight down (quaternion "
    "(qx, qy, qz, qw) = %s, a half turn about y), at constant speed over %s s: row k = 0 .. %d "
    "has t = %s k / %d s and position centre + r (cos theta, sin theta, 0), theta = 2 pi k / "
    "%d (the last row closes the circle). Columns `t`, `iiwa_link_ee.x .y .z .qx .qy .qz .qw`, "
    "the form `eom fk` writes. Consecutive targets are %s mm apart.\n"
    % (repr(CIRCLE_RADIUS), CIRCLE_CENTRE, CIRCLE_QUATERNION, repr(CIRCLE_PERIOD),
       CIRCLE_ROWS - 1, repr(CIRCLE_PERIOD), CIRCLE_ROWS - 1, CIRCLE_ROWS - 1,
       "%.2f" % (1000 * 2 * CIRCLE_RADIUS * math.sin(math.pi / (CIRCLE_ROWS - 1)))))


# --------------------------------------------------------------------------
# Solo12 bobbing on its planted feet (a floating-base motion with closed contacts)
# --------------------------------------------------------------------------

# Each leg is two 0.16 m segments whose hip-to-foot line stays vertical when KFE = -2 HFE (front
# legs; the hind legs mirror it): the foot stays under its hip at depth 2 l cos(HFE), which is the
# base height above the feet. The base moves vertically only, so the feet never move.
BOB_SEGMENT = 0.16
BOB_AMPLITUDE = 0.02     # m
BOB_FREQUENCY = 1.0      # Hz
BOB_DURATION = 2         # s, at RATE
BOB_HEIGHT = 2 * BOB_SEGMENT * math.cos(0.8)  # the standing posture's HFE = 0.8


def solo12_bob():
    legs = ("FL", "FR", "HL", "HR")
    joints = ["%s_%s" % (leg, j) for leg in legs for j in ("HAA", "HFE", "KFE")]
    header = ["t"] + ["q.root." + c for c in ("x", "y", "z", "qx", "qy", "qz", "qw")]
    header += ["q." + j for j in joints]
    header += ["v.root." + c for c in ("vx", "vy", "vz", "wx", "wy", "wz")]
    header += ["v." + j for j in joints]
    header += ["a.root." + c for c in ("vx", "vy", "vz", "wx", "wy", "wz")]
    header += ["a." + j for j in joints]
    w = 2 * math.pi * BOB_FREQUENCY
    depth = 2 * BOB_SEGMENT
    rows = []
    for k in range(BOB_DURATION * RATE + 1):
        t = k / RATE
        z = BOB_HEIGHT + BOB_AMPLITUDE * math.sin(w * t)
        zd = BOB_AMPLITUDE * w * math.cos(w * t)
        zdd = -BOB_AMPLITUDE * w * w * math.sin(w * t)
        # z = depth cos(th): differentiate twice for th' and th''
        th = math.acos(z / depth)
        s, c = math.sin(th), math.cos(th)
        thd = -zd / (depth * s)
        thdd = -(zdd / depth + c * thd * thd) / s
        q, v, a = [0.0, 0.0, z, 0.0, 0.0, 0.0, 1.0], [0.0, 0.0, zd, 0.0, 0.0, 0.0], \
            [0.0, 0.0, zdd, 0.0, 0.0, 0.0]
        for leg in legs:
            sign = 1.0 if leg[0] == "F" else -1.0
            q += [0.0, sign * th, -2 * sign * th]
            v += [0.0, sign * thd, -2 * sign * thd]
            a += [0.0, sign * thdd, -2 * sign * thdd]
        rows.append([clean(t)] + [clean(x) for x in q + v + a])
    return header, rows


BOB_README = (
    "### `solo12_bob.csv`\n\n"
    "Robot `robots/solo12.urdf` with `--floating-base`, its four feet planted: the base bobs "
    "vertically, z(t) = %s + %s sin(2 pi %s t) m (the standing height 0.32 cos(0.8) plus a "
    "sine), no rotation and no horizontal motion. Each leg keeps its foot under its hip: "
    "HAA = 0, HFE = +-th, KFE = -+2 th (front +, hind -) with cos(th) = z / 0.32 (two 0.16 m "
    "segments), so every foot stays where it is. v and a are exact: th' = -z' / (0.32 sin th), "
    "th'' = -(z'' / 0.32 + cos(th) th'^2) / sin(th); `v.root.*` is the body twist (here the "
    "world's, the base does not turn). %d s at %d Hz (%d rows); columns `t`, `q.*` (base, "
    "then the legs in the URDF's order), `v.*`, `a.*`. `eom id --contacts` of it, replayed "
    "by `eom sim --ground`, reproduces it open loop.\n"
    % (repr(BOB_HEIGHT), repr(BOB_AMPLITUDE), repr(BOB_FREQUENCY), BOB_DURATION, RATE,
       BOB_DURATION * RATE + 1))


# Files of trajectories/ that this script does not write (iiwa_gaz.csv comes from
# scripts/make_gaz_trajectory.py; solo12_stand.csv is one hand-checked row): their README
# sections, kept here so that regenerating the README keeps them.
OTHER_FILES_README = """### `iiwa_gaz.csv`

Robot `robots/iiwa14.urdf`; use `--gravity 0,0,-9.80665`. The excitation trajectory of Gaz et al.
(RA-L 2019, eq. 31), which Müller & Kumar use for their KUKA LBR iiwa example:
q_i(t) = A_i cos(w_i t), 0 <= t <= 5 s, sampled every 0.5 ms. Exact derivative columns
`v`, `a`, `d3q` ... `d6q` (d^k/dt^k of A cos(w t) is A w^k times cos, -sin, -cos, sin of w t for
k = 0, 1, 2, 3 modulo 4), and the paper's end-effector wrench, 10 sin(pi t) on all six
components, on frame `iiwa_link_ee` in world axes (`--wrench-frame world`, the default):
`wrench.iiwa_link_ee.fx` ... `.mz`, with its exact derivatives `d1wrench.iiwa_link_ee.*`
(10 pi cos(pi t)) and `d2wrench.iiwa_link_ee.*` (-10 pi^2 sin(pi t)), so `eom deriv` takes it
up to `--order 2`. Written by `scripts/make_gaz_trajectory.py`. 68 columns, 10001 rows.

| joint | A | w (rad/s) |
|---|---|---|
| `iiwa_joint_1` | -1.2943753211777664 | 1.7073873117335832 |
| `iiwa_joint_2` | 0.7175341454355011 | 3.079992797637052 |
| `iiwa_joint_3` | -0.5691380764966176 | 2.1084514453622774 |
| `iiwa_joint_4` | 0.5848944158627155 | 3.5903916041026207 |
| `iiwa_joint_5` | 1.6216297151633214 | 1.4183262544423447 |
| `iiwa_joint_6` | -0.9187855709752027 | 2.285625793808507 |
| `iiwa_joint_7` | 0.4217605991935227 | 5.927533308659986 |

### `solo12_stand.csv`

Robot `robots/solo12.urdf` with `--floating-base`. One row: Solo-12 standing on its four feet in
the standing posture of example-robot-data (HAA 0, HFE +-0.8, KFE -+1.6, front legs first), base
level, at the height that puts the four `*_FOOT` frames on the ground z = 0: the feet are
0.22294614699109291 m below the base in that posture (`eom fk --frames FL_FOOT,...`), so
`q.root.z` is that height. Velocities zero (absent). The starting state of
`eom sim --controller stand` and of `eom id --contacts` examples.
"""

# --------------------------------------------------------------------------
# README
# --------------------------------------------------------------------------

def fmt(x):
    return repr(x)


def readme(entries, small):
    out = []
    out.append("# Example trajectories\n")
    out.append("Generated by `python3 scripts/make_trajectories.py` (run from the repository "
               "root; plain Python 3, deterministic). Do not edit by hand: change the script "
               "and regenerate. `python3 scripts/make_trajectories.py --check` re-derives "
               "every column by finite differences and checks limits.\n")
    out.append("## Common form\n")
    out.append("Every joint follows\n\n"
               "    q(t)   =  A cos(w t + phi) + c\n"
               "    v(t)   = -A w   sin(w t + phi)\n"
               "    a(t)   = -A w^2 cos(w t + phi)\n"
               "    d3q(t) =  A w^3 sin(w t + phi)\n"
               "    d4q(t) =  A w^4 cos(w t + phi)\n\n"
               "sampled at t = k / 1000 s, k = 0 .. 3000 (3 s at 1 kHz, 3001 rows; t is "
               "computed as k/1000). Units: rad, rad/s, ... for revolute joints, m, m/s, ... "
               "for prismatic ones.\n")
    out.append("Parameters, for joint i (0-based, in the URDF's document order of its movable "
               "joints):\n\n"
               "* w = 2 pi (f0 + df i) rad/s, phi = 0.5 i rad;\n"
               "* c = middle of [lower, upper] (unless the file says otherwise below);\n"
               "* A = min(cap, 0.4 (upper - lower)/2, 0.5 velocity_limit / w), so q stays "
               "well inside the limits and |v| is at most half the velocity limit;\n"
               "* a mimic joint copies its leader (q = multiplier q_leader + offset).\n")
    out.append("Columns, in this order: `t`, `q.<joint>` for every movable joint, then "
               "`v.<joint>`, `a.<joint>`, `d3q.<joint>`, `d4q.<joint>` (joint order as in the "
               "URDF; fixed joints are not listed). Numbers are Python `repr()` (shortest "
               "round-trip form). `-0.0` is written as `0.0`.\n")
    out.append("Formats: `<name>.csv` is comma separated with one header row. `<name>.json` "
               "is an array of row objects, one row per line:\n\n"
               "    [\n    {\"t\":0.0,\"q.joint1\":...,...},\n    ...\n    ]\n\n"
               "Both files hold the same rows.\n")
    out.append("## Files\n")
    for e in entries:
        out.append("### `%s.csv`, `%s.json`\n" % (e["stem"], e["stem"]))
        out.append("Robot `robots/%s.urdf`. %s\n" % (e["robot"], e["note"]))
        out.append("f0 = %s Hz, df = %s Hz, cap = %s. %d columns, %d rows.\n"
                   % (fmt(e["f0"]), fmt(e["df"]), fmt(e["cap"]), e["ncols"], e["nrows"]))
        if e.get("extra"):
            out.append(e["extra"])
        out.append("| joint | A | w (rad/s) | phi (rad) | c |")
        out.append("|---|---|---|---|---|")
        for (n, a, w, phi, c) in e["params"]:
            out.append("| `%s` | %s | %s | %s | %s |" % (n, fmt(a), fmt(w), fmt(phi), fmt(c)))
        out.append("")
    out.append("### `planar_2r_small.csv`\n")
    out.append("Five rows of `planar_2r_swing` (t = %s) with only the columns `t`, `q.*`, "
               "`v.*`, `a.*`, for CLI tests of inverse dynamics. The matching torques from the "
               "closed-form Lagrangian solution in `robots/README.md` (computed by "
               "`planar_2r_tau()` in the script, independent of eom) are in "
               "`tests/data/planar_2r_small.tau.csv` (columns `t`, `tau.joint1`, "
               "`tau.joint2`, N m, gravity (0, 0, -9.81)).\n"
               % ", ".join(fmt(t) for t in SMALL_TIMES))
    out.append(CIRCLE_README)
    out.append(OTHER_FILES_README)
    out.append(BOB_README)
    return "\n".join(out)


FLOAT_EXTRA = (
    "Floating base (`--floating-base`, free-flyer joint `root`). Root columns come first in "
    "each group: `q.root.x .y .z .qx .qy .qz .qw`, then the 12 leg joints; "
    "`v.root.vx .vy .vz .wx .wy .wz`, then the legs; likewise for `a.`, `d3q.`, `d4q.`.\n\n"
    "* position (world): x = 0.05 t, y = 0.02 sin(0.5 t), z = 0.3 + 0.01 sin(2 t);\n"
    "* orientation: pure yaw psi(t) = 0.2 sin(t), base-to-world rotation R = Rz(psi), "
    "quaternion (qx, qy, qz, qw) = (0, 0, sin(psi/2), cos(psi/2));\n"
    "* `v.root.*` is the BODY twist: (vx, vy, vz) = R^T pdot = "
    "(cos psi xdot + sin psi ydot, -sin psi xdot + cos psi ydot, zdot), (wx, wy, wz) = "
    "(0, 0, psi');\n"
    "* `a.root.*`, `d3q.root.*`, `d4q.root.*` are the first, second and third time "
    "derivatives of those six body-frame numbers, computed exactly (truncated Taylor "
    "arithmetic on psi(t) and p(t) in the script).\n\n"
    "Leg joints as in `solo12_legs` (same parameters).\n")


# --------------------------------------------------------------------------
# main: generate
# --------------------------------------------------------------------------

def generate():
    entries = []
    for spec in SPECS:
        joints = urdf_joints(os.path.join(ROBOTS, spec["robot"] + ".urdf"))
        params = joint_params(spec, joints)
        header, rows = joint_table(params, times())
        stem = "%s_%s" % (spec["robot"], spec["motion"])
        write_pair(stem, header, rows)
        entries.append(dict(spec, stem=stem, params=params, ncols=len(header), nrows=len(rows)))
        print("wrote %s.csv/.json (%d cols)" % (stem, len(header)))
        if spec["robot"] == "solo12":
            fh, frows = floating_table(params, times())
            write_pair("solo12_floating_walk", fh, frows)
            entries.append(dict(spec, stem="solo12_floating_walk", params=params,
                                ncols=len(fh), nrows=len(frows),
                                note="Solo-12 walking-like motion on a floating base.",
                                extra=FLOAT_EXTRA))
            print("wrote solo12_floating_walk.csv/.json (%d cols)" % len(fh))
    (sh, srows), (th, trows) = planar_2r_small()
    write(os.path.join(TRAJ, "planar_2r_small.csv"), csv_text(sh, srows))
    write(os.path.join(TESTDATA, "planar_2r_small.tau.csv"), csv_text(th, trows))
    print("wrote planar_2r_small.csv and tests/data/planar_2r_small.tau.csv")
    ch, crows = iiwa_circle_targets()
    write(os.path.join(TRAJ, "iiwa_circle_targets.csv"), csv_text(ch, crows))
    print("wrote iiwa_circle_targets.csv")
    bh, brows = solo12_bob()
    write(os.path.join(TRAJ, "solo12_bob.csv"), csv_text(bh, brows))
    print("wrote solo12_bob.csv")
    write(os.path.join(TRAJ, "README.md"), readme(entries, None))
    print("wrote trajectories/README.md")


# --------------------------------------------------------------------------
# --check: independent verification (writes nothing)
# --------------------------------------------------------------------------

def mat_mul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def mat_vec(a, v):
    return [sum(a[i][k] * v[k] for k in range(3)) for i in range(3)]


def rot_rpy(r, p, y):
    cr, sr, cp, sp, cy, sy = math.cos(r), math.sin(r), math.cos(p), math.sin(p), math.cos(y), math.sin(y)
    rx = [[1, 0, 0], [0, cr, -sr], [0, sr, cr]]
    ry = [[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]]
    rz = [[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]]
    return mat_mul(rz, mat_mul(ry, rx))


def rot_axis(ax, th):
    n = math.sqrt(sum(x * x for x in ax))
    x, y, z = (c / n for c in ax)
    c, s, C = math.cos(th), math.sin(th), 1 - math.cos(th)
    return [[c + x * x * C, x * y * C - z * s, x * z * C + y * s],
            [y * x * C + z * s, c + y * y * C, y * z * C - x * s],
            [z * x * C - y * s, z * y * C + x * s, c + z * z * C]]


def _vec(s, default="0 0 0"):
    return [float(x) for x in (s if s is not None else default).split()]


class Urdf:
    """Minimal URDF model for the checks: tree, FK, inertials."""

    def __init__(self, path):
        self.path = path
        r = ET.parse(path).getroot()
        self.links = {}
        self.link_names = []
        for l in r.findall("link"):
            self.link_names.append(l.get("name"))
            inert = l.find("inertial")
            if inert is not None:
                o = inert.find("origin")
                mass = float(inert.find("mass").get("value"))
                i = inert.find("inertia")
                I = {k: float(i.get(k, "0")) for k in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")}
                self.links[l.get("name")] = dict(
                    mass=mass, com=_vec(o.get("xyz") if o is not None else None),
                    rpy=_vec(o.get("rpy") if o is not None else None), I=I)
            else:
                self.links[l.get("name")] = None
        self.joints = []
        for j in r.findall("joint"):
            o = j.find("origin")
            ax = j.find("axis")
            self.joints.append(dict(
                name=j.get("name"), type=j.get("type"), parent=j.find("parent").get("link"),
                child=j.find("child").get("link"),
                xyz=_vec(o.get("xyz") if o is not None else None),
                rpy=_vec(o.get("rpy") if o is not None else None),
                axis=_vec(ax.get("xyz") if ax is not None else None, "1 0 0"),
                limit=j.find("limit")))
        self.child_joint = {j["child"]: j for j in self.joints}

    def root(self):
        roots = [l for l in self.link_names if l not in self.child_joint]
        return roots

    def fk(self, q):
        """World placement (R, p) of every link for joint values q (dict)."""
        out = {}

        def place(link):
            if link in out:
                return out[link]
            j = self.child_joint.get(link)
            if j is None:
                out[link] = ([[1, 0, 0], [0, 1, 0], [0, 0, 1]], [0.0, 0.0, 0.0])
                return out[link]
            Rp, pp = place(j["parent"])
            R = mat_mul(Rp, rot_rpy(*j["rpy"]))
            p = [a + b for a, b in zip(pp, mat_vec(Rp, j["xyz"]))]
            th = q.get(j["name"], 0.0)
            if j["type"] in ("revolute", "continuous"):
                R = mat_mul(R, rot_axis(j["axis"], th))
            elif j["type"] == "prismatic":
                n = math.sqrt(sum(x * x for x in j["axis"]))
                p = [a + b for a, b in zip(p, mat_vec(R, [th * x / n for x in j["axis"]]))]
            out[link] = (R, p)
            return out[link]

        for l in self.link_names:
            place(l)
        return out

    def com_world(self, q, link):
        R, p = self.fk(q)[link]
        return [a + b for a, b in zip(p, mat_vec(R, self.links[link]["com"]))]


def sym_eigs(I):
    """Eigenvalues of a symmetric 3x3 matrix (closed form)."""
    a = [[I["ixx"], I["ixy"], I["ixz"]], [I["ixy"], I["iyy"], I["iyz"]],
         [I["ixz"], I["iyz"], I["izz"]]]
    p1 = a[0][1] ** 2 + a[0][2] ** 2 + a[1][2] ** 2
    tr = a[0][0] + a[1][1] + a[2][2]
    if p1 == 0:
        return sorted([a[0][0], a[1][1], a[2][2]])
    qm = tr / 3
    p2 = sum((a[i][i] - qm) ** 2 for i in range(3)) + 2 * p1
    p = math.sqrt(p2 / 6)
    b = [[(a[i][j] - (qm if i == j else 0)) / p for j in range(3)] for i in range(3)]
    detb = (b[0][0] * (b[1][1] * b[2][2] - b[1][2] * b[2][1])
            - b[0][1] * (b[1][0] * b[2][2] - b[1][2] * b[2][0])
            + b[0][2] * (b[1][0] * b[2][1] - b[1][1] * b[2][0]))
    r = max(-1.0, min(1.0, detb / 2))
    phi = math.acos(r) / 3
    e1 = qm + 2 * p * math.cos(phi)
    e3 = qm + 2 * p * math.cos(phi + 2 * math.pi / 3)
    return sorted([e3, tr - e1 - e3, e1])


def check_urdfs(problems):
    print("== URDF structure")
    for fn in sorted(os.listdir(ROBOTS)):
        if not fn.endswith(".urdf"):
            continue
        u = Urdf(os.path.join(ROBOTS, fn))
        msgs = []
        if len(set(u.link_names)) != len(u.link_names):
            msgs.append("duplicate link names")
        jn = [j["name"] for j in u.joints]
        if len(set(jn)) != len(jn):
            msgs.append("duplicate joint names")
        roots = u.root()
        if len(roots) != 1:
            msgs.append("roots: %s" % roots)
        children = [j["child"] for j in u.joints]
        if len(set(children)) != len(children):
            msgs.append("a link is the child of two joints")
        for j in u.joints:
            if j["parent"] not in u.links or j["child"] not in u.links:
                msgs.append("joint %s names a missing link" % j["name"])
            lim = j["limit"]
            if j["type"] in ("revolute", "prismatic") and lim is not None:
                if float(lim.get("lower", "0")) > float(lim.get("upper", "0")):
                    msgs.append("joint %s lower > upper" % j["name"])
        nonpd = []
        tri = []
        # every body moved by a joint must carry mass (the link itself plus the
        # links welded to it by fixed joints); massless frames on fixed joints are fine
        kids = {}
        for j in u.joints:
            kids.setdefault(j["parent"], []).append(j)

        def body_mass(link):
            li = u.links[link]
            m = li["mass"] if li is not None else 0.0
            return m + sum(body_mass(j["child"]) for j in kids.get(link, [])
                           if j["type"] == "fixed")

        for j in u.joints:
            if j["type"] in MOVABLE and body_mass(j["child"]) <= 0:
                msgs.append("joint %s moves a massless body" % j["name"])
        for name in u.link_names:
            li = u.links[name]
            if li is None:
                continue
            if li["mass"] < 0:
                msgs.append("link %s mass < 0" % name)
            I = li["I"]
            if all(v == 0 for v in I.values()):
                continue  # point mass
            ev = sym_eigs(I)
            if ev[0] <= 0:
                nonpd.append("%s (eig %s)" % (name, ["%.3g" % e for e in ev]))
            if ev[0] + ev[1] < ev[2] * (1 - 1e-12):
                tri.append("%s (principal %s)" % (name, ["%.6g" % e for e in ev]))
        status = "ok" if not msgs else "; ".join(msgs)
        print("  %-18s links %2d joints %2d movable %2d: %s" % (
            fn, len(u.link_names), len(u.joints), len(urdf_joints(u.path)), status))
        if nonpd:
            print("    inertia not positive definite: %s" % ", ".join(nonpd))
        if tri:
            print("    triangle inequality violated: %s" % ", ".join(tri))
        if msgs or ((nonpd or tri) and fn != "iiwa14.urdf"):
            problems.append(fn)
    for mine, shared in (("ur5.urdf", "ur5_robot.urdf"), ("panda.urdf", "panda.urdf"),
                         ("solo12.urdf", "solo12.urdf")):
        src = os.path.join("/work/shared/robots", shared)
        if os.path.exists(src):
            same = open(src, "rb").read() == open(os.path.join(ROBOTS, mine), "rb").read()
            print("  %s byte-identical to shared %s: %s" % (mine, shared, same))
            if not same:
                problems.append(mine)


def check_iiwa(problems):
    print("== iiwa14 frames and centres of mass at q = 0")
    u = Urdf(os.path.join(ROBOTS, "iiwa14.urdf"))
    fk = u.fk({})
    for i in range(8):
        n = "iiwa_link_%d" % i
        R, p = fk[n]
        z = [R[k][2] for k in range(3)]
        c = u.com_world({}, n)
        print("  %s origin %s z-axis %s com %s" % (
            n, ["%.4f" % x for x in p], ["%.0f" % x + "" for x in z], ["%.5f" % x for x in c]))
    print("  iiwa_link_ee origin %s" % ["%.4f" % x for x in fk["iiwa_link_ee"][1]])
    shoulder, elbow, wrist = fk["iiwa_link_2"][1], fk["iiwa_link_3"][1], fk["iiwa_link_5"][1]

    def along(a, b, c):
        d = [y - x for x, y in zip(a, b)]
        L = math.sqrt(sum(x * x for x in d))
        return sum((y - x) * e / L for x, y, e in zip(a, c, d)), L

    s2, lu = along(shoulder, elbow, u.com_world({}, "iiwa_link_2"))
    s5, lf = along(elbow, wrist, u.com_world({}, "iiwa_link_5"))
    print("  upper arm %.3f m: link 2 com is %.5f m from joint 2 towards the elbow" % (lu, s2))
    print("  forearm %.3f m: link 5 com is %.5f m from the elbow towards the wrist "
          "(%.5f m down from the wrist)" % (lf, s5, lf - s5))
    if abs(s2 - 0.16669) > 1e-9 or abs((lf - s5) - 0.21134) > 1e-9:
        problems.append("iiwa com placement")
    # the same for the MATLAB file taken literally: C_i = C_{i-1} B_i exp(X_i q_i),
    # B_i = [Rx(alpha_i), (0, 0, d_i)] with the translation in the PARENT frame
    print("  MATLAB Param(i).B taken literally (translation (0,0,d) in the parent frame):")
    alphas = [0.0, math.pi / 2, -math.pi / 2, -math.pi / 2, math.pi / 2, math.pi / 2, -math.pi / 2]
    ds = [0.0, 0.0, 0.42, 0.0, 0.4, 0.0, 0.0]
    R = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    p = [0.0, 0.0, 0.0]
    lit = []
    for i in range(7):
        p = [a + b for a, b in zip(p, mat_vec(R, [0, 0, ds[i]]))]
        R = mat_mul(R, rot_axis([1, 0, 0], alphas[i]))
        com = [a + b for a, b in zip(p, mat_vec(R, u.links["iiwa_link_%d" % (i + 1)]["com"]))]
        lit.append((p, R, com))
        print("    body %d origin %s z-axis %s com %s" % (
            i + 1, ["%.3f" % x for x in p], ["%.0f" % R[k][2] for k in range(3)],
            ["%.4f" % x for x in com]))


def newton_2r(q1, q2, qd1, qd2, qdd1, qdd2, g=G):
    """Independent check: Newton's law on the two point masses (world x-z)."""
    def pos(a, b):
        return [L1 * math.cos(a), 0.0, L1 * math.sin(a)], \
               [L1 * math.cos(a) + L2 * math.cos(a + b), 0.0, L1 * math.sin(a) + L2 * math.sin(a + b)]

    # accelerations by exact differentiation of the positions
    def acc(l, th, thd, thdd):
        return [l * (-math.sin(th) * thdd - math.cos(th) * thd ** 2), 0.0,
                l * (math.cos(th) * thdd - math.sin(th) * thd ** 2)]

    p1, p2 = pos(q1, q2)
    a1 = acc(L1, q1, qd1, qdd1)
    a2 = [x + y for x, y in zip(a1, acc(L2, q1 + q2, qd1 + qd2, qdd1 + qdd2))]
    gv = [0.0, 0.0, -g]
    f1 = [M1 * (a - b) for a, b in zip(a1, gv)]  # force needed on mass 1
    f2 = [M2 * (a - b) for a, b in zip(a2, gv)]

    def cross(a, b):
        return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]

    axis = [0.0, -1.0, 0.0]
    n2 = cross([x - y for x, y in zip(p2, p1)], f2)
    n1 = [x + y for x, y in zip(cross(p1, f1), cross(p2, f2))]
    return sum(a * b for a, b in zip(axis, n1)), sum(a * b for a, b in zip(axis, n2))


def lagrange_fd_2r(q, qd, qdd, g=G):
    """Independent check: tau = d/dt dL/dqd - dL/dq by finite differences of the
    Lagrangian, with the mass positions from FK of robots/planar_2r.urdf."""
    u = Urdf(os.path.join(ROBOTS, "planar_2r.urdf"))
    masses = [("link1", u.links["link1"]["mass"]), ("link2", u.links["link2"]["mass"])]

    def positions(qq):
        d = {"joint1": qq[0], "joint2": qq[1]}
        return [u.com_world(d, n) for n, _ in masses]

    def lag(qq, vv):
        h = 1e-5
        qp = [qq[0] + h * vv[0], qq[1] + h * vv[1]]
        qm = [qq[0] - h * vv[0], qq[1] - h * vv[1]]
        pp, pm, p0 = positions(qp), positions(qm), positions(qq)
        T = sum(0.5 * m * sum(((a - b) / (2 * h)) ** 2 for a, b in zip(x, y))
                for (_, m), x, y in zip(masses, pp, pm))
        V = sum(m * g * x[2] for (_, m), x in zip(masses, p0))
        return T - V

    def dL_dqd(qq, vv, i, h=0.5):  # L is quadratic in vv: exact for any h
        vp, vm = list(vv), list(vv)
        vp[i] += h
        vm[i] -= h
        return (lag(qq, vp) - lag(qq, vm)) / (2 * h)

    def dL_dq(qq, vv, i, h=1e-4):
        qp, qm = list(qq), list(qq)
        qp[i] += h
        qm[i] -= h
        return (lag(qp, vv) - lag(qm, vv)) / (2 * h)

    dt = 1e-3
    tau = []
    for i in range(2):
        # along the motion q(t) = q + qd t + qdd t^2/2
        fp = dL_dqd([q[0] + qd[0] * dt + qdd[0] * dt * dt / 2, q[1] + qd[1] * dt + qdd[1] * dt * dt / 2],
                    [qd[0] + qdd[0] * dt, qd[1] + qdd[1] * dt], i)
        fm = dL_dqd([q[0] - qd[0] * dt + qdd[0] * dt * dt / 2, q[1] - qd[1] * dt + qdd[1] * dt * dt / 2],
                    [qd[0] - qdd[0] * dt, qd[1] - qdd[1] * dt], i)
        tau.append((fp - fm) / (2 * dt) - dL_dq(q, qd, i))
    return tau


def check_2r(problems):
    print("== planar 2R closed form")
    rng = random.Random(12345)
    worst_newton = worst_lag = 0.0
    for _ in range(20):
        s = [rng.uniform(-3, 3) for _ in range(6)]
        tc = planar_2r_tau(*s)
        tn = newton_2r(*s)
        tl = lagrange_fd_2r(s[0:2], s[2:4], s[4:6])
        scale = max(1.0, max(abs(x) for x in tc))
        worst_newton = max(worst_newton, max(abs(a - b) for a, b in zip(tc, tn)) / scale)
        worst_lag = max(worst_lag, max(abs(a - b) for a, b in zip(tc, tl)) / scale)
    print("  max rel. difference closed form vs Newton on point masses: %.2e" % worst_newton)
    print("  max rel. difference closed form vs finite-difference Lagrangian (URDF FK): %.2e"
          % worst_lag)
    print("  static check q = 0 (arm horizontal): tau = %s, expected ((m1+m2) l1 + m2 l2) g = %r, "
          "m2 l2 g = %r" % (planar_2r_tau(0, 0, 0, 0, 0, 0), (1.5 * 1.0 + 0.5 * 0.8) * G,
                            0.5 * 0.8 * G))
    if worst_newton > 1e-12 or worst_lag > 1e-4:
        problems.append("2R closed form")
    # the tau file against the small table
    th, tr = read_csv(os.path.join(TESTDATA, "planar_2r_small.tau.csv"))
    sh, sr = read_csv(os.path.join(TRAJ, "planar_2r_small.csv"))
    c = {h: i for i, h in enumerate(sh)}
    worst = 0.0
    for r, tau in zip(sr, tr):
        tn = newton_2r(r[c["q.joint1"]], r[c["q.joint2"]], r[c["v.joint1"]], r[c["v.joint2"]],
                       r[c["a.joint1"]], r[c["a.joint2"]])
        worst = max(worst, abs(tn[0] - tau[1]), abs(tn[1] - tau[2]))
    print("  planar_2r_small.tau.csv vs Newton: max abs difference %.2e" % worst)
    if worst > 1e-12:
        problems.append("planar_2r_small.tau.csv")


def check_3r(problems):
    print("== planar 3R closed forms (FK of ee, gravity torque) against URDF FK")
    u = Urdf(os.path.join(ROBOTS, "planar_3r.urdf"))
    rng = random.Random(4321)
    we = wg = 0.0
    for _ in range(20):
        q = [rng.uniform(-3, 3) for _ in range(3)]
        d = {"joint%d" % (i + 1): q[i] for i in range(3)}
        p = u.fk(d)["ee"][1]
        we = max(we, max(abs(a - b) for a, b in zip(p, planar_3r_ee(*q))))

        def V(qq):
            dd = {"joint%d" % (i + 1): qq[i] for i in range(3)}
            return sum(u.links[n]["mass"] * G * u.com_world(dd, n)[2]
                       for n in ("link1", "link2", "link3"))

        h = 1e-5
        for i in range(3):
            qp, qm = list(q), list(q)
            qp[i] += h
            qm[i] -= h
            wg = max(wg, abs((V(qp) - V(qm)) / (2 * h) - planar_3r_gravity(*q)[i]))
    print("  ee position max error %.1e m; gravity torque max error %.1e N m" % (we, wg))
    if we > 1e-12 or wg > 1e-6:
        problems.append("planar_3r closed forms")


def read_csv(path):
    with open(path) as f:
        lines = f.read().splitlines()
    header = lines[0].split(",")
    return header, [[float(x) for x in l.split(",")] for l in lines[1:]]


def check_tables(problems):
    print("== trajectories: finite differences, limits, JSON = CSV")
    limits = {}
    for spec in SPECS:
        for j in urdf_joints(os.path.join(ROBOTS, spec["robot"] + ".urdf")):
            limits[(spec["robot"], j["name"])] = j
    stems = [(s["robot"], "%s_%s" % (s["robot"], s["motion"])) for s in SPECS]
    stems.append(("solo12", "solo12_floating_walk"))
    for robot, stem in stems:
        header, rows = read_csv(os.path.join(TRAJ, stem + ".csv"))
        col = {h: i for i, h in enumerate(header)}
        n = len(rows)
        h = rows[1][0] - rows[0][0]
        ok_t = all(r[0] == k / RATE for k, r in enumerate(rows)) and n == DURATION * RATE + 1
        worst = {}
        for name in header[1:]:
            o, jn = name.split(".", 1)
            k = ORDERS.index(o)
            if k == 4 or (jn.startswith("root.") and k == 0):
                continue
            nxt = "%s.%s" % (ORDERS[k + 1], jn)
            if nxt not in col:
                continue
            i, i2 = col[name], col[nxt]
            scale = max(1e-12, max(abs(r[i2]) for r in rows))
            e = max(abs((rows[m + 1][i] - rows[m - 1][i]) / (2 * h) - rows[m][i2])
                    for m in range(1, n - 1)) / scale
            worst[ORDERS[k + 1]] = max(worst.get(ORDERS[k + 1], 0.0), e)
        msgs = []
        margin = 1.0
        vratio = 0.0
        for name in header:
            if not name.startswith("q.") or name.startswith("q.root."):
                continue
            j = limits[(robot, name[2:])]
            qs = [r[col[name]] for r in rows]
            if j["lower"] is not None:
                half = 0.5 * (j["upper"] - j["lower"])
                m = min(min(x - j["lower"] for x in qs), min(j["upper"] - x for x in qs)) / half
                margin = min(margin, m)
            if j["velocity"]:
                vratio = max(vratio, max(abs(r[col["v." + name[2:]]]) for r in rows) / j["velocity"])
        if margin < 0.3:
            msgs.append("too close to a limit")
        if vratio > 0.5 + 1e-12:
            msgs.append("too fast")
        if stem == "solo12_floating_walk":
            msgs += check_floating(header, rows, col, h)
        # JSON
        with open(os.path.join(TRAJ, stem + ".json")) as f:
            js = json.load(f)
        same = all([r[hh] for hh in header] == rows[k] for k, r in enumerate(js)) and \
            list(js[0].keys()) == header
        print("  %-24s rows %d t ok %s; FD rel. err %s; min limit margin %.2f of half range; "
              "max |v|/vlim %.2f; JSON rows %d match %s %s" % (
                  stem, n, ok_t, ", ".join("%s %.1e" % kv for kv in sorted(worst.items())),
                  margin, vratio, len(js), same, "; ".join(msgs)))
        if msgs or not ok_t or not same or max(worst.values()) > 1e-4:
            problems.append(stem)


def check_floating(header, rows, col, h):
    msgs = []
    worst_lin = worst_ang = worst_norm = 0.0
    for m in range(1, len(rows) - 1):
        r, rp, rm = rows[m], rows[m + 1], rows[m - 1]
        qz, qw = r[col["q.root.qz"]], r[col["q.root.qw"]]
        worst_norm = max(worst_norm, abs(qz * qz + qw * qw + r[col["q.root.qx"]] ** 2
                                         + r[col["q.root.qy"]] ** 2 - 1))
        psi = 2 * math.atan2(qz, qw)
        psip = 2 * math.atan2(rp[col["q.root.qz"]], rp[col["q.root.qw"]])
        psim = 2 * math.atan2(rm[col["q.root.qz"]], rm[col["q.root.qw"]])
        worst_ang = max(worst_ang, abs((psip - psim) / (2 * h) - r[col["v.root.wz"]]))
        pd = [(rp[col["q.root." + a]] - rm[col["q.root." + a]]) / (2 * h) for a in "xyz"]
        c, s = math.cos(psi), math.sin(psi)
        vb = [c * pd[0] + s * pd[1], -s * pd[0] + c * pd[1], pd[2]]
        worst_lin = max(worst_lin, max(abs(vb[k] - r[col["v.root." + a]])
                                       for k, a in enumerate(("vx", "vy", "vz"))))
    print("    floating root: |quat|-1 max %.1e; FD of position -> body v max err %.1e; "
          "FD of yaw -> wz max err %.1e" % (worst_norm, worst_lin, worst_ang))
    if worst_norm > 1e-14 or worst_lin > 1e-6 or worst_ang > 1e-6:
        msgs.append("floating base columns inconsistent")
    return msgs


def check_bob(problems):
    """The feet of solo12_bob stay where they are (FK by the checks' own URDF reader, the base
    translated by q.root.z), and v, a are the central differences of q, v."""
    print("== solo12_bob: planted feet, derivatives")
    header, rows = read_csv(os.path.join(TRAJ, "solo12_bob.csv"))
    col = {h: i for i, h in enumerate(header)}
    robot = Urdf(os.path.join(ROBOTS, "solo12.urdf"))
    feet = ("FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT")
    start, drift = None, 0.0
    for r in rows:
        q = {h[2:]: r[i] for h, i in col.items() if h.startswith("q.") and "root" not in h}
        placements = robot.fk(q)
        here = [[p + (r[col["q.root.z"]] if k == 2 else 0.0)
                 for k, p in enumerate(placements[f][1])] for f in feet]
        start = start or here
        drift = max(drift, max(abs(a - b) for p, p0 in zip(here, start) for a, b in zip(p, p0)))
    h = rows[1][0] - rows[0][0]
    worst = 0.0
    for name in header[1:]:
        order, joint = name.split(".", 1)
        if order == "q" and joint.startswith("root."):
            # the base only translates along z: q.root.z's derivative is v.root.vz
            target = "v.root.vz" if joint == "root.z" else None
        else:
            target = {"q": "v.", "v": "a."}.get(order, "") + joint
        if target not in col:
            continue
        i, i2 = col[name], col[target]
        scale = max(1e-12, max(abs(r[i2]) for r in rows))
        worst = max(worst, max(abs((rows[m + 1][i] - rows[m - 1][i]) / (2 * h) - rows[m][i2])
                               for m in range(1, len(rows) - 1)) / scale)
    print("  feet drift %.1e m; FD rel. err %.1e" % (drift, worst))
    if drift > 1e-15 or worst > 1e-4:
        problems.append("solo12_bob")


def check():
    problems = []
    check_urdfs(problems)
    check_iiwa(problems)
    check_2r(problems)
    check_3r(problems)
    check_tables(problems)
    check_bob(problems)
    print("problems: %s" % (problems if problems else "none"))
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--check":
        sys.exit(check())
    if len(sys.argv) > 1:
        print(__doc__)
        sys.exit(2)
    generate()
