#include "spirv_textures.h"

#define SPV_ENABLE_UTILITY_CODE
#include <spirv_cross/spirv.h>

#include <cstring>
#include <initializer_list>
#include <map>
#include <tuple>
#include <unordered_map>

namespace mgl::gl {

namespace {

enum class Kind { none, d1, d1_array, rect };

struct Image {
    Kind kind = Kind::none;
    bool storage = false;  // image1D... (GL_ARB_shader_image_load_store), not a sampler
};

class Lowering {
public:
    explicit Lowering(std::vector<uint32_t>& spv) : spv_(spv) {}

    bool run() {
        if (spv_.size() < 5) return false;
        bound_ = spv_[3];
        size_t first_function = 0;
        bool any = false;
        // What the module declares: types, constants, the type of every id.
        for (size_t i = 5; i < spv_.size();) {
            const uint32_t words = spv_[i] >> 16, op = spv_[i] & 0xFFFF;
            if (words == 0 || i + words > spv_.size()) return false;
            const uint32_t* w = &spv_[i];
            bool has_result = false, has_type = false;
            SpvHasResultAndType(SpvOp(op), &has_result, &has_type);
            if (has_result && has_type && words >= 3) type_of_[w[2]] = w[1];
            switch (op) {
                case SpvOpTypeFloat:
                    if (words >= 3 && w[2] == 32 && !float_) float_ = w[1];
                    break;
                case SpvOpTypeInt:
                    if (words >= 4 && w[2] == 32 && w[3] == 1 && !int_) int_ = w[1];
                    break;
                case SpvOpTypeVector:
                    if (words >= 4) vectors_.emplace(std::make_pair(w[2], w[3]), w[1]);
                    break;
                case SpvOpTypeImage:
                    if (words >= 9) {
                        Kind k = Kind::none;
                        if (w[3] == SpvDim1D) k = w[5] ? Kind::d1_array : Kind::d1;
                        else if (w[3] == SpvDimRect && !w[5]) k = Kind::rect;
                        if (k != Kind::none) images_[w[1]] = Image{k, w[7] == 2}, any = true;
                    }
                    break;
                case SpvOpTypePointer:
                    if (words >= 4) pointee_[w[1]] = w[3];
                    break;
                case SpvOpTypeSampledImage:
                    if (words >= 3) sampled_[w[1]] = w[2];
                    break;
                case SpvOpConstant:
                    if (words == 4) constants_.emplace(std::make_pair(w[1], w[3]), w[2]);
                    break;
                case SpvOpFunction:
                    if (!first_function) first_function = i;
                    break;
                default: break;
            }
            i += words;
        }
        if (!any || !first_function) return true;
        std::vector<uint32_t> head(spv_.begin(), spv_.begin() + long(first_function));
        for (size_t i = 5; i < head.size();) {
            const uint32_t words = head[i] >> 16, op = head[i] & 0xFFFF;
            if (op == SpvOpTypeImage && images_.count(head[i + 1])) head[i + 3] = SpvDim2D;
            i += words;
        }
        for (size_t i = first_function; i < spv_.size();) {
            const uint32_t words = spv_[i] >> 16;
            std::vector<uint32_t> inst(spv_.begin() + long(i), spv_.begin() + long(i + words));
            if (!lower(inst)) return false;
            body_.insert(body_.end(), inst.begin(), inst.end());
            i += words;
        }
        head.insert(head.end(), decls_.begin(), decls_.end());
        head.insert(head.end(), body_.begin(), body_.end());
        head[3] = bound_;
        spv_.swap(head);
        return true;
    }

private:
    uint32_t fresh() { return bound_++; }

