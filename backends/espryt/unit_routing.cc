// Image units and storage buffer bindings as desktop GL addresses them.
// Desktop GL sets an image uniform's unit with glUniform1i and a storage
// block's binding with glShaderStorageBlockBinding at any time after link
// (the layout binding is only the initial value); GLES fixes both at link and
// refuses both calls. Every image and storage block of a desktop program has
// a host binding of its own (the front end gives the unbound ones distinct
// bindings at link: gl/shaders/resource_bindings.h); the unit the
// application set is kept here, and a draw or dispatch of a program whose
// units differ binds the application's unit's content at the host's unit
// first. What that displaced is put back before the next draw, indexed query
// or bind of those targets, so the host's tables answer as the
// application's; a program without routed units costs a draw nothing.
#include <GLES3/gl32.h>

#include <algorithm>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>

#include "backend.h"
#include "image_unit_state.h"
#include "state/compute_rules.h"

namespace mgl::espryt {

namespace {

bool is_image_type(GLenum type) { return type >= GL_IMAGE_2D && type <= 0x906C; }  // GL_IMAGE_* .. GL_UNSIGNED_INT_IMAGE_2D_MULTISAMPLE_ARRAY

std::string without_index(std::string name) {
    if (name.size() > 3 && name.back() == ']')
        if (const size_t open = name.rfind('['); open != std::string::npos) name.resize(open);
    return name;
}

}  // namespace

// After every desktop link: where the host has each image uniform element
// and storage block, and the application's initial unit (the layout binding
// the source wrote, else 0, as GL has it).
void EsprytBackend::record_program_units(GLuint host_program) {
    DesktopShaders& d = *cur_->share->desktop;
    d.program_units.erase(host_program);
    d.routed.erase(host_program);
    gl::ResourceBindings unbound;
    if (auto it = d.unbound.find(host_program); it != d.unbound.end()) unbound = it->second;
    GLint linked = GL_FALSE;
    host_gl.glGetProgramiv(host_program, GL_LINK_STATUS, &linked);
    if (linked) {
        ProgramUnits units;
        GLint count = 0, longest = 0;
        host_gl.glGetProgramiv(host_program, GL_ACTIVE_UNIFORMS, &count);
        host_gl.glGetProgramiv(host_program, GL_ACTIVE_UNIFORM_MAX_LENGTH, &longest);
        std::vector<char> name(size_t(std::max(longest, 1)) + 16);
        for (GLint i = 0; i < count; ++i) {
            GLint size = 0;
            GLenum type = 0;
            host_gl.glGetActiveUniform(host_program, GLuint(i), GLsizei(name.size()), nullptr, &size, &type, name.data());
            if (!is_image_type(type)) continue;
            const std::string base = without_index(name.data());
            const bool was_unbound = unbound.images.count(base) > 0;
            for (GLint e = 0; e < std::max(size, 1); ++e) {
                const std::string element = size > 1 ? base + "[" + std::to_string(e) + "]" : base;
                const GLint loc = host_gl.glGetUniformLocation(host_program, element.c_str());
                if (loc < 0) continue;
                GLint unit = 0;
                host_gl.glGetUniformiv(host_program, loc, &unit);
                units.images[loc] = RoutedUnit{unit, was_unbound ? 0 : unit};
            }
        }
        GLint blocks = 0;
        host_gl.glGetProgramInterfaceiv(host_program, GL_SHADER_STORAGE_BLOCK, GL_ACTIVE_RESOURCES, &blocks);
        for (GLint b = 0; b < blocks; ++b) {
            const GLenum prop = GL_BUFFER_BINDING;
            GLint binding = 0;
            host_gl.glGetProgramResourceiv(host_program, GL_SHADER_STORAGE_BLOCK, GLuint(b), 1, &prop, 1, nullptr, &binding);
            host_gl.glGetProgramResourceName(host_program, GL_SHADER_STORAGE_BLOCK, GLuint(b), GLsizei(name.size()),
                                             nullptr, name.data());
            const bool was_unbound = unbound.storage_blocks.count(without_index(name.data())) > 0;
            units.blocks.push_back(RoutedUnit{binding, was_unbound ? 0 : binding});
        }
        if (!units.images.empty() || !units.blocks.empty()) {
            if (units.routed()) d.routed.insert(host_program);
            d.program_units[host_program] = std::move(units);
        }
    }
    cur_->share->routed_programs = d.routed.size();
}

void EsprytBackend::forget_program_units(GLuint host_program) {
    DesktopShaders& d = *cur_->share->desktop;
    d.program_units.erase(host_program);
    d.routed.erase(host_program);
    d.unbound.erase(host_program);
    cur_->share->routed_programs = d.routed.size();
}

// glUniform1i* of an image uniform: kept as the application's unit, never
// the host's (GLES refuses it). True when `location` is one of the
// program's images (answered here).
bool EsprytBackend::image_uniform_set(gen::Op op, GLuint host_program, GLint location, GLsizei count,
                                      const GLint* values) {
    if (!cur_ || !cur_->desktop() || !cur_->share->desktop) return false;
    DesktopShaders& d = *cur_->share->desktop;
    auto p = d.program_units.find(host_program);
    if (p == d.program_units.end() || !p->second.images.count(location)) return false;
    if (cur_->max_image_units < 0) host_gl.glGetIntegerv(GL_MAX_IMAGE_UNITS, &cur_->max_image_units);
    if (const gl::RuleError e = gl::check_image_uniform_units(values, count, uint32_t(std::max(cur_->max_image_units, 0)))) {
        refuse(op, e.error, e.why);
        return true;
    }
    for (GLsizei i = 0; i < count; ++i) {
        auto u = p->second.images.find(location + i);
        if (u == p->second.images.end()) break;  // past the array: GL ignores the rest
        u->second.app = values[i];
    }
    if (p->second.routed()) d.routed.insert(host_program);
    else d.routed.erase(host_program);
    cur_->share->routed_programs = d.routed.size();
    return true;
}

// Whether any linked program of the share group has an image uniform at
// `location`: the current program is asked of the host only then.
bool EsprytBackend::may_be_image_location(GLint location) const {
    if (!cur_ || !cur_->share->desktop) return false;
    for (const auto& [program, units] : cur_->share->desktop->program_units)
        if (units.images.count(location)) return true;
    return false;
}

void EsprytBackend::glUniform1i(GLint location, GLint v0) {
    GLint program = 0;
    if (may_be_image_location(location)) host_gl.glGetIntegerv(GL_CURRENT_PROGRAM, &program);
    if (program && image_uniform_set(gen::Op::glUniform1i, GLuint(program), location, 1, &v0)) return;
    EsprytGenerated::glUniform1i(location, v0);
}

void EsprytBackend::glUniform1iv(GLint location, GLsizei count, wire::In<GLint> value) {
    GLint program = 0;
    if (may_be_image_location(location)) host_gl.glGetIntegerv(GL_CURRENT_PROGRAM, &program);
    if (program && count > 0 && value.count() >= uint32_t(count) &&
        image_uniform_set(gen::Op::glUniform1iv, GLuint(program), location, count, value.data))
        return;
    EsprytGenerated::glUniform1iv(location, count, value);
}

void EsprytBackend::glProgramUniform1i(GLuint program, GLint location, GLint v0) {
    GLuint host = 0;
    if (may_be_image_location(location) && to_host(Kind::program, program, host) &&
        image_uniform_set(gen::Op::glProgramUniform1i, host, location, 1, &v0))
        return;
    EsprytGenerated::glProgramUniform1i(program, location, v0);
}

void EsprytBackend::glProgramUniform1iv(GLuint program, GLint location, GLsizei count, wire::In<GLint> value) {
    GLuint host = 0;
    if (may_be_image_location(location) && count > 0 && value.count() >= uint32_t(count) &&
        to_host(Kind::program, program, host) &&
        image_uniform_set(gen::Op::glProgramUniform1iv, host, location, count, value.data))
        return;
    EsprytGenerated::glProgramUniform1iv(program, location, count, value);
}

// glGetUniformiv of an image uniform answers the application's unit.
bool EsprytBackend::image_uniform_value(GLuint host_program, GLint location, GLint& unit) const {
    if (!cur_ || !cur_->share->desktop) return false;
    const DesktopShaders& d = *cur_->share->desktop;
    auto p = d.program_units.find(host_program);
    if (p == d.program_units.end()) return false;
    auto u = p->second.images.find(location);
    if (u == p->second.images.end()) return false;
    unit = u->second.app;
    return true;
}

// glShaderStorageBlockBinding (GL's errors checked first): kept as the
// application's binding.
void EsprytBackend::glShaderStorageBlockBinding(GLuint program, GLuint block, GLuint binding) {
    constexpr gen::Op op = gen::Op::glShaderStorageBlockBinding;
    if (!cur_) return unavailable(op);
    GLuint host = 0;
    if (!to_host(Kind::program, program, host) || !host) return name_error(op, Kind::program, program);
    GLint blocks = 0, max_bindings = 0;
    host_gl.glGetProgramInterfaceiv(host, GL_SHADER_STORAGE_BLOCK, GL_ACTIVE_RESOURCES, &blocks);
    host_gl.glGetIntegerv(GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, &max_bindings);
    gl::ComputeLimits limits;
    limits.storage_bindings = uint32_t(std::max(max_bindings, 0));
    if (const gl::RuleError e = gl::check_storage_block_binding(block, uint32_t(std::max(blocks, 0)), binding, limits))
        return refuse(op, e.error, e.why);
    if (!cur_->share->desktop) return;
    DesktopShaders& d = *cur_->share->desktop;
    auto p = d.program_units.find(host);
    if (p == d.program_units.end() || block >= p->second.blocks.size()) return;  // not linked by us: nothing routes
    p->second.blocks[block].app = int32_t(binding);
    if (p->second.routed()) d.routed.insert(host);
    else d.routed.erase(host);
    cur_->share->routed_programs = d.routed.size();
}

// glGetProgramResourceiv's GL_BUFFER_BINDING of a storage block answers the
// application's binding (called after the host answered).
void EsprytBackend::answer_storage_bindings(GLuint program, GLuint index, GLsizei propCount,
                                            const wire::In<GLenum>& props, GLsizei count, wire::Out<GLint>& params) {
    GLuint host = 0;
    if (!cur_ || !cur_->share->desktop || !props.data || !params.data || !to_host(Kind::program, program, host)) return;
    const DesktopShaders& d = *cur_->share->desktop;
    auto p = d.program_units.find(host);
    if (p == d.program_units.end() || index >= p->second.blocks.size()) return;
    // Each property writes one value for a storage block but GL_ACTIVE_VARIABLES
    // (a list): the binding's place is known only while none comes before it.
    size_t at = 0;
    for (GLsizei i = 0; i < propCount && i < GLsizei(props.count()); ++i) {
        if (props.data[i] == GL_ACTIVE_VARIABLES) return;
        if (props.data[i] == GL_BUFFER_BINDING && at < params.count() && GLsizei(at) < count)
            params.data[at] = p->second.blocks[index].app;
        ++at;
    }
}

// ---- routing around draws and dispatches -------------------------------------

namespace {

struct BufferRange {
    GLint name = 0;
    GLint64 start = 0, size = 0;
};

BufferRange read_storage_binding(GLuint index) {
    BufferRange r;
    host_gl.glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, index, &r.name);
    host_gl.glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_START, index, &r.start);
    host_gl.glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_SIZE, index, &r.size);
    return r;
}

