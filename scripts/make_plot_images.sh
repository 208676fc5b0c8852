#!/usr/bin/env bash
# The pictures of doc/plot.md (doc/img/*.png), made by eom plot from the shipped trajectories.
# Usage: bash scripts/make_plot_images.sh [EOM]   (default: build/eom), from the repository root.
set -euo pipefail
eom=$(realpath "${1:-build/eom}")
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# the iiwa's torques along its wave, with the effort limits of its URDF
"$eom" id robots/iiwa14.urdf trajectories/iiwa14_wave.csv -o "$work/iiwa_tau.csv"
"$eom" plot "$work/iiwa_tau.csv" --robot robots/iiwa14.urdf --y 'tau.*' --panel-height 420 \
  --title 'iiwa14 wave: joint torques and effort limits' -o doc/img/iiwa_tau.png
# the UR5 through its singular configurations: an eom jac output, rank-deficient rows shaded
"$eom" jac robots/ur5.urdf tests/data/jac/ur5_singular.csv --frame tool0 -q -o "$work/ur5_jac.csv"
"$eom" plot "$work/ur5_jac.csv" --y 'sigma.*' --y manipulability --panel-height 220 \
  --title 'UR5 singularity scan: singular values of the tool0 Jacobian' -o doc/img/ur5_sigma.png
# Solo12's contact forces along its floating walk, the contact schedule underneath
"$eom" id robots/solo12.urdf trajectories/solo12_floating_walk.csv --floating-base \
  --contacts FL_FOOT,FR_FOOT,HL_FOOT,HR_FOOT -o "$work/solo_contacts.csv"
"$eom" plot "$work/solo_contacts.csv" --y 'f.*.fz' \
  --title 'Solo12 floating walk: vertical contact forces' -o doc/img/solo_forces.png
