# eom id --contacts on hand-derived stances (tests/data/urdf: the box on its corners, the hopper):
# a quarter of the weight per corner, the lever rule, a lifted corner, the hopper's foot carrying
# the total weight and its leg the body's, measured forces, a tilted stance that fails; then every
# bad input of the contact options and columns (exit 2).

set(contact_data tests/data/id/contacts)
eom_cli_test(NAME id-contacts-box-quarters
             ARGS id tests/data/urdf/box_corners_centred.urdf ${contact_data}/box_stand.csv
                  --floating-base --static
                  --contacts front_left,front_right:3d,rear_left,rear_right
             STDOUT ${contact_data}/box_centred.forces.csv COMPARE numeric ATOL 1e-12)
eom_cli_test(NAME id-contacts-box-lever-rule
             ARGS id tests/data/urdf/box_corners_shifted.urdf ${contact_data}/box_shifted_stand.csv
                  --floating-base --static
                  --contacts front_left,front_right,rear_left,rear_right
             STDOUT ${contact_data}/box_shifted.forces.csv COMPARE numeric ATOL 1e-12)
foreach(rule IN ITEMS min-norm min-torque)
  eom_cli_test(NAME id-contacts-hopper-upright-${rule}
               ARGS id tests/data/urdf/hopper.urdf ${contact_data}/hopper_stand.csv --floating-base
                    --static --contacts foot --contact-forces ${rule}
               STDOUT ${contact_data}/hopper.forces.csv COMPARE numeric ATOL 1e-12)
endforeach()
# a biped standing straight on two flat feet (6d), its centre of mass over the midpoint of the
# soles (tests/data/urdf/biped.urdf): each sole carries half of the 48 kg, 235.44 N, no moment,
# no tangential force, no joint torque; 1000 km from the origin on the second row
foreach(rule IN ITEMS min-norm min-torque)
  eom_cli_test(NAME id-contacts-biped-two-feet-${rule}
               ARGS id tests/data/urdf/biped.urdf ${contact_data}/biped_stand.csv --floating-base
                    --static --contacts left_sole_link:6d,right_sole_link:6d
                    --contact-forces ${rule}
               STDOUT ${contact_data}/biped.forces.csv COMPARE numeric ATOL 1e-12)
endforeach()
eom_cli_test(NAME id-contacts-hopper-measured
             ARGS id tests/data/urdf/hopper.urdf ${contact_data}/hopper_stand.csv --floating-base
                  --static --contacts foot --contact-forces measured
             STDOUT ${contact_data}/hopper_measured.forces.csv COMPARE numeric ATOL 1e-12
             STDERR_REGEX "hopper_stand.csv: the contacts cannot supply the base's wrench in 2 rows: worst residual.norm 9.81 at t=0 \\(line 2\\)")
eom_cli_test(NAME id-contacts-hopper-tilted-fails
             ARGS id tests/data/urdf/hopper.urdf ${contact_data}/hopper_tilted.csv --floating-base
                  --static --contacts foot --fail-on-residual 1e-6
                  -o ${CMAKE_CURRENT_BINARY_DIR}/hopper_tilted.csv
             RC 1 STDERR_REGEX "error: .*hopper_tilted.csv: the contacts cannot supply the base's wrench in 1 row: worst residual.norm [0-9.]+ at t=1 \\(line 3\\): a force of [-0-9.e]+ N and a moment of [0-9.]+ N m about the centre of mass, over --fail-on-residual 1e-06"
             ABSENT ${CMAKE_CURRENT_BINARY_DIR}/hopper_tilted.csv)
# two point feet (the shifted box's front corners, x = 0.2) under a centre of mass at x = 0.05:
# any force they can give, so what is left is the weight's moment about their line, 2 kg g
# 0.15 m = 2.943 N m, and no force (issue 38 item 18: a least-squares residual about the base
# origin showed 0.14 N sideways and 0.56 N up)
foreach(rule IN ITEMS min-norm min-torque)
  eom_cli_test(NAME id-contacts-two-feet-leave-a-moment-${rule}
               ARGS id tests/data/urdf/box_corners_shifted.urdf ${contact_data}/box_shifted_stand.csv
                    --floating-base --static --contacts front_left,front_right --contact-forces ${rule}
                    -o ${CMAKE_CURRENT_BINARY_DIR}/two_feet_${rule}.csv
               STDERR_REGEX "worst residual.norm 2.943 at t=0 \\(line 2\\): a force of 0 N and a moment of 2.943 N m about the centre of mass\n$")
endforeach()
# gravity tilted 1 m/s^2 towards +x, a slope: each corner holds 0.5 N downhill, and the moment of
# that force 0.05 m under the centre of mass moves 0.125 N of load to the front corners (by hand:
# f_i = F / 4 + lambda x (x_i, y_i, 0)); the rear ones need friction 0.5 / 4.78 > 0.1
eom_cli_test(NAME id-contacts-box-slope-friction
             ARGS id tests/data/urdf/box_corners_centred.urdf ${contact_data}/box_shifted_stand.csv
                  --floating-base --static --contacts front_left,front_right,rear_left,rear_right
                  --gravity 1,0,-9.81 --friction-coefficient 0.1
             STDOUT ${contact_data}/box_slope.forces.csv COMPARE numeric ATOL 1e-12
             STDERR_REGEX "box_shifted_stand.csv: friction.rear_left exceeds --friction-coefficient 0.1 in 2 rows: first at t=0 \\(line 2\\), worst 0.104603 at t=0")
