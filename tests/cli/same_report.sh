#!/usr/bin/env bash
# The report of eom identify over logs (SINGLE) against that of --merge of their partial fits
# (MERGED): the same bytes once the single run's largest residuals on the fit's logs are taken
# out, which only a run that reads the logs (again, after the fit) can give.
# Usage: same_report.sh SINGLE MERGED
set -euo pipefail
sed -E -e 's/; largest residual of each//' \
  -e 's/; [^;]+ -> [^;]+ \([^)]+ line [0-9]+\)$//' "$1" | cmp - "$2"
