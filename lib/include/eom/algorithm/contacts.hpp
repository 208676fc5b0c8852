// Contacts: what holds a robot (feet on the ground, a tool on a table) and the forces they carry.
//
// A contact is a frame of the model held by the environment. Its force is the force the
// environment exerts ON the robot, in world axes, applied at the frame's origin; a 6d contact adds
// the moment about that origin (S. Caron, "Equations of motion", point and surface contacts; the
// ETH Zurich "Robot Dynamics" notes, section 3.7, write the force the robot exerts on the
// environment, the opposite sign). With the stacked contact Jacobian J_c, world-aligned at each
// contact point, the equations of motion read M a + h = S^T tau + J_c^T f.
//
// This header gathers the contact headers: the contact set (contact_set.hpp), the contact Jacobian (contact_jacobian.hpp), inverse dynamics with
// contacts (contact_inverse_dynamics.hpp) and dynamics with contacts held, impacts and ranks
// (constrained_dynamics.hpp).
#pragma once

#include "eom/algorithm/constrained_dynamics.hpp"
#include "eom/algorithm/contact_inverse_dynamics.hpp"
#include "eom/algorithm/contact_jacobian.hpp"
#include "eom/algorithm/contact_set.hpp"
