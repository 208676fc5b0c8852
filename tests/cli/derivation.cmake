# Deriving v and a from q (doc/tables.md "Deriving missing derivatives"), against the exact
# torques of the planar 2R arm's closed form at the analytic derivatives
# (scripts/make_derivation_tables.py): a slowly sampled log, angles that wrap, dropped samples.
set(deriv_data tests/data/derivation)

# 50 Hz: fits over the window chosen from the data (the default), over a given window, and the
# three-point formulas, each within the accuracy doc/tables.md states for it (largest errors
# measured, at the ends of the table: 4.7e-5 N m with the chosen window, 5 rows; 3.5e-4 over 9
# rows, 0.09 three-point; torques up to 16 N m)
eom_cli_test(NAME derive-50hz-fits
             ARGS id robots/planar_2r.urdf ${deriv_data}/planar_2r_50hz.csv
             STDOUT ${deriv_data}/planar_2r_50hz.tau.csv COMPARE numeric ATOL 1e-4 RTOL 0
             STDERR_REGEX "derived v, a from q \\(on the configuration manifold\\) and t by least-squares fits of degree 4 over 5 rows \\(chosen from the first 101 rows, noise [0-9.e-]+; --derive-window sets them\\)")
# a 0.4 Hz motion at 50 Hz (the slow log fixed windows of 17 or 33 rows smooth too much): the
# chosen window (5 rows) within 1.4e-3 N m of the exact torques at the ends, against 0.079 over
# 17 rows (torques up to 30 N m)
eom_cli_test(NAME derive-50hz-slow-chosen
             ARGS id robots/planar_2r.urdf ${deriv_data}/planar_2r_50hz_slow.csv
             STDOUT ${deriv_data}/planar_2r_50hz_slow.tau.csv COMPARE numeric ATOL 3e-3 RTOL 0
             STDERR_REGEX "fits of degree 4 over 5 rows \\(chosen from the first 501 rows")
# 1 kHz with noise of +-1e-4 rad on q: the widest window, 63 rows (measured 3.2 N m at the ends,
# 52 N m over 17 rows; the noise, 5.8e-5 rms, estimated as 5.5e-5)
eom_cli_test(NAME derive-1khz-noisy-chosen
             ARGS id robots/planar_2r.urdf ${deriv_data}/planar_2r_1khz_noisy.csv
             STDOUT ${deriv_data}/planar_2r_1khz_noisy.tau.csv COMPARE numeric ATOL 5 RTOL 0
             STDERR_REGEX "fits of degree 4 over 63 rows \\(chosen from the first 1000 rows, noise 5.5e-05")
eom_cli_test(NAME derive-50hz-three-point
             ARGS id robots/planar_2r.urdf ${deriv_data}/planar_2r_50hz.csv --derive three-point
             STDOUT ${deriv_data}/planar_2r_50hz.tau.csv COMPARE numeric ATOL 0.2 RTOL 0
             STDERR_REGEX "and t by three-point differences")
eom_cli_test(NAME derive-window-honoured
             ARGS id robots/planar_2r.urdf ${deriv_data}/planar_2r_50hz.csv --derive-window 9
             STDOUT ${deriv_data}/planar_2r_50hz.tau.csv COMPARE numeric ATOL 1e-3 RTOL 0
             STDERR_REGEX "least-squares fits of degree 4 over 9 rows")
eom_cli_test(NAME derive-window-too-small
             ARGS id robots/planar_2r.urdf ${deriv_data}/planar_2r_50hz.csv --derive-window 4
             RC 2 STDERR_REGEX "--derive-window 4 is too small for fits of degree 4: give at least 5 rows")
eom_cli_test(NAME derive-three-point-no-window
             ARGS id robots/planar_2r.urdf ${deriv_data}/planar_2r_50hz.csv --derive three-point --derive-window 9
             RC 2 STDERR_REGEX "--derive-window sets the rows of fits: it does not go with --derive three-point")
eom_cli_test(NAME derive-three-point-orders
             ARGS deriv robots/planar_2r.urdf ${deriv_data}/planar_2r_50hz.csv --order 1 --derive three-point
             RC 2 STDERR_REGEX "three-point differences derive v and a only, not 3th derivatives of q")

# joint1 spins through several turns, logged in (-pi, pi]: differenced on the circle when it is
# continuous, or revolute with limits more than a turn apart (said once, naming the line);
# measured 2.7e-4 N m at the ends, 6e-7 inside (on the arm limited to +-pi: 3.7e4 N m)
eom_cli_test(NAME derive-wrapped-continuous
             ARGS id tests/data/urdf/planar_2r_continuous.urdf ${deriv_data}/planar_2r_spin.csv
             STDOUT ${deriv_data}/planar_2r_spin.tau.csv COMPARE numeric ATOL 1e-3 RTOL 0
             STDERR_REGEX "derived v, a from q")
