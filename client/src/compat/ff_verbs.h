// Shared by the hand-written fixed-function verbs (ff_verbs.cc, ff_lists.cc).
#pragma once

#include "compat/ff.h"
#include "custom/common.h"

// The context's lowering, or an error: verbs of the compatibility profile only.
#define FF_OR_RETURN(verb, ...)                                  \
    MGL_CTX_OR_RETURN(verb, ##__VA_ARGS__);                      \
    FixedFunction* const f = ff(*ctx);                           \
    if (!f) {                                                    \
        profile_error(*ctx, verb);                               \
        return __VA_ARGS__;                                      \
    }

// glBegin/glEnd bracket only vertex attribute and material calls.
#define NOT_IN_BEGIN(verb, ...)                                  \
    if (f->in_begin) {                                           \
        gl_error(*ctx, GL_INVALID_OPERATION, verb);              \
        return __VA_ARGS__;                                      \
    }
