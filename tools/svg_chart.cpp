#include "svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

namespace coheriq::tool {
namespace {

// Tableau 10: distinct at a glance, readable in greyscale print too. Engines take the cool
// colours, peers the warm ones, so the two families separate without reading the legend.
const char* const kEngineColors[] = {"#4e79a7", "#59a14f", "#76b7b2", "#b07aa1", "#9c755f"};
const char* const kPeerColors[] = {"#f28e2b", "#e15759", "#edc948", "#ff9da7", "#bab0ac"};

struct Series {
  std::string name;
  bool peer = false;
  std::string color;
};

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string num(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", v);
  return buffer;
}

// Tick label: "0.5x", "1x", "20x", "1000x".
std::string tick_label(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%gx", v);
  return buffer;
}

// The 1-2-5 sequence around v: the largest step <= v, or the smallest >= v.
double nice_floor(double v) {
  const double decade = std::pow(10.0, std::floor(std::log10(v)));
  for (double m : {5.0, 2.0, 1.0}) {
    if (m * decade <= v) return m * decade;
  }
  return decade;
}
double nice_ceil(double v) {
  const double decade = std::pow(10.0, std::floor(std::log10(v)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * decade >= v) return m * decade;
  }
  return 10 * decade;
}

class Scale {
 public:
  Scale(double lo, double hi, bool log, double left, double width)
      : lo_(lo), hi_(hi), log_(log), left_(left), width_(width) {}
  double x(double v) const {
    const double f = log_ ? (std::log(v) - std::log(lo_)) / (std::log(hi_) - std::log(lo_))
                          : (v - lo_) / (hi_ - lo_);
    return left_ + std::clamp(f, 0.0, 1.0) * width_;
  }
  // Gridline positions: 1-2-5 per decade (log), or about six even steps (linear).
  std::vector<double> ticks() const {
    std::vector<double> t;
    if (log_) {
      const int first = int(std::floor(std::log10(lo_))), last = int(std::ceil(std::log10(hi_)));
      for (int k = first; k <= last; ++k) {
        for (double m : {1.0, 2.0, 5.0}) {
          const double v = m * std::pow(10.0, k);
          if (v >= lo_ * 0.9999 && v <= hi_ * 1.0001) t.push_back(v);
        }
      }
    } else {
      const double step = nice_ceil((hi_ - lo_) / 6);
      for (double v = lo_; v <= hi_ * 1.0001; v += step) t.push_back(v);
    }
    std::sort(t.begin(), t.end());
    t.erase(std::unique(t.begin(), t.end()), t.end());
    return t;
  }
  bool log() const { return log_; }