    void emit(std::vector<uint32_t>& to, uint32_t op, std::initializer_list<uint32_t> operands) {
        to.push_back(uint32_t(operands.size() + 1) << 16 | op);
        to.insert(to.end(), operands);
    }
    void emit(std::vector<uint32_t>& to, uint32_t op, const std::vector<uint32_t>& operands) {
        to.push_back(uint32_t(operands.size() + 1) << 16 | op);
        to.insert(to.end(), operands.begin(), operands.end());
    }
    // A body instruction with a result type: its new id.
    uint32_t op(uint32_t opcode, uint32_t type, std::vector<uint32_t> args) {
        const uint32_t id = fresh();
        args.insert(args.begin(), {type, id});
        emit(body_, opcode, args);
        type_of_[id] = type;
        return id;
    }

    uint32_t float_type() {
        if (!float_) emit(decls_, SpvOpTypeFloat, {float_ = fresh(), 32});
        return float_;
    }
    uint32_t int_type() {
        if (!int_) emit(decls_, SpvOpTypeInt, {int_ = fresh(), 32, 1});
        return int_;
    }
    uint32_t vec(uint32_t comp, uint32_t n) {
        auto it = vectors_.find({comp, n});
        if (it != vectors_.end()) return it->second;
        const uint32_t id = fresh();
        emit(decls_, SpvOpTypeVector, {id, comp, n});
        vectors_.emplace(std::make_pair(comp, n), id);
        return id;
    }
    uint32_t constant(uint32_t type, uint32_t bits) {
        auto it = constants_.find({type, bits});
        if (it != constants_.end()) return it->second;
        const uint32_t id = fresh();
        emit(decls_, SpvOpConstant, {type, id, bits});
        constants_.emplace(std::make_pair(type, bits), id);
        type_of_[id] = type;
        return id;
    }
    uint32_t fconst(float f) {
        uint32_t bits;
        std::memcpy(&bits, &f, 4);
        return constant(float_type(), bits);
    }
    uint32_t izero() { return constant(int_type(), 0); }

    // Component i of a scalar or vector value.
    uint32_t component(uint32_t value, uint32_t i, uint32_t scalar_type) {
        const uint32_t t = type_of_[value];
        if (!is_vector(t)) return value;
        return op(SpvOpCompositeExtract, scalar_type, {value, i});
    }
    bool is_vector(uint32_t type) const {
        for (const auto& [k, id] : vectors_)
            if (id == type) return true;
        return false;
    }

    Kind kind_of_image(uint32_t image_value) {
        auto it = images_.find(type_of_[image_value]);
        return it == images_.end() ? Kind::none : it->second.kind;
    }
    uint32_t image_type_of_sampled(uint32_t sampled_value) {
        auto it = sampled_.find(type_of_[sampled_value]);
        return it == sampled_.end() ? 0 : it->second;
    }

    // The level-0 size of a rectangle texture as a vec2.
    uint32_t rect_size(uint32_t sampled_value) {
        const uint32_t image_type = image_type_of_sampled(sampled_value);
        const uint32_t img = op(SpvOpImage, image_type, {sampled_value});
        const uint32_t isz = op(SpvOpImageQuerySizeLod, vec(int_type(), 2), {img, izero()});
        return op(SpvOpConvertSToF, vec(float_type(), 2), {isz});
    }

    // The new coordinate for `kind`. proj: q follows the used components.
    uint32_t coordinate(Kind kind, uint32_t c, bool fetch, bool proj, uint32_t sampled_value, uint32_t& size) {
        const uint32_t ft = float_type(), it = int_type();
        if (kind == Kind::rect) {
            if (fetch) return c;
            if (!size) size = rect_size(sampled_value);
            const uint32_t v2 = vec(ft, 2);
            const uint32_t xy = type_of_[c] == v2 ? c : op(SpvOpVectorShuffle, v2, {c, c, 0, 1});
            const uint32_t n = op(SpvOpFDiv, v2, {xy, size});
            if (!proj) return n;
            return op(SpvOpCompositeConstruct, vec(ft, 3), {n, component(c, 2, ft)});
        }
        const uint32_t st = fetch ? it : ft;
        const uint32_t u = component(c, 0, st);
        const uint32_t row = fetch ? izero() : fconst(0.5f);
        if (kind == Kind::d1_array) return op(SpvOpCompositeConstruct, vec(st, 3), {u, row, component(c, 1, st)});
        if (proj) {
            const uint32_t q = component(c, 1, ft);
            // The row after the divide by q is 0.5.
            return op(SpvOpCompositeConstruct, vec(ft, 3), {u, op(SpvOpFMul, ft, {q, fconst(0.5f)}), q});
        }
        return op(SpvOpCompositeConstruct, vec(st, 2), {u, row});
    }

