# eom impact on a rod falling flat onto one end (tests/data/urdf/rod.urdf, m = 2 kg, L = 1 m, at
# v = 2 m/s): by hand the impulse is P = (1 + e) m v / 4, the centre keeps -v (3 - e) / 4, the rod
# spins at -(1 + e) 3v / (2L) about y and loses (1 - e^2) m v^2 / 8 (a quarter of its energy for
# e = 0); a row with the end inactive changes nothing, a row sliding along x at 1 m/s also loses
# m 1^2 / 2 (1 - e^2) to an impulse -(1 + e) m 1 along x, a row turned a quarter turn about z is
# the same in the base's axes. Then the bad input (exit 2).
set(impact_data tests/data/impact)
eom_cli_test(NAME impact-rod-inelastic
             ARGS impact tests/data/urdf/rod.urdf ${impact_data}/rod_fall.csv --floating-base
                  --contacts end_right
             STDOUT ${impact_data}/rod_fall.inelastic.csv COMPARE numeric ATOL 1e-12)
eom_cli_test(NAME impact-rod-restitution
             ARGS impact tests/data/urdf/rod.urdf ${impact_data}/rod_fall.csv --floating-base
                  --contacts end_right:3d --restitution 0.5
             STDOUT ${impact_data}/rod_fall.restitution.csv COMPARE numeric ATOL 1e-12)
# both ends at once: 6 constraints of rank 5 (the rod's spin about its own axis is free), the rod
# stops dead, each end taking half of m v
eom_cli_test(NAME impact-rod-both-ends-redundant
             ARGS impact tests/data/urdf/rod.urdf ${impact_data}/rod_flat.csv --floating-base
                  --contacts end_left,end_right
             STDOUT ${impact_data}/rod_flat.out.csv COMPARE numeric ATOL 1e-12
             STDERR_REGEX "rod_flat.csv: the active contacts are redundant in 1 row \\(rank as low as 5 of 6 constraints, line 2\\): their impulses are the least-norm ones that stop them")

# bad input
set(rod_args impact tests/data/urdf/rod.urdf ${impact_data}/rod_fall.csv --floating-base)
eom_cli_test(NAME impact-unknown-frame
             ARGS ${rod_args} --contacts end_rigth
             RC 2 STDERR_REGEX "eom impact: error: --contacts: unknown frame 'end_rigth'.*did you mean 'end_right'")
eom_cli_test(NAME impact-restitution-out-of-range
             ARGS ${rod_args} --contacts end_right --restitution 1.5
             RC 2 STDERR_REGEX "--restitution: 1.5 is not between 0 and 1")
eom_cli_test(NAME impact-restitution-negative
             ARGS ${rod_args} --contacts end_right --restitution -0.1
             RC 2 STDERR_REGEX "--restitution: -0.1 is not between 0 and 1")
eom_cli_test(NAME impact-needs-contacts
             ARGS ${rod_args}
             RC 2 STDERR_REGEX "--contacts is required")
eom_cli_test(NAME impact-activity-of-no-contact
             ARGS ${rod_args} --contacts end_left
             RC 2 STDERR_REGEX "rod_fall.csv:1:130: column contact.end_right: 'end_right' is not one of the --contacts")
eom_cli_test(NAME impact-missing-v
             ARGS impact tests/data/urdf/hopper.urdf tests/data/id/contacts/hopper_stand.csv
                  --floating-base --contacts foot
             RC 2 STDERR_REGEX "hopper_stand.csv:1: missing columns? v\\.root")
