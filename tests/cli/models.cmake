# Loading real robot files: defective links that cannot change the dynamics load with a warning
# (and eom check reports them), what would make results wrong is refused, numbers that overflow
# when bodies are merged or placed are errors, unprocessed xacro files are named as such.
set(U tests/data/urdf)
set(antenna_eigenvalues "eigenvalues -3.5e-08, 3.5e-08, 9.1e-08")

# tiago_dual's antennas, fixed base: welded to the world, not used
eom_cli_test(NAME load-antenna-fixed-base-check ARGS check ${U}/antenna.urdf
             STDOUT_REGEX "^${U}/antenna.urdf:26: note: link 'base_antenna_left_link': inertia is not positive semi-definite \\(${antenna_eigenvalues}\\); welded to the world: not used\n${U}/antenna.urdf:38: note: link 'base_antenna_right_link': [^\n]*welded to the world: not used\n${U}/antenna.urdf: ok, 2 notes \\(2 moving joints, 6 links, total mass 38.6 kg\\)\n$")
# notes never fail, not even under --strict; -q hides them
eom_cli_test(NAME load-antenna-fixed-base-strict ARGS check --strict -q ${U}/antenna.urdf STDOUT_REGEX "^$")
eom_cli_test(NAME load-antenna-fixed-base-info ARGS info ${U}/antenna.urdf
             STDOUT_REGEX "nq: 2  nv: 2"
             STDERR_REGEX "^eom info: warning: ${U}/antenna.urdf:26: link 'base_antenna_left_link': inertia is not positive semi-definite \\(${antenna_eigenvalues}\\); welded to the world: not used\neom info: warning: ${U}/antenna.urdf:38: link 'base_antenna_right_link': [^\n]*\n$")
eom_cli_test(NAME load-antenna-fixed-base-quiet
             ARGS id ${U}/antenna.urdf tests/data/rows/antenna_poses.csv --static -q -o /dev/null)

# floating base: merged into the base, whose combined inertia is physical
set(merged "; harmless: merged by fixed joints into the floating base \\(root link 'base_footprint', moved by the free-flyer 'root'\\), whose combined inertia is positive semi-definite \\(principal inertias [0-9.e+-]+, [0-9.e+-]+, [0-9.e+-]+\\)")
eom_cli_test(NAME load-antenna-floating-base-check ARGS check --floating-base ${U}/antenna.urdf
             STDOUT_REGEX "^${U}/antenna.urdf:26: warning: link 'base_antenna_left_link': inertia is not positive semi-definite \\(${antenna_eigenvalues}\\)${merged}\n${U}/antenna.urdf:38: warning: link 'base_antenna_right_link': [^\n]*\n${U}/antenna.urdf: ok, 2 warnings \\(3 moving joints, 6 links, total mass 38.6 kg\\)\n$")
eom_cli_test(NAME load-antenna-floating-base-fk
             ARGS fk ${U}/antenna.urdf tests/data/rows/antenna_floating.csv --floating-base --frames head_1_link
             STDOUT tests/data/rows/antenna_floating.head.csv COMPARE numeric ATOL 1e-12
             STDERR_REGEX "^eom fk: warning: ${U}/antenna.urdf:26: link 'base_antenna_left_link': inertia is not positive semi-definite \\(${antenna_eigenvalues}\\)${merged}\neom fk: warning: ${U}/antenna.urdf:38: [^\n]*\n$")
eom_cli_test(NAME load-antenna-floating-base-id
             ARGS id ${U}/antenna.urdf tests/data/rows/antenna_floating.csv --floating-base --static -q
             STDOUT_REGEX "^t,tau.root.fx,tau.root.fy,tau.root.fz,tau.root.mx,tau.root.my,tau.root.mz,tau.torso_lift_joint,tau.head_1_joint\n")

