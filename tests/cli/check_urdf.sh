#!/usr/bin/env bash
# eom export writes URDF that urdfdom's own checker reads: check_urdf (Debian's liburdfdom-tools)
# parses every file eom exports, from URDF (floating, locked joints), DH, modified DH,
# product-of-exponentials and MJCF models, and finds the tree eom exported (its links and
# joints); eom check reads each back too, with no more warnings than it gives the source. That the exported robot has the same dynamics is
# tests/property/test_urdf_export_properties.cpp.
# Usage: check_urdf.sh EOM SOURCE_DIR. Exit 77 (skipped) without check_urdf (scripts/deps.sh
# installs it).
set -uo pipefail
eom=$1
src=$2
case_name=check_urdf
. "$(dirname "$0")/lib.sh"
needs check_urdf

# check ROBOT [OPTIONS...]: export, check_urdf, and compare the counts of links and joints
check() {
  "$eom" export "$@" -q -o exported.urdf || fail "eom export $*"
  "$eom" check exported.urdf -q || fail "eom check refuses the export of $*"
  # the links the export makes up (between the joints of one MJCF body, a DH joint's link) are
  # massless by construction: eom check warns about the export no more than about its source
  if [ $# = 1 ]; then
    local source_warnings export_warnings
    source_warnings=$("$eom" check "$1" 2>&1 | grep -c "warning:")
    export_warnings=$("$eom" check exported.urdf 2>&1 | grep -c "warning:")
    [ "$export_warnings" -le "$source_warnings" ] ||
      fail "eom check warns about the export of $*: $("$eom" check exported.urdf 2>&1)"
  fi
  check_urdf exported.urdf > report.txt 2>&1 || fail "check_urdf refuses the export of $*: $(cat report.txt)"
  grep -q "Successfully Parsed XML" report.txt || fail "check_urdf on the export of $*: $(cat report.txt)"
  local links joints
  links=$(grep -c "<link " exported.urdf)
  joints=$(grep -c "<joint " exported.urdf)
  # check_urdf prints the tree: one "child(k):" line per link under the root
  [ "$(grep -cE "child\([0-9]+\):" report.txt)" = "$joints" ] ||
    fail "check_urdf found another tree in the export of $*: $(cat report.txt)"
  [ "$((joints + 1))" = "$links" ] || fail "the export of $* is not a tree: $links links, $joints joints"
}

for robot in "$src"/robots/*.urdf; do
  check "$robot"
done
check "$src/robots/solo12.urdf" --floating-base
check "$src/tests/data/urdf/massless_gripper.urdf" --lock finger_joint_1=0.03,finger_joint_3
for model in "$src"/tests/data/models/{arm_rp.poe,puma_like.dh,puma_like.mdh}.json; do
  check "$model"
done
# MJCF: a range without an effort (written as the largest double: URDF has no "unlimited"), a
# free joint, several joints in one body
for model in "$src"/tests/data/mjcf/{arm,floating,defaults,armature,mesh}.xml; do
  check "$model"
done
# eom's <dynamics armature> extension: check_urdf reads past it, and the export keeps it
check "$src/tests/data/robots/geared_mixed.urdf"
grep -q 'armature="0.12"' exported.urdf || fail "the export of geared_mixed.urdf lost its armature"
# the textbook's scaled screw axis has no URDF spelling: refused, nothing written
expect 2 "$eom" export "$src/tests/data/models/textbook_3link.json" -o scaled.urdf
stderr_has "a scaled screw axis"
[ ! -e scaled.urdf ] || fail "a refused export wrote its file"
echo "ok"
