#!/usr/bin/env bash
# --summary-json of id, fd, ik, sim and jac, and the JSON shapes of eom info and eom check: the
# documented keys (doc/files.md "JSON summaries", doc/<subcommand>.md), and values checked
# against what the output tables or the physics say independently. Usage: summaries.sh EOM SOURCE_DIR CASE.
set -uo pipefail
eom=$1
src=$2
case_name=$3
. "$(dirname "$0")/lib.sh"

# check FILE PYTHON...: runs the Python statements with `doc` the parsed JSON of FILE and the
# helpers below; an AssertionError fails the case with its message
check() {
  local file=$1
  shift
  python3 - "$file" "$@" << 'EOF' || fail "check of $file failed"
import csv, json, sys
doc = json.load(open(sys.argv[1]))

def table(path):
    with open(path) as f:
        return list(csv.DictReader(f))

def keys(obj, expected, what):
    got = set(obj)
    assert got == set(expected), f"{what}: keys {sorted(got)}, expected {sorted(expected)}"

COMMON = {"command", "file", "output", "written", "rows", "exit_code", "warnings", "errors"}
ROW_ENGINE = COMMON | {"quaternions_renormalised", "derivation"}
TALLY = {"rows", "first_line", "worst", "worst_line"}

for statement in sys.argv[2:]:
    exec(statement)
EOF
}

ur5=$src/robots/ur5.urdf
r2=$src/robots/planar_2r.urdf
solo=$src/robots/solo12.urdf
iiwa=$src/robots/iiwa14.urdf

case $case_name in
id-effort-limits)
  # planar_2r_over_limit.csv: joint1's torque passes its URDF effort limit 100 in rows 2 and 3
  expect 0 "$eom" id "$r2" "$src/tests/data/id/planar_2r_over_limit.csv" -o tau.csv \
    --summary-json s.json
  check s.json '
assert isinstance(doc, list) and len(doc) == 1
t = doc[0]
keys(t, ROW_ENGINE | {"effort_limits", "fail_on_limit"}, "id")
rows = table("tau.csv")
assert t["command"] == "id" and t["output"] == "tau.csv" and t["written"] is True
assert t["rows"] == len(rows) == 3 and t["exit_code"] == 0 and t["errors"] == []
assert t["quaternions_renormalised"] == {"rows": 0, "first_line": None, "first_deviation": None}
assert t["derivation"] == []  # v and a given
assert len(t["effort_limits"]) == 1, t["effort_limits"]
e = t["effort_limits"][0]
keys(e, {"column", "limit", "rows", "first_t", "first_line", "worst", "worst_t", "worst_line"}, "excess")
over = [(i + 2, float(r["t"]), float(r["tau.joint1"])) for i, r in enumerate(rows) if abs(float(r["tau.joint1"])) > 100]
assert e["column"] == "tau.joint1" and e["limit"] == 100 and e["rows"] == len(over) == 2
assert (e["first_line"], e["first_t"]) == over[0][:2]
line, when, worst = max(over, key=lambda o: abs(o[2]))
assert (e["worst_line"], e["worst_t"], e["worst"]) == (line, when, worst), (e, line, when, worst)
assert len(t["warnings"]) == 1 and "tau.joint1 exceeds its effort limit" in t["warnings"][0]
assert t["fail_on_limit"] is False
'
  # --fail-on-limit: exit 1, no table, the summary written and saying why
  expect 1 "$eom" id "$r2" "$src/tests/data/id/planar_2r_over_limit.csv" -o tau1.csv \
    --fail-on-limit --summary-json s1.json -q
  [ ! -e tau1.csv ] || fail "tau1.csv written"
  check s1.json '
t = doc[0]
assert t["exit_code"] == 1 and t["written"] is False and t["fail_on_limit"] is True
assert t["effort_limits"][0]["rows"] == 2
assert any("exceeds its effort limit" in m for m in t["errors"]) and any("not written" in m for m in t["errors"])
'
  ;;