// Binds without changing the generic GL_SHADER_STORAGE_BUFFER binding the
// application's buffer verbs go through.
void bind_storage(GLuint index, const BufferRange& r, GLint generic) {
    const GLuint name = r.name && host_gl.glIsBuffer(GLuint(r.name)) ? GLuint(r.name) : 0;
    if (name && r.size > 0) host_gl.glBindBufferRange(GL_SHADER_STORAGE_BUFFER, index, name, r.start, r.size);
    else host_gl.glBindBufferBase(GL_SHADER_STORAGE_BUFFER, index, name);
    host_gl.glBindBuffer(GL_SHADER_STORAGE_BUFFER, GLuint(generic));
}

}  // namespace

void EsprytBackend::put_back_units() {
    if (!cur_ || !cur_->displaced) return;
    for (const Context::DisplacedImage& i : cur_->displaced_images) bind_image_unit(i.unit, i.was);
    if (!cur_->displaced_buffers.empty()) {
        GLint generic = 0;
        host_gl.glGetIntegerv(GL_SHADER_STORAGE_BUFFER_BINDING, &generic);
        for (const Context::DisplacedBuffer& b : cur_->displaced_buffers)
            bind_storage(b.index, BufferRange{b.name, b.start, b.size}, generic);
    }
    cur_->displaced_images.clear();
    cur_->displaced_buffers.clear();
    cur_->displaced = false;
}

