#!/usr/bin/env python3
"""The consistent fit's parameters (eom identify -o), parameter by parameter, against the robot
that made the log, read from its URDF here (not by eom).

Usage: identify_consistent.py TRUE_URDF PRIOR_URDF PARAMS_CSV MODE [ARGS]
MODE physical: every body's pseudo-inertia [[tr(I)/2 1 - I, h], [h^T, m]] positive definite,
       fv, fc, ia >= 0; prints the bodies and the drive parameters checked;
     identified REL: every parameter whose std is given (a base parameter alone: the torques
       determine it) within REL of the true value, relative to the largest of its kind (masses,
       first moments, second moments, friction) in the two robots; prints their count and the
       largest error;
     prior BASE_CSV REL: every parameter in no base parameter's expression (no torque depends on
       it) within REL of the prior, as above, and some of them farther than 10 REL from the truth
       (so that staying at the prior is told from reaching the truth).
"""
import csv
import re
import sys
import xml.etree.ElementTree as ET


def parameters(urdf):
    """Per moving joint's child link (the body frame: the joint's frame) m, mx, my, mz, Ixx, Ixy,
    Ixz, Iyy, Iyz, Izz about the link frame's origin (I_o = I_c + m (|c|^2 1 - c c^T), the
    inertial frame unrotated in these files), and per joint fv (damping), fc (friction)."""
    root = ET.parse(urdf).getroot()
    links = {link.get("name"): link for link in root.findall("link")}
    out = {}
    for joint in root.findall("joint"):
        if joint.get("type") == "fixed":
            continue
        child = links[joint.find("child").get("link")]
        inertial = child.find("inertial")
        origin = inertial.find("origin")
        assert [float(x) for x in origin.get("rpy", "0 0 0").split()] == [0, 0, 0], child.get("name")
        c = [float(x) for x in origin.get("xyz").split()]
        m = float(inertial.find("mass").get("value"))
        i = inertial.find("inertia")
        Ic = [[float(i.get("ixx")), float(i.get("ixy")), float(i.get("ixz"))],
              [float(i.get("ixy")), float(i.get("iyy")), float(i.get("iyz"))],
              [float(i.get("ixz")), float(i.get("iyz")), float(i.get("izz"))]]
        cc = sum(x * x for x in c)
        Io = [[Ic[r][k] + m * ((cc if r == k else 0) - c[r] * c[k]) for k in range(3)] for r in range(3)]
        name = child.get("name")
        for key, value in (("m", m), ("mx", m * c[0]), ("my", m * c[1]), ("mz", m * c[2]),
                           ("Ixx", Io[0][0]), ("Ixy", Io[0][1]), ("Ixz", Io[0][2]),
                           ("Iyy", Io[1][1]), ("Iyz", Io[1][2]), ("Izz", Io[2][2])):
            out[name + "." + key] = value
        dynamics = joint.find("dynamics")
        out[joint.get("name") + ".fv"] = float(dynamics.get("damping", 0)) if dynamics is not None else 0
        out[joint.get("name") + ".fc"] = float(dynamics.get("friction", 0)) if dynamics is not None else 0
    return out


def positive_definite(J):
    """Cholesky: every pivot positive."""
    n = len(J)
    L = [[0.0] * n for _ in range(n)]
    for r in range(n):
        for k in range(r + 1):
            s = J[r][k] - sum(L[r][j] * L[k][j] for j in range(k))
            if r == k:
                if s <= 0:
                    return False
                L[r][r] = s ** 0.5
            else:
                L[r][k] = s / L[k][k]
    return True


def kind(name):
    """The group a parameter is compared within: a body's mass, first or second moments, a
    joint's friction."""
    body, key = name.rsplit(".", 1)
    group = {"m": "m", "mx": "h", "my": "h", "mz": "h", "fv": "f", "fc": "f", "fo": "f", "ia": "f"}
    return body, group.get(key, "I")


true_urdf, prior_urdf, params_csv, mode = sys.argv[1:5]
rows = list(csv.DictReader(open(params_csv)))
value = {r["parameter"]: float(r["value"]) for r in rows}
std = {r["parameter"]: r["std"] for r in rows}
truth, prior = parameters(true_urdf), parameters(prior_urdf)
assert set(truth) <= set(value), set(truth) - set(value)
# the prior column is the prior URDF's values: the convention above is eom's
for r in rows:
    if r["parameter"] in prior:
        p = prior[r["parameter"]]
        assert abs(float(r["prior"]) - p) <= 1e-12 * max(1, abs(p)), (r, p)
scale = {}
for source in (truth, prior):
    for name, x in source.items():
        scale[kind(name)] = max(scale.get(kind(name), 0), abs(x))

if mode == "physical":
    bodies = sorted({n.rsplit(".", 1)[0] for n in value if n.endswith(".m")})
    for b in bodies:
        m = value[b + ".m"]
        h = [value[b + ".mx"], value[b + ".my"], value[b + ".mz"]]
        I = [[value[b + ".Ixx"], value[b + ".Ixy"], value[b + ".Ixz"]],
             [value[b + ".Ixy"], value[b + ".Iyy"], value[b + ".Iyz"]],
             [value[b + ".Ixz"], value[b + ".Iyz"], value[b + ".Izz"]]]
        half = (I[0][0] + I[1][1] + I[2][2]) / 2
        J = [[(half if r == k else 0) - I[r][k] for k in range(3)] + [h[r]] for r in range(3)]
        J.append(h + [m])
        assert positive_definite(J), (b, J)
    drive = [n for n in value if n.rsplit(".", 1)[1] in ("fv", "fc", "ia")]
    assert len(drive) >= 12, drive
    for n in drive:
        assert value[n] >= 0, (n, value[n])
    print(len(bodies), len(drive))
elif mode == "identified":
    tolerance = float(sys.argv[5])
    chosen = [n for n in truth if std[n] != ""]
    worst = 0
    for n in chosen:
        error = abs(value[n] - truth[n]) / scale[kind(n)]
        worst = max(worst, error)
        assert error <= tolerance, (n, value[n], truth[n], error)
    print(len(chosen), worst)
else:
    expressions = " ".join(r["expression"] for r in csv.DictReader(open(sys.argv[5])))
    named = set(re.findall(r"[A-Za-z_0-9]+\.[A-Za-z]+", expressions))
    tolerance = float(sys.argv[6])
    chosen = [n for n in truth if n not in named]
    assert chosen
    for n in chosen:
        error = abs(value[n] - prior[n]) / scale[kind(n)]
        assert error <= tolerance, (n, value[n], prior[n], error)
    assert max(abs(truth[n] - prior[n]) / scale[kind(n)] for n in chosen) > 10 * tolerance
    print(len(chosen))