id-derivation)
  # v and a derived from q: the window chosen from the data (a clean 50 Hz log: the narrowest
  # fit, 5 rows, is the most accurate, doc/tables.md), or given
  d=$src/tests/data/derivation/planar_2r_50hz.csv
  expect 0 "$eom" id "$r2" "$d" -o tau.csv --summary-json s.json -q
  expect 0 "$eom" id "$r2" "$d" -o tau9.csv --derive-window 9 --summary-json s9.json -q
  check s.json '
stage = doc[0]["derivation"]
assert len(stage) == 1, stage
stage = stage[0]
keys(stage, {"derived", "from", "method", "degree", "window", "window_chosen", "chosen_from_rows", "noise"}, "stage")
assert stage["derived"] == ["v", "a"] and stage["from"] == "q" and stage["method"] == "fit"
assert stage["degree"] == 4 and stage["window"] == 5 and stage["window_chosen"] is True
assert stage["chosen_from_rows"] == len(table("tau.csv")) == 101
assert stage["noise"] < 1e-12, stage  # the digits of a clean log
'
  check s9.json '
stage = doc[0]["derivation"][0]
assert stage["window"] == 9 and stage["window_chosen"] is False
assert stage["chosen_from_rows"] is None and stage["noise"] is None
'
  ;;
fd-renormalised)
  # a floating-base table whose quaternion is off unit norm in one row (data line 3)
  expect 0 "$eom" id "$solo" "$src/tests/data/id/solo12_freeflyer.csv" --floating-base \
    --keep-input -o tau.csv
  qw=$(head -1 tau.csv | tr ',' '\n' | grep -nx 'q.root.qw' | cut -d: -f1)
  awk -F, -v OFS=, -v c="$qw" 'NR == 3 { $c = $c * 1.001 } { print }' tau.csv > off.csv
  expect 0 "$eom" fd "$solo" off.csv --floating-base -o a.csv --summary-json s.json
  check s.json '
t = doc[0]
keys(t, ROW_ENGINE, "fd")
assert t["command"] == "fd" and t["file"] == "off.csv" and t["rows"] == len(table("a.csv")) == 10
r = t["quaternions_renormalised"]
assert r["rows"] == 1 and r["first_line"] == 3 and 1e-6 < r["first_deviation"] < 2e-3, r
assert len(t["warnings"]) == 1 and "renormalised" in t["warnings"][0]
'
  ;;
ik-counts)
  # the second target is out of reach: the counts agree with the ik.status column
  expect 0 "$eom" ik "$iiwa" "$src/tests/data/ik/iiwa_unreachable.csv" --frame iiwa_link_ee \
    --allow-failures -o q.csv --summary-json s.json -q
  check s.json '
t = doc[0]
keys(t, ROW_ENGINE | {"frame", "converged", "failed", "success_rate", "allow_failures",
     "solve_time_us", "iterations", "restarts", "failures", "jumps", "timeouts",
     "targets_normalised"}, "ik")
rows = table("q.csv")
status = [float(r["ik.status"]) for r in rows]
assert t["rows"] == len(rows) == 2
assert t["converged"] == status.count(1) == 1 and t["failed"] == status.count(0) == 1
assert t["success_rate"] == 0.5 and t["allow_failures"] is True and t["exit_code"] == 0
assert t["iterations"]["total"] == sum(int(float(r["ik.iterations"])) for r in rows)
assert t["iterations"]["max"] == max(int(float(r["ik.iterations"])) for r in rows)
assert t["restarts"]["total"] == sum(int(float(r["ik.restarts"])) for r in rows)
f = t["failures"]
keys(f, TALLY | {"first_position_error", "first_orientation_error"}, "failures")
failed = [(i + 2, r) for i, r in enumerate(rows) if float(r["ik.status"]) == 0]
assert f["rows"] == 1 and f["first_line"] == failed[0][0] == 3
assert f["first_position_error"] == float(failed[0][1]["ik.position_error"])
for k in ("jumps", "timeouts", "targets_normalised"):
    keys(t[k], TALLY, k)
    assert t[k] == {"rows": 0, "first_line": None, "worst": None, "worst_line": None}, t[k]
