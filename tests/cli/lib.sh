# Shared by the CLI test scripts (sourced): a scratch directory removed on exit, and checks.
# The caller sets eom, src and case_name first.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2

fail() {
  echo "FAILED: $*"
  exit 1
}
# expect RC CMD...: run, keep stdout in out.txt and stderr in err.txt, check the exit code
expect() {
  local rc=$1
  shift
  "$@" > out.txt 2> err.txt
  local got=$?
  [ "$got" = "$rc" ] || fail "exit $got, expected $rc: $* ($(cat err.txt))"
}
stderr_has() {
  grep -q -- "$1" err.txt || fail "stderr lacks '$1': $(cat err.txt)"
}
# needs TOOL: skip the case (exit 77) when TOOL is not installed (scripts/deps.sh installs it)
needs() {
  command -v "$1" > /dev/null || { echo "$1 not installed: skipped"; exit 77; }
}
