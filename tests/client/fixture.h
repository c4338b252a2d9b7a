// A client context made current on a TestConnection (fake_server.h), for
// tests that call the generated GL entry points (mgl_gl*).
#pragma once

#include <doctest.h>

#include <memory>
#include <string>

#include "context.h"
#include "fake_server.h"
#include "gen/client_entry.h"
#include "gl_ctypes.h"

namespace mgl::test {

struct ClientFixture {
    std::unique_ptr<client::Context> ctx;
    TestConnection* conn = nullptr;

    explicit ClientFixture(int major = 3, int width = 400, int height = 300, uint32_t api = client::kApiES,
                           int minor = 0, uint32_t profile = 0, uint32_t flags = 0) {
        use_test_connections();
        std::string error;
        ctx = client::create_context(nullptr, api, major, minor, profile, flags, &error);
        REQUIRE_MESSAGE(ctx, error);
        conn = last_connection();
        client::make_current(ctx.get(), 0, 0, width, height);
    }
    ~ClientFixture() {
        client::make_current(nullptr, 0, 0, -1, -1);
        client::destroy_context(std::move(ctx));
    }
    // Publishes what was encoded and returns the stream position.
    size_t mark() {
        ctx->enc->flush();
        return conn->bytes().size();
    }
    // Publishes and decodes everything into the fake server.
    void sync() {
        ctx->enc->flush();
        REQUIRE_MESSAGE(conn->drain(), conn->error);
    }
    FakeServer& server() { return conn->server; }
};

}  // namespace mgl::test