eom_cli_test(NAME derive-wrapped-wide-limits
             ARGS id tests/data/urdf/planar_2r_wide_limits.urdf ${deriv_data}/planar_2r_spin.csv
             STDOUT ${deriv_data}/planar_2r_spin.tau.csv COMPARE numeric ATOL 1e-3 RTOL 0
             STDERR_REGEX "planar_2r_spin.csv:[0-9]+: q.joint1 jumps from 3.1[0-9]* to -3.1[0-9]* \\([0-9]+ jumps of nearly 2 pi in all\\): its limits are more than a turn apart")
# a shipped robot's continuous joints: the wrapped log gives the torques of the unwrapped one
add_test(NAME "cli: derive-wrapped-kinova-equals-unwrapped"
         COMMAND bash -c "set -e
           \"$0\" id tests/data/robots/kinova.urdf ${deriv_data}/kinova_spin.csv -o \"$2/kinova_spin.tau.csv\" -q
           \"$0\" id tests/data/robots/kinova.urdf ${deriv_data}/kinova_spin_wrapped.csv -o \"$2/kinova_spin_wrapped.tau.csv\" -q
           \"$1\" \"$2/kinova_spin.tau.csv\" \"$2/kinova_spin_wrapped.tau.csv\" 1e-9 1e-9"
                 $<TARGET_FILE:eom_cli> $<TARGET_FILE:tabdiff> ${EOM_CLI_OUT}
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties("cli: derive-wrapped-kinova-equals-unwrapped" PROPERTIES LABELS cli)

# a 1 kHz log with jitter and dropped stretches (19 rows after line 402, 3 after line 682 of the full log):
# derived segment by segment, as accurate near the gaps as at the ends of a table, said once
# (measured: 3.6e-8 N m with the gaps, 2.5e-8 on the full log, the window chosen from the
# longest run without a gap: 7 rows)
eom_cli_test(NAME derive-gaps-split
             ARGS id robots/planar_2r.urdf ${deriv_data}/planar_2r_1khz_gap.csv
             STDOUT ${deriv_data}/planar_2r_1khz_gap.tau.csv COMPARE numeric ATOL 1e-7 RTOL 0
             STDERR_REGEX "planar_2r_1khz_gap.csv: 2 gaps in t \\(a step over 1.5 times the usual one\\), before line 403 \\(t 0.[34][0-9]* to 0.42[0-9]*\\), line 683 \\(t 0.69[0-9]* to 0.70[0-9]*\\): v, a derived within each segment, 12 rows near the gaps from one-sided windows")
eom_cli_test(NAME derive-gaps-full-log
             ARGS id robots/planar_2r.urdf ${deriv_data}/planar_2r_1khz.csv
             STDOUT ${deriv_data}/planar_2r_1khz.tau.csv COMPARE numeric ATOL 1e-7 RTOL 0
             STDERR_REGEX "derived v, a from q .* over 7 rows \\(chosen from the first 1000 rows")
eom_cli_test(NAME derive-gaps-refuse
             ARGS id robots/planar_2r.urdf ${deriv_data}/planar_2r_1khz_gap.csv --gaps refuse -o ${EOM_CLI_OUT}/gaps_refused.csv
             RC 2 STDERR_REGEX "planar_2r_1khz_gap.csv:403: the step in t changes from 0.00[0-9]* to 0.02[0-9]* s: derivatives across it cannot be trusted \\(--gaps refuse"
             ABSENT ${EOM_CLI_OUT}/gaps_refused.csv)
# a fatal error comes alone: no word before it of a derivation that was then not done
add_test(NAME "cli: derive-error-without-warnings"
         COMMAND bash -c "head -4 tests/data/id/planar_2r_q_only.csv | \"$0\" id robots/planar_2r.urdf - > /dev/null 2> \"$1/derive_short.err\"; rc=$?
           cat \"$1/derive_short.err\"
           test $rc = 2 && test \"$(wc -l < \"$1/derive_short.err\")\" = 1 &&
           grep -q 'deriving v needs at least 5 rows (a fit of degree 4), the table has 3' \"$1/derive_short.err\""
                 $<TARGET_FILE:eom_cli> ${EOM_CLI_OUT}
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties("cli: derive-error-without-warnings" PROPERTIES LABELS cli)
