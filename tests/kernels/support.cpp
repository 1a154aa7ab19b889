#include "support.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace coheriq::kernels::testing {

const std::string& engine() {
  static const std::string name = coheriq::kernels::active_engine();
  return name;
}

std::size_t large_size() { return quick() ? 20011 : 1000003; }

const std::vector<std::size_t>& sizes() {
  static const std::vector<std::size_t> all = [] {
    std::vector<std::size_t> v = {0, 1};
    for (std::size_t lanes : {4, 8, 16}) {
      for (std::size_t unroll : {1, 4}) {
        const std::size_t width = lanes * unroll;
        for (std::size_t n : {width - 1, width, width + 1}) {
          if (n > 1 && std::find(v.begin(), v.end(), n) == v.end()) v.push_back(n);
        }
      }
    }
    for (std::size_t n : {100, 127, 129, 1000, 4099}) v.push_back(n);
    v.push_back(large_size());
    std::sort(v.begin(), v.end());
    return v;
  }();
  return all;
}

std::string show(double v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.9g (%a)", v, v);
  return text;
}

void report(const std::string& line) {
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}

void report_worst(const std::string& kernel, const Worst& worst, const std::string& unit,
                  const std::string& bound) {
  char ratio[32];
  std::snprintf(ratio, sizeof ratio, "%.3g", worst.ratio);
  report(kernel + " [" + engine() + "]: worst error " + ratio + " " + unit +
         (worst.where.empty() ? std::string() : " (" + worst.where + ")") + "; bound " + bound);
}

}  // namespace coheriq::kernels::testing
