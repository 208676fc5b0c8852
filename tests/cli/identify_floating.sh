#!/usr/bin/env bash
# eom identify on a floating base with --contacts (doc/identify.md "Floating base"): logs made by
# eom id --contacts from tests/data/identify/solo12_true.urdf (Solo12 with perturbed, consistent
# inertias and joint friction; scripts/make_identify_data.py solo12) along solo12_excite.csv (every
# coordinate moving, exact v and a), identified from the shipped robots/solo12.urdf; checked against
# held-out logs of the true robot (eom id's torques and forces along trajectories/solo12_bob.csv),
# the true robot's own parameters, and the same motion 1 km away. Needs python3.
# Usage: identify_floating.sh EOM SOURCE_DIR CASE.
set -uo pipefail
eom=$1
src=$2
case_name=$3
. "$(dirname "$0")/lib.sh"

true_robot=$src/tests/data/identify/solo12_true.urdf
motion=$src/tests/data/identify/solo12_excite.csv
feet=(--floating-base --contacts FL_FOOT,FR_FOOT,HL_FOOT,HR_FOOT)

# log OUT MOTION [eom id options...]: the true robot's torques and contact forces along MOTION
log() {
  local out=$1 along=$2
  shift 2
  expect 0 "$eom" id "$true_robot" "$along" "${feet[@]}" --keep-input -q -o "$out" "$@"
}

# columns IN OUT DROP [FROM TO]: IN's rows FROM .. TO - 1 (all by default) without the columns
# whose names match the regular expression DROP ('' drops none)
columns() {
  python3 - "$@" << 'EOF' || fail "cannot write $2"
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
drop = sys.argv[3]
lo, hi = (int(sys.argv[4]), int(sys.argv[5])) if len(sys.argv) > 5 else (0, len(rows))
keep = [k for k in rows[0] if not (drop and re.search(drop, k))]
out = csv.DictWriter(open(sys.argv[2], "w", newline=""), keep, extrasaction="ignore")
out.writeheader()
out.writerows(rows[lo:hi])
EOF
}

# matches SUMMARY TOL: every coordinate's residual of the identified parameters, on the fit's logs
# and on the held-out ones, within TOL of the measured RMS (of 1 where that is smaller)
matches() {
  python3 - "$1" "$2" << 'EOF' || fail "residuals of $1 over the tolerance"
import json, sys
doc = json.load(open(sys.argv[1]))[0]
tol = float(sys.argv[2])
for part in ("fit", "validation"):
    for c in doc[part]["residuals"]:
        scale = max(c["measured_rms"], 1.0)
        assert c["identified"]["rms"] <= tol * scale, (part, c["coordinate"], c["identified"])
print(len(doc["fit"]["residuals"]), len(doc["validation"]["residuals"]))
EOF
}

case $case_name in
  recovers)
    # least squares from the shipped robot: the log's and the held-out log's torques and base
    # wrenches to round-off, every equation (the base's six and the twelve joints')
    log log.csv "$motion" --friction
    log held.csv "$src/trajectories/solo12_bob.csv" --friction
    expect 0 "$eom" identify "$src/robots/solo12.urdf" log.csv "${feet[@]}" --method least-squares \
      --validate held.csv --summary-json s.json -o params.csv
    stderr_has "300 rows, 118 base parameters of 154"
    [ "$(matches s.json 1e-11)" = "18 18" ] || fail "not every equation reported"
    # from the true robot, every parameter is the file's (the true one) to round-off
    expect 0 "$eom" identify "$true_robot" log.csv "${feet[@]}" --method least-squares -o truth.csv
    python3 - << 'EOF' || fail "the true robot's parameters not recovered"
import csv
rows = list(csv.DictReader(open("truth.csv")))
assert len(rows) == 154, len(rows)
for r in rows:
    prior, value = float(r["prior"]), float(r["value"])
    assert abs(value - prior) <= 1e-9 * max(1.0, abs(prior)), r
