#!/usr/bin/env python3
"""Test data of eom identify (tests/data/identify/), made without eom identify:

- ur5_true.urdf: robots/ur5.urdf with every inertial perturbed and still consistent (mass times
  1 + 0.1 k / 6, the centre of mass moved by 1 cm per axis, the rotational inertia scaled by the
  mass's factor, so that it stays positive definite and keeps the triangle inequalities), and
  damping 0.3 + 0.1 k, friction 0.5 + 0.2 k on joint k;
- ur5_excite.csv: an exciting trajectory, per joint a finite Fourier series of five harmonics
  (Swevers et al. 1997) with exact v and a, 800 rows at 100 Hz.

The torques of the log (ur5_excite.tau.csv) are then eom id's: eom id --friction ur5_true.urdf
ur5_excite.csv -o ur5_excite.tau.csv, beside the motion in ur5_log.csv by this script's second step
(python3 scripts/make_identify_data.py log).

- ur5_payload_true.urdf and ur5_payload_wrong.urdf (python3 scripts/make_identify_data.py
  payload): robots/ur5.urdf with a payload link welded to wrist_3_link (1.5 kg, its centre of
  mass off every axis, a full inertia), and with a wrong payload (0.4 kg at the link's origin);
  ur5_payload_log.csv is the true one's torques along ur5_excite.csv, eom id's alone:
  eom id tests/data/identify/ur5_payload_true.urdf tests/data/identify/ur5_excite.csv --keep-input
  -q -o tests/data/identify/ur5_payload_log.csv

ur5_heldout.csv, a held-out log (another motion, the true robot's torques), is eom id's alone:
eom id --friction tests/data/identify/ur5_true.urdf tests/data/logs/ur5_clean.csv --keep-input -q
-o tests/data/identify/ur5_heldout.csv
"""
import csv
import math
import re
import sys

HERE = "tests/data/identify/"


def true_urdf(robot="ur5"):
    text = open("robots/%s.urdf" % robot).read()
    k = [0]

    def inertial(m):
        k[0] += 1
        f = 1 + 0.1 * k[0] / 6
        block = m.group(0)
        block = re.sub(r'mass value="([^"]+)"',
                       lambda g: 'mass value="%r"' % (float(g.group(1)) * f), block)
        block = re.sub(r'(origin[^>]*xyz=")([^"]+)(")',
                       lambda g: g.group(1) + " ".join(repr(float(x) + 0.01) for x in g.group(2).split()) + g.group(3),
                       block, count=1)
        block = re.sub(r'(i[xyz]{2})="([^"]+)"',
                       lambda g: '%s="%r"' % (g.group(1), float(g.group(2)) * f), block)
        return block

    text = re.sub(r"<inertial>.*?</inertial>", inertial, text, flags=re.S)
    j = [0]

    def dynamics(m):
        j[0] += 1
        return '<dynamics damping="%r" friction="%r"/>' % (0.3 + 0.1 * j[0], 0.5 + 0.2 * j[0])

    text = re.sub(r'<dynamics damping="0.0" friction="0.0"/>', dynamics, text)
    open(HERE + robot + "_true.urdf", "w").write(text)


JOINTS = ["shoulder_pan_joint", "shoulder_lift_joint", "elbow_joint", "wrist_1_joint",
          "wrist_2_joint", "wrist_3_joint"]


def excite():
    rows, rate, period, harmonics = 800, 100.0, 8.0, 5
    w = 2 * math.pi / period
    out = csv.writer(open(HERE + "ur5_excite.csv", "w", newline=""))
    out.writerow(["t"] + ["q." + j for j in JOINTS] + ["v." + j for j in JOINTS] +
                 ["a." + j for j in JOINTS])
    for r in range(rows):
        t = r / rate
        q, v, a = [], [], []
        for jn in range(len(JOINTS)):
            qq = vv = aa = 0.0
            for h in range(1, harmonics + 1):
                # amplitudes falling with the harmonic, phases by joint: generic, exciting
                s, c = 0.6 / h * math.cos(0.7 * jn + h), 0.5 / h * math.sin(1.3 * jn + 2 * h)
                x = h * w * t
                qq += s * math.sin(x) / (h * w) - c * math.cos(x) / (h * w)
                vv += s * math.cos(x) + c * math.sin(x)
                aa += -s * h * w * math.sin(x) + c * h * w * math.cos(x)
            q.append(qq + 0.3 * (jn % 3 - 1))
            v.append(vv)
            a.append(aa)
        out.writerow([repr(t)] + [repr(x) for x in q + v + a])


def payload():
    text = open("robots/ur5.urdf").read()
    joint = ('  <joint name="payload_joint" type="fixed">\n'
             '    <parent link="wrist_3_link"/>\n    <child link="payload"/>\n'
             '    <origin rpy="0 0 0" xyz="0.0 0.12 0.01"/>\n  </joint>\n')
    inertials = {
        "true": '<mass value="1.5"/>\n      <origin rpy="0 0 0" xyz="0.005 0.03 -0.01"/>\n'
                '      <inertia ixx="0.003" ixy="0.0002" ixz="-0.0001" iyy="0.002" iyz="0.0003"'
                ' izz="0.004"/>',
        "wrong": '<mass value="0.4"/>\n      <origin rpy="0 0 0" xyz="0 0 0"/>\n'
                 '      <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/>'}
    for name, inertial in inertials.items():
        link = ('  <link name="payload">\n    <inertial>\n      ' + inertial +
                '\n    </inertial>\n  </link>\n')
        out = text.replace("</robot>", joint + link + "</robot>")
        open(HERE + "ur5_payload_%s.urdf" % name, "w").write(out)