// Before a draw or dispatch: the programs that run (the current one, else
// the bound pipeline's stages) get the application's units at the host's.
void EsprytBackend::route_units(bool compute) {
    put_back_units();
    if (!cur_->share->routed_programs || !cur_->share->desktop) return;
    const DesktopShaders& d = *cur_->share->desktop;
    std::vector<GLuint> programs;
    GLint current = 0;
    host_gl.glGetIntegerv(GL_CURRENT_PROGRAM, &current);
    if (current) {
        programs.push_back(GLuint(current));
    } else {
        GLint pipeline = 0;
        host_gl.glGetIntegerv(GL_PROGRAM_PIPELINE_BINDING, &pipeline);
        if (!pipeline) return;
        static const GLenum kDraw[] = {GL_VERTEX_SHADER, GL_TESS_CONTROL_SHADER, GL_TESS_EVALUATION_SHADER,
                                       GL_GEOMETRY_SHADER, GL_FRAGMENT_SHADER};
        static const GLenum kCompute[] = {GL_COMPUTE_SHADER};
        for (GLenum stage : compute ? std::vector<GLenum>(std::begin(kCompute), std::end(kCompute))
                                    : std::vector<GLenum>(std::begin(kDraw), std::end(kDraw))) {
            GLint p = 0;
            host_gl.glGetProgramPipelineiv(GLuint(pipeline), stage, &p);
            if (p && std::find(programs.begin(), programs.end(), GLuint(p)) == programs.end()) programs.push_back(GLuint(p));
        }
    }
    // Host unit <- application unit, each host unit once (two programs of a
    // pipeline asking one host unit for two units cannot both be served).
    std::vector<std::pair<GLuint, GLuint>> images, buffers;
    bool clash = false;
    auto add = [&](std::vector<std::pair<GLuint, GLuint>>& list, const RoutedUnit& u) {
        if (u.host == u.app) return;
        for (const auto& [host, app] : list)
            if (host == GLuint(u.host)) {
                clash |= app != GLuint(u.app);
                return;
            }
        list.emplace_back(GLuint(u.host), GLuint(u.app));
    };
    for (GLuint p : programs) {
        if (!d.routed.count(p)) continue;
        const ProgramUnits& units = d.program_units.at(p);
        for (const auto& [location, u] : units.images) add(images, u);
        for (const RoutedUnit& u : units.blocks) add(buffers, u);
    }
    if (clash)
        log().warn("espryt: two programs of the bound pipeline use one host image unit or storage binding for two "
                   "of the application's: the first is served");
    if (images.empty() && buffers.empty()) return;
    // Every source is read before any target is bound: a target may be
    // another route's source.
    std::vector<HostImageUnit> image_sources;
    for (const auto& [host, app] : images) image_sources.push_back(read_image_unit(app));
    std::vector<BufferRange> buffer_sources;
    for (const auto& [host, app] : buffers) buffer_sources.push_back(read_storage_binding(app));
    for (size_t i = 0; i < images.size(); ++i) {
        cur_->displaced_images.push_back({images[i].first, read_image_unit(images[i].first)});
        bind_image_unit(images[i].first, image_sources[i]);
    }
    if (!buffers.empty()) {
        GLint generic = 0;
        host_gl.glGetIntegerv(GL_SHADER_STORAGE_BUFFER_BINDING, &generic);
        for (size_t i = 0; i < buffers.size(); ++i) {
            const BufferRange was = read_storage_binding(buffers[i].first);
            cur_->displaced_buffers.push_back({buffers[i].first, was.name, was.start, was.size});
            bind_storage(buffers[i].first, buffer_sources[i], generic);
        }
    }
    cur_->displaced = true;
}

