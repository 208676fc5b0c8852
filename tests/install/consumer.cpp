// Links against an installed libeom: loads a robot and prints its nv and gravity torque size.
#include <iostream>

#include <eom/multibody/configuration.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/parsers/urdf.hpp>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const eom::Model model = eom::load_urdf(argv[1]);
  eom::Data data(model);
  const Eigen::VectorXd& g = eom::gravity_torque(model, data, eom::neutral(model));
  std::cout << "nv " << model.nv << " g " << g.size() << "\n";
  return g.size() == model.nv ? 0 : 1;
}
