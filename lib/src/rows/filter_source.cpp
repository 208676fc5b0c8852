#include "rows/filter_source.hpp"

#include <utility>

#include <eom/core/errors.hpp>
#include <eom/core/number_text.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/trajectory/low_pass.hpp>

namespace eom::rows {

LowPassSource::LowPassSource(const Model& model, SampleSource& upstream, double cutoff,
                             const Binding& b, const std::vector<int>& inputs,
                             const std::string& file, int order)
    : model_(model),
      upstream_(upstream),
      cutoff_(cutoff),
      inputs_(inputs),
      file_(file),
      order_(order),
      step_(model.nv),
      sum_(model.nv) {
  for (size_t k = 1; k < b.column.size(); ++k) {
    if (!b.column[k].empty()) orders_.push_back(static_cast<int>(k));
  }
  if (b.time.stamp < 0) {
    throw InputError(file, 1, 0, "missing column t (the low-pass filter's rate comes from it)");
  }
}

bool LowPassSource::read(Sample& slot) {
  if (!upstream_.next(slot)) return false;
  switch (steps_(slot.elapsed)) {
    case TimeStepCheck::Result::ok:
      break;
    case TimeStepCheck::Result::not_increasing:
      throw InputError(file_, slot.line, 0,
                       "t is not strictly increasing: the low-pass filter needs a rate");
    case TimeStepCheck::Result::gap:
      slot.segment_start = true;
      break;
  }
  return true;
}

// The first two rows: the rate of their step sets the taps, and so the window's size.
void LowPassSource::start() {
  started_ = true;
  Sample first(model_, order_), second(model_, order_);
  if (!read(first)) return;
  if (!read(second)) {
    dropped_ = 1;
    return;
  }
  rate_ = 1 / (second.elapsed - first.elapsed);
  try {
    taps_ = low_pass_taps(cutoff_, rate_);
  } catch (const InputError& e) {
    throw InputError(file_, second.line, 0, e.phrase());
  }
  ring_.assign(taps_.size(), first);
  std::swap(ring_[1], second);
  count_ = 2;  // fewer than the taps: H >= 7, the cut-off being under half the rate
}

bool LowPassSource::next(Sample& out) {
  if (!started_) start();
  const long n = taps();
  if (n == 0) return false;
  for (;;) {
    Sample& slot = ring_[static_cast<size_t>(count_ % n)];
    // a segment's last H rows, or all of a segment shorter than a window, have no whole window
    const long unfiltered = count_ < n ? count_ : n / 2;
    if (!read(slot)) {
      dropped_ += unfiltered;
      return false;
    }
    if (slot.segment_start) {
      dropped_ += unfiltered;
      if (&slot != &ring_[0]) std::swap(slot, ring_[0]);
      count_ = 0;
      segment_ = true;
    }
    if (++count_ < n) continue;
    if (count_ == n) dropped_ += n / 2;  // the segment's first H rows: no whole window
    filter(out);
    out.segment_start = segment_;
    segment_ = false;
    return true;
  }
}

void LowPassSource::filter(Sample& out) const {
  const long n = taps();
  const long first = count_ - n;  // the window's first row in the segment
  const Sample& centre = at(first + n / 2);
  out = centre;
  // q on the manifold: the centre plus the weighted sum of the others' differences from it
  sum_.setZero();
  for (long j = 0; j < n; ++j) {
    difference(model_, centre.q, at(first + j).q, step_);
    sum_ += taps_[j] * step_;
  }
  integrate(model_, centre.q, sum_, out.q);
  for (const int k : orders_) {
    out.dq.col(k - 1).setZero();
    for (long j = 0; j < n; ++j) {
      out.dq.col(k - 1) += taps_[j] * at(first + j).dq.col(k - 1);
    }
  }
  for (const int c : inputs_) {
    double x = 0;
    for (long j = 0; j < n; ++j) x += taps_[j] * at(first + j).row[c];
    out.row[c] = x;
  }
}

std::string LowPassSource::description() const {
  return "q, the derivatives given and the columns read low-pass filtered (" +
         number_text(cutoff_) + " Hz at the first step's rate of " + number_text(rate_) +
         " Hz: " + std::to_string(taps()) + " rows centred on each): the " +
         std::to_string(taps() / 2) + " rows at each end of a segment dropped, " +
         std::to_string(dropped_) + " in all";
}

bool DecimationSource::next(Sample& out) {
  while (upstream_.next(out)) {
    if (seen_++ % every_ == 0) return true;
    ++dropped_;
  }
  return false;
}

}  // namespace eom::rows