# the box held by one 6d corner: the corner carries the weight and balances the moment of the
# weight about it, -(-0.2, -0.1, 0.05) x (0, 0, -19.62) = (-1.962, 3.924, 0) N m; the centre of
# pressure is the centre of mass seen from the corner, (-0.2, -0.1) in its frame
eom_cli_test(NAME id-contacts-box-one-corner-6d
             ARGS id tests/data/urdf/box_corners_centred.urdf ${contact_data}/box_shifted_stand.csv
                  --floating-base --static --contacts front_left:6d
             STDOUT ${contact_data}/box_one_corner.forces.csv COMPARE numeric ATOL 1e-12)
eom_cli_test(NAME id-contacts-no-root-torque
             ARGS id tests/data/urdf/hopper.urdf ${contact_data}/hopper_stand.csv --floating-base
                  --static --contacts foot:6d
             STDOUT_REGEX "^t,tau.knee,f.foot.fx,f.foot.fy,f.foot.fz,f.foot.mx,f.foot.my,f.foot.mz,residual.fx")

# bad input
set(box_args id tests/data/urdf/box_corners_centred.urdf ${contact_data}/box_stand.csv --static)
eom_cli_test(NAME id-contacts-unknown-frame
             ARGS ${box_args} --floating-base --contacts front_lft
             RC 2 STDERR_REGEX "eom id: error: --contacts: unknown frame 'front_lft'.*did you mean 'front_left'")
eom_cli_test(NAME id-contacts-unknown-kind
             ARGS ${box_args} --floating-base --contacts front_left:2d
             RC 2 STDERR_REGEX "--contacts: 'front_left:2d': unknown contact kind '2d' \\(expected FRAME, FRAME:1d, FRAME:3d or FRAME:6d\\)")
eom_cli_test(NAME id-contacts-welded-frame
             ARGS ${box_args} --contacts front_left
             RC 2 STDERR_REGEX "--contacts: 'front_left': no joint moves frame 'front_left' \\(it is welded to the fixed base\\), so a contact on it constrains nothing")
eom_cli_test(NAME id-contacts-twice
             ARGS ${box_args} --floating-base --contacts front_left,front_left:6d
             RC 2 STDERR_REGEX "frame 'front_left' is given twice")
eom_cli_test(NAME id-contacts-normal-not-unit
             ARGS ${box_args} --floating-base --contacts front_left:1d --contact-normal 0,0,2
             RC 2 STDERR_REGEX "--contact-normal 0,0,2: expected a unit vector \\(its norm is 2\\)")
eom_cli_test(NAME id-contacts-normal-zero
             ARGS ${box_args} --floating-base --contacts front_left --contact-normal 0,0,0
             RC 2 STDERR_REGEX "--contact-normal 0,0,0: expected a unit vector \\(its norm is 0\\)")
eom_cli_test(NAME id-contacts-activity-not-0-or-1
             ARGS id tests/data/urdf/box_corners_centred.urdf ${contact_data}/box_bad_activity.csv
                  --static --floating-base --contacts front_left,front_right,rear_left,rear_right
             RC 2 STDERR_REGEX "box_bad_activity.csv:3:20: column contact.front_left: '0.5' is neither 1 nor 0 \\(1: the contact holds, 0: it does not\\)")
eom_cli_test(NAME id-contacts-activity-of-no-contact
             ARGS ${box_args} --floating-base --contacts front_right,rear_left
             RC 2 STDERR_REGEX "box_stand.csv:1:70: column contact.front_left: 'front_left' is not one of the --contacts")
eom_cli_test(NAME id-contacts-measured-missing-columns
             ARGS ${box_args} --floating-base --contacts front_left --contact-forces measured
             RC 2 STDERR_REGEX "box_stand.csv:1: missing columns f.front_left.fx, f.front_left.fy, f.front_left.fz")
eom_cli_test(NAME id-contacts-weight-not-positive
             ARGS ${box_args} --floating-base --contacts front_left --contact-weights front_left=-1
             RC 2 STDERR_REGEX "--contact-weights: 'front_left=-1': expected a finite weight > 0")
# the shares follow the weights' ratios: within the documented range (a million to one) the
# base's wrench is still explained to round-off; beyond it a weight is refused (1e20 left a 5 N
# residual and a false "cannot supply"), and a weight given twice is refused as a contact is
eom_cli_test(NAME id-contacts-weights-at-the-range-ends
             ARGS ${box_args} --floating-base --contacts front_left,front_right,rear_left,rear_right
                  --contact-weights front_left=1000,rear_right=0.001 --fail-on-residual 1e-9
                  -o ${CMAKE_CURRENT_BINARY_DIR}/weights_at_ends.csv
             RC 0)