keys(t["solve_time_us"], {"median", "max"}, "solve_time_us")
assert 0 < t["solve_time_us"]["median"] <= t["solve_time_us"]["max"] * 1.03
'
  # without --allow-failures: exit 1, no table, the summary says so
  expect 1 "$eom" ik "$iiwa" "$src/tests/data/ik/iiwa_unreachable.csv" --frame iiwa_link_ee \
    -o q1.csv --summary-json s1.json -q
  [ ! -e q1.csv ] || fail "q1.csv written"
  check s1.json 'assert doc[0]["exit_code"] == 1 and doc[0]["written"] is False and doc[0]["failed"] == 1'
  # the text summary of --summary is unchanged beside it
  expect 0 "$eom" ik "$iiwa" "$src/tests/data/ik/iiwa_quaternion.csv" --frame iiwa_link_ee \
    --summary --summary-json s2.json -o q2.csv
  stderr_has "2 of 2 rows converged (100.0%)"
  check s2.json 'assert doc[0]["converged"] == 2 and doc[0]["success_rate"] == 1'
  ;;
sim-stats)
  # rk4, fixed step: 2 s / 1 ms = 2000 steps, 4 evaluations each; passive frictionless motion
  expect 0 "$eom" sim "$ur5" --q0 shoulder_lift_joint=-1 --duration 2 --output-dt 0.01 \
    --energy -o ur5.csv --summary-json s.json
  check s.json '
t = doc[0]
keys(t, COMMON | {"integrator", "controller", "t_start", "t_end", "dt", "steps", "rejected",
     "evaluations", "saturation", "limit_events", "limit_event_count", "energy", "contacts",
     "gains"}, "sim")
rows = table("ur5.csv")
assert t["command"] == "sim" and t["file"] is None and t["output"] == "ur5.csv"
assert t["contacts"] is None
assert t["rows"] == len(rows) == 201 and t["exit_code"] == 0 and t["written"] is True
assert t["integrator"] == "rk4" and t["controller"] == "zero" and t["gains"] is None
assert t["t_start"] == 0 and t["t_end"] == 2 == float(rows[-1]["t"]) and t["dt"] == 0.001
# 4 evaluations per step, and one for the accelerations of the first row
assert t["steps"] == 2000 and t["rejected"] == 0 and t["evaluations"] == 4 * 2000 + 1
e = t["energy"]
keys(e, {"initial", "final", "change", "relative_change"}, "energy")
assert e["initial"] == float(rows[0]["energy.total"]) and e["final"] == float(rows[-1]["energy.total"])
assert abs(e["relative_change"]) < 1e-6, e
# saturation is the default; a passive run clips nothing
assert t["saturation"] == {"enabled": True, "steps": 0, "joints": []}
# the arm falls through the limits of two joints: each crossing is also a warning
assert [(e["joint"], e["limit"], e["leaving"]) for e in t["limit_events"]] == [
    ("elbow_joint", "lower", True), ("shoulder_lift_joint", "upper", True)]
assert t["limit_event_count"] == 2
assert [w for w in t["warnings"] if "limit" in w] == t["warnings"] and len(t["warnings"]) == 2
'
  ;;
sim-saturation-limits)
  # 80 N on the 2 kg block clipped at its effort limit 50 N in every step: x = 12.5 t^2 leaves
  # the upper limit 10 m at t = sqrt(0.8) s
  expect 0 "$eom" sim "$src/robots/block.urdf" --torque slide=80 --duration 1 \
    --output-dt 0.1 -o block.csv --summary-json s.json -q
  [ ! -s err.txt ] || fail "-q printed: $(cat err.txt)"
  check s.json '
