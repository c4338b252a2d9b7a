// Linked into libEGL_mobilegl_test.so: the vendor library with its sessions
// going to a FakeServer (fake_server.h) instead of MOBILEGL_TRANSPORT, plus
// a few exported functions for the test program to look at the stream.
#include <cstddef>
#include <cstdint>

#include "fake_server.h"

namespace {
struct Install {
    Install() { mgl::test::use_test_connections(); }
} g_install;
}  // namespace

extern "C" {

// Records of opcode `op` in the last session's stream; -1 without a session.
__attribute__((visibility("default"))) int mgl_test_count_op(uint16_t op) {
    mgl::test::TestConnection* c = mgl::test::last_connection();
    if (!c) return -1;
    int n = 0;
    for (uint16_t o : c->ops_since(0)) n += o == op;
    return n;
}

// Decodes the last session's stream into its fake server; 0 when clean.
__attribute__((visibility("default"))) int mgl_test_drain() {
    mgl::test::TestConnection* c = mgl::test::last_connection();
    return c && c->drain() ? 0 : 1;
}

}  // extern "C"
