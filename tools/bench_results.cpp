#include "bench_results.hpp"
#include "core/text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace coheriq::tool {

using coheriq::detail::join;
using nlohmann::json;

// ------------------------------ Names and formatting

std::string BenchName::str() const { return kernel + "/" + std::to_string(size) + "/" + impl; }

bool parse_bench_name(const std::string& name, BenchName& out) {
  const auto first = name.find('/');
  if (first == std::string::npos) return false;
  const auto second = name.find('/', first + 1);
  if (second == std::string::npos || name.find('/', second + 1) != std::string::npos) return false;
  const std::string size = name.substr(first + 1, second - first - 1);
  if (size.empty() || size.find_first_not_of("0123456789") != std::string::npos) return false;
  out.kernel = name.substr(0, first);
  out.size = std::stoull(size);
  out.impl = name.substr(second + 1);
  return !out.kernel.empty() && !out.impl.empty();
}

KernelTraits parse_kernel_traits(const std::string& text) {
  KernelTraits t;
  std::istringstream words(text);
  for (std::string word; words >> word;) {
    const auto eq = word.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
    if (key == "size") t.size = value;
    if (key == "work") t.work = value;
    if (key == "traffic") t.traffic = value;
    if (key == "group") t.group = value;
  }
  return t;
}

bool parse_kernel_line(const std::string& line, std::string& kernel, KernelTraits& traits) {
  static const std::string prefix = "@kernel ";
  if (line.compare(0, prefix.size(), prefix) != 0) return false;
  const std::string rest = line.substr(prefix.size());
  const auto space = rest.find(' ');
  kernel = rest.substr(0, space);
  traits = parse_kernel_traits(space == std::string::npos ? "" : rest.substr(space + 1));
  return !kernel.empty();
}

std::size_t elements(const KernelTraits& traits, std::size_t n) {
  return traits.size == "order" ? n * n : n;
}

std::string size_label(const KernelTraits& traits, std::size_t n) {
  if (traits.size == "order") return std::to_string(n);
  if (n >= (std::size_t{1} << 20) && n % (std::size_t{1} << 20) == 0) {
    return std::to_string(n >> 20) + "M";
  }
  if (n >= 1024 && n % 1024 == 0) return std::to_string(n >> 10) + "K";
  return std::to_string(n);
}