EOF
    ;;
  base-rows)
    # no tau.<joint> in the log: the base's six equations alone identify the inertias, which then
    # give the held-out log's joint torques (none of them in the fit) to round-off
    log log.csv "$motion" --friction
    log held.csv "$src/trajectories/solo12_bob.csv"
    columns log.csv no_tau.csv '^tau\.'
    expect 0 "$eom" identify "$src/robots/solo12.urdf" no_tau.csv "${feet[@]}" --friction none \
      --method least-squares --validate held.csv --summary-json s.json -o params.csv
    stderr_has "no_tau.csv: no tau.<joint> columns: the floating base's six equations alone"
    stderr_has "300 rows, 94 base parameters of 130"
    [ "$(matches s.json 1e-11)" = "6 18" ] || fail "not the base's six equations and every held-out one"
    # the drive columns enter no base equation: they keep the file's values, said so
    expect 0 "$eom" identify "$src/robots/solo12.urdf" no_tau.csv "${feet[@]}" \
      --method least-squares -o params.csv
    stderr_has "no torque depends on FL_HAA.fv, FL_HAA.fc"
    # a log with the torques and one without do not mix
    expect 2 "$eom" identify "$src/robots/solo12.urdf" log.csv no_tau.csv "${feet[@]}" -o mixed.csv
    stderr_has "no_tau.csv:1: no tau.<joint> columns, where the logs before have them"
    [ ! -e mixed.csv ] || fail "mixed.csv written"
    ;;
  far)
    # the same motion with the base 1 km away and turned by 2 rad about the vertical (gravity's
    # axis): v and a (the body twist and its derivative) and the joints unchanged, the contact
    # forces (world axes) turned; the base parameters are the same
    python3 - "$motion" << 'EOF'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
yaw, dx, dy = 2.0, 800.0, -600.0
c, s = math.cos(yaw), math.sin(yaw)
zw, zz = math.cos(yaw / 2), math.sin(yaw / 2)
for r in rows:
    x, y = float(r["q.root.x"]), float(r["q.root.y"])
    r["q.root.x"], r["q.root.y"] = repr(c * x - s * y + dx), repr(s * x + c * y + dy)
    qx, qy, qz, qw = (float(r["q.root." + k]) for k in ("qx", "qy", "qz", "qw"))
    # (0, 0, sin, cos) of the turn times the base's quaternion
    r["q.root.qx"], r["q.root.qy"] = repr(zw * qx - zz * qy), repr(zw * qy + zz * qx)
    r["q.root.qz"], r["q.root.qw"] = repr(zw * qz + zz * qw), repr(zw * qw - zz * qz)
out = csv.DictWriter(open("far_motion.csv", "w", newline=""), list(rows[0]))
out.writeheader()
out.writerows(rows)
EOF
    log near.csv "$motion" --friction
    log far.csv far_motion.csv --friction
    for at in near far; do
      expect 0 "$eom" identify "$src/robots/solo12.urdf" $at.csv "${feet[@]}" \
        --method least-squares -o ${at}_params.csv --base-parameters ${at}_base.csv
    done
    python3 - << 'EOF' || fail "the base parameters differ 1 km away"
import csv
near = list(csv.DictReader(open("near_base.csv")))
far = list(csv.DictReader(open("far_base.csv")))
assert [r["expression"] for r in near] == [r["expression"] for r in far]
largest = max(abs(float(r["value"])) for r in near)
for a, b in zip(near, far):
    assert abs(float(a["value"]) - float(b["value"])) <= 1e-12 * largest, (a, b)
EOF
    ;;
  one-pass)
    # the file's model's residuals on the fit's logs, tallied in the fit's pass, are those the
    # same logs give as held-out ones (read on their own, after the fit): over every equation and
    # over the base's six alone (no tau.<joint>), S^T tau + J_c^T f the measured side of both
    log log.csv "$motion" --friction
    columns log.csv no_tau.csv '^tau\.'
    for at in log no_tau; do
      expect 0 "$eom" identify "$src/robots/solo12.urdf" $at.csv "${feet[@]}" --friction none \
        --method least-squares --validate $at.csv --summary-json $at.json -o params.csv
      python3 - $at.json << 'EOF' || fail "the fit's pass tallies other residuals than a scan of $at.csv"
