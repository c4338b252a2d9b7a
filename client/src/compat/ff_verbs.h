// Shared by the hand-written fixed-function verbs (ff_verbs.cc, ff_lists.cc).
#pragma once

#include "compat/ff.h"
#include "compat/ff_gate.h"
#include "custom/common.h"

// The context's lowering, or an error: verbs of the compatibility profile only.
#define FF_OR_RETURN(verb, ...)                                  \
    MGL_CTX_OR_RETURN(verb, ##__VA_ARGS__);                      \
    FixedFunction* const f = ff(*ctx);                           \
    if (!f) {                                                    \
        profile_error(*ctx, verb);                               \
        return __VA_ARGS__;                                      \
    }

// glBegin/glEnd bracket only vertex attribute and material calls (a glBegin
// that was only compiled leaves the verbs that are not compiled free to run).
#define NOT_IN_BEGIN(verb, ...)                                  \
    if (f->in_begin && !f->begin_compile_only) {                 \
        gl_error(*ctx, GL_INVALID_OPERATION, verb);              \
        return __VA_ARGS__;                                      \
    }

namespace mgl::client::compat {

// A verb that GL compiles into display lists and refuses between glBegin and
// glEnd: the error is raised when the verb executes, at once or when the list
// runs (GL_COMPILE records it; GL_COMPILE_AND_EXECUTE does both). True: the
// caller returns.
inline bool begin_error(Context& ctx, FixedFunction& f, const char* verb) {
    if (!f.in_begin) return false;
    const bool top = top_compile(f);
    if (top) f.building->ops.push_back([verb](Context& c) { gl_error(c, GL_INVALID_OPERATION, verb); });
    if (!top || f.compile_and_execute) gl_error(ctx, GL_INVALID_OPERATION, verb);
    return true;
}

// A list operation of such a verb: run by glCallList between glBegin and
// glEnd, it is GL_INVALID_OPERATION instead.
template <class Op>
auto outside_begin(const char* verb, Op op) {
    return [verb, op](Context& c) {
        if (ff(c)->in_begin) return gl_error(c, GL_INVALID_OPERATION, verb);
        op(c);
    };
}

}  // namespace mgl::client::compat
