# --centroidal on eom id and eom fk, by hand. The box with its centre of mass shifted 0.05 m
# forward (tests/data/urdf/box_corners_shifted.urdf) standing on its four corners, at the origin
# and 1000 km away: its centre of mass is the base plus (0.05, 0, 0), nothing moves (zero
# momentum), the zero moment point is the centre of mass on the ground and the corners' centre of
# pressure is the same point (they hold it with no residual); 1e-9 allows the round-off of
# moments about a world origin 2e6 m away. The rod (2 kg) falling at 2 m/s and sliding at 1 m/s:
# h.l = m c_dot, no spin, no angular momentum.
eom_cli_test(NAME id-centroidal-box-standing
             ARGS id tests/data/urdf/box_corners_shifted.urdf
                  tests/data/id/contacts/box_shifted_stand.csv --floating-base --static
                  --contacts front_left,front_right,rear_left,rear_right --centroidal
             STDOUT tests/data/centroidal/box_shifted_stand.centroidal.csv COMPARE numeric
             ATOL 1e-9)
eom_cli_test(NAME fk-centroidal-rod-momentum
             ARGS fk tests/data/urdf/rod.urdf tests/data/impact/rod_fall.csv --floating-base
                  --frames rod --centroidal
             STDOUT_REGEX "^t,rod.x,rod.y,rod.z,rod.qx,rod.qy,rod.qz,rod.qw,com.x,com.y,com.z,com.vx,com.vy,com.vz,h.lx,h.ly,h.lz,h.ax,h.ay,h.az\n0,0,0,0.5,0,0,0,1,0,0,0.5,0,0,-2,0,0,-4,0,0,0\n")
eom_cli_test(NAME fk-centroidal-without-v
             ARGS fk tests/data/urdf/box_corners_shifted.urdf
                  tests/data/id/contacts/box_shifted_stand.csv --floating-base --frames box
                  --centroidal
             STDOUT_REGEX "^t,box.x,box.y,box.z,box.qx,box.qy,box.qz,box.qw,com.x,com.y,com.z\n0,0,0,0.05,0,0,0,1,0.05,0,0.05\n")
# bad input
eom_cli_test(NAME fk-centroidal-some-v
             ARGS fk tests/data/urdf/hopper.urdf tests/data/centroidal/hopper_no_knee_v.csv
                  --floating-base --centroidal
             RC 2 STDERR_REGEX "hopper_no_knee_v.csv:1: missing column v.knee")
eom_cli_test(NAME id-ground-needs-centroidal
             ARGS id tests/data/urdf/box_corners_shifted.urdf
                  tests/data/id/contacts/box_shifted_stand.csv --floating-base --static --ground 1
             RC 2 STDERR_REGEX "--ground requires --centroidal")
# the rod falling freely (a = g): nothing presses on the ground, no ZMP: 0, 0 and the rows said
eom_cli_test(NAME id-centroidal-free-fall
             ARGS id tests/data/urdf/rod.urdf tests/data/centroidal/rod_free_fall.csv
                  --floating-base --centroidal
             STDOUT_REGEX ",zmp.x,zmp.y\n0,.*,0,0\n"
             STDERR_REGEX "rod_free_fall.csv: zmp is undefined in 1 row \\(nothing presses on the ground: the vertical force is not positive\\), written as 0, 0: first at t=0 \\(line 2\\)")
