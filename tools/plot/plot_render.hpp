// eom plot's drawing: a figure of stacked panels over one x axis, rendered by PLplot (its svg
// driver, and its cairo drivers for PNG and PDF) into a file. Only drawing lives here: what to
// draw (the series, their decimation, limits and intervals) is decided by cmd_plot.cpp over the
// library (eom/io/column_units.hpp, eom/trajectory/decimation.hpp).
#pragma once

#include <string>
#include <vector>

#include <eom/trajectory/decimation.hpp>

namespace eom::cli {

/// Colours of the curves' palette; a panel's 11th member takes the first again in another style.
constexpr int kCurveColours = 10;

/// One curve of a panel: a series of one table.
struct PlotCurve {
  std::string label;  // in the legend: the joint or component, and the file when several
  int colour = 0;     // index into the palette (the member's place in its panel, modulo 10)
  int style = 0;      // index of the line style (solid, long dashes, ...; 8, then again)
  std::vector<PlotPoint> points;
  std::vector<PlotPoint> marks;  // rows over a limit
};

/// A dashed horizontal line (a limit), in the colour of the curve it bounds.
struct PlotLimit {
  double y = 0;
  int colour = 0;
};

struct PlotPanel {
  std::string y_label;
  std::vector<PlotCurve> curves;
  std::vector<PlotLimit> limits;
};

/// A lane of the band panel (a contact's schedule): where its condition holds.
struct PlotLane {
  std::string label;
  std::vector<XInterval> intervals;
};

struct PlotFigure {
  std::string title, x_label;
  double x_min = 0, x_max = 1;
  std::vector<PlotPanel> panels;
  std::vector<XInterval> shaded;  // shaded across every panel (a singular stretch)
  std::string shaded_label;       // its legend entry
  std::string band_label;         // the band panel's y label
  std::vector<PlotLane> lanes;    // the band panel, under the others, when not empty
  int width = 1000;               // points (pixels for PNG)
  int panel_height = 260;
};

/// PLplot copies each text it draws into fixed buffers of 1024 characters, and a longer one
/// overflows them (SIGSEGV): every text handed to it (title, axis and lane labels, legend
/// entries) is at most this many bytes, cut at a character and ending in an ellipsis
/// (doc/plot.md).
constexpr std::size_t kMaxPlotText = 200;

/// The kinds of the figure's texts that are drawn shortened (longer than kMaxPlotText), each once,
/// in this order: "the title", "an axis label", "a legend entry", "a lane label". For a warning.
std::vector<std::string> shortened_texts(const PlotFigure& figure);

enum class ImageFormat { svg, png, pdf };

/// The format named by --format or by the extension of `path`; throws InputError when neither
/// tells.
ImageFormat image_format(const std::string& path, const std::string& forced);

/// The figure as the bytes of an image file, the same bytes for the same figure.
std::string render_plot(const PlotFigure& figure, ImageFormat format);

}  // namespace eom::cli
