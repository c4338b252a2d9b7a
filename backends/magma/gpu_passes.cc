// Gpu: render passes (begin, end, the render pass cache) and occlusion queries.
#include "gpu.h"

#include <spdlog/spdlog.h>

#include <cstring>
#include <tuple>

namespace mgl::magma {

// ---- render passes ----------------------------------------------------------------

void Gpu::begin_pass(VkRenderPass pass, VkFramebuffer fb, uint32_t w, uint32_t h, const VkClearValue* clears,
                     uint32_t nclears) {
    end_pass();
    VkRenderPassBeginInfo bi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    bi.renderPass = pass;
    bi.framebuffer = fb;
    bi.renderArea = {{0, 0}, {w, h}};
    bi.clearValueCount = nclears;
    bi.pClearValues = clears;
    copy_run_ = false;
    // Each pass starts a command buffer of its own, so that a prologue can
    // later be inserted in front of it.
    Batch& b = batch();
    b.main = b.prologue = VK_NULL_HANDLE;
    vkCmdBeginRenderPass(main(), &bi, VK_SUBPASS_CONTENTS_INLINE);
    b.pass_at = b.order.size() - 1;
    ++pass_id_;
    in_pass_ = true;
    count_pass(fb);
}

void Gpu::end_pass() {
    if (!in_pass_) return;
    if (occ_open_) {
        const uint32_t slot = occ_->slots.back();
        vkCmdEndQuery(main(), query_pools_[slot / kQueriesPerPool], slot % kQueriesPerPool);
        occ_open_ = false;
    }
    vkCmdEndRenderPass(main());
    in_pass_ = false;
}

VkRenderPass Gpu::render_pass(const PassKey& key) {
    auto it = passes_.find(key);
    if (it != passes_.end()) return it->second;
    VkAttachmentDescription att[kMaxColorAttachments + 1]{};
    VkAttachmentReference colors[kMaxColorAttachments]{};
    VkAttachmentReference depth{};
    uint32_t n = 0, ncolor = 0;
    for (int i = 0; i < kMaxColorAttachments; ++i) {
        colors[i] = {VK_ATTACHMENT_UNUSED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
        if (key.color[i] == VK_FORMAT_UNDEFINED) continue;
        VkAttachmentDescription& a = att[n];
        a.format = key.color[i];
        a.samples = key.samples;
        a.loadOp = (key.clear_color >> i) & 1 ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
        a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        a.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
        a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
        a.initialLayout = a.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
        colors[i].attachment = n++;
        ncolor = uint32_t(i) + 1;
    }
    const bool has_depth = key.depth != VK_FORMAT_UNDEFINED;
    if (has_depth) {
        VkAttachmentDescription& a = att[n];
        a.format = key.depth;
        a.samples = key.samples;
        a.loadOp = key.clear_depth ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
        a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        a.stencilLoadOp = key.clear_stencil ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
        a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE;
        a.initialLayout = a.finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
        depth = {n++, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
    }
    VkSubpassDescription sub{};
    sub.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    sub.colorAttachmentCount = ncolor;
    sub.pColorAttachments = colors;
    sub.pDepthStencilAttachment = has_depth ? &depth : nullptr;
    // Everything before the pass is visible to it, and everything in it to
    // what follows: coarse, and correct for any mix of copies and passes.
    VkSubpassDependency deps[2]{};
    const VkAccessFlags all = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    deps[0] = {VK_SUBPASS_EXTERNAL, 0, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT,
               VK_ACCESS_MEMORY_WRITE_BIT, all, 0};
    deps[1] = {0, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
               VK_ACCESS_MEMORY_WRITE_BIT, all, 0};
    VkRenderPassCreateInfo ci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    ci.attachmentCount = n;
    ci.pAttachments = att;
    ci.subpassCount = 1;
    ci.pSubpasses = &sub;
    ci.dependencyCount = 2;
    ci.pDependencies = deps;
    VkRenderPass p = VK_NULL_HANDLE;
    check(vkCreateRenderPass(vk(), &ci, nullptr, &p), "vkCreateRenderPass");
    passes_[key] = p;
    return p;
}

// ---- occlusion queries ------------------------------------------------------------

uint32_t Gpu::new_query() {
    if (free_queries_.empty()) {
        VkQueryPoolCreateInfo ci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        ci.queryType = VK_QUERY_TYPE_OCCLUSION;
        ci.queryCount = kQueriesPerPool;
        VkQueryPool p = VK_NULL_HANDLE;
        if (!check(vkCreateQueryPool(vk(), &ci, nullptr, &p), "vkCreateQueryPool")) return ~0u;
        const uint32_t base = uint32_t(query_pools_.size()) * kQueriesPerPool;
        query_pools_.push_back(p);
        for (uint32_t i = kQueriesPerPool; i-- > 0;) free_queries_.push_back(base + i);
    }
    const uint32_t slot = free_queries_.back();
    free_queries_.pop_back();
    // A query must be reset before it begins, outside any pass: init runs before main.
    vkCmdResetQueryPool(init(), query_pools_[slot / kQueriesPerPool], slot % kQueriesPerPool, 1);
    return slot;
}

void Gpu::set_occlusion(OcclusionQuery* q) {
    if (occ_open_ && in_pass_) {
        const uint32_t slot = occ_->slots.back();
        vkCmdEndQuery(main(), query_pools_[slot / kQueriesPerPool], slot % kQueriesPerPool);
    }
    occ_open_ = false;
    occ_ = q;
}

void Gpu::occlusion_draw() {
    if (!occ_ || occ_open_ || !in_pass_) return;
    const uint32_t slot = new_query();
    if (slot == ~0u) return;
    occ_->slots.push_back(slot);
    vkCmdBeginQuery(main(), query_pools_[slot / kQueriesPerPool], slot % kQueriesPerPool,
                    occ_->precise ? VK_QUERY_CONTROL_PRECISE_BIT : 0);
    occ_open_ = true;
}

void Gpu::release_query(OcclusionQuery& q) {
    if (occ_ == &q) set_occlusion(nullptr);
    if (!q.slots.empty())
        defer([this, slots = std::move(q.slots)](VkDevice) {
            free_queries_.insert(free_queries_.end(), slots.begin(), slots.end());
        });
    q.slots.clear();
}

bool Gpu::wait_serial(uint64_t serial) {
    if (serial == batch().serial) submit(false);
    for (Batch& b : batches_)
        if (b.serial == serial && b.pending && &b != &batch()) return !hung_ && wait_fence(b.fence);
    return !lost_;
}

bool Gpu::query_result(const OcclusionQuery& q, bool wait, uint64_t& samples) {
    if (lost_) return false;
    if (busy(q.serial)) {
        if (!wait) {
            if (q.serial == batch().serial) submit(false);  // GL: polling must make progress
            if (busy(q.serial)) return false;
        } else if (!wait_serial(q.serial)) {
            return false;
        }
    }
    samples = 0;
    for (uint32_t slot : q.slots) {
        uint64_t v = 0;
        const VkResult r = vkGetQueryPoolResults(vk(), query_pools_[slot / kQueriesPerPool], slot % kQueriesPerPool, 1,
                                                 sizeof v, &v, sizeof v, VK_QUERY_RESULT_64_BIT);
        if (r == VK_NOT_READY) return false;  // cannot happen once its batch is done
        if (!check(r, "vkGetQueryPoolResults")) return false;
        samples += v;
    }
    return true;
}

}  // namespace mgl::magma
