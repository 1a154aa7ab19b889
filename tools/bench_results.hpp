// The results of `coheriq bench`: Google Benchmark's JSON of each kernels_bench run, merged into
// one table (rows: kernel x size; columns: engines, then peers), rendered as text and JSON.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace coheriq::tool {

// A benchmark name "<kernel>.<type>/<size>/<impl>", e.g. "dot.f32/1024/coheriq".
struct BenchName {
  std::string kernel;  // "dot.f32"
  std::size_t size = 0;
  std::string impl;  // "coheriq", a peer, or "stream"
  std::string base() const { return kernel.substr(0, kernel.find('.')); }  // "dot"
  std::string str() const;
};
// Parses a name; false when it does not have that shape.
bool parse_bench_name(const std::string& name, BenchName& out);

// What kernels_bench says of a kernel ("@kernel dot.f32 size=length work=linear traffic=read2",
// or the JSON context "coheriq_kernel:dot.f32"): the command knows no kernel by name.
struct KernelTraits {
  std::string size = "length";  // "length" (elements) or "order" (n x n matrices)
  std::string work = "linear";  // how the cost grows with the size: linear, quadratic, cubic
  std::string traffic;          // the STREAM-style reference of the same traffic, or ""
  std::string group;            // the family --kernels <group> selects: "blas1", "math", "gemm"
};
// Parses "size=length work=linear traffic=read2"; unknown keys are ignored (newer binaries).
KernelTraits parse_kernel_traits(const std::string& text);
// Parses an "@kernel <kernel> <traits>" line; false when the line is something else.
bool parse_kernel_line(const std::string& line, std::string& kernel, KernelTraits& traits);

// "1K", "64K", "16M" for lengths; the order n itself for matrices.
std::string size_label(const KernelTraits& traits, std::size_t n);
// The elements a benchmark of size n touches per operand: n, or n·n for an order.
std::size_t elements(const KernelTraits& traits, std::size_t n);

// One implementation at one row: a sample per repetition, summarized by the median.
struct Cell {
  std::vector<double> times_ns;  // cpu time per call, one per repetition
  std::vector<double> rates;     // the benchmark's rate counter, one per repetition
  std::string rate_unit;         // "bytes_per_second", "flops" or "items_per_second"
  std::string error;             // Google Benchmark's error message, when the benchmark failed
  double median_ns() const;
  double median_rate() const;
  // (max - min) / (2 median): the half-width of the spread around the median.
  double spread() const;
};

struct Row {
  std::string kernel;  // "dot.f32"
  std::size_t size = 0;
  std::map<std::string, Cell> cells;  // by column: an engine name or a peer name
};

struct Table {
  std::vector<std::string> engines;  // coheriq engines, "reference" first
  std::vector<std::string> peers;    // peer columns with at least one result, in run order
  // The engine in whose run (one process) the peers ran: see peer_engine() in bench_command.cpp.
  std::string peer_engine = "reference";
  std::vector<Row> rows;  // in the order kernels_bench runs them
  // The STREAM-style references measured in each engine's run (same process, same minutes as
  // that engine's kernels): engine -> "stream_read1", "stream_read2", "stream_scale", ...
  std::map<std::string, std::map<std::string, Cell>> stream;
  std::size_t stream_size = 0;  // their length: rows this long are compared with them
  // The FMA peak of one core measured in each engine's run: engine -> "f32/512" (type, vector
  // bits) -> cell. Rows of cubic work are compared with the widest one of their type.
  std::map<std::string, std::map<std::string, Cell>> peak;
  std::size_t threads = 1;  // what the kernels ran on (--threads): the peak counts this many cores
  std::map<std::string, KernelTraits> traits;  // by kernel ("dot.f32"), from kernels_bench

  // The traits of a kernel (the defaults when kernels_bench did not describe it).
  const KernelTraits& traits_of(const std::string& kernel) const;
  std::string size_label(const Row& row) const {
    return tool::size_label(traits_of(row.kernel), row.size);
  }

  // Adds the benchmarks of one run's JSON; coheriq rows go to the column `engine`.
  void add_run(const nlohmann::json& run, const std::string& engine);
  // Orders rows by `order` ("kernel/size" keys, e.g. the run order of kernels_bench).
  void sort_rows(const std::vector<std::string>& order);
  // time(reference) / time(column) at this row, or a negative value when either is missing.
  double speedup(const Row& row, const std::string& column) const;
  // The STREAM-style reference with the traffic of this row's kernel (its traits name it),
  // measured in the run of `column` (peers: the run of peer_engine), or nullptr.
  const Cell* stream_for(const Row& row, const std::string& column) const;
  // rate(column) / rate(its STREAM-style reference) at this row, or a negative value.
  double fraction_of_stream(const Row& row, const std::string& column) const;
  // The widest FMA peak of this row's type measured in the run of `column` (peers: the run of
  // peer_engine), for rows of cubic work; its vector bits in `bits`. nullptr when none.
  const Cell* peak_for(const Row& row, const std::string& column, std::size_t* bits) const;
  // rate(column) / (peak of one core x threads) at this row, or a negative value.
  double fraction_of_peak(const Row& row, const std::string& column) const;
};

struct HostSummary {
  std::string brand, arch;
  std::vector<std::string> features, disabled;
  std::string auto_engine;  // what COHERIQ_ENGINE=auto selects here
  // The features worth a glance when reading the numbers: those the engines require (their
  // required_features, lowest priority engine first, each once). The host line shows those
  // present.
  std::vector<std::string> key_features;
};

struct RunSettings {
  bool quick = false;
  int repetitions = 0;
  double min_time = 0;
  int threads = 0;      // --threads; 0: not given (one thread, cpu time)
  std::string command;  // the command line, for the record
};

// Text output: a header, the host line, the side-by-side table, then bandwidth and GFLOP/s.
std::string render_table(const Table& table, const HostSummary& host, const RunSettings& settings,
                         const std::map<std::string, std::string>& peer_details,
                         const std::string& peers_skipped);

// The summary object of the JSON output ("coheriq_bench").
nlohmann::json summary_json(const Table& table, const HostSummary& host,
                            const RunSettings& settings,
                            const std::map<std::string, std::string>& peer_details,
                            const std::string& peers_skipped);

// "31.2ns", "1.45us", "12.3ms", "2.50s".
std::string format_time(double ns);
// "24.1x", "0.732x", "1.00x": three significant digits.
std::string format_ratio(double r);

}  // namespace coheriq::tool