import json, sys
doc = json.load(open(sys.argv[1]))[0]
fit, held = doc["fit"]["residuals"], doc["validation"]["residuals"]
assert len(fit) == len(held) == (18 if sys.argv[1] == "log.json" else 6), len(fit)
close = lambda a, b: abs(a - b) <= 1e-12 * max(abs(a), abs(b))
for f, h in zip(fit, held):
    assert f["coordinate"] == h["coordinate"]
    assert f["measured_rms"] > 0 and close(f["measured_rms"], h["measured_rms"]), (f, h)
    for name in ("prior", "identified"):
        a, b = f[name], h[name]
        # the RMS on the fit's logs come from the factor: the same to round-off
        assert abs(a["rms"] - b["rms"]) <= 1e-9 * f["measured_rms"], (name, a, b)
        assert close(a["largest"], b["largest"]), (name, a, b)
        assert (a["largest_line"], a["largest_t"]) == (b["largest_line"], b["largest_t"]), (a, b)
    # the shipped robot is not the true one: its residuals are not round-off
    assert abs(f["prior"]["largest"]) > 1e-6 * f["measured_rms"], f
EOF
    done
    # without --summary-json the logs are read once: the file's model's largest residuals alone,
    # from stdin too
    expect 0 "$eom" identify "$src/robots/solo12.urdf" - "${feet[@]}" --friction none \
      --method least-squares -o params.csv < no_tau.csv
    stderr_has "on the fit's logs (300 rows), .*; largest residual of the file's model$"
    stderr_has "(<stdin> line [0-9]*)$"
    ;;
  refusals)
    # a floating base without contact forces, contacts without their columns: exit 2, the reason,
    # nothing written
    log log.csv "$motion"
    expect 2 "$eom" identify "$src/robots/solo12.urdf" log.csv --floating-base -o out.csv
    stderr_has "a floating base's equations of motion hold the contact forces"
    stderr_has "name the contacts with --contacts"
    # no torques and no forces: the forces are what a floating base needs
    expect 2 "$eom" identify "$src/robots/solo12.urdf" "$motion" "${feet[@]}" -o out.csv
    stderr_has "solo12_excite.csv:1: missing columns f.FL_FOOT.fx, f.FL_FOOT.fy"
    # some torques but not all: the missing one named
    columns log.csv one_short.csv '^tau\.HR_KFE$'
    expect 2 "$eom" identify "$src/robots/solo12.urdf" one_short.csv "${feet[@]}" -o out.csv
    stderr_has "one_short.csv:1: missing column tau.HR_KFE$"
    expect 2 "$eom" identify "$src/robots/solo12.urdf" log.csv "${feet[@]}",FL_LOWER_LEG:6d -o out.csv
    stderr_has "log.csv:1: missing columns f.FL_LOWER_LEG.fx, f.FL_LOWER_LEG.fy, f.FL_LOWER_LEG.fz, f.FL_LOWER_LEG.mx"
    [ ! -e out.csv ] || fail "something written"
    ;;
  partial-merge)
    # the log split in three, one partial fit per part, merged: the parameters of one run over the
    # three parts (byte for byte: the same factors combined in the same order, doc/identify.md
    # "Merge order"), checked to 1e-10 relative besides; so too a partial fit of the first two
    # parts with one of the third; over every equation and over the base's six alone
    log log.csv "$motion" --friction
    k=1
    for range in "0 100" "100 180" "180 300"; do
      columns log.csv part$k.csv '' $range
      columns log.csv no_tau$k.csv '^tau\.' $range
      k=$((k + 1))
    done
    # same A B: the same rows, every value within 1e-10 of the other's magnitude, and the same bytes
    same() {
      python3 - "$1" "$2" << 'EOF' || fail "$1 and $2 differ"
import csv, sys
a, b = (list(csv.DictReader(open(f))) for f in sys.argv[1:3])
assert len(a) == len(b) > 0, (len(a), len(b))
for x, y in zip(a, b):
    assert x.get("parameter") == y.get("parameter") and x.get("base") == y.get("base"), (x, y)
    u, v = float(x["value"]), float(y["value"])
    assert abs(u - v) <= 1e-10 * max(abs(u), abs(v)), (x, y)
EOF
      cmp "$1" "$2" || fail "$1 and $2 not byte for byte the same"
    }
    for logs in part no_tau; do
      friction=()
      [ $logs = no_tau ] && friction=(--friction none)
      # (the logs before --contacts, which takes the words that follow it)
      fit=("${feet[@]}" "${friction[@]}")
      expect 0 "$eom" identify "$src/robots/solo12.urdf" ${logs}1.csv ${logs}2.csv ${logs}3.csv \
        "${fit[@]}" --method least-squares -o one.csv --base-parameters one_base.csv
      for k in 1 2 3; do
        expect 0 "$eom" identify "$src/robots/solo12.urdf" ${logs}$k.csv "${fit[@]}" \
          --partial p$k.json
      done
      grep -q '"contacts": \["FL_FOOT:3d","FR_FOOT:3d","HL_FOOT:3d","HR_FOOT:3d"\]' p1.json ||
        fail "the contacts not recorded in p1.json"
      expect 0 "$eom" identify "$src/robots/solo12.urdf" "${fit[@]}" --method least-squares \
        -o merged.csv --base-parameters merged_base.csv --merge p1.json p2.json p3.json
      stderr_has "300 rows, $([ $logs = part ] && echo 118 || echo 94) base parameters of "
      same merged.csv one.csv
      same merged_base.csv one_base.csv
      # the first two parts in one partial fit (itself merged from theirs), then the third
      expect 0 "$eom" identify "$src/robots/solo12.urdf" "${fit[@]}" --partial p12.json \
        --merge p1.json p2.json
      expect 0 "$eom" identify "$src/robots/solo12.urdf" "${fit[@]}" --method least-squares \
        -o grouped.csv --merge p12.json p3.json
      same grouped.csv one.csv
    done
    ;;
  partial-refusals)
    # partial fits of other contacts, of none, or of other equations are refused at --merge:
    # exit 2, what differs, nothing written
    log log.csv "$motion" --friction
    columns log.csv no_tau.csv '^tau\.'
    columns log.csv joints.csv '\.root\.'
    solo=$src/robots/solo12.urdf
    expect 0 "$eom" identify "$solo" log.csv "${feet[@]}" --partial four.json
    expect 0 "$eom" identify "$solo" no_tau.csv "${feet[@]}" --partial base_rows.json
    # the Solo12 on a fixed base: its joints' equations alone, no contacts
    expect 0 "$eom" identify "$solo" joints.csv --partial fixed.json -q
    refused() {
      expect 2 "$eom" identify "$@" -o out.csv
      [ ! -e out.csv ] || fail "out.csv written"
    }
    contacts_of="made with the contacts (--contacts)"
    refused "$solo" --floating-base --contacts FL_FOOT,FR_FOOT,HL_FOOT --merge four.json
    stderr_has "four.json: a partial fit $contacts_of FL_FOOT:3d,FR_FOOT:3d,HL_FOOT:3d,HR_FOOT:3d, this run with FL_FOOT:3d,FR_FOOT:3d,HL_FOOT:3d: partial fits merge only"
    refused "$solo" "${feet[@]}" --merge four.json fixed.json
    stderr_has "fixed.json: a partial fit $contacts_of none, this run with FL_FOOT:3d"
    refused "$solo" --merge fixed.json four.json
    stderr_has "four.json: a partial fit $contacts_of FL_FOOT:3d,FR_FOOT:3d,HL_FOOT:3d,HR_FOOT:3d, this run with none"
    refused "$solo" "${feet[@]}" --merge four.json base_rows.json
    stderr_has "base_rows.json: a partial fit made with the equations of 6 coordinates, this run with 18 coordinates"
    refused "$solo" "${feet[@]}" --merge base_rows.json four.json
    stderr_has "four.json: a partial fit made with the equations of 18 coordinates, this run with 6 coordinates"
    # the same names, other frames: the model hash holds the contacts' frames
    sed 's/"FL_FOOT:3d"/"FL_LOWER_LEG:3d"/' four.json > lower.json
    refused "$solo" --floating-base --contacts FL_LOWER_LEG,FR_FOOT,HL_FOOT,HR_FOOT --merge lower.json
    stderr_has "lower.json: a partial fit made with another model of .*contacts' frames.*model hash"
    ;;
  *)
    fail "unknown case $case_name"
    ;;
esac
exit 0