namespace {

std::string printf_string(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

// Three significant digits.
std::string three_digits(double v) {
  if (v >= 100) return printf_string("%.0f", v);
  if (v >= 10) return printf_string("%.1f", v);
  return printf_string("%.2f", v);
}

double median_of(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const std::size_t mid = v.size() / 2;
  return v.size() % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

// Width on a terminal: UTF-8 continuation bytes take no column.
std::size_t display_width(const std::string& s) {
  std::size_t w = 0;
  for (unsigned char c : s) w += (c & 0xC0) != 0x80;
  return w;
}

std::string pad_right(const std::string& s, std::size_t width) {
  const std::size_t w = display_width(s);
  return w >= width ? s : s + std::string(width - w, ' ');
}

std::string pad_left(const std::string& s, std::size_t width) {
  const std::size_t w = display_width(s);
  return w >= width ? s : std::string(width - w, ' ') + s;
}

double time_unit_ns(const std::string& unit) {
  if (unit == "ns") return 1;
  if (unit == "us") return 1e3;
  if (unit == "ms") return 1e6;
  if (unit == "s") return 1e9;
  throw std::runtime_error("unknown time unit '" + unit + "' in Google Benchmark's JSON");
}

constexpr double kWideSpread = 0.05;  // spreads above 5% are shown next to the time

}  // namespace

std::string format_time(double ns) {
  if (!(ns > 0)) return "-";
  if (ns < 1e3) return three_digits(ns) + "ns";
  if (ns < 1e6) return three_digits(ns / 1e3) + "us";
  if (ns < 1e9) return three_digits(ns / 1e6) + "ms";
  return three_digits(ns / 1e9) + "s";
}

std::string format_ratio(double r) {
  if (!(r > 0)) return "-";
  if (r < 1) return printf_string("%.3g", r) + "x";
  return three_digits(r) + "x";
}

// ------------------------------ Cells and the table

double Cell::median_ns() const { return median_of(times_ns); }
double Cell::median_rate() const { return median_of(rates); }
double Cell::spread() const {
  if (times_ns.size() < 2) return 0;
  const auto [lo, hi] = std::minmax_element(times_ns.begin(), times_ns.end());
  return (*hi - *lo) / (2 * median_ns());
}

const KernelTraits& Table::traits_of(const std::string& kernel) const {
  static const KernelTraits defaults;
  const auto it = traits.find(kernel);
  return it == traits.end() ? defaults : it->second;
}

void Table::add_run(const json& run, const std::string& engine) {
  // The kernels' traits, as this run's kernels_bench describes them.
  static const std::string traits_key = "coheriq_kernel:";
  if (const auto context = run.find("context"); context != run.end() && context->is_object()) {
    for (const auto& [key, value] : context->items()) {
      if (key.compare(0, traits_key.size(), traits_key) == 0 && value.is_string()) {
        traits.emplace(key.substr(traits_key.size()), parse_kernel_traits(value));
      }
    }
  }
  // With --threads, kernels_bench times in wall-clock time (cpu time is the benchmark thread's).
  std::string time_field = "cpu_time";
  if (const auto context = run.find("context"); context != run.end() && context->is_object()) {
    if (context->value("coheriq_time", "") == "real_time") time_field = "real_time";
  }
  for (const json& b : run.at("benchmarks")) {
    // Aggregates (mean, median, stddev) are recomputed from the repetitions themselves.
    if (b.value("run_type", "iteration") != "iteration") continue;
    BenchName name;
    if (!parse_bench_name(b.value("run_name", b.value("name", "")), name)) continue;
    Cell* cell;
    if (name.impl == "stream") {
      cell = &stream[engine][name.base()];
      stream_size = name.size;
    } else if (name.impl == "peak") {
      const std::string type = name.kernel.substr(name.kernel.find('.') + 1);
      cell = &peak[engine][type + "/" + std::to_string(name.size)];
    } else {
      const std::string column = name.impl == "coheriq" ? engine : name.impl;
      if (name.impl != "coheriq" && std::find(peers.begin(), peers.end(), column) == peers.end()) {
        peers.push_back(column);
      }
      auto row = std::find_if(rows.begin(), rows.end(), [&](const Row& r) {
        return r.kernel == name.kernel && r.size == name.size;
      });
      if (row == rows.end()) {
        rows.push_back(Row{name.kernel, name.size, {}});
        row = rows.end() - 1;
      }
      cell = &row->cells[column];
    }
    if (b.value("error_occurred", false)) {
      cell->error = b.value("error_message", "failed");
      continue;
    }
    const double cpu_time = b.at("cpu_time").get<double>();
    // The peak is one core's whatever the threads: its own cpu time.
    const double time = name.impl == "peak" ? cpu_time : b.value(time_field, cpu_time);
    cell->times_ns.push_back(time * time_unit_ns(b.value("time_unit", "ns")));
    // Rates are per cpu second of the benchmark thread: per wall-clock second with threads.
    const double rate_scale = time > 0 ? cpu_time / time : 1.0;
    for (const char* unit : {"bytes_per_second", "flops", "items_per_second"}) {
      if (b.contains(unit)) {
        cell->rates.push_back(b.at(unit).get<double>() * rate_scale);
        cell->rate_unit = unit;
        break;
      }
    }
  }
}

void Table::sort_rows(const std::vector<std::string>& order) {
  const auto rank = [&](const Row& r) {
    const auto it = std::find(order.begin(), order.end(), r.kernel + "/" + std::to_string(r.size));
    return it - order.begin();
  };
  std::stable_sort(rows.begin(), rows.end(),
                   [&](const Row& a, const Row& b) { return rank(a) < rank(b); });
}

double Table::speedup(const Row& row, const std::string& column) const {
  const auto ref = row.cells.find("reference");
  const auto other = row.cells.find(column);
  if (ref == row.cells.end() || other == row.cells.end()) return -1;
  const double t_ref = ref->second.median_ns(), t = other->second.median_ns();
  return t_ref > 0 && t > 0 ? t_ref / t : -1;
}

const Cell* Table::stream_for(const Row& row, const std::string& column) const {
  // Warm sizes: no reference.
  if (stream_size == 0 || elements(traits_of(row.kernel), row.size) < stream_size) return nullptr;
  const std::string& traffic = traits_of(row.kernel).traffic;
  if (traffic.empty()) return nullptr;
  const std::string reference = "stream_" + traffic;
  const bool engine = std::find(engines.begin(), engines.end(), column) != engines.end();
  const auto run = stream.find(engine ? column : peer_engine);
  if (run == stream.end()) return nullptr;
  const auto it = run->second.find(reference);
  return it == run->second.end() || it->second.rates.empty() ? nullptr : &it->second;
}

double Table::fraction_of_stream(const Row& row, const std::string& column) const {
  const Cell* reference = stream_for(row, column);
  const auto it = row.cells.find(column);
  if (reference == nullptr || it == row.cells.end() || it->second.rates.empty()) return -1;
  return it->second.median_rate() / reference->median_rate();
}

const Cell* Table::peak_for(const Row& row, const std::string& column, std::size_t* bits) const {
  if (traits_of(row.kernel).work != "cubic") return nullptr;
  const bool engine = std::find(engines.begin(), engines.end(), column) != engines.end();
  const auto run = peak.find(engine ? column : peer_engine);
  if (run == peak.end()) return nullptr;
  const std::string type = row.kernel.substr(row.kernel.find('.') + 1) + "/";
  const Cell* widest = nullptr;
  std::size_t widest_bits = 0;
  for (const auto& [key, cell] : run->second) {
    if (key.compare(0, type.size(), type) != 0 || cell.rates.empty()) continue;
    const std::size_t b = std::stoull(key.substr(type.size()));
    if (b > widest_bits) widest = &cell, widest_bits = b;
  }
  if (bits != nullptr) *bits = widest_bits;
  return widest;
}

double Table::fraction_of_peak(const Row& row, const std::string& column) const {
  const Cell* roof = peak_for(row, column, nullptr);
  const auto it = row.cells.find(column);
  if (roof == nullptr || it == row.cells.end() || it->second.rates.empty()) return -1;
  return it->second.median_rate() / (roof->median_rate() * double(threads));
}

// ------------------------------ Text

namespace {

struct Best {
  std::string column;
  double ns = 0;
};

// The fastest of `columns` at `row` (by median time).
Best fastest(const Row& row, const std::vector<std::string>& columns) {
  Best best;
  for (const std::string& c : columns) {
    const auto it = row.cells.find(c);
    if (it == row.cells.end()) continue;
    const double t = it->second.median_ns();
    if (t > 0 && (best.ns == 0 || t < best.ns)) best = {c, t};
  }
  return best;
}

std::vector<std::string> candidate_engines(const Table& t) {
  std::vector<std::string> engines;
  for (const std::string& e : t.engines) {
    if (e != "reference") engines.push_back(e);
  }
  return engines.empty() ? t.engines : engines;
}

std::string cell_text(const Table& t, const Row& row, const std::string& column) {
  const auto it = row.cells.find(column);
  if (it == row.cells.end()) return "-";
  const Cell& cell = it->second;
  if (!cell.error.empty() && cell.times_ns.empty()) return "failed";
  std::string s = format_time(cell.median_ns());
  if (cell.spread() > kWideSpread) {
    // A repetition that hit page faults or a busy neighbour can be many times the median.
    s += cell.spread() < 1 ? " \u00b1" + printf_string("%.0f", 100 * cell.spread()) + "%"
                           : std::string(" \u00b1>99%");
  }
  return s + "  " + format_ratio(t.speedup(row, column));
}

std::string vs_peer_text(const Table& t, const Row& row) {
  const Best engine = fastest(row, candidate_engines(t));
  const Best peer = fastest(row, t.peers);
  if (engine.ns == 0 || peer.ns == 0) return "";
  return format_ratio(peer.ns / engine.ns) + " " + peer.column;
}

// Renders rows of cells as aligned columns: first two left-aligned, the rest right-aligned.
std::string aligned(const std::vector<std::vector<std::string>>& lines) {
  std::vector<std::size_t> widths;
  for (const auto& line : lines) {
    widths.resize(std::max(widths.size(), line.size()), 0);
    for (std::size_t i = 0; i < line.size(); ++i) {
      widths[i] = std::max(widths[i], display_width(line[i]));
    }
  }
  std::string out;
  for (const auto& line : lines) {
    std::string text;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (i) text += "   ";
      text += i < 2 ? pad_right(line[i], widths[i]) : pad_left(line[i], widths[i]);
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text + "\n";
  }
  return out;
}

// Drops the columns (after the first two) that hold nothing but "-".
std::vector<std::vector<std::string>> without_empty_columns(
    const std::vector<std::vector<std::string>>& lines) {
  std::vector<bool> keep(lines.front().size(), false);
  keep[0] = keep[1] = true;
  for (std::size_t row = 1; row < lines.size(); ++row) {
    for (std::size_t i = 2; i < lines[row].size(); ++i) keep[i] = keep[i] || lines[row][i] != "-";
  }
  std::vector<std::vector<std::string>> out;
  for (const auto& line : lines) {
    std::vector<std::string> kept;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (keep[i]) kept.push_back(line[i]);
    }
    out.push_back(kept);
  }
  return out;
}

std::string rate_text(const Cell& cell, double scale, int decimals) {
  const double rate = cell.median_rate();
  if (!(rate > 0)) return "-";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, rate / scale);
  return buffer;
}

}  // namespace

