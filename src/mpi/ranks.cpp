// How ranks are named in the component's messages: ranges of rank numbers and their hosts.
#include <algorithm>
#include <string>
#include <vector>

#include <coheriq/kernels.hpp>

#include "core/text.hpp"
#include "mpi/internal.hpp"

namespace coheriq::mpi::internal {
namespace {

// "0-3,5,7-8"
std::string rank_ranges(const std::vector<int>& ranks) {
  std::string out;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(ranks[i]);
    if (j > i) {
      out += j == i + 1 ? ',' : '-';
      out += std::to_string(ranks[j]);
    }
    i = j + 1;
  }
  return out;
}

}  // namespace

std::string ranks_on(const std::vector<int>& ranks, const std::vector<std::string>& hosts) {
  std::vector<std::string> names;
  for (int r : ranks) {
    const std::string& h = hosts[static_cast<std::size_t>(r)];
    if (std::find(names.begin(), names.end(), h) == names.end()) names.push_back(h);
  }
  std::string out = (ranks.size() == 1 ? "rank " : "ranks ") + rank_ranges(ranks) +
                    (names.size() == 1 ? " on host " : " on hosts ");
  const std::size_t shown = std::min<std::size_t>(names.size(), 4);
  for (std::size_t i = 0; i < shown; ++i) out += (i ? ", " : "") + detail::printable(names[i]);
  if (shown < names.size()) out += " and " + std::to_string(names.size() - shown) + " more";
  return out;
}

std::vector<std::pair<std::string, std::vector<int>>> group(const std::vector<std::string>& keys) {
  std::vector<std::pair<std::string, std::vector<int>>> groups;
  for (std::size_t r = 0; r < keys.size(); ++r) {
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const auto& g) { return g.first == keys[r]; });
    if (it == groups.end()) {
      groups.push_back({keys[r], {static_cast<int>(r)}});
    } else {
      it->second.push_back(static_cast<int>(r));
    }
  }
  return groups;
}

void materialize_kernels(std::string_view domain) {
  if (domain != kernels::domain_name) return;
  try {
    (void)kernels::active_engine();
  } catch (const Error&) {
  }
}

}  // namespace coheriq::mpi::internal