    // Image operands from word `at` on: gradients and offsets for the new dimension.
    void operands(Kind kind, std::vector<uint32_t>& inst, size_t at, uint32_t sampled_value, uint32_t& size) {
        if (at >= inst.size()) return;
        const uint32_t mask = inst[at];
        size_t w = at + 1;
        auto grad = [&](uint32_t d) -> uint32_t {
            if (kind == Kind::rect) {
                if (!size) size = rect_size(sampled_value);
                return op(SpvOpFDiv, vec(float_type(), 2), {d, size});
            }
            return op(SpvOpCompositeConstruct, vec(float_type(), 2), {d, fconst(0.0f)});
        };
        auto offset = [&](uint32_t o, bool constant) -> uint32_t {
            if (kind == Kind::rect) return o;
            const uint32_t v2 = vec(int_type(), 2);
            if (!constant) return op(SpvOpCompositeConstruct, v2, {o, izero()});
            const uint32_t zero = izero(), id = fresh();
            emit(decls_, SpvOpConstantComposite, {v2, id, o, zero});
            type_of_[id] = v2;
            return id;
        };
        for (uint32_t bit = 0; bit < 32 && w <= inst.size(); ++bit) {
            if (!(mask & (1u << bit))) continue;
            switch (1u << bit) {
                case SpvImageOperandsGradMask:
                    if (w + 1 < inst.size()) inst[w] = grad(inst[w]), inst[w + 1] = grad(inst[w + 1]);
                    w += 2;
                    break;
                case SpvImageOperandsConstOffsetMask:
                case SpvImageOperandsOffsetMask:
                    if (w < inst.size()) inst[w] = offset(inst[w], (1u << bit) == SpvImageOperandsConstOffsetMask);
                    w += 1;
                    break;
                case SpvImageOperandsNonPrivateTexelMask:
                case SpvImageOperandsVolatileTexelMask:
                case SpvImageOperandsSignExtendMask:
                case SpvImageOperandsZeroExtendMask:
                case SpvImageOperandsNontemporalMask:
                    break;
                default:
                    w += 1;  // Bias, Lod, ConstOffsets, Sample, MinLod, MakeTexel*, Offsets: one id
                    break;
            }
        }
    }

