# eom convert: lossless round trips between CSV, JSON and NDJSON, and one test per bad input.
# The fixtures spell every number as std::to_chars prints it, so the outputs compare byte for byte.
set(convert_tables tests/data/tables)
set(convert_error "^eom convert: error: ")

eom_cli_test(NAME convert-csv-to-json ARGS convert ${convert_tables}/small.csv - --format json
             STDOUT ${convert_tables}/small.json)
eom_cli_test(NAME convert-json-to-ndjson ARGS convert ${convert_tables}/small.json - --format ndjson
             STDOUT ${convert_tables}/small.ndjson)
eom_cli_test(NAME convert-ndjson-to-csv ARGS convert ${convert_tables}/small.ndjson -
             STDOUT ${convert_tables}/small.csv)
eom_cli_test(NAME convert-csv-to-csv ARGS convert ${convert_tables}/small.csv -
             STDOUT ${convert_tables}/small.csv)
eom_cli_test(NAME convert-json-columns ARGS convert ${convert_tables}/small_columns.json -
             STDOUT ${convert_tables}/small.csv)
# BOM, CRLF, blank lines, quoted names, padding, '+' signs, other spellings of the same doubles
eom_cli_test(NAME convert-loose-csv ARGS convert ${convert_tables}/small_loose.csv -
             STDOUT ${convert_tables}/small.csv)
eom_cli_test(NAME convert-stdin-stdout ARGS convert - - --format json
             STDIN ${convert_tables}/small.csv STDOUT ${convert_tables}/small.json)
eom_cli_test(NAME convert-stdin-from ARGS convert - --from ndjson
             STDIN ${convert_tables}/small.ndjson STDOUT ${convert_tables}/small.csv)

# through a file: written to a temporary, renamed into place, read back
eom_cli_test(NAME convert-to-file
             ARGS convert ${convert_tables}/small.csv ${EOM_CLI_OUT}/convert_small.ndjson)
eom_cli_test(NAME convert-from-file ARGS convert ${EOM_CLI_OUT}/convert_small.ndjson -o -
             STDOUT ${convert_tables}/small.csv)
set_tests_properties("cli: convert-to-file" PROPERTIES FIXTURES_SETUP convert_file)
set_tests_properties("cli: convert-from-file" PROPERTIES FIXTURES_REQUIRED convert_file)

eom_cli_test(NAME convert-out-and-output
             ARGS convert ${convert_tables}/small.csv ${EOM_CLI_OUT}/convert_a.json
                  -o ${EOM_CLI_OUT}/convert_b.json
             RC 2 STDERR_REGEX "OUT excludes --output")
eom_cli_test(NAME convert-unknown-extension-is-csv
             ARGS convert ${convert_tables}/small.csv /dev/stdout
             STDOUT tests/data/tables/small.csv COMPARE numeric)
eom_cli_test(NAME convert-missing-file ARGS convert ${convert_tables}/no_such_table.csv -
             RC 2 STDERR_REGEX "${convert_error}.*/no_such_table.csv: cannot open: No such file")

# convert reads no number: text, NaN, empty fields, JSON strings and null are fields like any other,
# copied as written (text as JSON strings, null as an empty CSV field and back)
eom_cli_test(NAME convert-text-field ARGS convert ${convert_tables}/bad_text.csv - --format ndjson
             STDOUT_REGEX "\n\\{\"t\":0.01,\"q.shoulder\":0.1,\"q.elbow\":\"abc\"\\}\n$")
eom_cli_test(NAME convert-nan-field ARGS convert ${convert_tables}/bad_nan.csv - --format ndjson
             STDOUT_REGEX "^\\{\"t\":0,\"q.shoulder\":\"nan\",\"q.elbow\":0.2\\}\n$")
eom_cli_test(NAME convert-inf-field ARGS convert ${convert_tables}/bad_inf.csv - --format ndjson
             STDOUT_REGEX "\"q.shoulder\":\"-inf\"")
eom_cli_test(NAME convert-empty-field ARGS convert ${convert_tables}/bad_empty_field.csv - --format ndjson
             STDOUT_REGEX "^\\{\"t\":0,\"q.shoulder\":null,\"q.elbow\":0.2\\}\n$")
eom_cli_test(NAME convert-json-string ARGS convert ${convert_tables}/string_value.json -
             STDOUT_REGEX "^t,q.shoulder\n0,0.1\n$")
eom_cli_test(NAME convert-json-null ARGS convert ${convert_tables}/null_value.ndjson -
             STDOUT_REGEX "^t,q.shoulder\n0,0.1\n0.01,\n$")

# bad inputs: exit 2, file:line:column and the problem on stderr, and no output file
function(convert_bad name file where message)
  set(out ${EOM_CLI_OUT}/convert_${name}.json)
  eom_cli_test(NAME convert-bad-${name} ARGS convert ${convert_tables}/${file} ${out}
               RC 2 ABSENT ${out}
               STDERR_REGEX "${convert_error}${convert_tables}/${file}:${where}: ${message}")
endfunction()
convert_bad(ragged-short ragged_short.csv 3:9 "expected 3 fields as in the header, found 2\n$")
convert_bad(ragged-long ragged_long.csv 2:11 "expected 3 fields as in the header, found 4\n$")
convert_bad(duplicate-column duplicate_column.csv 1:22
            "duplicate column 'q.shoulder' .columns 2 and 4.\n$")
convert_bad(malformed-json malformed.json 3:11 "expected ',' or '}' after a value")
convert_bad(json-missing-key missing_key.json 3:10 "row 2: missing key 'q.shoulder'\n$")
convert_bad(ndjson-missing-key missing_key.ndjson 3:18 "row 2: missing key 't'\n$")
convert_bad(ndjson-extra-key extra_key.ndjson 2:28 "row 2: unknown key 'q.elbow'")
convert_bad(json-ragged-columns ragged_columns.json 3:3
            "column q.shoulder has 2 values, column t has 3\n$")
eom_cli_test(NAME convert-bad-empty
             ARGS convert ${convert_tables}/empty.csv ${EOM_CLI_OUT}/convert_empty.json
             RC 2 ABSENT ${EOM_CLI_OUT}/convert_empty.json
             STDERR_REGEX "${convert_error}.*/empty.csv: empty input, expected a header row\n$")
