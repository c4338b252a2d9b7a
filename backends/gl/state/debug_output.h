// A context's debug output (GL 4.6 chapter 20, KHR_debug) for a device that
// has no driver message log of its own (Magma; Espryt's host GLES driver keeps
// its own): DEBUG_OUTPUT, the message log, the filter glDebugMessageControl
// sets, and the debug group stack. Once here for every such backend.
//
// The log is what the application's callback receives: the client drains it
// with glGetDebugMessageLog and calls the callback itself (client/src/custom/
// debug_output.cc), so the server needs no callback of its own.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mgl::gl {

namespace debug {
inline constexpr uint32_t kSourceApi = 0x8246, kSourceWindowSystem = 0x8247, kSourceShaderCompiler = 0x8248,
                          kSourceThirdParty = 0x8249, kSourceApplication = 0x824A, kSourceOther = 0x824B;
inline constexpr uint32_t kTypeError = 0x824C, kTypeDeprecated = 0x824D, kTypeUndefined = 0x824E,
                          kTypePortability = 0x824F, kTypePerformance = 0x8250, kTypeOther = 0x8251,
                          kTypeMarker = 0x8268, kTypePushGroup = 0x8269, kTypePopGroup = 0x826A;
inline constexpr uint32_t kSeverityHigh = 0x9146, kSeverityMedium = 0x9147, kSeverityLow = 0x9148,
                          kSeverityNotification = 0x826B;
inline constexpr uint32_t kDontCare = 0x1100;
// Caps and queries.
inline constexpr uint32_t kDebugOutput = 0x92E0, kDebugOutputSynchronous = 0x8242,
                          kMaxDebugMessageLength = 0x9143, kMaxDebugLoggedMessages = 0x9144,
                          kDebugLoggedMessages = 0x9145, kDebugNextLoggedMessageLength = 0x8243,
                          kMaxDebugGroupStackDepth = 0x826C, kDebugGroupStackDepth = 0x826D,
                          kMaxLabelLength = 0x82E8;
}  // namespace debug

// "GL_INVALID_ENUM" and its kin: the start of an API error's message.
const char* error_name(uint32_t e);

// glGetObjectLabel's copy (GL 4.6 §20.9): at most room - 1 characters and a
// NUL into `out` (nothing when room is 0); returns the characters copied,
// or the label's whole length when nothing could be.
inline size_t copy_label(std::string_view label, size_t room, char* out) {
    if (!out || room == 0) return label.size();
    const size_t n = std::min(label.size(), room - 1);
    for (size_t i = 0; i < n; ++i) out[i] = label[i];
    out[n] = 0;
    return n;
}

struct DebugMessage {
    uint32_t source = 0, type = 0, id = 0, severity = 0;
    std::string text;
};

// glGetDebugMessageLog's output arrays (any may be null, as in GL).
struct DebugLogOut {
    uint32_t* sources = nullptr;
    uint32_t* types = nullptr;
    uint32_t* ids = nullptr;
    uint32_t* severities = nullptr;
    int32_t* lengths = nullptr;
    char* log = nullptr;
};

class DebugOutput {
public:
    // The limits reported (GL's minimums are 1, 1, 64 and 256; Mesa's log holds 10).
    static constexpr uint32_t kMaxMessageLength = 4096, kMaxLogged = 64, kMaxGroupDepth = 64, kMaxLabel = 256;

    // DEBUG_OUTPUT starts enabled in a debug context only (GL 4.6 §20.2).
    explicit DebugOutput(bool debug_context) : enabled_(debug_context) {}

    // glEnable/glDisable/glIsEnabled of DEBUG_OUTPUT or DEBUG_OUTPUT_SYNCHRONOUS:
    // false if `cap` is neither.
    bool set_cap(uint32_t cap, bool on);
    bool cap(uint32_t cap, bool* on) const;
    bool enabled() const { return enabled_; }
    // glGetIntegerv of the debug limits and counts: false if `pname` is none of them.
    bool get(uint32_t pname, int32_t* out) const;

    // The verbs. Each returns the GL error it raises (0: none); `text` is
    // the message without a terminating NUL.
    uint32_t insert(uint32_t source, uint32_t type, uint32_t id, uint32_t severity, std::string_view text);
    uint32_t control(uint32_t source, uint32_t type, uint32_t severity, std::span<const uint32_t> ids, bool enable);
    uint32_t push_group(uint32_t source, uint32_t id, std::string_view text);
    uint32_t pop_group();
    // glGetDebugMessageLog: moves up to `count` messages out of the log into
    // `out`, stopping at the first whose text (with its NUL) no longer fits
    // `buf_size` bytes of out.log; returns how many. buf_size < 0 with a log
    // is GL_INVALID_VALUE (*error).
    // *used (if given): the bytes of out.log written.
    uint32_t fetch(uint32_t count, int32_t buf_size, const DebugLogOut& out, uint32_t* error, size_t* used = nullptr);
    bool empty() const { return log_.empty(); }

    // A message the implementation itself generates (an API error, a
    // performance warning): logged if DEBUG_OUTPUT and the filter allow it.
    void emit(uint32_t source, uint32_t type, uint32_t id, uint32_t severity, std::string_view text);

private:
    // One glDebugMessageControl call; the last one that matches a message decides.
    struct Rule {
        uint32_t source, type, severity;
        std::vector<uint32_t> ids;  // empty: every id
        bool enable;
        bool matches(const DebugMessage& m) const;
    };
    struct Group {
        uint32_t source = 0, id = 0;
        std::string text;
        std::vector<Rule> rules;  // the filter inside this group (a copy of the parent's at push)
    };
    bool wanted(const DebugMessage& m) const;
    void log(DebugMessage m);

    bool enabled_;
    bool synchronous_ = false;
    std::deque<DebugMessage> log_;
    std::vector<Group> groups_{Group{}};  // [0]: the default group, never popped
};

}  // namespace mgl::gl
