#!/usr/bin/env bash
# Proves that two eom binaries behave the same, byte for byte, on every command line of the CLI
# test suite: runs `ctest -L cli` twice in BUILD_DIR, once with OLD_EOM and once with the build's
# own eom, each behind a recording wrapper, and compares what every invocation produced: exit code,
# stdout and stderr (when they go to files, as in every scripted test), and the files it wrote
# (-o/--output, --output-dir, --summary-json, --summary). Temporary directory names are
# normalised, since they differ between runs. Used for behaviour-preserving changes: build the
# commit to compare against, then
#   bash scripts/compare_outputs.sh /path/to/old/eom build
# Exit 0 when every invocation matches, 1 otherwise (the differences are listed).
set -uo pipefail
old=$(realpath "$1")
build=$(realpath "$2")
work=$(mktemp -d /tmp/eom-compare.XXXXXX)
trap 'mv -f "$work/new/eom" "$build/eom" 2>/dev/null; rm -rf "$work"' EXIT

mkdir -p "$work/old" "$work/new" "$work/record-old" "$work/record-new"
cp "$old" "$work/old/eom"
mv "$build/eom" "$work/new/eom"

# the wrapper: runs the real binary with the caller's descriptors untouched, then records
cat > "$work/wrapper" <<'EOF'
#!/usr/bin/env bash
real=@REAL@
record=@RECORD@
# temporary directories differ between runs (also where eom plot writes a title as XML character
# references), and so do eom ik's wall-clock solve times
normalise() {
  sed -E 's#/(tmp|dev/shm)/[A-Za-z0-9._-]*(tmp|eom)[A-Za-z0-9._-]*#TMP#g; s#/tmp/[A-Za-z0-9_.]{6,}#TMP#g
          s#&\#x2f;&\#x74;&\#x6d;&\#x70;&\#x2f;(&\#x[0-9a-f]+;)*&\#x2f;#TMP/#g
          s#solve time median [0-9.e+-]+ us, slowest [0-9.e+-]+ us#solve time median T us, slowest T us#
          /"solve_time_us"/,/\}/ s#("(median|max)"): [0-9.e+-]+#\1: T#' |
    if [ -n "$timing" ]; then sed -E 's#,[0-9.e+-]+$#,T#'; else cat; fi  # ik --timing: ik.time_us, last
}
timing=
case " $* " in *" --timing "*) timing=1 ;; esac
# the call and the contents of the files it names: the error matrix runs one command line on
# many different bad inputs in directories whose names are normalised away
key=$({ printf '%s\n' "$PWD" "$@" | normalise; for a in "$@"; do [ -f "$a" ] && normalise < "$a" | sha1sum; done; } |
  sha1sum | cut -c1-16)
out_target=$(readlink /proc/$$/fd/1 2>/dev/null)
err_target=$(readlink /proc/$$/fd/2 2>/dev/null)
# a stream inherited from the caller is the caller's log (snakemake's, shared by its parallel jobs
# and holding its time stamps), not this call's output
[ "$out_target" = "$(readlink /proc/$PPID/fd/1 2>/dev/null)" ] && out_target=
[ "$err_target" = "$(readlink /proc/$PPID/fd/2 2>/dev/null)" ] && err_target=
"$real" "$@"
rc=$?
n=0
while [ -e "$record/$key.$n" ]; do n=$((n + 1)); done
dir=$record/$key.$n
mkdir -p "$dir"
{ printf '%s\n' "$PWD" "$@" | normalise; echo "rc=$rc"; } > "$dir/call"
[ -f "$out_target" ] && normalise < "$out_target" > "$dir/stdout"
[ -f "$err_target" ] && normalise < "$err_target" > "$dir/stderr"
args=("$@")
for ((i = 0; i < ${#args[@]}; ++i)); do
  case ${args[i]} in
  -o | --output | --output-dir | --summary-json | --summary)
    f=${args[i + 1]:-}
    if [ -f "$f" ]; then
      normalise < "$f" > "$dir/file.$i"
    elif [ -d "$f" ]; then
      (cd "$f" && find . -type f | sort | while read -r g; do echo "== $g"; normalise < "$g"; done) > "$dir/dir.$i"
    fi
    ;;
  esac
done
exit $rc
EOF

run() {  # run SIDE: the CLI suite with the SIDE binary behind the wrapper
  sed -e "s#@REAL@#$work/$1/eom#" -e "s#@RECORD@#$work/record-$1#" "$work/wrapper" > "$build/eom"
  chmod +x "$build/eom"
  ctest --test-dir "$build" -L cli -j"$(nproc)" --timeout 120 > "$work/ctest-$1.log" 2>&1
  echo "$1: $(grep -E 'tests passed|tests failed' "$work/ctest-$1.log")"
}
run old
run new
mv -f "$work/new/eom" "$build/eom"

calls=$(find "$work/record-old" -mindepth 1 -maxdepth 1 | wc -l)
if diff -r "$work/record-old" "$work/record-new" > "$work/diff"; then
  echo "identical: $calls invocations of eom, exit codes, stdout, stderr and files written"
  exit 0
fi
echo "DIFFERENT (of $calls invocations):"
grep -E '^(Only in|diff -r)' "$work/diff" | head -50
# every invocation that differs, once (Only in: an invocation whose inputs differed, listed by
# its call)
for d in $( (grep -oE '^diff -r [^ ]+' "$work/diff" | awk '{print $3}' | xargs -r -n1 dirname
  grep -E '^Only in' "$work/diff" | sed -E 's#^Only in ([^:]+): (.*)#\1/\2#') | sort -u); do
  echo "--- $(head -c 400 "$d/call" | tr '\n' ' ')"
done
head -100 "$work/diff"
exit 1
