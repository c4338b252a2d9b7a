// The bytes of one shader cache entry: a checked header (magic, translator
// version, payload size, checksum), the full key it answers (compared on
// load: a hash collision can never hand one shader's ESSL to another), and
// the Translation. Reading is bounds-checked throughout: a truncated,
// corrupt or foreign file is refused, never trusted.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "translation.h"

namespace mgl::gl {

uint64_t fnv1a64(const void* data, size_t size, uint64_t seed = 0xcbf29ce484222325ull);

std::string encode_entry(const std::string& key, const Translation& t);

// nullptr when `bytes` is not a whole, intact entry for `key`.
std::shared_ptr<Translation> decode_entry(const std::string& bytes, const std::string& key);

}  // namespace mgl::gl
