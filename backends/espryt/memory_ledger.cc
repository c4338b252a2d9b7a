#include "memory_ledger.h"

#include "names.h"

namespace mgl::espryt {

MemoryLedger::~MemoryLedger() {
    if (!budget_) return;
    for (auto& [k, parts] : held_)
        for (auto& [p, bytes] : parts) budget_->add_objects(-int64_t(bytes));
}

bool MemoryLedger::charge(wire::MemoryBudget* budget, const char* verb, Kind k, uint32_t host, uint32_t part,
                          uint64_t bytes) {
    if (!budget) return true;
    budget_ = budget;
    auto& parts = held_[key(k, host)];
    auto it = parts.find(part);
    const uint64_t old = it == parts.end() ? 0 : it->second;
    if (!budget->fits(verb, bytes, old)) return false;
    budget->add_objects(int64_t(bytes) - int64_t(old));
    if (bytes) parts[part] = bytes;
    else if (it != parts.end()) parts.erase(it);
    return true;
}

void MemoryLedger::release(Kind k, uint32_t host) {
    auto it = held_.find(key(k, host));
    if (it == held_.end()) return;
    if (budget_)
        for (auto& [p, bytes] : it->second) budget_->add_objects(-int64_t(bytes));
    held_.erase(it);
}

void MemoryLedger::move(Kind k, uint32_t from, uint32_t to) {
    auto it = held_.find(key(k, from));
    if (it == held_.end()) return;
    auto parts = std::move(it->second);
    held_.erase(it);
    held_[key(k, to)] = std::move(parts);
}

}  // namespace mgl::espryt
