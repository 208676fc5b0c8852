# What the row engine gives every per-row subcommand (shown through eom id and eom fk): time
# columns of real logs, renamed pass-through, static poses, partial joints, quiet runs, and
# messages that name what and where.
set(rows tests/data/rows)

eom_cli_test(NAME rows-time-column-nanoseconds
             ARGS id robots/planar_2r.urdf ${rows}/planar_2r_stamped.csv --time-column stamp --time-scale 1e-9
             STDOUT tests/data/planar_2r_small.tau.csv COMPARE numeric)
eom_cli_test(NAME rows-time-column-missing
             ARGS id robots/planar_2r.urdf ${rows}/planar_2r_stamped.csv --time-column time
             RC 2 STDERR_REGEX "planar_2r_stamped.csv:1: --time-column: no column time")
eom_cli_test(NAME rows-keep-renamed
             ARGS id robots/planar_2r.urdf ${rows}/planar_2r_measured.csv --keep tau.joint1:measured.joint1
             STDOUT_REGEX "^t,measured.joint1,tau.joint1,tau.joint2")
eom_cli_test(NAME rows-keep-clash
             ARGS id robots/planar_2r.urdf ${rows}/planar_2r_measured.csv --keep tau.joint1
             RC 2 STDERR_REGEX "output column tau.joint1 would appear twice \\(rename a kept column with --keep NAME:NEW_NAME\\)")
# --keep takes globs (as plot --y): each matching column under its own name, in input order
eom_cli_test(NAME rows-keep-glob
             ARGS id robots/planar_2r.urdf ${rows}/planar_2r_labels.csv --keep "*e*"
             STDOUT_REGEX "^t,label,frame_id,note,tau.joint1,tau.joint2\n")
eom_cli_test(NAME rows-keep-glob-matches-nothing
             ARGS id robots/planar_2r.urdf ${rows}/planar_2r_labels.csv --keep "contact.*"
             RC 2 STDERR_REGEX "planar_2r_labels.csv:1: --keep 'contact.\\*' matches no column")
eom_cli_test(NAME rows-keep-glob-renamed
             ARGS id robots/planar_2r.urdf ${rows}/planar_2r_labels.csv --keep "q.*:x"
             RC 2 STDERR_REGEX "--keep q.\\*:x: a glob keeps columns under their own names; rename one column at a time")
eom_cli_test(NAME rows-keep-misspelt
             ARGS id robots/planar_2r.urdf ${rows}/planar_2r_labels.csv --keep lable
             RC 2 STDERR_REGEX "planar_2r_labels.csv:1: --keep: no column 'lable' \\(did you mean 'label'")
eom_cli_test(NAME rows-static-poses
             ARGS id robots/planar_2r.urdf ${rows}/planar_2r_poses.csv --static
             STDOUT ${rows}/planar_2r_poses.gravity.csv COMPARE numeric)
eom_cli_test(NAME rows-q-and-a-without-v
             ARGS id robots/planar_2r.urdf ${rows}/planar_2r_q_a.csv
             STDERR_REGEX "planar_2r_q_a.csv: derived v from q \\(on the configuration manifold\\) and t by least-squares fits of degree 4 over 5 rows \\(chosen from the first 199 rows")
eom_cli_test(NAME rows-quiet
             ARGS id robots/planar_2r.urdf tests/data/id/planar_2r_q_only.csv -q -o /dev/null)
eom_cli_test(NAME rows-overflow-names-the-row
             ARGS id robots/planar_2r.urdf ${rows}/planar_2r_overflow.csv
             RC 2 STDERR_REGEX "planar_2r_overflow.csv:3: tau.joint1 came out as (nan|-?inf): the numbers of this row overflow \\(its largest input is 1e\\+200\\)")
eom_cli_test(NAME rows-quaternion-far-from-unit
             ARGS id tests/data/robots/solo12.urdf ${rows}/solo12_unnormalized_quaternion.csv --floating-base -o /dev/null
             STDERR_REGEX "1 row has a quaternion far from unit norm \\(first at line 3, \\|norm - 1\\| = 1[.0-9]*\\): renormalised")
eom_cli_test(NAME rows-fk-frames-twice
             ARGS fk robots/ur5.urdf trajectories/ur5_wave.csv --frames tool0,tool0
             RC 2 STDERR_REGEX "--frames: tool0 is named twice")
eom_cli_test(NAME rows-fk-frames-need-only-their-joints
             ARGS fk robots/planar_2r.urdf ${rows}/planar_2r_q_a.csv --frames link1 --keep-input
             STDOUT_REGEX "^t,q.joint1,q.joint2,a.joint1,a.joint2,link1.x")
eom_cli_test(NAME rows-robot-and-table-from-stdin
             ARGS id - - RC 2 STDERR_REGEX "ROBOT and TABLE cannot both be stdin")
eom_cli_test(NAME rows-jobs-out-of-range
             ARGS id robots/ur5.urdf trajectories/ur5_wave.csv --jobs -1
             RC 2 STDERR_REGEX "^eom id: error: --jobs takes a whole number from 0 to 4096, not '-1'\nRun 'eom id --help' for the options.\n$")
eom_cli_test(NAME rows-unknown-subcommand
             ARGS bogus RC 2 STDERR_REGEX "eom: error: unknown subcommand 'bogus'; the subcommands are info, check, fk, convert, id, fd")
# a misspelt subcommand: the close names, closest first ('id' one edit from 'idd', 'fd' and 'ik' two)
eom_cli_test(NAME rows-unknown-subcommand-suggests
             ARGS idd RC 2 STDERR_REGEX "^eom: error: unknown subcommand 'idd' \\(did you mean 'id', 'fd', 'ik'\\?\\); the subcommands are info, ")