t = doc[0]
assert t["saturation"] == {"enabled": True, "steps": 1000, "joints": [{"column": "tau.slide", "steps": 1000}]}, t["saturation"]
assert len(t["limit_events"]) == 1
ev = t["limit_events"][0]
keys(ev, {"joint", "limit", "value", "t", "leaving"}, "limit event")
assert ev["joint"] == "slide" and ev["limit"] == "upper" and ev["value"] == 10 and ev["leaving"] is True
assert abs(ev["t"] - 0.8 ** 0.5) < 1e-3, ev
assert len(t["warnings"]) == 2, t["warnings"]
'
  ;;
deriv-verify)
  # --verify: the checks of the stderr report, each with its figures (stderr rounds to 6 digits)
  expect 0 "$eom" deriv "$iiwa" "$src/trajectories/iiwa14_wave.csv" --order 2 --no-derive \
    --verify -o d.csv --summary-json s.json
  cp err.txt report.txt
  check s.json '
import re
t = doc[0]
keys(t, ROW_ENGINE | {"verify"}, "deriv")
v = t["verify"]
keys(v, {"tolerance", "rows", "not_positive_definite", "checks"}, "verify")
assert v["rows"] == t["rows"] == 3001 and v["tolerance"] == 1e-3
assert v["not_positive_definite"] == {"rows": 0, "first_line": None}
assert [c["quantity"] for c in v["checks"]] == ["tau", "d1tau", "d2tau", "Mdot"]
printed = re.findall(r"worst (\S+) relative \((\S+) absolute, line (\d+)\)", open("report.txt").read())
assert len(printed) == 4
for c, (relative, absolute, line) in zip(v["checks"], printed):
    keys(c, {"quantity", "checked", "relative", "absolute", "line", "pass"}, "check")
    assert c["checked"] and c["pass"] and c["line"] == int(line)
    assert float("%.6g" % c["relative"]) == float(relative) and float("%.6g" % c["absolute"]) == float(absolute)
'
  # rows of unrelated samples fail the d1tau check: exit 1, the summary says which
  expect 1 "$eom" deriv "$src/tests/data/robots/ur5_robot.urdf" \
    "$src/tests/data/deriv/ur5_robot.csv" --order 1 --no-derive --verify -o d1.csv \
    --summary-json s1.json
  check s1.json '
t = doc[0]
assert t["exit_code"] == 1 and t["written"] is False
assert [c["pass"] for c in t["verify"]["checks"]][:2] == [True, False]
'
  # without --verify: null
  expect 0 "$eom" deriv "$iiwa" "$src/trajectories/iiwa14_wave.csv" --order 1 -o d2.csv \
    --summary-json s2.json -q
  check s2.json 'assert doc[0]["verify"] is None'
  ;;
batch-order)
  # one object per table, in input order whatever thread finished first
  mkdir in
  cp "$src/trajectories/ur5_wave.csv" in/b.csv
  cp "$src/tests/data/id/ur5_robot.csv" in/a.csv
  expect 0 "$eom" id "$ur5" in/b.csv in/a.csv --output-dir out --jobs 2 --summary-json s.json
  check s.json '
assert [t["file"] for t in doc] == ["in/b.csv", "in/a.csv"]
assert [t["output"] for t in doc] == ["out/b.csv", "out/a.csv"]
for t in doc:
    assert t["rows"] == len(table(t["file"])) == len(table(t["output"])) and t["written"]
'
  # byte-identical whatever the threads
  expect 0 "$eom" id "$ur5" in/b.csv in/a.csv --output-dir out1 --jobs 1 --summary-json s1.json
  sed 's/out1/out/' s1.json | cmp -s - s.json || fail "--jobs 1 and --jobs 2 summaries differ"
  # a bad table among them: exit 2 and no summary at all
  printf 't,q.shoulder_pan_joint\n0,abc\n' > in/c.csv
  expect 2 "$eom" id "$ur5" in/a.csv in/c.csv --output-dir out2 --summary-json s2.json
  [ ! -e s2.json ] || fail "summary written by a run that failed with exit 2"
  ls -a . | grep -q '\.tmp$' && fail "temporary left behind"
  ;;
