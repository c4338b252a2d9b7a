// Linking desktop GL programs on the host's GLES. GL lets a stage be made of
// several shader objects (one with main, others with functions it calls);
// GLES takes one per stage. The host program holds the first of each stage;
// the others are kept as extra attachments, and at glLinkProgram the stage's
// objects are linked into one by the front end (gl::translate_stage) and its
// ESSL swapped in for the link only. The same swap re-emits fragment shaders
// with glBindFragDataLocation's bindings, and after a successful link the
// uniform initialisers are set (uniform_init.h): all GL rules the host's
// GLES does not have.
#include <GLES3/gl32.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>

#include "backend.h"
#include "compat_builtins.h"
#include "shader_cache.h"
#include "spirv_to_essl.h"
#include "translate.h"

namespace mgl::espryt {

namespace {

std::vector<GLuint> attached(GLuint host_program) {
    GLint n = 0;
    host_gl.glGetProgramiv(host_program, GL_ATTACHED_SHADERS, &n);
    std::vector<GLuint> hosts(size_t(std::max(n, 0)));
    if (!hosts.empty()) host_gl.glGetAttachedShaders(host_program, GLsizei(hosts.size()), nullptr, hosts.data());
    return hosts;
}

GLenum gl_type(gl::Stage s) {
    switch (s) {
        case gl::Stage::fragment: return GL_FRAGMENT_SHADER;
        case gl::Stage::geometry: return GL_GEOMETRY_SHADER;
        case gl::Stage::tess_control: return GL_TESS_CONTROL_SHADER;
        case gl::Stage::tess_evaluation: return GL_TESS_EVALUATION_SHADER;
        case gl::Stage::compute: return GL_COMPUTE_SHADER;
        default: return GL_VERTEX_SHADER;
    }
}

GLint shader_type(GLuint host) {
    GLint type = 0;
    host_gl.glGetShaderiv(host, GL_SHADER_TYPE, &type);
    return type;
}

// One stage of the program being linked.
struct StageObjects {
    std::vector<GLuint> hosts;                  // attached on the host
    std::vector<const DesktopShader*> objects;  // every object of the stage, extras included
    bool extra = false;                         // some are extra attachments
};

}  // namespace

void EsprytBackend::glAttachShader(GLuint program, GLuint shader) {
    GLuint hp, hs;
    if (!cur_ || !cur_->desktop() || !to_host(Kind::program, program, hp) || !to_host(Kind::program, shader, hs) ||
        !host_gl.glIsProgram(hp) || !host_gl.glIsShader(hs))
        return EsprytGenerated::glAttachShader(program, shader);
    const std::vector<GLuint> hosts = attached(hp);
    const GLint type = shader_type(hs);
    const bool same_stage = std::any_of(hosts.begin(), hosts.end(), [&](GLuint h) { return shader_type(h) == type; });
    if (!same_stage || std::find(hosts.begin(), hosts.end(), hs) != hosts.end())
        return EsprytGenerated::glAttachShader(program, shader);  // the host's rules (an object attached twice)
    DesktopShaders& d = desktop_shaders();
    auto& list = d.extras[hp];
    if (std::any_of(list.begin(), list.end(), [&](const ExtraAttachment& e) { return !e.deleted && e.host == hs; }))
        return refuse(gen::Op::glAttachShader, GL_INVALID_OPERATION, "shader already attached");
    list.push_back({hs, stage_of(uint32_t(type)), false, {}});
}

void EsprytBackend::glDetachShader(GLuint program, GLuint shader) {
    GLuint hp, hs;
    if (!cur_ || !cur_->share->desktop || !to_host(Kind::program, program, hp) || !to_host(Kind::program, shader, hs))
        return EsprytGenerated::glDetachShader(program, shader);
    DesktopShaders& d = *cur_->share->desktop;
    auto found = d.extras.find(hp);
    if (found == d.extras.end()) return EsprytGenerated::glDetachShader(program, shader);
    auto& list = found->second;
    auto it = std::find_if(list.begin(), list.end(), [&](const ExtraAttachment& e) { return !e.deleted && e.host == hs; });
    if (it != list.end()) {
        list.erase(it);
        return;
    }
    const GLint type = host_gl.glIsShader(hs) ? shader_type(hs) : 0;
    EsprytGenerated::glDetachShader(program, shader);
    // An extra of the stage (one that still has its host shader) takes the
    // host attachment.
    it = std::find_if(list.begin(), list.end(), [&](const ExtraAttachment& e) {
        return !e.deleted && GLint(gl_type(e.stage)) == type && host_gl.glIsShader(e.host);
    });
    if (type && it != list.end()) {
        host_gl.glAttachShader(hp, it->host);
        list.erase(it);
    }
}

void EsprytBackend::glGetAttachedShaders(GLuint program, GLsizei maxCount, wire::Out<GLsizei> count,
                                         wire::Out<GLuint> shaders) {
    EsprytGenerated::glGetAttachedShaders(program, maxCount, count, shaders);
    GLuint hp;
    if (!cur_ || !cur_->share->desktop || !to_host(Kind::program, program, hp) || !count.data ||
        count.size < sizeof(GLsizei))
        return;
    auto found = cur_->share->desktop->extras.find(hp);
    if (found == cur_->share->desktop->extras.end()) return;
    GLsizei n = *count.data;
    for (const ExtraAttachment& e : found->second) {
        if (e.deleted || n >= maxCount || !shaders.data || size_t(n) >= shaders.count()) break;
        GLuint name = e.host;
        names_to_client(Kind::program, &name, 1);
        shaders.data[n++] = name;
    }
    *count.data = n;
}

void EsprytBackend::glGetProgramiv(GLuint program, GLenum pname, wire::Out<GLint> params) {
    EsprytGenerated::glGetProgramiv(program, pname, params);
    hide_driver_uniforms(program, pname, params);
    GLuint hp;
    if (!cur_ || !cur_->share->desktop || !params.data || params.size < sizeof(GLint) ||
        !to_host(Kind::program, program, hp))
        return;
    const DesktopShaders& d = *cur_->share->desktop;
    if (pname == GL_ATTACHED_SHADERS) {
        if (auto it = d.extras.find(hp); it != d.extras.end())
            *params.data += GLint(std::count_if(it->second.begin(), it->second.end(),
                                                [](const ExtraAttachment& e) { return !e.deleted; }));
    } else if (pname == GL_INFO_LOG_LENGTH) {
        if (auto it = d.link_logs.find(hp); it != d.link_logs.end())
            *params.data = it->second.empty() ? 0 : GLint(it->second.size() + 1);
    }
}

void EsprytBackend::link_desktop(GLuint program, GLuint host_program) {
    DesktopShaders& d = *cur_->share->desktop;
    d.link_logs.erase(host_program);
    std::map<gl::Stage, StageObjects> stages;
    for (const GLuint h : attached(host_program)) {
        auto found = d.shaders.find(h);
        if (found == d.shaders.end() || !found->second.translation) continue;  // not a desktop shader of ours
        StageObjects& so = stages[found->second.translation->stage];
        so.hosts.push_back(h);
        so.objects.push_back(&found->second);
    }
    if (auto it = d.extras.find(host_program); it != d.extras.end())
        for (ExtraAttachment& e : it->second) {
            const DesktopShader* s = &e.kept;
            if (!e.deleted)
                if (auto live = d.shaders.find(e.host); live != d.shaders.end()) s = &live->second;
            StageObjects& so = stages[e.stage];
            so.objects.push_back(s);
            so.extra = true;
        }
    auto bound = d.frag_bindings.find(program);
    const gl::OutputBindings none;
    const gl::OutputBindings& bindings = bound == d.frag_bindings.end() ? none : bound->second;

    // What each stage links as, and the ESSL swapped in for the link ("" keeps
    // the attached shader).
    struct Swap {
        gl::Stage stage;
        std::string essl;  // empty with `fail`: an uncompiled shader makes the host link fail
        bool fail = false;
    };
    std::vector<Swap> swaps;
    std::vector<std::shared_ptr<const gl::Translation>> linked;
    std::string refused;
    // Each stage's translation (several objects of one stage linked into one).
    std::map<gl::Stage, std::shared_ptr<const gl::Translation>> translated;
    for (auto& [stage, so] : stages) {
        const bool deferred = std::any_of(so.objects.begin(), so.objects.end(), [](const DesktopShader* s) {
            return s->translation && s->translation->deferred;
        });
        const bool all_compiled = std::all_of(so.objects.begin(), so.objects.end(),
                                              [](const DesktopShader* s) { return s->compiled && s->input; });
        if (!all_compiled) {
            if (!so.extra) continue;  // the host link fails on the uncompiled shader, as GL's would
            refused += "ERROR: a shader object attached was not compiled successfully\n";
            swaps.push_back({stage, {}, true});
            continue;
        }
        std::shared_ptr<const gl::Translation> t = so.objects.front()->translation;
        if (so.objects.size() > 1 || deferred) {
            std::vector<gl::ShaderInput> inputs;
            for (const DesktopShader* s : so.objects) inputs.push_back(*s->input);
            t = gl::translate_stage(inputs, so.objects.front()->options, &gl::ShaderCache::process());
            if (!t->ok) {
                refused += t->link_log.empty() ? t->log : t->link_log;
                swaps.push_back({stage, {}, true});
                continue;
            }
        }
        translated[stage] = t;
        linked.push_back(t);
    }
    // GLSL 1.30 §4.3.7: the colour built-ins' interpolation qualifiers agree
    // between the vertex and fragment stages (without a geometry stage between).
    // A refusal makes the host link fail (an uncompiled shader in the stage's place).
    if (refused.empty() && !translated.count(gl::Stage::geometry))
        if (auto v = translated.find(gl::Stage::vertex), f = translated.find(gl::Stage::fragment);
            v != translated.end() && f != translated.end())
            if (std::string e = gl::colour_interpolation_mismatch(v->second->colour_interpolation,
                                                                   f->second->colour_interpolation);
                !e.empty()) {
                refused += e;
                swaps.push_back({gl::Stage::fragment, {}, true});
                translated.erase(f);
            }
    // The compatibility varyings between the stages (compat_builtins.h): a
    // geometry stage that reads its vertices' takes them as one block, which
    // the vertex stage declares for this link; those the fragment stage reads
    // and the stage before it does not write are declared there, unwritten
    // (GL leaves their values undefined; GLES would refuse the link).
    auto essl_of = [&](gl::Stage s) -> const std::string* {
        auto it = translated.find(s);
        return it == translated.end() ? nullptr : &it->second->essl;
    };
    const std::string* geometry = essl_of(gl::Stage::geometry);
    const std::string* fragment = essl_of(gl::Stage::fragment);
    const bool compat_block = geometry && gl::reads_compat_block(*geometry);
    const gl::Stage before_fragment = geometry ? gl::Stage::geometry : gl::Stage::vertex;
    // Images and storage blocks the sources left unbound get host bindings of
    // their own (resource_bindings.h; unit_routing.cc routes the
    // application's units to them).
    std::vector<const gl::Translation*> all;
    for (const auto& [stage, t] : translated) all.push_back(t.get());
    const gl::ResourceBindings resources = gl::assign_resource_bindings(all);
    if (resources.empty()) d.unbound.erase(host_program);
    else d.unbound[host_program] = resources;
    for (const auto& [stage, t] : translated) {
        const StageObjects& so = stages[stage];
        std::string essl = t->essl, why;
        const bool rebind = (stage == gl::Stage::fragment && !bindings.empty()) || !resources.empty();
        if (rebind && !gl::spirv_to_essl(*t, so.objects.front()->options, bindings, essl, why, nullptr, &resources)) {
            log().warn("espryt: program {}: {} stage not re-emitted for its link: {}", program, int(stage), why);
            essl = t->essl;
        }
        if (stage == gl::Stage::vertex && compat_block) essl = gl::vertex_outputs_as_block(essl);
        if (stage == before_fragment && fragment) essl = gl::declare_missing_outputs(essl, *fragment);
        if (essl == t->essl && t == so.objects.front()->translation) continue;  // the attached shader as it is
        swaps.push_back({stage, std::move(essl), false});
    }

    // The swap: the stage's host shaders out, a temporary one in, for this
    // link only (the application's attachments stay as they were).
    std::vector<std::pair<std::vector<GLuint>, GLuint>> swapped;  // originals, temporary
    for (const Swap& s : swaps) {
        const GLuint tmp = host_gl.glCreateShader(gl_type(s.stage));
        if (!s.fail) {
            const char* text = s.essl.c_str();
            host_gl.glShaderSource(tmp, 1, &text, nullptr);
            host_gl.glCompileShader(tmp);
        }
        std::vector<GLuint> originals;
        bool deleted_original = false;
        for (const GLuint h : stages[s.stage].hosts) {
            GLint deleted = GL_FALSE;
            host_gl.glGetShaderiv(h, GL_DELETE_STATUS, &deleted);
            host_gl.glDetachShader(host_program, h);
            if (deleted) {
                // Detaching destroyed the application's deleted shader: the
                // temporary one takes its place for good, deleted likewise,
                // and carries its record (sources, translation) for later links.
                auto found = d.shaders.find(h);
                if (found != d.shaders.end() && !deleted_original && !s.fail) {
                    DesktopShader moved = std::move(found->second);
                    d.shaders.erase(found);
                    d.shaders[tmp] = std::move(moved);
                    deleted_original = true;
                }
            } else {
                originals.push_back(h);
            }
        }
        host_gl.glAttachShader(host_program, tmp);
        if (deleted_original) host_gl.glDeleteShader(tmp);
        else swapped.emplace_back(std::move(originals), tmp);
    }
    host_gl.glLinkProgram(host_program);
    for (auto& [originals, tmp] : swapped) {
        host_gl.glDetachShader(host_program, tmp);
        for (const GLuint h : originals) host_gl.glAttachShader(host_program, h);
        host_gl.glDeleteShader(tmp);
    }
    if (!refused.empty()) {
        d.link_logs[host_program] = refused;
        log().info("espryt: program {}: link refused by the front end: {}", program, refused);
        return;
    }
    GLint ok = GL_FALSE;
    host_gl.glGetProgramiv(host_program, GL_LINK_STATUS, &ok);
    if (!ok) return;
    for (const auto& t : linked)
        if (std::string why = set_uniform_initialisers(host_program, *t); !why.empty())
            log().warn("espryt: program {}: uniform initialisers not set: {}", program, why);
}

}  // namespace mgl::espryt
