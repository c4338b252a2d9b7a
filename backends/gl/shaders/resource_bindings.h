// Desktop GL sets an image uniform's unit with glUniform1i and a storage
// block's binding with glShaderStorageBlockBinding after the link (the
// layout binding is only the initial value, 0 when none is written); GLES
// fixes both at link and has neither call. A backend on GLES routes the
// application's units to the host's around each draw and dispatch, which
// needs every image and storage block of a program at a host binding of its
// own: those the source left without one get distinct bindings here, at
// link, where all the program's stages are known (one name in two stages is
// one resource and gets one binding).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "translation.h"

namespace mgl::gl {

struct ResourceBindings {
    std::map<std::string, int> images;          // image variable name -> its (first) host unit
    std::map<std::string, int> storage_blocks;  // storage block name -> its (first) host binding
    bool empty() const { return images.empty() && storage_blocks.empty(); }
};

// Host bindings for the images and storage blocks of `stages` (a program's
// translations) that have none in the source: the lowest free ranges, after
// every binding the sources wrote.
ResourceBindings assign_resource_bindings(const std::vector<const Translation*>& stages);

}  // namespace mgl::gl
