// The `coheriq bench --chart` picture: a grouped horizontal bar chart of speedups over the
// reference engine, one group per kernel and size, one bar per engine and peer. Hand-written
// SVG (no dependency), well-formed XML, readable in any browser.
#pragma once

#include <string>

#include "bench_results.hpp"

namespace coheriq::tool {

// `subtitle` says what was measured (host, repetitions). Uses a log scale when the speedups
// span more than a factor of 20, a linear one otherwise; the 1x line is always drawn.
std::string render_svg_chart(const Table& table, const std::string& subtitle);

}  // namespace coheriq::tool
