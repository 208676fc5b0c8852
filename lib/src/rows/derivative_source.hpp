// One derivation stage over the samples of the stage before it, its window chosen from the first
// rows when no window is given.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "eom/rows/row_input.hpp"

namespace eom::rows {

class DerivativeSource final : public SampleSource {
 public:
  /// The rows a window is chosen from (choose_derivation_window): the first ones, read ahead
  /// before any row is derived, then given on as read. At 1 kHz a second, at 50 Hz 20 s: enough
  /// for the fits' error to show, few enough to hold.
  static constexpr int kPilotRows = 1000;

  DerivativeSource(const Model& model, SampleSource& upstream, const DerivationStage& stage,
                   const std::string& file, int order);
  ~DerivativeSource() override;

  bool next(Sample& out) override;

  long rows_near_gaps() const;
  /// The stage as derived: its window chosen when it was to be.
  const DerivationStage& stage() const { return stage_; }
  /// What the window was chosen from (rows 0 when it was given, or the table too short).
  const WindowChoice& choice() const { return choice_; }

 private:
  void start();
  WindowChoice choose() const;
  bool read(Sample& in);
  [[noreturn]] void too_few_rows() const;

  const Model& model_;
  SampleSource& upstream_;
  DerivationStage stage_;
  const std::string& file_;
  const int order_;
  std::vector<Sample> pilot_;  // the first rows, read to choose the window
  size_t replayed_ = 0;        // ... and how many of them were given on
  WindowChoice choice_;
  std::vector<Sample> samples_;  // the rows of the window and one read ahead
  std::unique_ptr<DerivativeWindow> window_;
};

}  // namespace eom::rows