destinations)
  # - is stdout when the table goes to a file, refused when the table goes to stdout
  expect 0 "$eom" id "$r2" "$src/tests/data/id/planar_2r_over_limit.csv" -o tau.csv \
    --summary-json - -q
  check out.txt 'assert doc[0]["rows"] == 3'
  expect 2 "$eom" id "$r2" "$src/tests/data/id/planar_2r_over_limit.csv" --summary-json -
  stderr_has "eom id: error: --summary-json -: the table goes to stdout"
  expect 2 "$eom" sim "$r2" --duration 0.1 --summary-json -
  stderr_has "eom sim: error: --summary-json -: the table goes to stdout"
  expect 2 "$eom" id "$r2" "$src/tests/data/id/planar_2r_over_limit.csv" -o x.json \
    --summary-json ./x.json
  stderr_has "the table is written there too"
  expect 2 "$eom" id "$r2" "$src/tests/data/id/planar_2r_over_limit.csv" -o t.csv \
    --summary-json nodir/s.json
  stderr_has "no directory nodir"
  [ ! -e t.csv ] || fail "t.csv written"
  mkdir adir
  expect 2 "$eom" id "$r2" "$src/tests/data/id/planar_2r_over_limit.csv" -o t.csv \
    --summary-json adir
  stderr_has "eom id: error: --summary-json adir: is a directory"
  [ ! -e t.csv ] || fail "t.csv written"
  # never over an input
  cp "$src/tests/data/id/planar_2r_over_limit.csv" in.csv
  expect 2 "$eom" id "$r2" in.csv -o t.csv --summary-json in.csv
  stderr_has "refusing to replace an input"
  cmp -s in.csv "$src/tests/data/id/planar_2r_over_limit.csv" || fail "in.csv changed"
  ;;
jac-summary)
  # --summary is the former name of --summary-json: the same document; the intervals as before
  J=$src/tests/data/jac
  expect 0 "$eom" jac "$ur5" "$J/ur5_elbow_sweep.csv" --frame tool0 --threshold 0.002 \
    -o j.csv --summary-json s.json
  expect 0 "$eom" jac "$ur5" "$J/ur5_elbow_sweep.csv" --frame tool0 --threshold 0.002 \
    -o j.csv --summary s2.json
  cmp -s s.json s2.json || fail "--summary and --summary-json differ"
  check s.json '
t = doc[0]
keys(t, ROW_ENGINE | {"frame", "reference", "task", "tolerance", "measure", "threshold", "intervals"}, "jac")
assert t["rows"] == len(table("j.csv")) and t["threshold"] == 0.002 and len(t["intervals"]) == 1
i = t["intervals"][0]
assert (i["start_line"], i["end_line"], i["rows"]) == (4, 6, 3)
'
  expect 2 "$eom" jac "$ur5" "$J/ur5_elbow_sweep.csv" --frame tool0 --summary a.json \
    --summary-json b.json
  # --sample: one object of the same scheme, its rows the worst configurations written
  expect 0 "$eom" jac "$src/robots/panda.urdf" --frame panda_hand_tcp --sample 50 --seed 3 \
    --worst 2 -o w.csv --summary-json w.json
  check w.json '
t = doc[0]
keys(t, COMMON | {"frame", "samples", "seed", "probabilities", "manipulability", "condition",
     "rank_deficient", "worst"}, "jac --sample")
assert t["file"] is None and t["rows"] == len(t["worst"]) == len(table("w.csv")) == 2
'
  ;;
