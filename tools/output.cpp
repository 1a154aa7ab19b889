#include "output.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "core/text.hpp"

namespace coheriq::tool {

std::string shown(std::string_view text, std::size_t max_bytes) {
  return coheriq::detail::printable(text, max_bytes);
}

std::string shown_tail(std::string_view text, std::size_t max_bytes) {
  std::string out;
  if (text.size() > max_bytes) {
    const std::size_t start = text.find('\n', text.size() - max_bytes);
    const std::size_t dropped = start == std::string_view::npos ? text.size() : start + 1;
    out.append("(").append(std::to_string(dropped)).append(" bytes before)\n");
    text.remove_prefix(dropped);
  }
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    out += shown(text.substr(0, nl), max_bytes);
    if (nl == std::string_view::npos) break;
    out += '\n';
    text.remove_prefix(nl + 1);
  }
  return out;
}

namespace {

std::string safe_string(const std::string& s) {
  return coheriq::detail::valid_utf8(s) ? s : coheriq::detail::printable(s, s.size());
}

}  // namespace

nlohmann::json utf8_safe(const nlohmann::json& j) {
  if (j.is_string()) return safe_string(j.get_ref<const std::string&>());
  if (j.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const nlohmann::json& item : j) out.push_back(utf8_safe(item));
    return out;
  }
  if (j.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, value] : j.items()) out[safe_string(key)] = utf8_safe(value);
    return out;
  }
  return j;
}

std::string dump_json(const nlohmann::json& j) {
  // After utf8_safe nothing is invalid; `replace` keeps a serialization error impossible anyway.
  return utf8_safe(j).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

int finish_stdout(int code) {
  std::cout.flush();
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int error = errno;
  if (flushed && std::cout && !std::ferror(stdout)) return code;
  std::cerr << "coheriq: cannot write to stdout"
            << (error != 0 ? std::string(": ") + std::strerror(error) : std::string())
            << "; the output is incomplete (check the disk or the pipe it goes to)\n";
  return code == 0 ? 1 : code;
}

std::size_t display_width(std::string_view text) {
  std::size_t w = 0;
  for (unsigned char c : text) w += (c & 0xC0) != 0x80;
  return w;
}

}  // namespace coheriq::tool
