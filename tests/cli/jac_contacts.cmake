# eom jac --contacts: the ETH notes' counts (section 2.10.4), by hand. A quadruped on point feet:
# each foot 3 constraints, independent while its leg is not stretched; the base has 6
# coordinates. Four feet: rank 12, base 6, internal 6, fully constrained; three: 9, 6, 3, yes;
# two (a diagonal pair): 6, 5 (the base can turn about the line through the feet), 1, no. On the
# shipped Solo12 walk and on ANYmal's configurations, the feet switched by contact.<frame>
# columns. A humanoid-like foot (tests/data/urdf/leg_foot.urdf): points of one rigid foot
# constrain it as a rigid body, and whatever the joints do the base moves the foot as much, so
# rank = base rank and nothing is internal: one point 3, two 5 (the foot turns about the line
# through them), three 6, four still 6.
set(jac_contacts tests/data/jac/contacts)
eom_cli_test(NAME jac-contacts-solo12
             ARGS jac robots/solo12.urdf ${jac_contacts}/solo12_stances.csv --floating-base
                  --contacts FL_FOOT,FR_FOOT,HL_FOOT,HR_FOOT
             STDOUT ${jac_contacts}/solo12_stances.ranks.csv COMPARE numeric ATOL 0)
eom_cli_test(NAME jac-contacts-anymal
             ARGS jac tests/data/robots/anymal.urdf ${jac_contacts}/anymal_stances.csv
                  --floating-base --contacts LF_FOOT,RF_FOOT,LH_FOOT,RH_FOOT
             STDOUT ${jac_contacts}/anymal_stances.ranks.csv COMPARE numeric ATOL 0)
eom_cli_test(NAME jac-contacts-humanoid-foot
             ARGS jac tests/data/urdf/leg_foot.urdf ${jac_contacts}/leg_foot_stances.csv
                  --floating-base --contacts toe_left,toe_right,heel_left,heel_right
             STDOUT ${jac_contacts}/leg_foot_stances.ranks.csv COMPARE numeric ATOL 0)
# with --frame: the frame's figures first, then the contacts'
eom_cli_test(NAME jac-contacts-with-frame
             ARGS jac tests/data/urdf/leg_foot.urdf ${jac_contacts}/leg_foot_stances.csv
                  --floating-base --frame pelvis --contacts toe_left,toe_right,heel_left,heel_right
             STDOUT_REGEX "^t,sigma.1,.*,nullity,contact.rank,contact.base_rank,contact.internal,contact.full\n0,.*,3,3,0,0\n")
# a table with the columns eom jac --contacts wrote read again: they are no contact.<frame>
eom_cli_test(NAME jac-contacts-read-back
             ARGS jac tests/data/urdf/leg_foot.urdf ${jac_contacts}/leg_foot_read_back.csv
                  --floating-base --contacts toe_left,toe_right,heel_left,heel_right
             STDOUT_REGEX "^t,contact.rank,contact.base_rank,contact.internal,contact.full\n0,3,3,0,0\n")
# bad input
eom_cli_test(NAME jac-contacts-neither
             ARGS jac tests/data/urdf/leg_foot.urdf ${jac_contacts}/leg_foot_stances.csv
                  --floating-base
             RC 2 STDERR_REGEX "--frame is required \\(or --contacts\\)")
eom_cli_test(NAME jac-contacts-frame-option-without-frame
             ARGS jac tests/data/urdf/leg_foot.urdf ${jac_contacts}/leg_foot_stances.csv
                  --floating-base --contacts toe_left --nullspace
             RC 2 STDERR_REGEX "--nullspace requires --frame")
eom_cli_test(NAME jac-contacts-unknown-frame
             ARGS jac tests/data/urdf/leg_foot.urdf ${jac_contacts}/leg_foot_stances.csv
                  --floating-base --contacts toe_lft
             RC 2 STDERR_REGEX "--contacts: unknown frame 'toe_lft'.*did you mean 'toe_left'")
eom_cli_test(NAME jac-contacts-sample
             ARGS jac tests/data/urdf/leg_foot.urdf --floating-base --frame pelvis --sample 10
                  --contacts toe_left
             RC 2 STDERR_REGEX "--sample is not available with --contacts")
