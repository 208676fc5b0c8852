#!/usr/bin/env bash
# The error contract, one cell of the matrix (tests/cli/errors.cmake lists the cells):
#   errors.sh EOM SOURCE_DIR CLASS [--robot R] [--table T] [--frame F] [--drop COLUMN]
#             [--bad-option OPT] [--model-rc RC] [--report-on-stdout]
#             [--partial-of "TABLE OPTIONS"] -- ARGUMENTS...
# ARGUMENTS is the subcommand's command line with the placeholders @ROBOT@, @TABLE@, @OUT@,
# @FRAME@ and @PARTIAL@ (a partial fit, made by eom identify R TABLE OPTIONS --partial); the cell
# replaces one of them by the bad input of CLASS (the others by the valid R, T, F, partial fit)
# and asserts: exit 2 (--model-rc for model errors a command reports as findings: eom check),
# a message naming the file with its line (and column for a cell), or the option; and, when the
# command writes @OUT@, that no output file was created and an existing one was left untouched.
# Exit 77 (ctest: skipped) for a cell that cannot be tested here, saying why.
set -uo pipefail
eom=$1
src=$2
class=$3
shift 3
robot=
table=
frame=
drop=
bad_option=
model_rc=2
report_on_stdout=false
partial_of=
while [ $# -gt 0 ]; do
  case $1 in
  --robot) robot=$src/$2 && shift 2 ;;
  --table) table=$src/$2 && shift 2 ;;
  --frame) frame=$2 && shift 2 ;;
  --drop) drop=$2 && shift 2 ;;
  --bad-option) bad_option=$2 && shift 2 ;;
  --model-rc) model_rc=$2 && shift 2 ;;
  --report-on-stdout) report_on_stdout=true && shift ;;
  --partial-of) partial_of=$2 && shift 2 ;;
  --) shift && break ;;
  *) echo "errors.sh: unknown argument $1" && exit 2 ;;
  esac
done
template=("$@")

work=$(mktemp -d)
trap 'chmod -R u+rwx "$work"; rm -rf "$work"' EXIT
cd "$work" || exit 2

fail() {
  echo "FAILED ($class): $*"
  exit 1
}
skip() {
  echo "SKIPPED ($class): $*"
  exit 77
}

# The valid inputs, copied so that messages name short relative paths. Tables keep their header
# and five rows: every bad cell below is on line 3.
robot_arg=robot.urdf
[ -n "$robot" ] && cp "$robot" robot.urdf
table_arg=table.csv
[ -n "$table" ] && head -n 6 "$table" > table.csv
frame_arg=$frame
partial_arg=partial.json
if [ -n "$partial_of" ]; then
  read -r partial_table partial_flags <<< "$partial_of"
  # shellcheck disable=SC2086
  "$eom" identify robot.urdf "$src/$partial_table" $partial_flags -q --partial partial.json ||
    fail "could not make the partial fit"
fi
expected_rc=2
expected=()  # extended regexes the message must match
# the option just before @FRAME@ in the template, named by the unknown-frame message
frame_option=
for ((i = 1; i < ${#template[@]}; ++i)); do
  [ "${template[i]}" = @FRAME@ ] && frame_option=${template[i - 1]}
done

# column number (1-based) of a header name in table.csv
column_of() {
  head -1 table.csv | tr ',' '\n' | grep -nx -F "$1" | cut -d: -f1
}
# replace field 2 of line 3 of table.csv by $1
set_cell() {
  awk -F, -v OFS=, -v value="$1" 'NR == 3 { $2 = value } 1' table.csv > t && mv t table.csv
}
bad_robot() {
  cp "$src/tests/data/urdf/$1" robot.urdf
  expected+=("robot\.urdf:$2: ")
  expected_rc=$model_rc
}

case $class in
robot-missing)
  robot_arg=no_such_robot.urdf
  expected+=("no_such_robot\.urdf")
  ;;
robot-unreadable)
  [ "$(id -u)" = 0 ] && skip "running as root, which reads a file of mode 000 all the same"
  chmod 000 robot.urdf
  expected+=("robot\.urdf")
  ;;
robot-directory)
  robot_arg=robot_dir.urdf && mkdir robot_dir.urdf
  expected+=("robot_dir\.urdf")
  ;;
robot-device)
  # a link to /dev/zero, which never ends: refused before a byte is read
  rm robot.urdf && ln -s /dev/zero robot.urdf
  expected+=("robot\.urdf: (error: )?is neither a regular file nor a pipe")
  ;;
