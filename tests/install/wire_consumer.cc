// Built by install_test.sh against the installed libwire (pkg-config
// mobilegl-wire): encodes two records and decodes them into the null
// backend, as a program embedding the codec would.
#include <cstdio>

#include "gen/encoder.h"
#include "gen/null_backend.h"
#include "mgl/wire/decoder.h"
#include "mgl/wire/memory_link.h"

int main() {
    mgl::wire::MemoryLink link;
    mgl::gen::Encoder e(&link);
    e.glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
    e.glClear(0x4000 /* GL_COLOR_BUFFER_BIT */);
    e.flush();
    mgl::NullBackend backend;
    mgl::wire::VectorReplySink replies;
    mgl::wire::Dispatch d;
    d.backend = &backend;
    d.replies = &replies;
    const auto r = mgl::wire::decode_stream(link.bytes(), d);
    std::printf("wire_consumer: %zu bytes, %llu records, %s\n", link.bytes().size(),
                static_cast<unsigned long long>(d.records), mgl::wire::to_string(r.error.status));
    return r.ok() && d.records == 2 ? 0 : 1;
}