 private:
  double lo_, hi_;
  bool log_;
  double left_, width_;
};

}  // namespace

std::string render_svg_chart(const Table& table, const std::string& subtitle) {
  std::vector<Series> series;
  std::size_t engine_index = 0, peer_index = 0;
  for (const std::string& e : table.engines) {
    if (e == "reference") continue;
    series.push_back({e, false, kEngineColors[engine_index++ % std::size(kEngineColors)]});
  }
  for (const std::string& p : table.peers) {
    series.push_back({p, true, kPeerColors[peer_index++ % std::size(kPeerColors)]});
  }

  // Speedups per group and series (negative: not measured).
  std::vector<std::vector<double>> values;
  double lo = 1, hi = 1;
  for (const Row& row : table.rows) {
    std::vector<double> v;
    for (const Series& s : series) {
      const double speedup = table.speedup(row, s.name);
      v.push_back(speedup);
      if (speedup > 0) {
        lo = std::min(lo, speedup);
        hi = std::max(hi, speedup);
      }
    }
    values.push_back(v);
  }
  const bool log = hi / lo > 20;

  // ------------------------------ Layout
  const double width = 1000, label_width = 200, right_margin = 70;
  const double plot_left = label_width, plot_width = width - label_width - right_margin;
  const std::size_t groups = table.rows.size();
  const double bar = series.size() * groups > 120 ? 9 : 13;
  const double group_pad = 5;

  // Legend: a swatch per series, then the dashed 1x line, on as many lines as needed.
  struct LegendItem {
    double x, y;
    std::string label;
    std::string color;  // empty: the reference line
  };
  std::vector<LegendItem> legend;
  double lx = plot_left, ly = 70;
  const auto place = [&](const std::string& label, const std::string& color) {
    const double item_width = 34 + 7.5 * double(label.size());
    if (lx + item_width > width - right_margin && lx > plot_left) {
      lx = plot_left;
      ly += 20;
    }
    legend.push_back({lx, ly, label, color});
    lx += item_width;
  };
  for (const Series& s : series) place(s.name + (s.peer ? " (peer)" : ""), s.color);
  place("1x = reference", "");
  const double plot_top = ly + 30;
  // A group holds a bar per series measured at its row (peers cover only some kernels).
  std::vector<double> group_top(groups), group_height(groups);
  double plot_bottom = plot_top;
  for (std::size_t g = 0; g < groups; ++g) {
    const auto measured =
        std::count_if(values[g].begin(), values[g].end(), [](double v) { return v > 0; });
    group_top[g] = plot_bottom;
    group_height[g] = double(std::max<std::ptrdiff_t>(1, measured)) * bar + 2 * group_pad;
    plot_bottom += group_height[g];
  }
  const double height = plot_bottom + 56;

  const Scale scale =
      log ? Scale(nice_floor(lo / 1.15), nice_ceil(hi * 1.15), true, plot_left, plot_width)
          : Scale(0, nice_ceil(hi * 1.1), false, plot_left, plot_width);
  const double origin = scale.x(log ? 1.0 : 0.0);  // where bars start

  std::ostringstream svg;
  svg << R"(<?xml version="1.0" encoding="UTF-8"?>)"
      << "\n"
      << R"(<svg xmlns="http://www.w3.org/2000/svg" width=")" << num(width) << R"(" height=")"
      << num(height) << R"(" viewBox="0 0 )" << num(width) << " " << num(height)
      << R"(" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">)"
      << "\n";
  svg << "<title>coheriq bench: speedup over the reference engine</title>\n";
  svg << R"(<rect width="100%" height="100%" fill="#ffffff"/>)"
      << "\n";
  svg << R"(<text x="20" y="30" font-size="20" font-weight="bold" fill="#222">)"
      << "coheriq bench: speedup over the reference engine</text>\n";
  svg << R"(<text x="20" y="50" font-size="12" fill="#555">)" << escape(subtitle) << "</text>\n";

  for (const LegendItem& item : legend) {
    if (item.color.empty()) {
      svg << R"(<line x1=")" << num(item.x) << R"(" y1=")" << num(item.y - 3) << R"(" x2=")"
          << num(item.x + 14) << R"(" y2=")" << num(item.y - 3)
          << R"(" stroke="#c0392b" stroke-width="2" stroke-dasharray="4,2"/>)";
    } else {
      svg << R"(<rect x=")" << num(item.x) << R"(" y=")" << num(item.y - 10)
          << R"(" width="14" height="14" fill=")" << item.color << R"("/>)";
    }
    svg << R"(<text x=")" << num(item.x + 20) << R"(" y=")" << num(item.y + 1)
        << R"(" font-size="13" fill="#222">)" << escape(item.label) << "</text>\n";
  }

  // Alternate bands, so a bar is read against the label of its own group.
  for (std::size_t g = 0; g < groups; g += 2) {
    svg << R"(<rect x="10" y=")" << num(group_top[g]) << R"(" width=")" << num(width - 20)
        << R"(" height=")" << num(group_height[g]) << R"(" fill="#f3f4f6"/>)"
        << "\n";
  }

  // Grid and axis.
  for (double t : scale.ticks()) {
    const double x = scale.x(t);
    svg << R"(<line x1=")" << num(x) << R"(" y1=")" << num(plot_top) << R"(" x2=")" << num(x)
        << R"(" y2=")" << num(plot_bottom) << R"(" stroke="#d0d0d0" stroke-width="1"/>)";
    // Tick labels above and below: a tall chart is read from either end.
    for (const double y : {plot_top - 6, plot_bottom + 16}) {
      svg << R"(<text x=")" << num(x) << R"(" y=")" << num(y)
          << R"(" font-size="11" fill="#444" text-anchor="middle">)" << tick_label(t) << "</text>";
    }
    svg << "\n";
  }
  svg << R"(<line x1=")" << num(plot_left) << R"(" y1=")" << num(plot_bottom) << R"(" x2=")"
      << num(plot_left + plot_width) << R"(" y2=")" << num(plot_bottom)
      << R"(" stroke="#444" stroke-width="1"/>)"
      << "\n";
  svg << R"(<text x=")" << num(plot_left + plot_width / 2) << R"(" y=")" << num(plot_bottom + 38)
      << R"(" font-size="13" fill="#222" text-anchor="middle">)"
      << "speedup over the reference engine (" << (log ? "log" : "linear")
      << " scale; right of 1x is faster)</text>\n";

  // Bars and their values.
  for (std::size_t g = 0; g < groups; ++g) {
    const Row& row = table.rows[g];
    const double top = group_top[g];
    svg << R"(<text x=")" << num(plot_left - 10) << R"(" y=")" << num(top + group_height[g] / 2 + 4)
        << R"(" font-size="12" fill="#222" text-anchor="end">)" << escape(row.kernel) << " "
        << escape(table.size_label(row)) << "</text>\n";
    double y = top + group_pad;
    for (std::size_t s = 0; s < series.size(); ++s) {
      const double v = values[g][s];
      if (!(v > 0)) continue;
      const double x = scale.x(v);
      const double left = std::min(origin, x), bar_width = std::max(1.0, std::abs(x - origin));
      svg << R"(<rect x=")" << num(left) << R"(" y=")" << num(y + 1) << R"(" width=")"
          << num(bar_width) << R"(" height=")" << num(bar - 2) << R"(" fill=")" << series[s].color
          << R"("><title>)" << escape(row.kernel) << " " << escape(table.size_label(row)) << ", "
          << escape(series[s].name) << ": " << escape(format_ratio(v)) << "</title></rect>";
      const bool right = x >= origin;
      svg << R"(<text x=")" << num(right ? x + 4 : x - 4) << R"(" y=")" << num(y + bar - 3)
          << R"(" font-size=")" << (bar > 10 ? 10 : 8) << R"(" fill="#333" text-anchor=")"
          << (right ? "start" : "end") << R"(">)" << escape(format_ratio(v)) << "</text>\n";
      y += bar;
    }
  }

  // The 1x line on top of the bars: the reference itself.
  const double one = scale.x(1.0);
  svg << R"(<line x1=")" << num(one) << R"(" y1=")" << num(plot_top) << R"(" x2=")" << num(one)
      << R"(" y2=")" << num(plot_bottom) << R"(" stroke="#c0392b" stroke-width="1.5" )"
      << R"(stroke-dasharray="5,3"/>)"
      << "\n";
  if (series.empty()) {
    svg << R"(<text x=")" << num(plot_left) << R"(" y=")" << num(plot_top + 16)
        << R"(" font-size="13" fill="#555">only the reference ran: nothing to compare</text>)"
        << "\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace coheriq::tool
