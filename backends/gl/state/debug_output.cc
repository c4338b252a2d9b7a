#include "debug_output.h"

#include <algorithm>
#include <cstring>

namespace mgl::gl {

namespace {
constexpr uint32_t kInvalidEnum = 0x0500, kInvalidValue = 0x0501, kInvalidOperation = 0x0502,
                   kStackOverflow = 0x0503, kStackUnderflow = 0x0504;

bool valid_source(uint32_t s) { return s >= debug::kSourceApi && s <= debug::kSourceOther; }
bool valid_type(uint32_t t) {
    return (t >= debug::kTypeError && t <= debug::kTypeOther) || (t >= debug::kTypeMarker && t <= debug::kTypePopGroup);
}
bool valid_severity(uint32_t s) {
    return (s >= debug::kSeverityHigh && s <= debug::kSeverityLow) || s == debug::kSeverityNotification;
}
// Only the application (or a library it uses) inserts messages and pushes groups.
bool app_source(uint32_t s) { return s == debug::kSourceApplication || s == debug::kSourceThirdParty; }
}  // namespace

const char* error_name(uint32_t e) {
    switch (e) {
        case kInvalidEnum: return "GL_INVALID_ENUM";
        case kInvalidValue: return "GL_INVALID_VALUE";
        case kInvalidOperation: return "GL_INVALID_OPERATION";
        case kStackOverflow: return "GL_STACK_OVERFLOW";
        case kStackUnderflow: return "GL_STACK_UNDERFLOW";
        case 0x0505: return "GL_OUT_OF_MEMORY";
        case 0x0506: return "GL_INVALID_FRAMEBUFFER_OPERATION";
        case 0x0507: return "GL_CONTEXT_LOST";
        default: return "GL error";
    }
}

bool DebugOutput::set_cap(uint32_t cap, bool on) {
    if (cap == debug::kDebugOutput) enabled_ = on;
    else if (cap == debug::kDebugOutputSynchronous) synchronous_ = on;
    else return false;
    return true;
}

bool DebugOutput::cap(uint32_t cap, bool* on) const {
    if (cap == debug::kDebugOutput) *on = enabled_;
    else if (cap == debug::kDebugOutputSynchronous) *on = synchronous_;
    else return false;
    return true;
}

bool DebugOutput::get(uint32_t pname, int32_t* out) const {
    switch (pname) {
    case debug::kMaxDebugMessageLength: *out = kMaxMessageLength; return true;
    case debug::kMaxDebugLoggedMessages: *out = kMaxLogged; return true;
    case debug::kMaxDebugGroupStackDepth: *out = kMaxGroupDepth; return true;
    case debug::kMaxLabelLength: *out = kMaxLabel; return true;
    case debug::kDebugLoggedMessages: *out = int32_t(log_.size()); return true;
    case debug::kDebugNextLoggedMessageLength:
        *out = log_.empty() ? 0 : int32_t(log_.front().text.size() + 1);
        return true;
    case debug::kDebugGroupStackDepth: *out = int32_t(groups_.size()); return true;
    default: return false;
    }
}

uint32_t DebugOutput::insert(uint32_t source, uint32_t type, uint32_t id, uint32_t severity, std::string_view text) {
    if (!app_source(source) || !valid_type(type) || !valid_severity(severity)) return kInvalidEnum;
    if (text.size() >= kMaxMessageLength) return kInvalidValue;
    emit(source, type, id, severity, text);
    return 0;
}

uint32_t DebugOutput::control(uint32_t source, uint32_t type, uint32_t severity, std::span<const uint32_t> ids,
                              bool enable) {
    if ((source != debug::kDontCare && !valid_source(source)) || (type != debug::kDontCare && !valid_type(type)) ||
        (severity != debug::kDontCare && !valid_severity(severity)))
        return kInvalidEnum;
    if (!ids.empty() && (source == debug::kDontCare || type == debug::kDontCare || severity != debug::kDontCare))
        return kInvalidOperation;
    std::vector<Rule>& rules = groups_.back().rules;
    Rule r{source, type, severity, {ids.begin(), ids.end()}, enable};
    // A rule that covers an older one makes it dead: drop those, so that an
    // application that sets its filter every frame does not grow the list.
    const bool all = source == debug::kDontCare && type == debug::kDontCare && severity == debug::kDontCare && ids.empty();
    if (all) rules.clear();
    std::erase_if(rules, [&](const Rule& o) {
        return o.source == r.source && o.type == r.type && o.severity == r.severity && o.ids == r.ids;
    });
    rules.push_back(std::move(r));
    return 0;
}

uint32_t DebugOutput::push_group(uint32_t source, uint32_t id, std::string_view text) {
    if (!app_source(source)) return kInvalidEnum;
    if (text.size() >= kMaxMessageLength) return kInvalidValue;
    if (groups_.size() >= kMaxGroupDepth) return kStackOverflow;
    // The push message is filtered by the outer group's state, the pop message
    // by the same (GL 4.6 §20.6).
    emit(source, debug::kTypePushGroup, id, debug::kSeverityNotification, text);
    Group g{source, id, std::string(text), groups_.back().rules};
    groups_.push_back(std::move(g));
    return 0;
}

uint32_t DebugOutput::pop_group() {
    if (groups_.size() <= 1) return kStackUnderflow;
    Group g = std::move(groups_.back());
    groups_.pop_back();
    emit(g.source, debug::kTypePopGroup, g.id, debug::kSeverityNotification, g.text);
    return 0;
}

uint32_t DebugOutput::fetch(uint32_t count, int32_t buf_size, const DebugLogOut& out, uint32_t* error, size_t* used_out) {
    *error = 0;
    if (out.log && buf_size < 0) {
        *error = kInvalidValue;
        return 0;
    }
    uint32_t n = 0;
    size_t used = 0;
    while (n < count && !log_.empty()) {
        const DebugMessage& m = log_.front();
        const size_t len = m.text.size() + 1;
        if (out.log) {
            if (used + len > size_t(buf_size)) break;
            std::memcpy(out.log + used, m.text.c_str(), len);
            used += len;
        }
        if (out.sources) out.sources[n] = m.source;
        if (out.types) out.types[n] = m.type;
        if (out.ids) out.ids[n] = m.id;
        if (out.severities) out.severities[n] = m.severity;
        if (out.lengths) out.lengths[n] = int32_t(len);
        log_.pop_front();
        ++n;
    }
    if (used_out) *used_out = used;
    return n;
}

void DebugOutput::emit(uint32_t source, uint32_t type, uint32_t id, uint32_t severity, std::string_view text) {
    DebugMessage m{source, type, id, severity, std::string(text.substr(0, kMaxMessageLength - 1))};
    if (enabled_ && wanted(m)) log(std::move(m));
}

bool DebugOutput::Rule::matches(const DebugMessage& m) const {
    if (source != debug::kDontCare && source != m.source) return false;
    if (type != debug::kDontCare && type != m.type) return false;
    if (severity != debug::kDontCare && severity != m.severity) return false;
    return ids.empty() || std::find(ids.begin(), ids.end(), m.id) != ids.end();
}

// Every message is enabled but those of low severity (GL 4.6 §20.4), until a
// glDebugMessageControl says otherwise.
bool DebugOutput::wanted(const DebugMessage& m) const {
    const std::vector<Rule>& rules = groups_.back().rules;
    for (auto it = rules.rbegin(); it != rules.rend(); ++it)
        if (it->matches(m)) return it->enable;
    return m.severity != debug::kSeverityLow;
}

// A full log discards new messages (GL 4.6 §20.5).
void DebugOutput::log(DebugMessage m) {
    if (log_.size() < kMaxLogged) log_.push_back(std::move(m));
}

}  // namespace mgl::gl
