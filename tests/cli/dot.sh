#!/usr/bin/env bash
# eom info --format dot renders with Graphviz (dot -Tsvg) into a tree: one node per frame of the
# model (eom info --format json lists them) and one edge into every frame but the world; from a
# URDF, each edge runs from the link the file hangs its head on (a joint's parent link, moving,
# fixed or locked alike), the world for the root link.
# Usage: dot.sh EOM SOURCE_DIR. Exit 77 (skipped) without Graphviz (scripts/deps.sh installs it).
set -uo pipefail
eom=$1
src=$2
case_name=dot
. "$(dirname "$0")/lib.sh"
needs dot

check_tree() {
  "$eom" info "$@" --format dot -q -o tree.dot || fail "eom info $* --format dot"
  dot -Tsvg tree.dot -o tree.svg || fail "dot cannot render the graph of $*"
  "$eom" info "$@" --format json -q -o info.json || fail "eom info $* --format json"
  python3 - tree.svg info.json "$*" "$1" << 'PY' || fail "the graph of $* is not the model's tree"
import json, sys, xml.etree.ElementTree as ET
svg = ET.parse(sys.argv[1]).getroot()
ns = {"s": "http://www.w3.org/2000/svg"}
groups = svg.findall(".//s:g", ns)
nodes = [g.find("s:title", ns).text for g in groups if g.get("class") == "node"]
edges = [g.find("s:title", ns).text for g in groups if g.get("class") == "edge"]
frames = [f["name"] for f in json.load(open(sys.argv[2]))["frames"]]
assert sorted(nodes) == sorted(frames), (sys.argv[3], nodes, frames)
heads = sorted(e.split("->")[1] for e in edges)
assert heads == sorted(f for f in frames if f != "world"), (sys.argv[3], heads)
if sys.argv[4].endswith(".urdf"):
    parent = {j.find("child").get("link"): j.find("parent").get("link")
              for j in ET.parse(sys.argv[4]).getroot().findall("joint")}
    for e in edges:
        tail, head = e.split("->")
        assert tail == parent.get(head, "world"), (sys.argv[3], e, parent.get(head, "world"))
PY
}

check_tree "$src/robots/ur5.urdf"
check_tree "$src/robots/solo12.urdf" --floating-base
check_tree "$src/tests/data/robots/baxter.urdf"
check_tree "$src/tests/data/urdf/massless_gripper.urdf" --lock 'finger_joint_*'
exit 0