info-keys)
  # the full key set of eom info --format json: a fixed-base arm with mimic joints (Panda) and a
  # floating base (Solo12)
  for robot in panda ur5; do
    expect 0 "$eom" info "$src/robots/$robot.urdf" --format json
    cp out.txt "$robot.json"
  done
  expect 0 "$eom" info "$solo" --floating-base --format json
  cp out.txt solo.json
  for f in panda.json ur5.json solo.json; do
    check "$f" '
keys(doc, {"name", "file", "root_link", "floating_base", "nq", "nv", "gravity", "total_mass",
     "moving_mass", "locked", "joints", "frames"}, "info")
assert doc["locked"] == []
assert isinstance(doc["gravity"], list) and len(doc["gravity"]) == 3
assert doc["nq"] == sum(j["nq"] for j in doc["joints"]) and doc["nv"] == sum(j["nv"] for j in doc["joints"])
JOINT = {"name", "type", "parent_link", "child_link", "parent_joint", "idx_q", "nq", "idx_v",
         "nv", "q_columns", "lower", "upper", "effort", "velocity", "damping", "friction",
         "armature", "body_mass"}
for j in doc["joints"]:
    # the axis of every joint but the free-flyer; mimic only on mimic joints
    floating = j["type"] == "free-flyer"
    keys(j, JOINT | (set() if floating else {"axis"}) | ({"mimic"} if "mimic" in j else set()),
         "joint " + j["name"])
    assert len(j["q_columns"]) == j["nq"] and (floating or len(j["axis"]) == 3)
    if "mimic" in j:
        keys(j["mimic"], {"joint", "multiplier", "offset"}, "mimic")
for f in doc["frames"]:
    keys(f, {"name", "joint"}, "frame " + f["name"])
'
  done
  check panda.json 'assert any("mimic" in j for j in doc["joints"])'
  check solo.json 'assert doc["floating_base"] is True and doc["joints"][0]["parent_link"] is None
assert doc["joints"][0]["type"] == "free-flyer" and "axis" not in doc["joints"][0]'
  ;;
check-keys)
  expect 0 "$eom" check "$ur5" "$src/robots/panda.urdf" --format json
  check out.txt '
assert isinstance(doc, list) and len(doc) == 2
for f in doc:
    keys(f, {"file", "status", "errors", "warnings", "notes", "links", "joints", "moving_joints",
         "total_mass"}, "check")
    assert f["status"] == "ok"
    for finding in f["errors"] + f["warnings"] + f["notes"]:
        keys(finding, {"line", "message"}, "finding")
assert len(doc[1]["warnings"]) > 0
'
  printf '<robot name="x">\n' > broken.urdf
  expect 2 "$eom" check broken.urdf --format json
  check out.txt '
keys(doc[0], {"file", "status", "errors", "warnings", "notes", "links", "joints", "moving_joints",
     "total_mass"}, "check")
assert doc[0]["status"] == "unreadable" and doc[0]["links"] is None
'
  ;;
identify-report)
  # eom identify's summary: the file's model's residuals on the fit's log and on a held-out one
  # are those eom check --against computes for the file (by rnea, not the regressor), the
  # identified model's those of the URDF it writes; the worst-determined base parameters are the
  # base table's largest relative_std
  log=$src/tests/data/identify/ur5_log.csv
  held=$src/tests/data/identify/ur5_heldout.csv
  expect 0 "$eom" identify "$ur5" "$log" --validate "$held" --prior-weight 0 -o params.csv \
    --base-parameters base.csv --urdf-out id.urdf --summary-json s.json -q
  "$eom" check "$ur5" --against "$log" --format json > prior_fit.json
  "$eom" check "$ur5" --against "$held" --format json > prior_held.json
  "$eom" check id.urdf --against "$log" --format json > id_fit.json
  "$eom" check id.urdf --against "$held" --format json > id_held.json
  check s.json '
t = doc[0]
keys(t, COMMON | {"parameters", "base_parameters", "condition", "worst_determined", "fit",
     "validation", "dropped"}, "identify")