std::string render_table(const Table& t, const HostSummary& host, const RunSettings& settings,
                         const std::map<std::string, std::string>& peer_details,
                         const std::string& peers_skipped) {
  std::ostringstream out;
  std::vector<std::string> key;
  for (const std::string& f : host.key_features) {
    if (std::find(host.features.begin(), host.features.end(), f) != host.features.end()) {
      key.emplace_back(f);
    }
  }
  out << "host: " << (host.brand.empty() ? "unknown CPU" : host.brand) << " (" << host.arch << "); "
      << (key.empty() ? "no SIMD features of note" : join(key, " "));
  if (!host.disabled.empty()) out << "; disabled: " << join(host.disabled, " ");
  out << "; auto selects " << host.auto_engine << "\n";
  if (!t.peers.empty()) {
    std::vector<std::string> described;
    for (const std::string& p : t.peers) {
      const auto d = peer_details.find(p);
      described.push_back(d == peer_details.end() ? p : p + " (" + d->second + ")");
    }
    out << "peers: " << join(described, "; ") << "\n";
  }
  if (!peers_skipped.empty()) out << "peers skipped: " << peers_skipped << "\n";
  if (settings.threads > 0) {
    out << "threads: " << settings.threads
        << " (coheriq and the peers that can; times are wall-clock)\n";
  } else {
    out << "threads: 1 (coheriq and every peer single-threaded; --threads N for more)\n";
  }
  out << (settings.threads > 0 ? "wall" : "cpu") << " time per call, median of "
      << settings.repetitions << " repetitions"
      << " (\u00b1: spread above " << int(kWideSpread * 100) << "%); "
      << "speedup = time(reference) / time"
      << (t.peers.empty() ? "" : "; last column: fastest peer's time / best engine's time")
      << "\n\n";

  std::vector<std::vector<std::string>> lines;
  std::vector<std::string> header = {"kernel", "size"};
  for (const std::string& e : t.engines) header.push_back(e);
  for (const std::string& p : t.peers) header.push_back(p);
  if (!t.peers.empty()) header.push_back("vs best peer");
  lines.push_back(header);
  for (const Row& row : t.rows) {
    std::vector<std::string> line = {row.kernel, t.size_label(row)};
    for (const std::string& e : t.engines) line.push_back(cell_text(t, row, e));
    for (const std::string& p : t.peers) line.push_back(cell_text(t, row, p));
    if (!t.peers.empty()) line.push_back(vs_peer_text(t, row));
    lines.push_back(line);
  }
  out << aligned(lines);

  std::vector<std::string> columns = t.engines;
  columns.insert(columns.end(), t.peers.begin(), t.peers.end());

  // Memory-bound rows: bandwidth against the STREAM-style reference of the same traffic,
  // measured in the same run (same process, same minutes) as the cell.
  std::vector<std::vector<std::string>> bw = {{"kernel", "size"}};
  for (const std::string& c : columns) bw[0].push_back(c);
  for (const Row& row : t.rows) {
    if (t.stream_for(row, "reference") == nullptr) continue;
    std::vector<std::string> line = {row.kernel, t.size_label(row)};
    for (const std::string& c : columns) {
      const double fraction = t.fraction_of_stream(row, c);
      line.push_back(fraction > 0 ? rate_text(row.cells.at(c), 1e9, 1) + " (" +
                                        printf_string("%.0f", 100 * fraction) + "%)"
                                  : "-");
    }
    bw.push_back(line);
  }
  if (bw.size() > 1) {
    out << "\nbandwidth of the cold rows, GB/s (% of the STREAM-style reference with the same "
           "traffic, measured in the same run; peers: in the "
        << t.peer_engine << " run)\n";
    for (const auto& [engine, references] : t.stream) {
      out << "  " << engine << " run:";
      for (const auto& [name, cell] : references) {
        out << " " << name.substr(7) << " " << rate_text(cell, 1e9, 1);
      }
      out << " GB/s\n";
    }
    out << aligned(without_empty_columns(bw));
  }

  // Compute-bound and math rows: GFLOP/s and Gelem/s.
  std::vector<std::vector<std::string>> rates = {{"kernel", "size"}};
  for (const std::string& c : columns) rates[0].push_back(c);
  for (const Row& row : t.rows) {
    std::string unit;
    for (const auto& [column, cell] : row.cells) {
      if (cell.rate_unit == "flops") unit = "GFLOP/s";
      if (cell.rate_unit == "items_per_second") unit = "Gelem/s";
    }
    if (unit.empty()) continue;
    std::vector<std::string> line = {row.kernel + " " + unit, t.size_label(row)};
    for (const std::string& c : columns) {
      const auto it = row.cells.find(c);
      line.push_back(it == row.cells.end() ? "-" : rate_text(it->second, 1e9, 2));
    }
    rates.push_back(line);
  }
  if (rates.size() > 1)
    out << "\nthroughput (GFLOP/s for gemm, Gelem/s for math)\n" << aligned(rates);

  // Products against the roof: the FMA peak of one core (x threads), measured in the same run.
  std::vector<std::vector<std::string>> roof = {{"kernel", "size"}};
  for (const std::string& c : columns) roof[0].push_back(c);
  for (const Row& row : t.rows) {
    if (t.peak_for(row, "reference", nullptr) == nullptr) continue;
    std::vector<std::string> line = {row.kernel, t.size_label(row)};
    for (const std::string& c : columns) {
      const double fraction = t.fraction_of_peak(row, c);
      line.push_back(fraction > 0 ? printf_string("%.0f%%", 100 * fraction) : "-");
    }
    roof.push_back(line);
  }
  if (roof.size() > 1) {
    out << "\ngemm as % of the FMA peak (the widest vectors of its type; one core"
        << (t.threads > 1 ? " x " + std::to_string(t.threads) + " threads" : std::string())
        << "), measured in the same run; peers: in the " << t.peer_engine << " run\n";
    for (const auto& [engine, peaks] : t.peak) {
      out << "  " << engine << " run, one core:";
      for (const auto& [name, cell] : peaks) {
        const std::string bits = name.substr(name.find('/') + 1);
        out << " " << name.substr(0, name.find('/')) << " "
            << (bits == "512"   ? "zmm"
                : bits == "256" ? "ymm"
                                : bits + "-bit")
            << " " << rate_text(cell, 1e9, 1);
      }
      out << " GFLOP/s\n";
    }
    out << aligned(without_empty_columns(roof));
  }
  return out.str();
}

