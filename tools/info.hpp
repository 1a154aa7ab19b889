// `coheriq info`: the host, each domain, each engine, and what would run.
#pragma once

namespace coheriq::tool {

// Prints the report to stdout (JSON with `json`). Returns the exit code (0 ok, 1 error).
int run_info(bool json);

}  // namespace coheriq::tool
