// The display-list and glBegin/glEnd gate of every generated GL entry point
// (docs/ARCHITECTURE-gl-frontend.md, "Display lists"). Each entry point tests
// Context::ff_gate, one byte that only a compatibility context sets, and
// only while a list is being compiled at top level or a glBegin is open;
// then gate() decides by the verb's class (a generated constant, per verb):
//
//   - between glBegin and glEnd, a verb GL does not allow there gives
//     GL_INVALID_OPERATION and does nothing (compiled into the list as that
//     error when the glBegin is being compiled);
//   - while compiling, a verb GL compiles is recorded as a closure that calls
//     the same entry point again with copies of its arguments (compile());
//     a verb GL does not compile (GL 4.6 compatibility §21.4) runs now;
//     the hand-written verbs that compile themselves (immediate mode, the
//     raster path, glCallList) run under a SelfCompile scope.
#pragma once

#include <cstdint>
#include <functional>

#include "state/state.h"

namespace mgl::client {
struct Context;
}

namespace mgl::client::compat {

struct FixedFunction;

// A verb's class bits (codegen/emit_client.cc, kGate*).
inline constexpr uint8_t kInBegin = 1;  // allowed between glBegin and glEnd
inline constexpr uint8_t kCompiled = 2; // recorded into lists by the generated closure
inline constexpr uint8_t kSelf = 4;     // the hand-written half compiles itself
// neither kCompiled nor kSelf: executed at once while compiling (not compiled)

enum class Gate : uint8_t {
    run,     // go on as usual
    done,    // handled (refused, or the error compiled): return
    record,  // build the closure and hand it to compile()
    self,    // go on inside a SelfCompile scope
};

Gate gate(Context& ctx, uint8_t cls, const char* verb);

// Records `op` into the list being compiled; GL_COMPILE_AND_EXECUTE runs it
// now too (as glCallList would: the gate lets it through).
void compile(Context& ctx, std::function<void(Context&)> op);

// Recomputes Context::ff_gate after in_begin, compiling, call_depth or
// self_compile changed.
void refresh_gate(Context& ctx);

// Whether `f` is compiling at top level (not inside glCallList's replay).
bool top_compile(const FixedFunction& f);

// The verbs that compile themselves call other entry points (a list's
// textures, the programs of a draw): those must run, not be recorded.
class SelfCompile {
public:
    explicit SelfCompile(Context& ctx);
    ~SelfCompile();
    SelfCompile(const SelfCompile&) = delete;
    SelfCompile& operator=(const SelfCompile&) = delete;

private:
    Context& ctx_;
};

// Pixel data compiled into a list is read with the unpack state of the
// compile (GL 4.6 compat §21.4): the replay sets that state around `fn` and
// puts the current one back.
void with_unpack(Context& ctx, const State::PixelStore& at_compile, const std::function<void()>& fn);

// A list runs a verb compiled with an offset into a buffer bound then (pixel
// unpack, element, indirect) while no such buffer is bound: the offset is
// not client memory, so the verb is refused (GL_INVALID_OPERATION, one log
// line) instead of reading it. (GL reads the buffer at compile time; the
// list keeps only the offset: ARCHITECTURE-gl-frontend.md, "Not yet".)
void offset_unbound(Context& ctx, const char* verb);

}  // namespace mgl::client::compat
