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

    explicit ClientFixture(int major = 3, int width = 400, int height = 300) {
        use_test_connections();
        std::string error;
        ctx = client::create_context(nullptr, major, 0, 0, &error);
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