robot-oversized)
  # one byte more than the 64 MiB a robot file may take (sparse: refused by its size)
  truncate -s $((64 * 1024 * 1024 + 1)) robot.urdf
  expected+=("robot\.urdf: (error: )?larger than 64 MiB")
  ;;
deep-nesting)
  # elements nested 100,000 deep on line 2
  { echo '<robot name="deep">'; for ((k = 0; k < 1000; ++k)); do printf '<a>%.0s' {1..100}; done
    echo; echo '</robot>'; } > robot.urdf
  expected+=("robot\.urdf:2: (error: )?malformed XML: elements nested more than 98 deep")
  ;;
malformed-xml) bad_robot malformed_xml.urdf 4 && expected_rc=2 ;;  # unparseable: 2 for every command
non-physical-inertia) bad_robot indefinite_inertia.urdf 5 ;;
beyond-bounds) bad_robot beyond_bounds.urdf 11 && expected+=("beyond the 1e\\+09 kg a model may state") ;;
unknown-joint-type) bad_robot unknown_joint_type.urdf 10 ;;
cycle) bad_robot cycle.urdf '[0-9]+' ;;
table-missing)
  table_arg=no_such_table.csv
  expected+=("no_such_table\.csv")
  ;;
table-unreadable)
  [ "$(id -u)" = 0 ] && skip "running as root, which reads a file of mode 000 all the same"
  chmod 000 table.csv
  expected+=("table\.csv")
  ;;
table-directory)
  table_arg=table_dir.csv && mkdir table_dir.csv
  expected+=("table_dir\.csv")
  ;;
text-in-number)
  set_cell abc
  expected+=("table\.csv:3:[0-9]+: .*'abc'")
  ;;
nan)
  set_cell nan
  expected+=("table\.csv:3:[0-9]+: .*'nan'")
  ;;
nul-in-cell)
  # a NUL inside a cell is shown (\x00), not the end of the message (issue 38 item 15)
  perl -i -pe 's/^([^,]*),[^,]*/$1,1\x002/ if $. == 3' table.csv
  expected+=("table\.csv:3:[0-9]+: .*'1\\\\x002' is not a number")
  ;;
out-of-range)
  set_cell 1e400
  expected+=("table\.csv:3:[0-9]+: .*'1e400' is out of the range of a double \\(beyond 1\\.8e308\\)")
  ;;
json-out-of-range)
  # the same table as JSON rows, one per line: 1e400 in line 3's second value, said as in CSV
  # and not in a JSON parser's words
  "$eom" convert table.csv table.json 2> /dev/null || fail "cannot convert table.csv to JSON"
  perl -i -pe 's/^(\{"[^"]*": *[^,]*, *"[^"]*": *)[^,}]*/${1}1e400/ if $. == 3' table.json
  grep -q 1e400 table.json || fail "no 1e400 written into table.json: $(head -3 table.json)"
  table_arg=table.json
  expected+=("table\.json:3:[0-9]+: .*'1e400' is out of the range of a double")
  ;;
ragged-row)
  awk -F, -v OFS=, 'NR == 3 { NF = NF - 1 } 1' table.csv > t && mv t table.csv
  expected+=("table\.csv:3(:[0-9]+)?: ")
  ;;
duplicate-column)
  # column 2 once more at the end of every line
  awk -F, -v OFS=, '{ $(NF + 1) = $2 } 1' table.csv > t && mv t table.csv
  expected+=("table\.csv:1(:[0-9]+)?: .*$(head -1 table.csv | cut -d, -f2 | sed 's/\./\\./g')")
  ;;
missing-column)
  column=$(column_of "$drop")
  [ -n "$column" ] || fail "the table has no column $drop to drop"
  cut -d, -f"$column" --complement table.csv > t && mv t table.csv
  expected+=("table\.csv:1(:[0-9]+)?: .*${drop//./\\.}")
  ;;
overlong-row)
  # line 3 a single field longer than the 16 MiB a row may take
  { head -n 2 table.csv; head -c 17000000 /dev/zero | tr '\0' 1; echo; tail -n +4 table.csv; } > t
  mv t table.csv
  expected+=("table\.csv:3: the line is longer than 16 MiB")
  ;;
empty-input)
  : > table.csv
  expected+=("table\.csv")
  ;;
