// PLplot glue of eom plot (plot_render.hpp). PLplot keeps one state per stream: a plstream is
// made per figure and ended before the file is read back.

#include "plot/plot_render.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include <plstream.h>

#include <eom/core/errors.hpp>
#include <eom/core/utf8.hpp>

namespace eom::cli {
namespace {

// palette (cmap0): 0 background, 1 axes and text, 2 .. 11 the curves (matplotlib's tab10, told
// apart by most readers), 12 the shading, 13 the band's lanes
constexpr int kAxes = 1, kFirstCurve = 2, kShade = 12, kLane = 13;
constexpr PLINT kRed[] = {255, 0, 31, 255, 44, 214, 148, 140, 227, 127, 188, 23, 253, 70};
constexpr PLINT kGreen[] = {255, 0, 119, 127, 160, 39, 103, 86, 119, 127, 189, 190, 174, 130};
constexpr PLINT kBlue[] = {255, 0, 180, 14, 44, 40, 189, 75, 194, 127, 34, 207, 97, 180};
constexpr PLFLT kAlpha[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0.45, 0.8};

// Line styles (PLplot's built-in styles): solid, long dashes, short dashes, ...
constexpr PLINT kLineStyles[] = {1, 3, 2, 5, 4, 6, 7, 8};
constexpr PLINT kLimitStyle = 2;
constexpr double kCharWidth = 6.2;   // points: the mean width of a character at kTextHeight
constexpr PLFLT kTextHeight = 3.6;   // mm
constexpr double kMinimumWidth = 3;  // points: a single row's interval stays visible

// cairo's image surfaces, which the PNG driver draws on, are at most 32767 pixels a side
constexpr int kMaxPngSide = 32767;

PLINT curve_colour(int colour) { return kFirstCurve + colour % kCurveColours; }
PLINT curve_style(const PlotCurve& curve) { return kLineStyles[curve.style % 8]; }

// A scratch file for PLplot's driver, removed with the object (PLplot writes to a named file).
class ScratchFile {
 public:
  ScratchFile() {
    std::string pattern = (std::filesystem::temp_directory_path() / "eom-plot-XXXXXX").string();
    const int fd = mkstemp(pattern.data());
    if (fd < 0) throw InputError("cannot create a temporary file in " + pattern);
    close(fd);
    path_ = pattern;
  }
  ~ScratchFile() { std::remove(path_.c_str()); }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// cairo 1.16 stamps a PDF with the time it was made (/CreationDate (D:YYYYMMDDHHmmSSZ)); the same
// figure must give the same bytes, so the stamp becomes SOURCE_DATE_EPOCH when it is set (the
// reproducible-builds convention), else the epoch. Same length: the cross-reference offsets stay.
void pin_creation_date(std::string& pdf) {
  const std::string key = "/CreationDate (D:";
  const size_t at = pdf.find(key);
  if (at == std::string::npos || at + key.size() + 14 > pdf.size()) return;
  std::time_t when = 0;
  if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH")) {
    char* end = nullptr;
    const long long value = std::strtoll(epoch, &end, 10);
    if (end != epoch && *end == '\0' && value >= 0) when = static_cast<std::time_t>(value);
  }
  std::tm utc{};
  gmtime_r(&when, &utc);
  char stamp[15];
  if (std::strftime(stamp, sizeof stamp, "%Y%m%d%H%M%S", &utc) == 14) {
    pdf.replace(at + key.size(), 14, stamp, 14);
  }
}

// PLplot's svg driver writes every character of a text as a character reference (&#x74;): the
// file could not be searched for a label. Each becomes the character itself, but for the three
// XML needs escaped.
std::string plain_svg_text(const std::string& svg) {
  std::string out;
  out.reserve(svg.size());
  for (size_t k = 0; k < svg.size();) {
    const size_t end = svg.compare(k, 3, "&#x") == 0 ? svg.find(';', k) : std::string::npos;
    char* stop = nullptr;
    const unsigned long c =
        end == std::string::npos ? 0 : std::strtoul(svg.c_str() + k + 3, &stop, 16);
    if (end == std::string::npos || stop != svg.c_str() + end || c == 0 || c > 0x10FFFF) {
      out += svg[k++];
      continue;
    }
    if (c == '&' || c == '<' || c == '>') {
      out += c == '&' ? "&amp;" : c == '<' ? "&lt;" : "&gt;";
    } else {
      append_utf8(out, c);
    }
    k = end + 1;
  }
  return out;
}

// `text` as PLplot may take it: whole when it fits kMaxPlotText bytes, else its start, cut before
// a UTF-8 continuation byte, and "…"
std::string fitted(const std::string& text) {
  if (text.size() <= kMaxPlotText) return text;
  const std::string ellipsis = "\u2026";
  size_t cut = kMaxPlotText - ellipsis.size();
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + ellipsis;
}

struct Range {
  double low, high;
};

// The y range of a panel: its points and limits, with a margin; a flat series gets +-1
Range y_range(const PlotPanel& panel) {
  double low = INFINITY, high = -INFINITY;
  for (const auto& curve : panel.curves) {
    for (const auto& p : curve.points) {
      low = std::min(low, p.y);
      high = std::max(high, p.y);
    }
  }
  for (const auto& limit : panel.limits) {
    low = std::min(low, limit.y);
    high = std::max(high, limit.y);
  }
  if (!(low <= high)) return {-1, 1};
  if (low == high)
    return {low - std::max(1.0, std::fabs(low) * 0.1), high + std::max(1.0, std::fabs(high) * 0.1)};
  const double margin = (high - low) * 0.05;
  return {low - margin, high + margin};
}

void shade(plstream& pls, const std::vector<XInterval>& intervals, double low, double high,
           double min_width) {
  for (const auto& interval : intervals) {
    double start = std::min(interval.start, interval.end),
           end = std::max(interval.start, interval.end);
    if (end - start < min_width) {  // a single row: one pixel wide, still visible
      start -= min_width / 2;
      end += min_width / 2;
    }
    PLFLT x[] = {start, end, end, start}, y[] = {low, low, high, high};
    pls.fill(4, x, y);
  }
}

void draw_panel(plstream& pls, const PlotFigure& figure, const PlotPanel& panel, bool bottom,
                double min_width) {
  const Range y = y_range(panel);
  pls.wind(figure.x_min, figure.x_max, y.low, y.high);
  if (!figure.shaded.empty()) {
    pls.col0(kShade);
    shade(pls, figure.shaded, y.low, y.high, min_width);
  }
  pls.col0(kAxes);
  pls.lsty(1);
  pls.box(bottom ? "bcnst" : "bcst", 0, 0, "bcnstv", 0, 0);
  pls.mtex("l", 5.0, 0.5, 0.5, fitted(panel.y_label).c_str());
  if (bottom) pls.mtex("b", 2.6, 0.5, 0.5, fitted(figure.x_label).c_str());
  for (const auto& limit : panel.limits) {
    pls.col0(curve_colour(limit.colour));
    pls.lsty(kLimitStyle);
    PLFLT x[] = {figure.x_min, figure.x_max}, yy[] = {limit.y, limit.y};
    pls.line(2, x, yy);
  }
  for (const auto& curve : panel.curves) {
    pls.col0(curve_colour(curve.colour));
    pls.lsty(curve_style(curve));
    std::vector<PLFLT> x, yy;
    for (const auto& p : curve.points) {
      x.push_back(p.x);
      yy.push_back(p.y);
    }
    if (x.size() == 1) {
      pls.string(1, x.data(), yy.data(), "•");
    } else if (!x.empty()) {
      pls.line(static_cast<PLINT>(x.size()), x.data(), yy.data());
    }
    for (const auto& mark : curve.marks) {
      PLFLT mx = mark.x, my = mark.y;
      pls.string(1, &mx, &my, "×");
    }
  }
  pls.lsty(1);
  // the legend, outside on the right: one entry per curve (and the shading on the first panel)
  std::vector<std::string> texts;
  std::vector<PLINT> options, colours, styles, text_colours, box_colours, patterns;
  std::vector<PLFLT> widths, box_scales, box_widths;
  for (const auto& curve : panel.curves) {
    texts.push_back(fitted(curve.label));
    options.push_back(PL_LEGEND_LINE);
    colours.push_back(curve_colour(curve.colour));
    styles.push_back(curve_style(curve));
  }
  if (!figure.shaded.empty() && &panel == &figure.panels.front()) {
    texts.push_back(fitted(figure.shaded_label));
    options.push_back(PL_LEGEND_COLOR_BOX);
    colours.push_back(kShade);
    styles.push_back(1);
  }
  if (texts.empty()) return;
  const size_t n = texts.size();
  std::vector<const char*> text_pointers;
  for (const auto& text : texts) text_pointers.push_back(text.c_str());
  text_colours.assign(n, kAxes);
  box_colours = colours;
  patterns.assign(n, 0);
  box_scales.assign(n, 0.8);
  box_widths.assign(n, 1);
  widths.assign(n, 1.5);
  PLFLT legend_width = 0, legend_height = 0;
  pls.legend(&legend_width, &legend_height, 0, PL_POSITION_RIGHT | PL_POSITION_OUTSIDE, 0.02, 0,
             0.06, 0, 0, 1, static_cast<PLINT>(n), 1, static_cast<PLINT>(n), options.data(), 0.6,
             0.8, 1.8, 0, text_colours.data(), text_pointers.data(), box_colours.data(),
             patterns.data(), box_scales.data(), box_widths.data(), colours.data(), styles.data(),
             widths.data(), nullptr, nullptr, nullptr, nullptr);
}

void draw_lanes(plstream& pls, const PlotFigure& figure, double min_width) {
  const int n = static_cast<int>(figure.lanes.size());
  pls.wind(figure.x_min, figure.x_max, 0, n);
  for (int k = 0; k < n; ++k) {
    // lane k from the top, as the legend lists contacts
    const double top = n - k - 0.15, bottom = n - k - 0.85;
    pls.col0(kLane);
    shade(pls, figure.lanes[k].intervals, bottom, top, min_width);
    pls.col0(kAxes);
    pls.mtex("lv", 0.8, (n - k - 0.5) / n, 1.0, fitted(figure.lanes[k].label).c_str());
  }
  pls.col0(kAxes);
  pls.box("bcnst", 0, 0, "bc", 0, 0);
  pls.mtex("b", 2.6, 0.5, 0.5, fitted(figure.x_label).c_str());
  pls.mtex("r", 1.5, 0.5, 0.5, fitted(figure.band_label).c_str());
}

// Characters of a label as drawn (UTF-8: bytes that do not continue a character)
size_t characters(const std::string& label) {
  const std::string text = fitted(label);
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

size_t longest_legend_label(const PlotFigure& figure) {
  size_t longest = characters(figure.shaded_label);
  for (const auto& panel : figure.panels) {
    for (const auto& curve : panel.curves) longest = std::max(longest, characters(curve.label));
  }
  return longest;
}

size_t longest_lane_label(const PlotFigure& figure) {
  size_t longest = 0;
  for (const auto& lane : figure.lanes) longest = std::max(longest, characters(lane.label));
  return longest;
}

const char* device(ImageFormat format) {
  switch (format) {
    case ImageFormat::svg:
      return "svg";  // PLplot's own: text as <text>, lines as <polyline> (cairo's draws glyphs)
    case ImageFormat::png:
      return "pngcairo";
    case ImageFormat::pdf:
      return "pdfcairo";
  }
  return "svg";
}

}  // namespace

ImageFormat image_format(const std::string& path, const std::string& forced) {
  std::string name = forced;
  if (name.empty()) {
    const std::string extension = std::filesystem::path(path).extension().string();
    name = extension.empty() ? "" : extension.substr(1);
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    if (name.empty() || (name != "svg" && name != "png" && name != "pdf")) {
      throw InputError("-o " + quote_input(path) +
                       ": the extension does not tell the image format (.svg, .png or .pdf); "
                       "give --format svg|png|pdf");
    }
  }
  if (name == "svg") return ImageFormat::svg;
  if (name == "png") return ImageFormat::png;
  if (name == "pdf") return ImageFormat::pdf;
  throw InputError("--format: " + quote_input(name) + " is not svg, png or pdf");
}

std::vector<std::string> shortened_texts(const PlotFigure& figure) {
  const auto too_long = [](const std::string& text) { return text.size() > kMaxPlotText; };
  bool axis = too_long(figure.x_label) || (!figure.lanes.empty() && too_long(figure.band_label));
  bool legend = !figure.shaded.empty() && too_long(figure.shaded_label);
  for (const PlotPanel& panel : figure.panels) {
    axis = axis || too_long(panel.y_label);
    for (const PlotCurve& curve : panel.curves) legend = legend || too_long(curve.label);
  }
  const bool lane = std::any_of(figure.lanes.begin(), figure.lanes.end(),
                                [&](const PlotLane& l) { return too_long(l.label); });
  std::vector<std::string> kinds;
  if (too_long(figure.title)) kinds.push_back("the title");
  if (axis) kinds.push_back("an axis label");
  if (legend) kinds.push_back("a legend entry");
  if (lane) kinds.push_back("a lane label");
  return kinds;
}

std::string render_plot(const PlotFigure& figure, ImageFormat format) {
  const ScratchFile file;
  const int panels = static_cast<int>(figure.panels.size());
  const bool band = !figure.lanes.empty();
  const int band_height = band ? 40 + 22 * static_cast<int>(figure.lanes.size()) : 0;
  const int top = 50, bottom = 60;
  const long long height =
      top + bottom + static_cast<long long>(panels) * figure.panel_height + band_height;
  if (format == ImageFormat::png && (height > kMaxPngSide || figure.width > kMaxPngSide)) {
    throw InputError("the image would be " + std::to_string(figure.width) + " x " +
                     std::to_string(height) + " pixels, more than the " +
                     std::to_string(kMaxPngSide) +
                     " a side a PNG is drawn on: fewer panels (--y), a smaller --panel-height, "
                     "or SVG or PDF");
  }
  {
    plstream pls;
    pls.sdev(device(format));
    pls.sfnam(file.path().c_str());
    pls.spage(72, 72, figure.width, static_cast<PLINT>(height), 0, 0);  // 72 dpi: a point a unit
    pls.scmap0a(kRed, kGreen, kBlue, kAlpha, 14);
    pls.init();
    pls.adv(0);
    pls.schr(kTextHeight, 1.0);  // fixed, not a fraction of the page: tall figures keep it
    pls.syax(8, 0);              // numbers as such up to 8 digits, no separate (x10^k) label
    pls.sxax(8, 0);
    pls.width(1);
    // margins that fit the lane labels on the left and the legend on the right
    const double left =
        std::clamp((30 + kCharWidth * longest_lane_label(figure)) / figure.width, 0.09, 0.3);
    const double right =
        std::max(0.45, 1 - (80 + kCharWidth * longest_legend_label(figure)) / figure.width);
    const double min_width = kMinimumWidth * (figure.x_max - figure.x_min) / figure.width;
    pls.vpor(0, 1, 1 - static_cast<double>(top) / height, 1);
    pls.col0(kAxes);
    pls.mtex("t", -2.0, 0.5, 0.5, fitted(figure.title).c_str());
    for (int k = 0; k < panels; ++k) {
      // panel k from the top, a small gap between panels, tick labels only on the lowest
      const double upper = 1 - static_cast<double>(top + k * figure.panel_height) / height;
      const double lower = upper - (figure.panel_height - 24.0) / height;
      pls.vpor(left, right, lower, upper);
      draw_panel(pls, figure, figure.panels[k], k == panels - 1 && !band, min_width);
    }
    if (band) {
      const double upper = 1 - static_cast<double>(top + panels * figure.panel_height) / height;
      pls.vpor(left, right, upper - (band_height - 20.0) / height, upper);
      draw_lanes(pls, figure, min_width);
    }
  }  // ~plstream ends the stream: the file is complete
  std::string bytes = read_bytes(file.path());
  // a driver that could not draw (cairo refuses a surface it cannot allocate) writes nothing
  if (bytes.empty()) {
    throw InputError(std::string("PLplot's ") + device(format) +
                     " driver produced no image (a figure too large for it?)");
  }
  if (format == ImageFormat::pdf) pin_creation_date(bytes);
  if (format == ImageFormat::svg) bytes = plain_svg_text(bytes);
  return bytes;
}

}  // namespace eom::cli
