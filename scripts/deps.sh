#!/usr/bin/env bash
# Install eom's build and test dependencies from Debian 12 packages (as root).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends g++ cmake make ninja-build libeigen3-dev libcli11-dev \
  nlohmann-json3-dev libtinyxml2-dev catch2 libbenchmark-dev parallel liborocos-kdl-dev \
  python3 jq clang-format snakemake graphviz liburdfdom-tools libplplot-dev \
  plplot-driver-cairo slurm-wlm munge