SOLO_JOINTS = [leg + "_" + j for leg in ("FL", "FR", "HL", "HR") for j in ("HAA", "HFE", "KFE")]


def fourier(k, t, w, harmonics, amplitude):
    """Coordinate k's finite Fourier series (zero mean) and its two exact derivatives."""
    x = dx = ddx = 0.0
    for h in range(1, harmonics + 1):
        s, c = amplitude / h * math.cos(0.7 * k + h), amplitude / h * math.sin(1.3 * k + 2 * h)
        u = h * w * t
        x += s * math.sin(u) + c * math.cos(u)
        dx += h * w * (s * math.cos(u) - c * math.sin(u))
        ddx += -(h * w) ** 2 * (s * math.sin(u) + c * math.cos(u))
    return x, dx, ddx


def solo12_excite():
    """solo12_excite.csv: Solo12 on a floating base moving every coordinate, with exact v and a.

    The base's position p and its roll r, pitch b, yaw y (R = Rz(y) Ry(b) Rx(r)) and every joint
    follow five-harmonic Fourier series about the standing pose. v.root is the body twist:
    R^T p' and w_b = (r' - y' sin b, b' cos r + y' sin r cos b, -b' sin r + y' cos r cos b); a.root
    is its time derivative: R^T p'' - w_b x (R^T p') and w_b' (the derivative of the expressions).
    """
    rows, rate, period, harmonics = 300, 100.0, 3.0, 5
    w = 2 * math.pi / period
    stand = [0.0, 0.8, -1.6, 0.0, 0.8, -1.6, 0.0, -0.8, 1.6, 0.0, -0.8, 1.6]
    names = ["root.x", "root.y", "root.z", "root.qx", "root.qy", "root.qz", "root.qw"] + SOLO_JOINTS
    vnames = ["root.vx", "root.vy", "root.vz", "root.wx", "root.wy", "root.wz"] + SOLO_JOINTS
    out = csv.writer(open(HERE + "solo12_excite.csv", "w", newline=""))
    out.writerow(["t"] + ["q." + n for n in names] + ["v." + n for n in vnames] +
                 ["a." + n for n in vnames])
    for i in range(rows):
        t = i / rate
        base = [fourier(k, t, w, harmonics, 0.03) for k in range(3)]  # m
        ang = [fourier(k + 3, t, w, harmonics, 0.15) for k in range(3)]  # rad
        (r, dr, ddr), (b, db, ddb), (y, dy, ddy) = ang
        cr, sr, cb, sb, cy, sy = (math.cos(r), math.sin(r), math.cos(b), math.sin(b),
                                  math.cos(y), math.sin(y))
        R = [[cy * cb, cy * sb * sr - sy * cr, cy * sb * cr + sy * sr],
             [sy * cb, sy * sb * sr + cy * cr, sy * sb * cr - cy * sr],
             [-sb, cb * sr, cb * cr]]
        # quaternion of R = Rz(y) Ry(b) Rx(r)
        c1, s1, c2, s2, c3, s3 = (math.cos(y / 2), math.sin(y / 2), math.cos(b / 2),
                                  math.sin(b / 2), math.cos(r / 2), math.sin(r / 2))
        quat = [c1 * c2 * s3 - s1 * s2 * c3, c1 * s2 * c3 + s1 * c2 * s3,
                s1 * c2 * c3 - c1 * s2 * s3, c1 * c2 * c3 + s1 * s2 * s3]
        wb = [dr - dy * sb, db * cr + dy * sr * cb, -db * sr + dy * cr * cb]
        dwb = [ddr - ddy * sb - dy * cb * db,
               ddb * cr - db * sr * dr + ddy * sr * cb + dy * (cr * dr * cb - sr * sb * db),
               -ddb * sr - db * cr * dr + ddy * cr * cb + dy * (-sr * dr * cb - cr * sb * db)]
        dp = [x[1] for x in base]
        ddp = [x[2] for x in base]
        vb = [sum(R[j][i2] * dp[j] for j in range(3)) for i2 in range(3)]  # R^T p'
        ab = [sum(R[j][i2] * ddp[j] for j in range(3)) for i2 in range(3)]
        cross = [wb[1] * vb[2] - wb[2] * vb[1], wb[2] * vb[0] - wb[0] * vb[2],
                 wb[0] * vb[1] - wb[1] * vb[0]]
        ab = [ab[k] - cross[k] for k in range(3)]
        joints = [fourier(k + 6, t, w, harmonics, 0.3) for k in range(12)]
        q = [base[0][0], base[1][0], 0.25 + base[2][0]] + quat + [
            stand[k] + joints[k][0] for k in range(12)]
        v = vb + wb + [x[1] for x in joints]
        a = ab + dwb + [x[2] for x in joints]
        out.writerow([repr(t)] + [repr(x) for x in q + v + a])


def log():
    motion = list(csv.reader(open(HERE + "ur5_excite.csv")))
    tau = list(csv.reader(open(HERE + "ur5_excite.tau.csv")))
    out = csv.writer(open(HERE + "ur5_log.csv", "w", newline=""))
    for m, t in zip(motion, tau):
        out.writerow(m + t[1:])


if __name__ == "__main__":
    if sys.argv[1:] == ["log"]:
        log()
    elif sys.argv[1:] == ["payload"]:
        payload()
    elif sys.argv[1:] == ["solo12"]:
        true_urdf("solo12")
        solo12_excite()
    else:
        true_urdf()
        excite()