// ------------------------------ JSON

json summary_json(const Table& t, const HostSummary& host, const RunSettings& settings,
                  const std::map<std::string, std::string>& peer_details,
                  const std::string& peers_skipped) {
  json j;
  j["version"] = 1;
  j["command"] = settings.command;
  j["host"] = {{"brand", host.brand},
               {"arch", host.arch},
               {"features", host.features},
               {"disabled", host.disabled},
               {"auto_engine", host.auto_engine}};
  j["settings"] = {{"quick", settings.quick},
                   {"repetitions", settings.repetitions},
                   {"min_time", settings.min_time},
                   {"threads", settings.threads > 0 ? settings.threads : 1},
                   {"time", std::string(settings.threads > 0 ? "real_time" : "cpu_time") +
                                " per call in ns, median of the repetitions"},
                   {"speedup", "time_ns(reference) / time_ns"}};
  j["engines"] = t.engines;
  j["peers"] = json::array();  // in the table's column order
  for (const std::string& p : t.peers) {
    const auto d = peer_details.find(p);
    j["peers"].push_back({{"name", p}, {"detail", d == peer_details.end() ? "" : d->second}});
  }
  j["peers_skipped"] = peers_skipped;
  j["peers_run"] = t.peer_engine;  // the engine whose process ran the peers
  const auto cell_json = [](const Cell& c) {
    json jc = {{"time_ns", c.times_ns.empty() ? json(nullptr) : json(c.median_ns())},
               {"times_ns", c.times_ns},
               {"spread", c.spread()},
               {"repetitions", c.times_ns.size()}};
    if (!c.rates.empty()) jc[c.rate_unit] = c.median_rate();
    if (!c.error.empty()) jc["error"] = c.error;
    return jc;
  };
  j["rows"] = json::array();
  for (const Row& row : t.rows) {
    json jr = {{"kernel", row.kernel}, {"size", row.size}, {"cells", json::object()}};
    for (const auto& [column, cell] : row.cells) {
      json jc = cell_json(cell);
      const double s = t.speedup(row, column);
      jc["speedup"] = s > 0 ? json(s) : json(nullptr);
      if (const double fraction = t.fraction_of_stream(row, column); fraction > 0) {
        jc["fraction_of_stream"] = fraction;
      }
      if (const double fraction = t.fraction_of_peak(row, column); fraction > 0) {
        jc["fraction_of_peak"] = fraction;
      }
      jr["cells"][column] = jc;
    }
    j["rows"].push_back(jr);
  }
  j["stream"] = json::object();
  for (const auto& [engine, references] : t.stream) {
    for (const auto& [name, cell] : references) j["stream"][engine][name] = cell_json(cell);
  }
  // "f32/512": the FMA peak of one core with 512-bit vectors (its "flops" per second).
  j["peak"] = json::object();
  for (const auto& [engine, peaks] : t.peak) {
    for (const auto& [name, cell] : peaks) j["peak"][engine][name] = cell_json(cell);
  }
  return j;
}

}  // namespace coheriq::tool