eom_cli_test(NAME id-contacts-weight-out-of-range
             ARGS ${box_args} --floating-base --contacts front_left,front_right
                  --contact-weights front_left=1e20
             RC 2 STDERR_REGEX "--contact-weights: 'front_left=1e20': a weight from 0.001 to 1000 \\(their ratios set the shares\\)")
eom_cli_test(NAME id-contacts-weight-given-twice
             ARGS ${box_args} --floating-base --contacts front_left,front_right
                  --contact-weights front_left=2,front_left=3
             RC 2 STDERR_REGEX "--contact-weights: 'front_left=3': 'front_left' is given twice")
eom_cli_test(NAME id-contacts-weight-of-no-contact
             ARGS ${box_args} --floating-base --contacts front_left --contact-weights rear_left=2
             RC 2 STDERR_REGEX "--contact-weights: 'rear_left=2': 'rear_left' is not one of the --contacts")
eom_cli_test(NAME id-contacts-weights-not-min-norm
             ARGS ${box_args} --floating-base --contacts front_left --contact-weights front_left=2
                  --contact-forces min-torque
             RC 2 STDERR_REGEX "--contact-weights weigh the min-norm distribution, not --contact-forces min-torque")
eom_cli_test(NAME id-contacts-options-need-contacts
             ARGS ${box_args} --floating-base --fail-on-residual 1
             RC 2 STDERR_REGEX "--fail-on-residual needs --contacts")
eom_cli_test(NAME id-contacts-friction-coefficient-not-positive
             ARGS ${box_args} --floating-base --contacts front_left --friction-coefficient 0
             RC 2 STDERR_REGEX "--friction-coefficient: 0 must be positive")
eom_cli_test(NAME id-contacts-terms
             ARGS ${box_args} --floating-base --contacts front_left --terms
             RC 2 STDERR_REGEX "--terms is not available with --contacts")

# eom fd --contacts: the hopper's knee holding its body (nothing moves) and slack (the body falls
# along the leg at g, the foot carries the leg's weight); the box held on its corners, redundant
set(contact_fd_data tests/data/fd/contacts)
eom_cli_test(NAME fd-contacts-hopper
             ARGS fd tests/data/urdf/hopper.urdf ${contact_fd_data}/hopper_fd.csv --floating-base
                  --contacts foot
             STDOUT ${contact_fd_data}/hopper_fd.out.csv COMPARE numeric ATOL 1e-12)
eom_cli_test(NAME fd-contacts-box-redundant
             ARGS fd tests/data/urdf/box_corners_centred.urdf ${contact_fd_data}/box_fd.csv
                  --floating-base --contacts front_left,front_right,rear_left,rear_right
             STDOUT ${contact_fd_data}/box_fd.out.csv COMPARE numeric ATOL 1e-12
             STDERR_REGEX "box_fd.csv: the active contacts are redundant in 2 rows \\(rank as low as 6 of 12 constraints, line 2\\): their forces are the least-norm ones that hold them")
eom_cli_test(NAME fd-contacts-partials
             ARGS fd tests/data/urdf/hopper.urdf ${contact_fd_data}/hopper_fd.csv --floating-base
                  --contacts foot --partials
             RC 2 STDERR_REGEX "--partials is not available with --contacts")
eom_cli_test(NAME fd-contacts-unknown-frame
             ARGS fd tests/data/urdf/hopper.urdf ${contact_fd_data}/hopper_fd.csv --floating-base
                  --contacts fot
             RC 2 STDERR_REGEX "--contacts: unknown frame 'fot'.*did you mean 'foot'")
# --baumgarte KP,KD: the box's corners anchored where they are on the first row (the base at
# z = 0.05); on the second, raised 0.01 m and moving up at 0.5 m/s, KP = 100 and KD = 10 pull it
# down at -10 0.5 - 100 0.01 = -6 m/s^2, each corner carrying 2 (9.81 - 6) / 4 = 1.905 N
eom_cli_test(NAME fd-contacts-baumgarte
             ARGS fd tests/data/urdf/box_corners_centred.urdf ${contact_fd_data}/box_drift.csv
                  --floating-base --contacts front_left,front_right,rear_left,rear_right
                  --baumgarte 100,10
             STDOUT ${contact_fd_data}/box_drift.out.csv COMPARE numeric ATOL 1e-12
             STDERR_REGEX "box_drift.csv: the active contacts are redundant in 2 rows")
eom_cli_test(NAME fd-baumgarte-needs-contacts
             ARGS fd tests/data/urdf/box_corners_centred.urdf ${contact_fd_data}/box_drift.csv
                  --floating-base --baumgarte 100,10
             RC 2 STDERR_REGEX "--baumgarte needs --contacts")
eom_cli_test(NAME fd-baumgarte-negative
             ARGS fd tests/data/urdf/box_corners_centred.urdf ${contact_fd_data}/box_drift.csv
                  --floating-base --contacts front_left --baumgarte 100,-1
             RC 2 STDERR_REGEX "--baumgarte: -1 must not be negative")
