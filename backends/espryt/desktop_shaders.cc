// Desktop GL shaders on the host's GLES: the application's GLSL goes through
// the GL front end (backends/gl/shaders: glslang -> SPIR-V -> SPIRV-Cross ->
// ESSL) at glCompileShader, and the host compiles the ESSL. The compile
// status, info log and source the application asks for are the front end's
// (its log has the application's line numbers), not the host's view of our
// ESSL. ES contexts keep the generated pass-through.
#include <GLES3/gl32.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>

#include "backend.h"
#include "compat_builtins.h"
#include "context/desktop_context.h"
#include "host_log.h"
#include "shader_cache.h"
#include "spirv_to_essl.h"
#include "test_hooks.h"
#include "translate.h"

namespace mgl::espryt {

namespace {

// User clip planes exist in compatibility contexts only (a core profile
// clips by what the shader writes to gl_ClipDistance): only there does a
// vertex stage get the plane uniform and compute its distances.
bool clips_by_planes(const Context& c) {
    return c.host_clip_distance && gl::api_kind(c.api, c.profile, c.served) == gen::ApiKind::compat;
}

std::string joined(const std::vector<std::string>& sources) {
    std::string s;
    for (const std::string& x : sources) s += x;
    return s;
}

// glGet*InfoLog / glGetShaderSource: at most bufSize-1 characters and a NUL.
void copy_string(const std::string& s, GLsizei bufSize, wire::Out<GLsizei> length, wire::Out<GLchar> out) {
    GLsizei n = 0;
    if (bufSize > 0 && out.data && out.size) {
        n = GLsizei(std::min<size_t>({s.size(), size_t(bufSize) - 1, size_t(out.size) - 1}));
        std::memcpy(out.data, s.data(), size_t(n));
        out.data[n] = 0;
    }
    if (length.data && length.size >= sizeof(GLsizei)) *length.data = n;
}

std::string host_shader_log(GLuint host) {
    GLint len = 0;
    host_gl.glGetShaderiv(host, GL_INFO_LOG_LENGTH, &len);
    std::string log(size_t(std::max(len, 1)), '\0');
    host_gl.glGetShaderInfoLog(host, GLsizei(log.size()), nullptr, log.data());
    log.resize(std::strlen(log.c_str()));
    return log;
}

std::string in_name(wire::In<GLchar> name) {
    const char* p = reinterpret_cast<const char*>(name.data);
    return std::string(p, strnlen(p, name.size));
}

}  // namespace

gl::Stage stage_of(uint32_t type) {
    switch (type) {
        case GL_FRAGMENT_SHADER: return gl::Stage::fragment;
        case GL_GEOMETRY_SHADER: return gl::Stage::geometry;
        case GL_TESS_CONTROL_SHADER: return gl::Stage::tess_control;
        case GL_TESS_EVALUATION_SHADER: return gl::Stage::tess_evaluation;
        case GL_COMPUTE_SHADER: return gl::Stage::compute;
        default: return gl::Stage::vertex;
    }
}

DesktopShaders& EsprytBackend::desktop_shaders() {
    auto& d = cur_->share->desktop;
    if (!d) d = std::make_shared<DesktopShaders>();
    return *d;
}

DesktopShader* EsprytBackend::desktop_shader(gen::Op verb, GLuint shader, GLuint& host) {
    if (!to_host(Kind::program, shader, host) || !host_gl.glIsShader(host)) {
        name_error(verb, Kind::program, shader);
        return nullptr;
    }
    return &desktop_shaders().shaders[host];
}

// Entries of host shaders that no longer exist (deleted and detached).
static void prune(DesktopShaders& d) {
    for (auto it = d.shaders.begin(); it != d.shaders.end();)
        it = host_gl.glIsShader(it->first) ? std::next(it) : d.shaders.erase(it);
}

void EsprytBackend::glCreateShader(GLenum type, GLuint result) {
    EsprytGenerated::glCreateShader(type, result);
    // A host name the host reuses starts without source.
    GLuint host;
    if (cur_ && cur_->share->desktop && to_host(Kind::program, result, host)) cur_->share->desktop->shaders.erase(host);
}

void EsprytBackend::glDeleteShader(GLuint shader) {
    GLuint host;
    if (cur_ && cur_->share->desktop && to_host(Kind::program, shader, host)) {
        // An extra attachment outlives its host shader (GLES never attached
        // it): what the link needs of it is kept with the attachment.
        DesktopShaders& d = *cur_->share->desktop;
        for (auto& [program, list] : d.extras)
            for (ExtraAttachment& e : list)
                if (!e.deleted && e.host == host) {
                    if (auto it = d.shaders.find(host); it != d.shaders.end()) e.kept = it->second;
                    e.deleted = true;
                }
    }
    EsprytGenerated::glDeleteShader(shader);
    if (cur_ && cur_->share->desktop) prune(*cur_->share->desktop);
}

void EsprytBackend::glDeleteProgram(GLuint program) {
    GLuint host = 0;
    const bool known = to_host(Kind::program, program, host);
    EsprytGenerated::glDeleteProgram(program);
    if (!cur_ || !cur_->share->desktop) return;
    if (known && cur_->share->driver_uniform_programs) forget_driver_uniforms(host);
    cur_->share->desktop->frag_bindings.erase(program);
    if (known && !host_gl.glIsProgram(host)) {
        cur_->share->desktop->extras.erase(host);
        cur_->share->desktop->link_logs.erase(host);
        cur_->share->desktop->separable.erase(host);
        forget_program_units(host);
    }
    prune(*cur_->share->desktop);  // its deleted shaders are detached now
}

void EsprytBackend::glShaderSource(GLuint shader, GLsizei count, wire::Strings string) {
    if (!cur_ || !cur_->desktop()) return EsprytGenerated::glShaderSource(shader, count, string);
    if (count < 0) return refuse(gen::Op::glShaderSource, GL_INVALID_VALUE, "negative count");
    GLuint host;
    DesktopShader* s = desktop_shader(gen::Op::glShaderSource, shader, host);
    if (!s) return;
    s->sources.assign(string.data, string.data + std::min<uint32_t>(string.count, uint32_t(count)));
    s->has_source = true;
}

void EsprytBackend::glCompileShader(GLuint shader) {
    if (!cur_ || !cur_->desktop()) return EsprytGenerated::glCompileShader(shader);
    GLuint host;
    DesktopShader* s = desktop_shader(gen::Op::glCompileShader, shader, host);
    if (!s) return;
    compile_desktop(host, *s, shader);
}

// glCreateShaderProgramv on a desktop context: GL's definition of it (a
// shader compiled, a separable program linked with it, the shader deleted),
// through the front end as glCompileShader and glLinkProgram go; the host's
// own verb would take the desktop source as ESSL. The compile log goes into
// the program's info log, as GL appends it there.
void EsprytBackend::glCreateShaderProgramv(GLenum type, GLsizei count, wire::Strings strings, GLuint result) {
    if (!cur_ || !cur_->desktop()) return EsprytGenerated::glCreateShaderProgramv(type, count, strings, result);
    constexpr gen::Op op = gen::Op::glCreateShaderProgramv;
    if (count < 0) {
        record_minted(op, Kind::program, result, 0);
        return refuse(op, GL_INVALID_VALUE, "negative count");
    }
    const GLuint shader = host_gl.glCreateShader(type);
    if (!shader) {  // the host raised GL_INVALID_ENUM for the type
        record_minted(op, Kind::program, result, 0);
        return;
    }
    DesktopShaders& d = desktop_shaders();
    DesktopShader& s = d.shaders[shader];
    s = DesktopShader{};
    s.sources.assign(strings.data, strings.data + std::min<uint32_t>(strings.count, uint32_t(count)));
    s.has_source = true;
    compile_desktop(shader, s, 0);
    const GLuint program = host_gl.glCreateProgram();
    record_minted(op, Kind::program, result, program);
    if (program) {
        host_gl.glProgramParameteri(program, GL_PROGRAM_SEPARABLE, GL_TRUE);
        d.separable.insert(program);
        if (s.compiled) {
            host_gl.glAttachShader(program, shader);
            link_desktop(result, program);
            record_driver_uniforms(program);
            record_program_units(program);
            host_gl.glDetachShader(program, shader);
        } else {
            d.link_logs[program] = s.log;  // never linked: GL_LINK_STATUS stays false
        }
    }
    host_gl.glDeleteShader(shader);
    d.shaders.erase(shader);
}

// The front end's translation of `s`, compiled into host shader `host`
// (`shader`: the application's name, for the log; 0 for a shader of our own).
void EsprytBackend::compile_desktop(GLuint host, DesktopShader& shader_record, GLuint shader) {
    DesktopShader* s = &shader_record;
    GLint type = 0, major = 3, minor = 0, draw_buffers = 4;
    host_gl.glGetShaderiv(host, GL_SHADER_TYPE, &type);
    host_gl.glGetIntegerv(GL_MAJOR_VERSION, &major);
    host_gl.glGetIntegerv(GL_MINOR_VERSION, &minor);
    host_gl.glGetIntegerv(GL_MAX_DRAW_BUFFERS, &draw_buffers);
    gl::ShaderInput in;
    in.stage = stage_of(GLenum(type));
    in.sources = s->sources;
    in.api = gl::Api::gl;
    in.major = cur_->major;
    in.minor = cur_->minor;
    gl::EsslOptions opt;
    opt.version = std::min(major * 100 + minor * 10, 320);
    opt.max_draw_buffers = draw_buffers;
    opt.clip_distance = clips_by_planes(*cur_);
    opt.alpha_test = gl::api_kind(cur_->api, cur_->profile, cur_->served) == gen::ApiKind::compat &&
                     !gl::fixed_function_source(s->sources);
    s->options = opt;
    s->translation = gl::translate(in, opt, &gl::ShaderCache::process());
    s->input = std::make_shared<const gl::ShaderInput>(std::move(in));
    s->log = s->translation->log;
    s->compiled = false;
    // A deferred object compiled (GL says so) but its stage is not whole
    // alone; the host shader stays uncompiled, so a link with it fails.
    if (s->translation->deferred) {
        s->compiled = true;
        log().debug("espryt: shader {}: compiled; its stage is whole only with other shader objects at link: {}",
                    shader, s->translation->link_log);
        return;
    }
    if (!s->translation->ok) return;  // the host shader stays uncompiled: a link with it fails, as GL's would
    const char* text = s->translation->essl.c_str();
    host_gl.glShaderSource(host, 1, &text, nullptr);
    host_gl.glCompileShader(host);
    GLint ok = 0;
    host_gl.glGetShaderiv(host, GL_COMPILE_STATUS, &ok);
    s->compiled = ok != 0;
    if (!ok) {
        // Our translation is wrong or beyond the host (a limit, a missing
        // extension): the application hears it in its log, we in ours.
        const std::string host_log = host_shader_log(host);
        s->log += "ERROR: the host GLES refused the translated shader:\n" +
                  gl::map_host_log(host_log, s->translation->essl_lines);
        log().warn("espryt: shader {}: host GLES refused the translated ESSL: {}", shader, host_log);
    }
}

void EsprytBackend::glGetShaderiv(GLuint shader, GLenum pname, wire::Out<GLint> params) {
    if (!cur_ || !cur_->desktop() ||
        (pname != GL_COMPILE_STATUS && pname != GL_INFO_LOG_LENGTH && pname != GL_SHADER_SOURCE_LENGTH))
        return EsprytGenerated::glGetShaderiv(shader, pname, params);
    GLuint host;
    DesktopShader* s = desktop_shader(gen::Op::glGetShaderiv, shader, host);
    if (!s || !params.data || params.size < sizeof(GLint)) return;
    switch (pname) {
        case GL_COMPILE_STATUS: *params.data = s->compiled ? GL_TRUE : GL_FALSE; break;
        case GL_INFO_LOG_LENGTH: *params.data = s->log.empty() ? 0 : GLint(s->log.size() + 1); break;
        default: {
            const size_t n = joined(s->sources).size();
            *params.data = s->has_source ? GLint(n + 1) : 0;
        }
    }
}

void EsprytBackend::glGetShaderInfoLog(GLuint shader, GLsizei bufSize, wire::Out<GLsizei> length,
                                       wire::Out<GLchar> infoLog) {
    if (!cur_ || !cur_->desktop()) return EsprytGenerated::glGetShaderInfoLog(shader, bufSize, length, infoLog);
    if (bufSize < 0) return refuse(gen::Op::glGetShaderInfoLog, GL_INVALID_VALUE, "negative bufSize");
    GLuint host;
    if (DesktopShader* s = desktop_shader(gen::Op::glGetShaderInfoLog, shader, host))
        copy_string(s->log, bufSize, length, infoLog);
}

void EsprytBackend::glGetProgramInfoLog(GLuint program, GLsizei bufSize, wire::Out<GLsizei> length,
                                        wire::Out<GLchar> infoLog) {
    GLuint host;
    if (cur_ && cur_->desktop() && cur_->share->desktop && bufSize >= 0 && to_host(Kind::program, program, host))
        if (auto it = cur_->share->desktop->link_logs.find(host); it != cur_->share->desktop->link_logs.end())
            return copy_string(it->second, bufSize, length, infoLog);
    EsprytGenerated::glGetProgramInfoLog(program, bufSize, length, infoLog);
}

void EsprytBackend::glGetShaderSource(GLuint shader, GLsizei bufSize, wire::Out<GLsizei> length,
                                      wire::Out<GLchar> source) {
    if (!cur_ || !cur_->desktop()) return EsprytGenerated::glGetShaderSource(shader, bufSize, length, source);
    if (bufSize < 0) return refuse(gen::Op::glGetShaderSource, GL_INVALID_VALUE, "negative bufSize");
    GLuint host;
    if (DesktopShader* s = desktop_shader(gen::Op::glGetShaderSource, shader, host))
        copy_string(joined(s->sources), bufSize, length, source);
}

void EsprytBackend::glBindFragDataLocationIndexed(GLuint program, GLuint colorNumber, GLuint index,
                                                  wire::In<GLchar> name) {
    constexpr gen::Op op = gen::Op::glBindFragDataLocationIndexed;
    if (!cur_ || !cur_->desktop()) return unsupported(op);
    if (index > 1) return refuse(op, GL_INVALID_VALUE, "index above 1");
    if (index == 1)  // needs EXT_blend_func_extended's ESSL on the host: not emitted yet
        return refuse(op, GL_INVALID_OPERATION, "dual-source outputs (index 1) are not served yet");
    glBindFragDataLocation(program, colorNumber, name);
}

void EsprytBackend::glBindFragDataLocation(GLuint program, GLuint color, wire::In<GLchar> name) {
    constexpr gen::Op op = gen::Op::glBindFragDataLocation;
    if (!cur_ || !cur_->desktop()) return unsupported(op);
    GLuint host;
    if (!to_host(Kind::program, program, host) || !host_gl.glIsProgram(host)) return name_error(op, Kind::program, program);
    if (!string_fits(op, name.data, name.size, -1)) return;
    GLint max_buffers = 4;
    host_gl.glGetIntegerv(GL_MAX_DRAW_BUFFERS, &max_buffers);
    if (color >= GLuint(max_buffers)) return refuse(op, GL_INVALID_VALUE, "color number not below GL_MAX_DRAW_BUFFERS");
    const std::string n = in_name(name);
    if (n.rfind("gl_", 0) == 0) return refuse(op, GL_INVALID_OPERATION, "name starts with gl_");
    desktop_shaders().frag_bindings[program][n] = int(color);  // takes effect at the next link, as in GL
}

// Desktop GL links a program without a fragment shader (transform feedback
// with rasterizer discard, depth-only passes: the fragment colour is
// undefined), and a program with a fragment shader and no vertex shader (in
// compatibility, the fixed-function vertex stage; in core, GL leaves the
// vertices undefined: the same stage stands in); GLES does not. In core, a geometry
// or tessellation stage without a vertex shader still fails, as GL says. The host links it with the
// missing stage attached for the link only: the application's attachments
// stay as they were (the stages' text is the GL front end's:
// fixed_function_vertex_essl, fixed_function_fragment_essl).
GLuint EsprytBackend::missing_stage_for(GLuint host_program) {
    // A separable program holds only the stages it has: a pipeline takes the
    // others from other programs (and fails validation over a stand-in one).
    // Recorded at glProgramParameteri: a host answers GL_PROGRAM_SEPARABLE
    // with 0 until the program's first successful link (Mesa).
    if (cur_->share->desktop->separable.count(host_program)) return 0;
    GLint attached = 0;
    host_gl.glGetProgramiv(host_program, GL_ATTACHED_SHADERS, &attached);
    std::vector<GLuint> hosts(size_t(std::max(attached, 0)));
    if (!hosts.empty()) host_gl.glGetAttachedShaders(host_program, GLsizei(hosts.size()), nullptr, hosts.data());
    bool vertex = false, fragment = false, compat_block = false, front_colour = false, middle = false;
    std::string fragment_essl;  // (one fragment shader object: the usual case)
    const DesktopShaders& d = *cur_->share->desktop;
    for (const GLuint h : hosts) {
        GLint type = 0;
        host_gl.glGetShaderiv(h, GL_SHADER_TYPE, &type);
        fragment = fragment || type == GL_FRAGMENT_SHADER;
        vertex = vertex || type == GL_VERTEX_SHADER;
        middle = middle || type == GL_GEOMETRY_SHADER || type == GL_TESS_CONTROL_SHADER || type == GL_TESS_EVALUATION_SHADER;
        auto s = d.shaders.find(h);
        if (s == d.shaders.end() || !s->second.translation) continue;
        const std::string& essl = s->second.translation->essl;
        if (type == GL_GEOMETRY_SHADER) compat_block = compat_block || gl::reads_compat_block(essl);
        if (type == GL_FRAGMENT_SHADER) fragment_essl = essl;
        if (type == GL_GEOMETRY_SHADER || type == GL_VERTEX_SHADER)
            front_colour = front_colour || essl.find("mgl_FrontColor") != std::string::npos;
    }
    GLint major = 3, minor = 0;
    host_gl.glGetIntegerv(GL_MAJOR_VERSION, &major);
    host_gl.glGetIntegerv(GL_MINOR_VERSION, &minor);
    // Every stage of a GLES program has one ESSL version: the translator's.
    const int version = std::max(300, std::min(major * 100 + minor * 10, 320));
    GLenum stage = 0;
    std::string text;
    if (vertex && !fragment) {
        stage = GL_FRAGMENT_SHADER;
        text = gl::fixed_function_fragment_essl(version, cur_->profile == 2 && front_colour);
    } else if (fragment && !vertex && (cur_->profile == 2 || !middle)) {
        // A program with a fragment shader only: its vertices go through the
        // fixed-function vertex stage (compatibility; core's are undefined).
        stage = GL_VERTEX_SHADER;
        text = gl::fixed_function_vertex_essl(version, clips_by_planes(*cur_));
        if (compat_block) text = gl::vertex_outputs_as_block(text);
        else if (!fragment_essl.empty()) text = gl::declare_missing_outputs(text, fragment_essl);
    } else {
        return 0;  // whole (or a compute program)
    }
    const GLuint sh = host_gl.glCreateShader(stage);
    const char* src = text.c_str();
    host_gl.glShaderSource(sh, 1, &src, nullptr);
    host_gl.glCompileShader(sh);
    host_gl.glAttachShader(host_program, sh);
    return sh;
}

void EsprytBackend::glProgramParameteri(GLuint program, GLenum pname, GLint value) {
    EsprytGenerated::glProgramParameteri(program, pname, value);
    GLuint host = 0;
    if (pname != GL_PROGRAM_SEPARABLE || !cur_ || !cur_->desktop() || !to_host(Kind::program, program, host) || !host)
        return;
    if (value) desktop_shaders().separable.insert(host);
    else desktop_shaders().separable.erase(host);
}

void EsprytBackend::glLinkProgram(GLuint program) {
    if (!cur_ || !cur_->desktop() || !cur_->share->desktop) return EsprytGenerated::glLinkProgram(program);
    GLuint host_program;
    if (!to_host(Kind::program, program, host_program)) return EsprytGenerated::glLinkProgram(program);
    const GLuint missing = host_gl.glIsProgram(host_program) ? missing_stage_for(host_program) : 0;
    link_desktop(program, host_program);
    record_driver_uniforms(host_program);
    record_program_units(host_program);
    if (missing) {
        host_gl.glDetachShader(host_program, missing);
        host_gl.glDeleteShader(missing);
    }
    // The fixed-function state uniforms a lowered shader reads (mgl_*,
    // compat_builtins.h) are the client's to upload, GL's initial values
    // included (client/src/compat/program_builtins.cc).
}

bool EsprytBackend::set_context_api(GLuint context, uint32_t api, uint32_t profile, int major, int minor) {
    auto it = contexts_.find(context);
    if (it == contexts_.end()) return false;
    Context& c = *it->second;
    c.api = api;
    c.profile = profile;
    c.major = major;
    c.minor = minor;
    if (cur_ == &c) set_current(&c);  // the decoders' profile checks follow
    return true;
}

bool testing::set_context_api(Espryt& backend, uint32_t context, uint32_t api, uint32_t profile, int major, int minor) {
    return static_cast<EsprytBackend&>(backend).set_context_api(context, api, profile, major, minor);
}

}  // namespace mgl::espryt