    bool lower(std::vector<uint32_t>& inst) {
        const uint32_t opcode = inst[0] & 0xFFFF;
        uint32_t size = 0;
        switch (opcode) {
            case SpvOpImageSampleImplicitLod:
            case SpvOpImageSampleExplicitLod:
            case SpvOpImageSampleProjImplicitLod:
            case SpvOpImageSampleProjExplicitLod:
            case SpvOpImageSampleDrefImplicitLod:
            case SpvOpImageSampleDrefExplicitLod:
            case SpvOpImageSampleProjDrefImplicitLod:
            case SpvOpImageSampleProjDrefExplicitLod:
            case SpvOpImageGather:
            case SpvOpImageDrefGather:
            case SpvOpImageFetch:
            case SpvOpImageQueryLod: {
                if (inst.size() < 5) return false;
                const bool fetch = opcode == SpvOpImageFetch;
                const uint32_t image_type = fetch ? type_of_[inst[3]] : image_type_of_sampled(inst[3]);
                auto found = images_.find(image_type);
                if (found == images_.end()) return true;
                Kind kind = found->second.kind;
                const bool proj = opcode >= SpvOpImageSampleProjImplicitLod && opcode <= SpvOpImageSampleProjDrefExplicitLod;
                // textureQueryLod takes no layer.
                if (opcode == SpvOpImageQueryLod && kind == Kind::d1_array) kind = Kind::d1;
                inst[4] = coordinate(kind, inst[4], fetch, proj, inst[3], size);
                if (opcode == SpvOpImageQueryLod) return true;
                const bool extra = opcode == SpvOpImageSampleDrefImplicitLod || opcode == SpvOpImageSampleDrefExplicitLod ||
                                   opcode == SpvOpImageSampleProjDrefImplicitLod ||
                                   opcode == SpvOpImageSampleProjDrefExplicitLod || opcode == SpvOpImageGather ||
                                   opcode == SpvOpImageDrefGather;
                operands(kind, inst, extra ? 6 : 5, inst[3], size);
                return true;
            }
            // Storage images take integer texel coordinates: a rectangle's
            // are a 2D image's as they are; a 1D one's gain row 0.
            case SpvOpImageRead:
            case SpvOpImageWrite:
            case SpvOpImageTexelPointer: {
                const size_t image_at = opcode == SpvOpImageWrite ? 1 : 3;
                if (inst.size() < image_at + 2) return false;
                uint32_t image_type = type_of_[inst[image_at]];
                if (opcode == SpvOpImageTexelPointer) image_type = pointee_[image_type];  // a pointer to the image
                auto found = images_.find(image_type);
                if (found == images_.end() || found->second.kind == Kind::rect) return true;
                inst[image_at + 1] = coordinate(found->second.kind, inst[image_at + 1], true, false, 0, size);
                return true;
            }
            case SpvOpImageQuerySizeLod:
            case SpvOpImageQuerySize: {
                if (inst.size() < 4) return false;
                const Kind kind = kind_of_image(inst[3]);
                if (kind == Kind::none) return true;
                const bool storage = images_[type_of_[inst[3]]].storage;
                if (kind == Kind::rect && storage) return true;  // a 2D image's size
                if (kind == Kind::rect) {
                    // The host's 2D texture has levels: level 0's size.
                    if (opcode == SpvOpImageQuerySize) inst = {5u << 16 | SpvOpImageQuerySizeLod, inst[1], inst[2], inst[3], izero()};
                    return true;
                }
                const uint32_t type = inst[1], result = inst[2], it = int_type();
                const uint32_t wide =
                    storage ? op(SpvOpImageQuerySize, vec(it, kind == Kind::d1 ? 2 : 3), {inst[3]})
                            : op(SpvOpImageQuerySizeLod, vec(it, kind == Kind::d1 ? 2 : 3),
                                 {inst[3], inst.size() > 4 ? inst[4] : izero()});
                if (kind == Kind::d1)
                    inst = {5u << 16 | SpvOpCompositeExtract, type, result, wide, 0};
                else
                    inst = {7u << 16 | SpvOpVectorShuffle, type, result, wide, wide, 0, 2};
                return true;
            }
            default: return true;
        }
    }

    std::vector<uint32_t>& spv_;
    uint32_t bound_ = 0;
    uint32_t float_ = 0, int_ = 0;
    std::unordered_map<uint32_t, uint32_t> type_of_;
    std::unordered_map<uint32_t, Image> images_;
    std::unordered_map<uint32_t, uint32_t> sampled_;
    std::unordered_map<uint32_t, uint32_t> pointee_;  // pointer type -> its pointee
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> vectors_;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> constants_;
    std::vector<uint32_t> decls_, body_;
};

}  // namespace

bool lower_desktop_textures(std::vector<uint32_t>& spirv) {
    std::vector<uint32_t> copy = spirv;
    Lowering l(copy);
    if (!l.run()) return false;
    spirv.swap(copy);
    return true;
}

}  // namespace mgl::gl
