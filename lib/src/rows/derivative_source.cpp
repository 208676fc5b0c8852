#include "rows/derivative_source.hpp"

#include <cmath>

#include <eom/core/errors.hpp>
#include <eom/io/column_names.hpp>
#include <eom/multibody/configuration.hpp>

namespace eom::rows {

namespace {
constexpr double kTurn = 6.283185307179586476925;  // 2 pi

std::vector<DerivativeWindow::Slot> slots(const std::vector<Sample>& samples) {
  std::vector<DerivativeWindow::Slot> slots;
  for (const Sample& s : samples) slots.push_back({&s.elapsed, &s.q, &s.dq});
  return slots;
}
}  // namespace

DerivativeSource::DerivativeSource(const Model& model, SampleSource& upstream,
                                   const DerivationStage& stage, const std::string& file, int order)
    : model_(model), upstream_(upstream), stage_(stage), file_(file), order_(order) {}

DerivativeSource::~DerivativeSource() = default;

long DerivativeSource::rows_near_gaps() const { return window_ ? window_->rows_near_gaps() : 0; }

// Before the first row: the window chosen from the first rows when it is to be, then made.
void DerivativeSource::start() {
  if (stage_.choose_window) {
    for (;;) {
      pilot_.emplace_back(model_, order_);
      if (static_cast<int>(pilot_.size()) > kPilotRows || !upstream_.next(pilot_.back())) {
        pilot_.pop_back();
        break;
      }
    }
    choice_ = choose();
    stage_.window = choice_.window;
  }
  samples_.assign(DerivativeWindow::slots_needed(stage_), Sample(model_, order_));
  window_ = std::make_unique<DerivativeWindow>(model_, stage_, slots(samples_));
}

// The window from the longest run of pilot rows without a gap in t, on the values the stage
// differentiates: q with its wrapping angles unwrapped along the run, or the source's order.
WindowChoice DerivativeSource::choose() const {
  size_t begin = 0, length = 0;
  for (size_t k = 0, run = 0; k < pilot_.size(); ++k) {
    run = pilot_[k].segment_start ? 0 : run;
    if (++run > length) {
      length = run;
      begin = k + 1 - run;
    }
  }
  std::vector<double> t(length);
  for (size_t k = 0; k < length; ++k) t[k] = pilot_[begin + k].elapsed;
  std::vector<Eigen::VectorXd> q;
  if (stage_.source == 0) {
    for (size_t k = 0; k < length; ++k) q.push_back(pilot_[begin + k].q);
    for (int c : wrapping_angles(model_)) {
      for (size_t k = 1; k < length; ++k) {
        q[k][c] -= kTurn * std::round((q[k][c] - q[k - 1][c]) / kTurn);
      }
    }
  }
  const int m = stage_.source - 1;
  return choose_derivation_window(stage_, t.data(), static_cast<int>(length), model_.nv,
                                  [&](int from, int to, Eigen::Ref<Eigen::VectorXd> out) {
                                    if (stage_.source == 0) {
                                      difference(model_, q[from], q[to], out);
                                    } else {
                                      out = pilot_[begin + to].dq.col(m) -
                                            pilot_[begin + from].dq.col(m);
                                    }
                                  });
}

// The next row from upstream, the pilot's rows first.
bool DerivativeSource::read(Sample& in) {
  if (replayed_ < pilot_.size()) {
    std::swap(in, pilot_[replayed_++]);
    if (replayed_ == pilot_.size()) {
      std::vector<Sample>().swap(pilot_);  // the memory is the window's again
      replayed_ = 0;
    }
    return true;
  }
  return upstream_.next(in);
}

bool DerivativeSource::next(Sample& out) {
  if (!window_) start();
  for (;;) {
    if (window_->ready()) {
      out = samples_[window_->slot_to_emit()];
      window_->derive(out.dq);
      return true;
    }
    if (window_->too_few_rows()) too_few_rows();
    if (window_->next_segment()) continue;
    if (window_->ended()) return false;
    Sample& in = samples_[window_->slot_to_fill()];
    if (!read(in)) {
      window_->end();
      continue;
    }
    window_->filled(in.segment_start);
  }
}

void DerivativeSource::too_few_rows() const {
  const std::string what = "deriving " + derivative_prefix(stage_.targets.front()) +
                           " needs at least " + std::to_string(window_->min_rows()) +
                           " rows (a fit of degree " + std::to_string(stage_.degree) + ")";
  const long n = window_->segment_rows();
  if (window_->whole_table()) {
    // the three-point rule derives v and a from as few as three rows
    const bool three_rows_do = n >= 3 && stage_.targets.back() <= 2;
    throw InputError(
        file_, 0, 0,
        what + ", the table has " + std::to_string(n) +
            (three_rows_do ? " (" + Setting::derive + " three-point needs only 3)" : Phrase()));
  }
  const int first = samples_[window_->segment_slot(0)].line;
  const int last = samples_[window_->segment_slot(n - 1)].line;
  throw InputError(file_, first, 0,
                   what + ", the segment of lines " + std::to_string(first) + "-" +
                       std::to_string(last) + " between gaps in t has " + std::to_string(n) +
                       " (give the derivative columns, or fill or cut out the segment)");
}

}  // namespace eom::rows
