// The rows of a derivation's fits chosen from the data: empirical-bias bandwidth selection
// (Ruppert, JASA 92, 1997) over the odd windows a fit can have.
#include <algorithm>
#include <cmath>
#include <vector>

#include "eom/trajectory/derivation.hpp"

namespace eom {

namespace {

// The centred windows the error is estimated at: enough to average the noise of the estimates,
// few enough that the choice costs little next to a table's rows.
constexpr int kCentres = 48;

// Per candidate window, summed over the centres: the squared difference of the degree p and
// p + 2 estimates (the bias, plus noise), and the squares of the weights that turn the noise into
// error: those of the degree-p estimate and of that difference.
struct CandidateSums {
  Eigen::VectorXd difference2;  // (nv)
  double weights2 = 0, difference_weights2 = 0;
};

}  // namespace

WindowChoice choose_derivation_window(const DerivationStage& stage, const double* t, int rows,
                                      int nv, const RowDisplacement& displacement) {
  const int p = stage.degree, pilot = stage.degree + 2;
  const int r = stage.targets.back() - stage.source;  // the highest order: the least accurate
  WindowChoice choice;
  choice.window = default_derivation_window(p);
  const int widest = std::min(PolynomialFit::kMaxSamples, rows % 2 ? rows : rows - 1);
  // the candidates: odd windows from the fewest rows a degree-p fit takes; the degree p + 2 fit
  // each is compared with takes at least pilot + 1 rows, centred on the same row
  const int narrowest = (p + 1) | 1, narrowest_pilot = (pilot + 1) | 1;
  const int noise_rows = std::min(widest, pilot + 3);
  if (pilot > PolynomialFit::kMaxDegree || widest < narrowest_pilot || noise_rows < pilot + 2) {
    return choice;
  }
  const int half = widest / 2;
  const int centres = std::min(kCentres, rows - 2 * half);

  std::vector<CandidateSums> sums;
  for (int n = narrowest; n <= widest; n += 2) sums.push_back({Eigen::VectorXd::Zero(nv)});
  Eigen::VectorXd noise2 = Eigen::VectorXd::Zero(nv);
  double noise_weight = 0;
  Eigen::MatrixXd d(nv, widest);  // the displacements from the centre row to its window's rows
  Eigen::VectorXd low(nv), high(nv);
  Eigen::RowVectorXd difference_weights;
  PolynomialFit fit_low, fit_high;
  for (int k = 0; k < centres; ++k) {
    // spread evenly over the rows, the first and last as far out as the widest window allows
    const int centre =
        half + (centres > 1
                    ? static_cast<int>(static_cast<long>(k) * (rows - 1 - 2 * half) / (centres - 1))
                    : 0);
    for (int j = 0; j < widest; ++j) displacement(centre, centre - half + j, d.col(j));
    // the noise: the residual at the centre of a degree p + 2 fit, whose variance is
    // sigma^2 (1 - h) with h the fit's own weight of the centre (least squares is a projection)
    {
      const int m = noise_rows, at = m / 2, first = half - at;
      const auto& w = fit_high(t + centre - at, m, at, pilot);
      low.noalias() = d.middleCols(first, m) * w.row(0).transpose();
      noise2 += low.cwiseAbs2();
      noise_weight += 1 - w(0, at);
    }
    for (size_t c = 0; c < sums.size(); ++c) {
      const int n = narrowest + 2 * static_cast<int>(c), at = n / 2, first = half - at;
      const int m = std::max(n, narrowest_pilot), at_m = m / 2, first_m = half - at_m;
      const auto& wl = fit_low(t + centre - at, n, at, p);
      const auto& wh = fit_high(t + centre - at_m, m, at_m, pilot);
      low.noalias() = d.middleCols(first, n) * wl.row(r).transpose();
      high.noalias() = d.middleCols(first_m, m) * wh.row(r).transpose();
      sums[c].difference2 += (low - high).cwiseAbs2();
      sums[c].weights2 += wl.row(r).squaredNorm();
      // the weights of the difference over the m rows, the degree-p fit's in the middle n
      difference_weights = -wh.row(r);
      difference_weights.segment(first - first_m, n) += wl.row(r);
      sums[c].difference_weights2 += difference_weights.squaredNorm();
    }
  }
  const Eigen::VectorXd sigma2 = noise2 / noise_weight;
  double best = 0;
  for (size_t c = 0; c < sums.size(); ++c) {
    // the bias squared is what the difference has beyond its noise (never less than zero)
    const Eigen::VectorXd bias2 =
        (sums[c].difference2 - sums[c].difference_weights2 * sigma2).cwiseMax(0.0) / centres;
    const double error2 = bias2.sum() + sigma2.sum() * sums[c].weights2 / centres;
    if (c == 0 || error2 < best) {
      best = error2;
      choice.window = narrowest + 2 * static_cast<int>(c);
    }
  }
  choice.rows = rows;
  choice.noise = std::sqrt(sigma2.sum() / nv);
  return choice;
}

}  // namespace eom
