// The generated entry points' display-list and glBegin/glEnd gate (ff_gate.h).
#include "compat/ff_gate.h"

#include "compat/ff_verbs.h"

namespace mgl::client::compat {

bool top_compile(const FixedFunction& f) { return f.compiling && f.call_depth == 0; }

void refresh_gate(Context& ctx) {
    const FixedFunction* f = ctx.ff.get();
    ctx.ff_gate = f && (f->in_begin || (top_compile(*f) && f->self_compile == 0)) ? 1 : 0;
}

Gate gate(Context& ctx, uint8_t cls, const char* verb) {
    FixedFunction* const f = ctx.ff.get();
    if (!f) return Gate::run;
    const bool top = top_compile(*f) && f->self_compile == 0;
    if (f->in_begin && !(cls & kInBegin)) {
        // A glBegin compiled (GL_COMPILE) but not executed leaves the verbs
        // that are not compiled outside any primitive: they run (as Mesa).
        if (!(cls & (kCompiled | kSelf)) && f->begin_compile_only && top) return Gate::run;
        // A verb that GL compiles: the error is compiled too (GL_COMPILE_AND_EXECUTE raises it now as well).
        if (top && (cls & (kCompiled | kSelf)))
            f->building->ops.push_back([verb](Context& c) { gl_error(c, GL_INVALID_OPERATION, verb); });
        if (!top || !(cls & (kCompiled | kSelf)) || f->compile_and_execute) gl_error(ctx, GL_INVALID_OPERATION, verb);
        return Gate::done;
    }
    if (!top) return Gate::run;
    if (cls & kSelf) return Gate::self;
    if (cls & kCompiled) return Gate::record;
    return Gate::run;
}

void compile(Context& ctx, std::function<void(Context&)> op) {
    FixedFunction& f = *ctx.ff;
    f.building->ops.push_back(op);
    if (!f.compile_and_execute) return;
    ++f.call_depth;  // as if glCallList ran it: the entry point executes, the hooks do not record
    refresh_gate(ctx);
    op(ctx);
    --f.call_depth;
    refresh_gate(ctx);
}

SelfCompile::SelfCompile(Context& ctx) : ctx_(ctx) {
    ++ctx.ff->self_compile;
    refresh_gate(ctx);
}

SelfCompile::~SelfCompile() {
    --ctx_.ff->self_compile;
    refresh_gate(ctx_);
}

void offset_unbound(Context& ctx, const char* verb) {
    if (first_time("ff-list-offset-unbound"))
        log().warn("{} compiled into a display list with a buffer offset runs while no buffer is bound: "
                   "refused (the list keeps the offset, not the buffer's data)", verb);
    gl_error(ctx, GL_INVALID_OPERATION, verb);
}

void with_unpack(Context& ctx, const State::PixelStore& s, const std::function<void()>& fn) {
    const State::PixelStore now = ctx.st.unpack;
    const std::pair<GLenum, GLint> want[] = {
        {GL_UNPACK_ALIGNMENT, s.alignment},       {GL_UNPACK_ROW_LENGTH, s.row_length},
        {GL_UNPACK_IMAGE_HEIGHT, s.image_height}, {GL_UNPACK_SKIP_PIXELS, s.skip_pixels},
        {GL_UNPACK_SKIP_ROWS, s.skip_rows},       {GL_UNPACK_SKIP_IMAGES, s.skip_images},
        {0x0CF0, s.swap_bytes},                   {0x0CF1, s.lsb_first},  // GL_UNPACK_SWAP_BYTES, _LSB_FIRST
    };
    const GLint had[] = {now.alignment, now.row_length, now.image_height, now.skip_pixels,
                         now.skip_rows, now.skip_images, now.swap_bytes,  now.lsb_first};
    for (size_t i = 0; i < std::size(want); ++i)
        if (had[i] != want[i].second) mgl_glPixelStorei(want[i].first, want[i].second);
    fn();
    for (size_t i = 0; i < std::size(want); ++i)
        if (had[i] != want[i].second) mgl_glPixelStorei(want[i].first, had[i]);
}

}  // namespace mgl::client::compat
