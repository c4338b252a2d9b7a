#include "log.h"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <cstdlib>
#include <mutex>
#include <string>
#include <unordered_set>

namespace mgl::client {

namespace {

std::shared_ptr<spdlog::logger> make_logger() {
    std::shared_ptr<spdlog::logger> l;
    const char* file = std::getenv("MOBILEGL_LOG_FILE");
    if (file && *file) {
        try {
            l = std::make_shared<spdlog::logger>("mobilegl",
                                                 std::make_shared<spdlog::sinks::basic_file_sink_mt>(file, false));
        } catch (const spdlog::spdlog_ex&) {
            l.reset();
        }
    }
    if (!l) l = std::make_shared<spdlog::logger>("mobilegl", std::make_shared<spdlog::sinks::stderr_sink_mt>());
    l->set_pattern("[mobilegl %l] %v");
    spdlog::level::level_enum lvl = spdlog::level::warn;
    if (const char* s = std::getenv("MOBILEGL_LOG_LEVEL"); s && *s) {
        const std::string v = s;
        if (v == "trace") lvl = spdlog::level::trace;
        else if (v == "debug") lvl = spdlog::level::debug;
        else if (v == "info") lvl = spdlog::level::info;
        else if (v == "warn") lvl = spdlog::level::warn;
        else if (v == "error") lvl = spdlog::level::err;
        else if (v == "off") lvl = spdlog::level::off;
        else l->error("MOBILEGL_LOG_LEVEL='{}' is not one of trace, debug, info, warn, error, off; using warn", v);
    }
    l->set_level(lvl);
    l->flush_on(spdlog::level::warn);
    return l;
}

}  // namespace

spdlog::logger& log() {
    static std::shared_ptr<spdlog::logger> l = make_logger();
    return *l;
}

bool first_time(std::string_view key) {
    static std::mutex mu;
    static std::unordered_set<std::string> seen;
    std::lock_guard<std::mutex> g(mu);
    return seen.emplace(key).second;
}

}  // namespace mgl::client
