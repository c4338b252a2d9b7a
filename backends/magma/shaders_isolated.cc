// compile_check, link_program and compile_internal run glslang in the GL
// front end's compiler process (backends/gl/shaders/compiler_process.h): a
// shader glslang crashes on fails that compile or link with a log that says
// so, instead of ending the server; and no glslang call is left in the
// server's own process, whose locks a re-forked compiler process would
// otherwise copy while one is held. This file is the tasks' request and
// reply bytes.
#include "byte_fields.h"
#include "compiler_process.h"
#include "shaders.h"
#include "shaders_here.h"
#include "task_cache.h"

namespace mgl::magma {

namespace {

using gl::FieldReader;
using gl::FieldWriter;

void put_words(FieldWriter& w, const std::vector<uint32_t>& v) {
    w.str(std::string(reinterpret_cast<const char*>(v.data()), v.size() * 4));
}

bool get_words(FieldReader& r, std::vector<uint32_t>& v) {
    const std::string s = r.str();
    if (s.size() % 4) return r.ok = false;
    v.resize(s.size() / 4);
    if (!s.empty()) std::memcpy(v.data(), s.data(), s.size());
    return r.ok;
}

// A count of entries that each take at least `min_bytes`: refused when the
// bytes left cannot hold them (no allocation from a corrupt count).
uint32_t count(FieldReader& r, size_t min_bytes) {
    const uint32_t n = r.u32();
    if (!r.ok || n > r.left / min_bytes) {
        r.ok = false;
        return 0;
    }
    return n;
}

// ---- compile_check ----

std::string check_task(const std::string& request) {
    FieldReader r{request.data(), request.size()};
    const uint32_t stage = r.u32(), api = r.u32();
    const std::string source = r.str();
    if (!r.ok || r.left || stage > uint32_t(kLastStage) || api > uint32_t(Api::desktop)) return {};
    std::string log;
    const bool ok = compile_check_here(Stage(stage), Api(api), source, log);
    FieldWriter w;
    w.u32(ok);
    w.str(log);
    return w.out;
}

// ---- link_program ----

struct LinkRequest {
    Api api = Api::es;
    StageSources vs, fs, gs;
    TessSources tess;
    XfbRequest xfb;
    FragBindings frag;
    bool alpha_test = false, clip_planes = false;
    bool compute = false;  // vs is the compute shader (link_compute)
};

std::string encode(const LinkRequest& q) {
    FieldWriter w;
    w.u32(uint32_t(q.api));
    w.u32(q.compute);
    w.u32(q.alpha_test);
    w.u32(q.clip_planes);
    for (const StageSources* s : {&q.vs, &q.gs, &q.fs, &q.tess.tcs, &q.tess.tes}) {
        w.u32(uint32_t(s->size()));
        for (const std::string& src : *s) w.str(src);
    }
    w.u32(uint32_t(q.xfb.names.size()));
    for (const std::string& n : q.xfb.names) w.str(n);
    w.u32(q.xfb.interleaved);
    w.u32(uint32_t(q.frag.size()));
    for (const auto& [name, location] : q.frag) {
        w.str(name);
        w.u32(location);
    }
    return w.out;
}

bool decode(const std::string& bytes, LinkRequest& q) {
    FieldReader r{bytes.data(), bytes.size()};
    const uint32_t api = r.u32();
    q.compute = r.u32() != 0;
    q.alpha_test = r.u32() != 0;
    q.clip_planes = r.u32() != 0;
    for (StageSources* s : {&q.vs, &q.gs, &q.fs, &q.tess.tcs, &q.tess.tes}) {
        s->resize(count(r, 4));
        for (std::string& src : *s) src = r.str();
    }
    q.xfb.names.resize(count(r, 8));
    for (std::string& n : q.xfb.names) n = r.str();
    q.xfb.interleaved = r.u32() != 0;
    const uint32_t bound = count(r, 12);
    for (uint32_t i = 0; i < bound && r.ok; ++i) {
        std::string name = r.str();
        q.frag[name] = r.u32();
    }
    q.api = Api(api);
    return r.ok && r.left == 0 && api <= uint32_t(Api::desktop);
}

void encode(FieldWriter& w, const LinkedProgram& p) {
    put_words(w, p.vs);
    put_words(w, p.fs);
    put_words(w, p.gs);
    for (uint32_t v : {p.gs_input, p.gs_output, uint32_t(p.gs_vertices), uint32_t(p.gs_invocations)}) w.u32(v);
    put_words(w, p.tcs);
    put_words(w, p.tes);
    for (uint32_t v : {uint32_t(p.tcs_vertices), p.tes_mode, p.tes_spacing, p.tes_order, uint32_t(p.tes_point_mode)}) w.u32(v);
    for (const std::vector<UniformInfo>* list : {&p.uniforms, &p.block_uniforms}) {
        w.u32(uint32_t(list->size()));
        for (const UniformInfo& u : *list) {
            w.str(u.name);
            for (uint32_t v : {u.type, uint32_t(u.array_size), uint32_t(u.offset), uint32_t(u.array_stride),
                               uint32_t(u.binding), uint32_t(u.location), uint32_t(u.counter_buffer),
                               uint32_t(u.counter_offset), uint32_t(u.unit), uint32_t(u.block),
                               uint32_t(u.matrix_stride), uint32_t(u.row_major)})
                w.u32(v);
        }
    }
    w.u32(uint32_t(p.attribs.size()));
    for (const AttribInfo& a : p.attribs) {
        w.str(a.name);
        for (uint32_t v : {a.type, uint32_t(a.location), uint32_t(a.slots)}) w.u32(v);
    }
    w.u32(uint32_t(p.blocks.size()));
    for (const BlockInfo& b : p.blocks) {
        w.str(b.name);
        w.u32(uint32_t(b.binding));
        w.u32(uint32_t(b.size));
        w.u32(uint32_t(b.initial));
        w.u32(b.stages);
    }
    w.u32(uint32_t(p.storage.size()));
    for (const BlockInfo& b : p.storage) {
        w.str(b.name);
        w.u32(uint32_t(b.binding));
        w.u32(uint32_t(b.size));
        w.u32(uint32_t(b.initial));
    }
    w.u32(uint32_t(p.counter_buffers.size()));
    for (const CounterBufferInfo& b : p.counter_buffers)
        for (uint32_t v : {uint32_t(b.gl_binding), uint32_t(b.binding), uint32_t(b.data_size), b.stages}) w.u32(v);
    put_words(w, p.cs);
    for (uint32_t v : p.local_size) w.u32(v);
    w.u32(uint32_t(p.default_binding));
    w.u32(uint32_t(p.default_size));
    w.u32(uint32_t(p.outputs.size()));
    for (int o : p.outputs) w.u32(uint32_t(o));
    w.u32(uint32_t(p.output_names.size()));
    for (const std::string& n : p.output_names) w.str(n);
    w.u32(uint32_t(p.xfb.varyings.size()));
    for (const XfbVarying& v : p.xfb.varyings) {
        w.str(v.name);
        for (uint32_t x : {v.type, uint32_t(v.size), uint32_t(v.buffer), uint32_t(v.offset), uint32_t(v.bytes)}) w.u32(x);
    }
    w.u32(p.xfb.interleaved);
    w.u32(uint32_t(p.xfb.buffers));
    for (int s : p.xfb.strides) w.u32(uint32_t(s));
}

bool decode(FieldReader& r, LinkedProgram& p) {
    get_words(r, p.vs);
    get_words(r, p.fs);
    get_words(r, p.gs);
    p.gs_input = r.u32();
    p.gs_output = r.u32();
    p.gs_vertices = int(r.u32());
    p.gs_invocations = int(r.u32());
    get_words(r, p.tcs);
    get_words(r, p.tes);
    p.tcs_vertices = int(r.u32());
    p.tes_mode = r.u32();
    p.tes_spacing = r.u32();
    p.tes_order = r.u32();
    p.tes_point_mode = r.u32() != 0;
    for (std::vector<UniformInfo>* list : {&p.uniforms, &p.block_uniforms}) {
        list->resize(count(r, 52));
        for (UniformInfo& u : *list) {
            u.name = r.str();
            u.type = r.u32();
            u.array_size = int(r.u32());
            u.offset = int(r.u32());
            u.array_stride = int(r.u32());
            u.binding = int(r.u32());
            u.location = int(r.u32());
            u.counter_buffer = int(r.u32());
            u.counter_offset = int(r.u32());
            u.unit = int(r.u32());
            u.block = int(r.u32());
            u.matrix_stride = int(r.u32());
            u.row_major = r.u32() != 0;
        }
    }
    p.attribs.resize(count(r, 20));
    for (AttribInfo& a : p.attribs) {
        a.name = r.str();
        a.type = r.u32();
        a.location = int(r.u32());
        a.slots = int(r.u32());
    }
    p.blocks.resize(count(r, 24));
    for (BlockInfo& b : p.blocks) {
        b.name = r.str();
        b.binding = int(r.u32());
        b.size = int(r.u32());
        b.initial = int(r.u32());
        b.stages = r.u32();
    }
    p.storage.resize(count(r, 20));
    for (BlockInfo& b : p.storage) {
        b.name = r.str();
        b.binding = int(r.u32());
        b.size = int(r.u32());
        b.initial = int(r.u32());
    }
    p.counter_buffers.resize(count(r, 16));
    for (CounterBufferInfo& b : p.counter_buffers) {
        b.gl_binding = int(r.u32());
        b.binding = int(r.u32());
        b.data_size = int(r.u32());
        b.stages = r.u32();
    }
    get_words(r, p.cs);
    for (uint32_t& v : p.local_size) v = r.u32();
    p.default_binding = int(r.u32());
    p.default_size = int(r.u32());
    p.outputs.resize(count(r, 4));
    for (int& o : p.outputs) o = int(r.u32());
    p.output_names.resize(count(r, 4));
    for (std::string& n : p.output_names) n = r.str();
    p.xfb.varyings.resize(count(r, 28));
    for (XfbVarying& v : p.xfb.varyings) {
        v.name = r.str();
        v.type = r.u32();
        v.size = int(r.u32());
        v.buffer = int(r.u32());
        v.offset = int(r.u32());
        v.bytes = int(r.u32());
    }
    p.xfb.interleaved = r.u32() != 0;
    p.xfb.buffers = int(r.u32());
    for (int& s : p.xfb.strides) s = int(r.u32());
    return r.ok;
}

std::string link_task(const std::string& request) {
    LinkRequest q;
    if (!decode(request, q)) return {};
    LinkedProgram p;
    std::string log;
    const bool ok = q.compute ? link_compute_here(q.api, q.vs.empty() ? std::string() : q.vs.front(), p, log)
                              : link_program_here(q.api, q.vs, q.tess, q.gs, q.fs, q.xfb, q.frag, q.alpha_test, q.clip_planes, p, log);
    FieldWriter w;
    w.u32(ok);
    w.str(log);
    encode(w, p);
    return w.out;
}

// ---- compile_internal ----

std::string internal_task(const std::string& request) {
    FieldReader r{request.data(), request.size()};
    const uint32_t stage = r.u32();
    const std::string source = r.str();
    if (!r.ok || r.left || stage > uint32_t(kLastStage)) return {};
    std::string log;
    const std::vector<uint32_t> spv = compile_internal_here(Stage(stage), source, log);
    FieldWriter w;
    put_words(w, spv);
    w.str(log);
    return w.out;
}

const char* stage_name(Stage s) {
    switch (s) {
        case Stage::vertex: return "vertex";
        case Stage::geometry: return "geometry";
        case Stage::compute: return "compute";
        case Stage::tess_control: return "tessellation control";
        case Stage::tess_evaluation: return "tessellation evaluation";
        default: return "fragment";
    }
}

}  // namespace

bool compile_check(Stage stage, Api api, const std::string& source, std::string& log) {
    FieldWriter w;
    w.u32(uint32_t(stage));
    w.u32(uint32_t(api));
    w.str(source);
    const gl::CompilerReply reply =
        gl::run_in_compiler_cached("magma-check", check_task, w.out, std::string("Magma compile of a ") + stage_name(stage) + " shader");
    if (!reply.isolated) return compile_check_here(stage, api, source, log);
    FieldReader r{reply.bytes.data(), reply.bytes.size()};
    const bool ok = reply.ok && r.u32() != 0;
    log = r.str();
    if (!reply.ok || !r.ok || r.left) {
        log = gl::compiler_failure_log(reply.ok ? "answered nothing usable" : reply.failure);
        return false;
    }
    return ok;
}

bool link_program(Api api, const StageSources& vs, const TessSources& tess, const StageSources& gs, const StageSources& fs,
                  const XfbRequest& xfb, const FragBindings& frag, bool alpha_test, bool clip_planes, LinkedProgram& out,
                  std::string& log) {
    const LinkRequest q{api, vs, fs, gs, tess, xfb, frag, alpha_test, clip_planes};
    const gl::CompilerReply reply = gl::run_in_compiler_cached("magma-link", link_task, encode(q), "Magma link of a program");
    if (!reply.isolated) return link_program_here(api, vs, tess, gs, fs, xfb, frag, alpha_test, clip_planes, out, log);
    FieldReader r{reply.bytes.data(), reply.bytes.size()};
    const bool ok = reply.ok && r.u32() != 0;
    log = r.str();
    LinkedProgram p;
    if (!reply.ok || !decode(r, p) || r.left) {
        log = gl::compiler_failure_log(reply.ok ? "answered nothing usable" : reply.failure);
        return false;
    }
    if (ok) out = std::move(p);
    return ok;
}

bool link_compute(Api api, const std::string& cs, LinkedProgram& out, std::string& log) {
    LinkRequest q;
    q.api = api;
    q.vs = {cs};
    q.compute = true;
    const gl::CompilerReply reply = gl::run_in_compiler_cached("magma-link", link_task, encode(q), "Magma link of a compute program");
    if (!reply.isolated) return link_compute_here(api, cs, out, log);
    FieldReader r{reply.bytes.data(), reply.bytes.size()};
    const bool ok = reply.ok && r.u32() != 0;
    log = r.str();
    LinkedProgram p;
    if (!reply.ok || !decode(r, p) || r.left) {
        log = gl::compiler_failure_log(reply.ok ? "answered nothing usable" : reply.failure);
        return false;
    }
    if (ok) out = std::move(p);
    return ok;
}

std::vector<uint32_t> compile_internal(Stage stage, const std::string& source, std::string& log) {
    FieldWriter w;
    w.u32(uint32_t(stage));
    w.str(source);
    const gl::CompilerReply reply = gl::run_in_compiler_cached("magma-internal", internal_task, w.out, "Magma helper shader compile");
    if (!reply.isolated) return compile_internal_here(stage, source, log);
    FieldReader r{reply.bytes.data(), reply.bytes.size()};
    std::vector<uint32_t> spv;
    if (reply.ok) get_words(r, spv);
    log = r.str();
    if (!reply.ok || !r.ok || r.left) {
        log = gl::compiler_failure_log(reply.ok ? "answered nothing usable" : reply.failure);
        return {};
    }
    return spv;
}

}  // namespace mgl::magma