partial-missing)
  partial_arg=no_such_partial.json
  expected+=("no_such_partial\.json")
  ;;
partial-truncated)
  head -c $(($(wc -c < partial.json) / 2)) partial.json > t && mv t partial.json
  expected+=("partial\.json:[0-9]+:[0-9]+: malformed JSON: ")
  ;;
partial-not-a-number)
  sed -E '0,/"qt_tau": \[[^],]*/s//"qt_tau": ["abc"/' partial.json > t && mv t partial.json
  expected+=("partial\.json: /factors/0/qt_tau/0: expected a number, found a string")
  ;;
partial-other-model)
  sed -E 's/"model_hash": "[0-9a-f]*"/"model_hash": "0123456789abcdef"/' partial.json > t
  mv t partial.json
  expected+=("partial\.json: a partial fit made with another model .*model hash 0123456789abcdef")
  ;;
partial-other-settings)
  sed 's/"friction": \[\]/"friction": ["viscous"]/' partial.json > t && mv t partial.json
  expected+=("partial\.json: a partial fit made with the friction columns viscous, this run with none")
  ;;
partial-other-contacts)
  # a partial fit of logs with contact forces, merged into a run without contacts
  sed 's/"locked": \[\],/"locked": [],\n  "contacts": ["tip:3d"],/' partial.json > t && mv t partial.json
  expected+=("partial\.json: a partial fit made with the contacts \(--contacts\) tip:3d, this run with none")
  ;;
partial-newer-version)
  sed 's/"version": 1/"version": 2/' partial.json > t && mv t partial.json
  expected+=("partial\.json: /version: 2, expected 1")
  ;;
log-as-partial)
  head -n 6 "$src/$partial_table" > log.csv
  partial_arg=log.csv
  expected+=("log\.csv:1:1: expected a partial fit of eom identify")
  ;;
no-partials)
  # --merge, the last word, with nothing after it
  template=("${template[@]/@PARTIAL@/}")
  expected+=("--merge")
  ;;
partial-as-log)
  table_arg=partial.json
  expected+=("partial\.json: a partial fit of eom identify, not a log")
  ;;
unknown-frame)
  frame_arg=no_such_frame
  expected+=("no_such_frame" "${frame_option}")
  ;;
bad-option)
  report_on_stdout=false  # a usage error is on stderr for every command
  template+=("$bad_option")
  expected+=("${bad_option%%[= ]*}")
  ;;
*) fail "unknown class" ;;
esac

writes_output=false
for word in "${template[@]}"; do [ "$word" = @OUT@ ] && writes_output=true; done

# run OUT: the command line with the placeholders replaced; checks rc and message
run() {
  local args=() word
  for word in "${template[@]}"; do
    word=${word//@ROBOT@/$robot_arg}
    word=${word//@TABLE@/$table_arg}
    word=${word//@FRAME@/$frame_arg}
    word=${word//@OUT@/$1}
    word=${word//@PARTIAL@/$partial_arg}
    [ -n "$word" ] && args+=("$word")
  done
  "$eom" "${args[@]}" > stdout.txt 2> stderr.txt < /dev/null
  local rc=$?
  local message=stderr.txt
  $report_on_stdout && message=stdout.txt
  [ "$rc" = "$expected_rc" ] || fail "exit $rc, expected $expected_rc: eom ${args[*]}
$(cat stderr.txt stdout.txt)"
  local regex
  for regex in "${expected[@]}"; do
    grep -Eq -- "$regex" "$message" || fail "the message does not match '$regex': eom ${args[*]}
$(cat "$message")"
  done
  if $report_on_stdout; then
    [ -s stderr.txt ] && fail "stderr should be empty: $(cat stderr.txt)"
  elif ! $writes_output; then
    [ -s stdout.txt ] && fail "stdout should be empty on error: $(head -c 300 stdout.txt)"
  fi
  return 0
}

if $writes_output; then
  run out.csv
  [ -e out.csv ] && fail "out.csv was created"
  echo "existing output" > kept.csv
  cp kept.csv kept.orig
  run kept.csv
  cmp -s kept.csv kept.orig || fail "the existing output kept.csv was changed"
  left=$(ls -A | grep -vxE 'robot(_dir)?\.urdf|table(_dir)?\.(csv|json)|std(out|err)\.txt|kept\.(csv|orig)|partial\.json|log\.csv')
  [ -z "$left" ] || fail "left behind: $left"
else
  run -
fi
echo "ok: $class"