# a moving merged body that is not physical: results would be wrong, refused
set(light "link 'antenna_link': inertia is not positive semi-definite \\(${antenna_eigenvalues}\\), and so is the body it is merged by fixed joints into \\(link 'mast_link', the body moved by joint 'mast_joint'; eigenvalues -3.4[0-9e-]+, ")
eom_cli_test(NAME load-antenna-on-light-link-check ARGS check ${U}/antenna_on_light_link.urdf RC 1
             STDOUT_REGEX "^${U}/antenna_on_light_link.urdf:27: error: ${light}")
eom_cli_test(NAME load-antenna-on-light-link-info ARGS info ${U}/antenna_on_light_link.urdf RC 2
             STDERR_REGEX "^eom info: error: ${U}/antenna_on_light_link.urdf:27: ${light}")

# numbers that overflow when bodies are merged or placed
eom_cli_test(NAME load-heavy-fixed-pair-check ARGS check ${U}/heavy_fixed_pair.urdf RC 1
             STDOUT_REGEX "^${U}/heavy_fixed_pair.urdf:23: error: links 'heavy_a' and 'heavy_b', merged by fixed joints into one body, overflow when combined \\(mass inf kg\\): the numbers are beyond a double\n${U}/heavy_fixed_pair.urdf: 1 error\n$")
eom_cli_test(NAME load-heavy-fixed-pair-id
             ARGS id ${U}/heavy_fixed_pair.urdf tests/data/rows/slide_poses.csv --static
             RC 2 STDERR_REGEX "^eom id: error: ${U}/heavy_fixed_pair.urdf:23: links 'heavy_a' and 'heavy_b', merged")
eom_cli_test(NAME load-far-origin-check ARGS check ${U}/far_origin.urdf RC 1
             STDOUT_REGEX "^${U}/far_origin.urdf:23: error: link 'tip': mass 1 kg placed 1e\\+200 m from the root: its inertia about the root overflows\n${U}/far_origin.urdf: 1 error\n$")
eom_cli_test(NAME load-far-origin-info ARGS info ${U}/far_origin.urdf
             RC 2 STDERR_REGEX "far_origin.urdf:23: link 'tip': mass 1 kg placed 1e\\+200 m")

# check noise: a numerically zero tensor is a point mass; a link welded to the world is not used
eom_cli_test(NAME load-numerically-zero-inertia ARGS check ${U}/numerically_zero_inertia.urdf
             STDOUT_REGEX "^${U}/numerically_zero_inertia.urdf:12: note: link 'stand': principal inertias 0.1, 0.1, 0.3 violate the triangle inequality \\(a \\+ b < c\\); welded to the world: not used\n${U}/numerically_zero_inertia.urdf: ok, 1 note \\(1 moving joint, 3 links, total mass 2.5 kg\\)\n$")
eom_cli_test(NAME load-numerically-zero-inertia-floating
             ARGS check --floating-base ${U}/numerically_zero_inertia.urdf
             STDOUT_REGEX "^${U}/numerically_zero_inertia.urdf:12: warning: link 'stand': principal inertias 0.1, 0.1, 0.3 violate the triangle inequality \\(a \\+ b < c\\): not a physical rigid body\n${U}/numerically_zero_inertia.urdf: ok, 1 warning")

# unprocessed xacro files: what they are and what to run; exit 2
foreach(case IN ITEMS "namespace|3|it has a <xacro:property> element" "expression|5|it has value=\"\\$\\{mass \\* 2\\}\" in <mass>"
                      "include|3|it has an <include> element" "macro|4|it has a <xacro:arm_macro> element")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 line)
  list(GET parts 2 what)
  set(f ${U}/xacro_${name}.urdf)
  eom_cli_test(NAME load-xacro-${name}-check ARGS check ${f} RC 2
               STDOUT_REGEX "^${f}:${line}: error: an unprocessed xacro file \\(${what}\\): run `xacro ${f} > out.urdf` and give eom out.urdf\n${f}: cannot be read\n$")
  eom_cli_test(NAME load-xacro-${name}-info ARGS info ${f} RC 2
               STDERR_REGEX "^eom info: error: ${f}:${line}: an unprocessed xacro file")
