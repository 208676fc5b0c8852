#include "fd/contact_fd_rows.hpp"

#include <eom/rows/run.hpp>

namespace eom::cli {

ContactFdRows::ContactFdRows(const Model& model, const ContactSet& contacts, const Header& header,
                             const std::string& file, double kp, double kd)
    : fd_(model, contacts),
      activity_(model, contacts, header, file),
      columns_(contact_force_columns(model, contacts)),
      redundancy_(file) {
  fd_.set_baumgarte(kp, kd);
}

const Eigen::VectorXd& ContactFdRows::compute(const Sample& s, ConstVec tau) {
  activity_.apply(s, fd_.jacobian());
  fd_.solve(s.q, s.dq.col(0), tau);
  redundancy_.count(fd_.rank(), fd_.jacobian().active_size(), s.line);
  return fd_.accelerations();
}

double* ContactFdRows::write_forces(double* out) const {
  const Eigen::VectorXd& f = fd_.forces();
  for (Eigen::Index k = 0; k < f.size(); ++k) *out++ = f[k];
  return out;
}

int ContactFdRows::finish(const Notes& notes) const {
  redundancy_.finish(notes, "their forces are the least-norm ones that hold them");
  return kExitOk;
}

}  // namespace eom::cli
