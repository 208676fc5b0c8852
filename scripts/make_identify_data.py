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


def true_urdf():
    text = open("robots/ur5.urdf").read()
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
    open(HERE + "ur5_true.urdf", "w").write(text)


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
    else:
        true_urdf()
        excite()
