// KHR_debug's callback on a wire: the server's message log (the host driver's
// on Espryt, the GL front end's on Magma) is fetched with glGetDebugMessageLog
// and handed to the application's callback on the application's thread.
// Fetches ride on waits that happen anyway (glGetError, the frame's deferred
// replies), so a callback costs no blocking wait per frame: messages arrive
// at the next swap, glGetError or glDebugMessageInsert after the call that
// raised them (GL_DEBUG_OUTPUT_SYNCHRONOUS cannot be honoured exactly; said
// once in the log).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mgl::client {

struct Context;

// Messages fetched for a context and not yet handed to its callback. Shared
// with the handlers of fetches in flight, which may outlive the context.
struct DebugInbox {
    struct Message {
        uint32_t source, type, id, severity;
        std::string text;
    };
    std::vector<Message> messages;
    bool more = false;              // the last fetch came back full: fetch again at the next swap
    int64_t asked_ms = -1'000'000;  // steady clock of the last fetch at a swap
};

// Encodes a fetch of the current context's log whose reply is taken at the
// next wait (the group's deferred replies); nothing without a callback.
// Returns whether it encoded one.
bool debug_fetch(Context& ctx);
// At eglSwapBuffers: a fetch at most every 250 ms (sooner when the last one
// came back full); returns whether it encoded one.
bool debug_fetch_at_swap(Context& ctx);
// Fetches and waits for everything logged so far.
void debug_fetch_now(Context& ctx);
// Calls the application's callback for each message received.
void debug_deliver(Context& ctx);

}  // namespace mgl::client