void EsprytBackend::glDispatchCompute(GLuint x, GLuint y, GLuint z) {
    if (cur_ && (cur_->share->routed_programs || cur_->displaced)) [[unlikely]] route_units(true);
    EsprytGenerated::glDispatchCompute(x, y, z);
}

void EsprytBackend::glDispatchComputeIndirect(GLintptr indirect) {
    if (cur_ && (cur_->share->routed_programs || cur_->displaced)) [[unlikely]] route_units(true);
    EsprytGenerated::glDispatchComputeIndirect(indirect);
}

// The indexed binds and queries of the targets routing displaces see the
// application's units.
void EsprytBackend::glBindBufferBase(GLenum target, GLuint index, GLuint buffer) {
    if (target == GL_SHADER_STORAGE_BUFFER) put_back_units();
    EsprytGenerated::glBindBufferBase(target, index, buffer);
}

void EsprytBackend::glBindBufferRange(GLenum target, GLuint index, GLuint buffer, GLintptr offset, GLsizeiptr size) {
    if (target == GL_SHADER_STORAGE_BUFFER) put_back_units();
    EsprytGenerated::glBindBufferRange(target, index, buffer, offset, size);
}

void EsprytBackend::glGetBooleani_v(GLenum target, GLuint index, wire::Out<GLboolean> data) {
    put_back_units();
    EsprytGenerated::glGetBooleani_v(target, index, data);
}

}  // namespace mgl::espryt
