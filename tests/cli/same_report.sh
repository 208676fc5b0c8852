#!/usr/bin/env bash
# The report of eom identify over logs (SINGLE) against that of --merge of their partial fits
# (MERGED): the same bytes once the single run's largest residuals on the fit's logs are taken
# out, which only a run that reads the logs can give (the file's model's during the fit, the
# identified model's after it).
# Usage: same_report.sh SINGLE MERGED
set -euo pipefail
sed -E -e "s/; largest residual of (each|the file's model)$//" \
  -e 's/; [^;]+ \([^)]+ line [0-9]+\)$//' "$1" | cmp - "$2"