assert t["command"] == "identify" and t["written"] is True and t["rows"] == 800
assert t["parameters"] == 72 and t["base_parameters"] == 48 and t["condition"] > 1
assert t["dropped"] == {"filter_edges": 0, "decimation": 0}
base = table("base.csv")
worst = max(base, key=lambda b: float(b["relative_std"]))
assert t["worst_determined"][0]["base"] == worst["base"], (t["worst_determined"][0], worst)
assert t["worst_determined"][0]["expression"] == worst["expression"]
def against(path):
    return json.load(open(path))[0]["against"][0]
for key, files, name in (("fit", ("prior_fit.json", "id_fit.json"), "ur5_log.csv"),
                         ("validation", ("prior_held.json", "id_held.json"), "ur5_heldout.csv")):
    got = t[key]
    for set_name, path in zip(("prior", "identified"), files):
        ref = against(path)
        assert got["rows"] == ref["rows"], (key, got["rows"], ref["rows"])
        for mine, theirs in zip(got["residuals"], ref["residuals"]):
            assert mine["coordinate"] == theirs["coordinate"]
            assert abs(mine["measured_rms"] - theirs["measured_rms"]) <= 1e-12 * theirs["measured_rms"]
            m = mine[set_name]
            # the identified model through its URDF (every digit written) and rnea: the same
            # torques to round-off of the measured ones; the RMS of the fit from its factor
            tol = 1e-9 * theirs["measured_rms"]
            assert abs(m["rms"] - theirs["rms"]) <= tol, (key, set_name, m, theirs)
            assert abs(m["largest"] - theirs["largest"]) <= tol, (key, set_name, m, theirs)
            assert m["largest_file"].endswith(name)
assert t["validation"]["files"] == ["'"$held"'"]
'
  ;;
identify-report-one-pass)
  # the file's model's largest residuals on the fit's logs come from the fit's own pass: without
  # --summary-json (stderr) and from stdin (which is not read twice) they are eom check
  # --against's, with the line; the identified model's need a second pass, which only
  # --summary-json over files makes: from stdin they are null
  log=$src/tests/data/identify/ur5_log.csv
  "$eom" check "$ur5" --against "$log" --format json > prior_fit.json
  expect 0 "$eom" identify "$ur5" "$log" -o params.csv
  stderr_has "largest residual of the file's model"
  cp err.txt report.txt
  expect 0 "$eom" identify "$ur5" - -o params.csv --summary-json s.json < "$log"
  stderr_has "(<stdin> line "
  check s.json '
ref = json.load(open("prior_fit.json"))[0]["against"][0]["residuals"]
fit = doc[0]["fit"]
assert fit["rows"] == 800
lines = [l for l in open("report.txt") if l.startswith("  ") and " line " in l]
assert len(lines) == len(ref) == len(fit["residuals"]) == 6, lines
for line, mine, theirs in zip(lines, fit["residuals"], ref):
    name, rest = line.strip().split(": ", 1)
    assert name == mine["coordinate"] == theirs["coordinate"], (name, theirs)
    value, where = rest.split("; ")[1].split(" (")
    tol = 1e-9 * theirs["measured_rms"]
    # stderr: six significant digits
    assert abs(float(value) - theirs["largest"]) <= 1e-5 * abs(theirs["largest"]), (line, theirs)
    assert where == "'"$log"' line %d)" % theirs["largest_line"], (where, theirs)
    p = mine["prior"]
    assert abs(p["largest"] - theirs["largest"]) <= tol, (p, theirs)
    assert p["largest_line"] == theirs["largest_line"] and p["largest_t"] == theirs["largest_t"]
    assert p["largest_file"] == "-"
    assert abs(mine["measured_rms"] - theirs["measured_rms"]) <= 1e-12 * theirs["measured_rms"]
    i = mine["identified"]
    assert i["largest"] is None and i["largest_file"] is None and i["largest_line"] is None
'
  ;;
*)
  fail "unknown case $case_name"
  ;;
esac
echo "ok: $case_name"
