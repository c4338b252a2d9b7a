// Client logging: one spdlog logger ("mobilegl"), configured from the
// environment on first use.
//
//   MOBILEGL_LOG_LEVEL  trace | debug | info | warn (default) | error | off
//   MOBILEGL_LOG_FILE   append the log to this file instead of stderr
#pragma once

#include <spdlog/spdlog.h>

#include <string_view>

namespace mgl::client {

spdlog::logger& log();

// True the first time it is called with `key` (a string literal or any
// stable text): for "log one line" diagnostics on paths that repeat.
bool first_time(std::string_view key);

}  // namespace mgl::client