endforeach()
eom_cli_test(NAME load-xacro-stdin ARGS check - STDIN ${U}/xacro_namespace.urdf RC 2
             STDOUT_REGEX "run `xacro in.urdf.xacro > out.urdf`")

# eom info: columns as wide as their longest cell
# (a name 38 characters long: the next column starts 2 spaces after it)
eom_cli_test(NAME info-long-names ARGS info ${U}/world_link.urdf
             STDOUT_REGEX "\n  name                                    type      axis   q  v  lower  upper  effort  velocity  damping  friction  body kg  parent -> child\n  a_rather_long_joint_name_for_the_elbow  revolute  0 1 0  0  0  -2     2      50      2         0        0         1        base_link -> a_rather_long_link_name_for_the_forearm\n")

# --floating-base with a URDF link named world: that link is the floating body
eom_cli_test(NAME info-world-link-fixed ARGS info ${U}/world_link.urdf
             STDOUT_REGEX "root link: world \\(fixed to the world frame\\)\n.*frames:\n  world  +fixed to the world frame\n  base_link  +fixed to the world frame\n  a_rather_long_link_name_for_the_forearm  on a_rather_long_joint_name_for_the_elbow\n$")
eom_cli_test(NAME info-world-link-floating ARGS info ${U}/world_link.urdf --floating-base
             STDOUT_REGEX "root link: world \\(moved by the free-flyer joint 'root'\\); the URDF link named 'world' is the floating body, and world.\\* \\(eom fk\\) its pose, not the fixed world frame\n.*  root  *free-flyer .*\\(world frame\\) -> world\n.*frames:\n  world  *on root\n  base_link  *on root\n")
eom_cli_test(NAME info-world-link-floating-json ARGS info ${U}/world_link.urdf --floating-base --format json
             STDOUT_REGEX "\"name\": \"root\",\n      \"type\": \"free-flyer\",\n      \"parent_link\": null,\n      \"child_link\": \"world\",\n      \"parent_joint\": null,.*\"frames\": \\[\n    {\n      \"name\": \"world\",\n      \"joint\": \"root\"\n    }")
eom_cli_test(NAME fk-world-link-floating
             ARGS fk ${U}/world_link.urdf tests/data/rows/world_link_floating.csv --floating-base --frames world,base_link
             STDOUT tests/data/rows/world_link_floating.poses.csv COMPARE numeric ATOL 1e-12)
eom_cli_test(NAME fk-world-frame-without-world-link
             ARGS fk robots/planar_2r.urdf tests/data/rows/planar_2r_poses.csv --frames world
             STDOUT_REGEX "^world.x,world.y,world.z,world.qx,world.qy,world.qz,world.qw\n0,0,0,0,0,0,1\n")

# the shared robots: one finding per defect, notes for what cannot affect the dynamics
eom_cli_test(NAME check-shared-double-pendulum ARGS check tests/data/robots/double_pendulum.urdf
             STDOUT_REGEX "^tests/data/robots/double_pendulum.urdf:87: warning: joint 'joint1': limit lower = upper = effort = velocity = 0 \\(the defaults of an empty <limit>\\): the joint cannot move and any actuation exceeds it\n[^\n]*:147: warning: joint 'joint2': [^\n]*\n[^\n]*: ok, 2 warnings \\(")
eom_cli_test(NAME check-shared-talos-mimic-notes ARGS check tests/data/robots/talos_left_arm.urdf
             STDOUT_REGEX "talos_left_arm.urdf:533: note: joint 'gripper_left_inner_double_joint' is fixed: its mimic tag is ignored\n.*talos_left_arm.urdf: ok, 1 warning, 6 notes \\(")
eom_cli_test(NAME check-shared-anymal-welded ARGS check tests/data/robots/anymal.urdf
             STDOUT_REGEX "anymal.urdf:1701: note: link 'hatch': principal inertias 0, 0, 0.003 violate the triangle inequality \\(a \\+ b < c\\); welded to the world: not used\n[^\n]*anymal.urdf: ok, 5 notes \\(")
