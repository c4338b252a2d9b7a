// `mgl replay`: applies a capture's records to a backend in this process,
// headless, as a server session would (the same decoders and backends, no
// transport). Replies are produced and dropped; client-minted names are in
// the records, so they work as they did live. Values the capturing server
// chose (locations, block indices) are mapped to the replay backend's
// (remap.h), so a capture replays on another backend. Output and snapshots follow
// eglretrace: `Rendered N frames in S secs, average of F fps`, and
// DIR/<frame, 10 digits>.png (eglretrace numbers by call; a capture has no
// calls, so frames: frame k ends at the k-th swap, counting from 0).
#include "replay.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "frame_set.h"
#include "gen/encoder.h"
#include "gen/fingerprint.h"
#include "gen/opcodes.h"
#include "gen/replies.h"
#include "mgl/server/server.h"
#include "mgl/wire/capture/reader.h"
#include "mgl/wire/memory_link.h"
#include "mgl/wire/record.h"
#include "png_write.h"
#include "remap.h"

namespace mgl::tools {

namespace {

void usage() {
    std::puts(
        "usage: mgl replay FILE [--backend espryt|magma|null] [--benchmark] [--loop N]\n"
        "                  [--snapshot FRAMES --snapshot-dir DIR]\n"
        "\n"
        "Replays a capture headless on a backend of this process (default: the one the\n"
        "capture was made with) and prints 'Rendered N frames in S secs, average of F fps'.\n"
        "  --benchmark       no GL error reporting (as eglretrace --benchmark)\n"
        "  --loop N          replay the last frame N more times (as eglretrace --loop)\n"
        "  --snapshot LIST   frames to save (5, 10-20, 1,3,7-9, *): frame k ends at the\n"
        "                    k-th swap, from 0; DIR/<frame, 10 digits>.png, 8-bit RGB\n"
        "A capture made from another wire schema (fingerprint) is refused.");
}

// Replies are produced as live and dropped, except the one a snapshot reads.
class KeepLastReply final : public wire::ReplySink {
public:
    uint8_t* begin_reply(uint32_t bytes) override {
        reply.assign(bytes, 0);
        return reply.data();
    }
    void end_reply() override {}
    std::vector<uint8_t> reply;
};

struct Surface {
    uint32_t kind = 0;
    int32_t width = 0, height = 0;
};

class Replayer {
public:
    Replayer(std::unique_ptr<wire::Applier> a, bool report_errors) : applier_(std::move(a)) {
        applier_->set_memory_budget(wire::MemoryBudget::kDefaultBytes);
        if (report_errors)
            applier_->set_event_sink([](const wire::Event& e) {
                if (e.kind == wire::Event::Kind::gl_error)
                    std::fprintf(stderr, "warning: GL error 0x%04x in context %u (stream byte %llu)\n", e.gl_error,
                                 e.context, (unsigned long long)e.stream_offset);
            });
    }

    bool apply(std::span<const uint8_t> bytes) {
        if (bytes.empty()) return true;
        wire::DecodeResult r = applier_->apply(bytes, replies_, false);
        if (r.ok() && r.consumed == bytes.size()) return true;
        error_ = r.ok() ? "the decoder stopped early"
                        : std::string(wire::to_string(r.error.status)) + " at stream byte " +
                              std::to_string(r.error.stream_offset) + ": " + r.error.detail;
        return false;
    }

    // One of the applier's own records (a snapshot's read, the final finish).
    template <typename F>
    bool apply_own(F&& encode) {
        wire::MemoryLink link;
        gen::Encoder enc(&link);
        encode(enc);
        enc.flush();
        return apply(link.bytes());
    }

    bool snapshot(uint32_t surface, const Surface& s, const std::string& path, std::string* error) {
        const uint32_t bytes = uint32_t(s.width) * uint32_t(s.height) * 4;
        if (!apply_own([&](gen::Encoder& e) { e.mglReadSurface(surface, 0, 0, s.width, s.height, bytes); })) {
            *error = error_;
            return false;
        }
        std::vector<uint8_t> pixels(bytes);
        if (!gen::read_reply_mglReadSurface(replies_.reply, pixels.data(), bytes)) {
            *error = "the surface read gave no reply";
            return false;
        }
        return write_snapshot_png(path, pixels.data(), s.width, s.height, error);
    }

    const std::string& error() const { return error_; }
    // The return value of the last reply of opcode `op`; false when the last
    // reply was another's (or too short).
    bool last_returned(uint16_t op, uint64_t* value) const {
        const auto& r = replies_.reply;
        if (r.size() < 16 || wire::get<uint32_t>(r.data() + 4) != op) return false;
        *value = wire::get<uint64_t>(r.data() + 8);
        return true;
    }

private:
    std::unique_ptr<wire::Applier> applier_;
    KeepLastReply replies_;
    std::string error_;
};

struct Options {
    std::string file, backend, snapshot_dir;
    FrameSet snapshots;
    bool benchmark = false, have_snapshots = false;
    uint64_t loop = 0;
};

int parse(int argc, char** argv, Options* o) {
    for (int i = 0; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&]() -> const char* {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "mgl replay: %s needs a value\n", a.c_str());
                return nullptr;
            }
            return argv[++i];
        };
        const char* v = nullptr;
        if (a == "--help" || a == "-h") { usage(); return 0; }
        if (a == "--benchmark") o->benchmark = true;
        else if (a == "--backend") {
            if (!(v = value())) return 2;
            o->backend = v;
            if (o->backend != "espryt" && o->backend != "magma" && o->backend != "null") {
                std::fprintf(stderr, "mgl replay: unknown backend '%s' (espryt, magma or null)\n", v);
                return 2;
            }
        } else if (a == "--loop") {
            if (!(v = value())) return 2;
            char* end = nullptr;
            o->loop = std::strtoull(v, &end, 10);
            if (!*v || *end) { std::fprintf(stderr, "mgl replay: --loop wants a count, not '%s'\n", v); return 2; }
        } else if (a == "--snapshot") {
            if (!(v = value())) return 2;
            std::string error;
            if (!o->snapshots.parse(v, &error)) { std::fprintf(stderr, "mgl replay: --snapshot: %s\n", error.c_str()); return 2; }
            o->have_snapshots = true;
        } else if (a == "--snapshot-dir") {
            if (!(v = value())) return 2;
            o->snapshot_dir = v;
        } else if (!a.empty() && a[0] == '-') {
            std::fprintf(stderr, "mgl replay: unknown option %s\n", a.c_str());
            return 2;
        } else if (o->file.empty()) o->file = a;
        else { std::fprintf(stderr, "mgl replay: one capture file at a time\n"); return 2; }
    }
    if (o->file.empty()) { usage(); return 2; }
    if (o->have_snapshots != !o->snapshot_dir.empty()) {
        std::fprintf(stderr, "mgl replay: --snapshot and --snapshot-dir go together\n");
        return 2;
    }
    return -1;
}

}  // namespace

int replay_main(int argc, char** argv) {
    Options o;
    if (int rc = parse(argc, argv, &o); rc >= 0) return rc;
    if (o.have_snapshots) {
        std::error_code ec;
        std::filesystem::create_directories(o.snapshot_dir, ec);
    }
    wire::capture::Reader reader;
    if (!reader.open(o.file)) {
        std::fprintf(stderr, "mgl replay: %s\n", reader.error().c_str());
        return 1;
    }
    const auto appliers = server::builtin_server_options().appliers;
    {
        // As the client library does at eglInitialize (client/src/connection_env.cc):
        // a backend made and dropped before the clock loads the host driver (Mesa's
        // LLVM start-up), which eglretrace's time through the stack does not include.
        wire::capture::Reader peek;
        wire::capture::HeaderInfo first;
        std::string b = o.backend;
        if (b.empty() && peek.open(o.file) && peek.next_segment(&first)) b = first.backend;
        if (b == "espryt" || b == "magma" || b == "null") (void)appliers(b);
    }
    const auto start = std::chrono::steady_clock::now();
    auto end = start;  // after the last segment's finish, before its backend goes
    uint64_t frame = 0;
    wire::capture::HeaderInfo h;
    while (reader.next_segment(&h)) {
        if (h.wire_fingerprint != gen::kWireFingerprint) {
            // Opcodes are append-only but a verb's layout may change with its
            // schema entry; the fingerprint covers every layout, so any
            // difference may misread a record. Refused, not guessed.
            std::fprintf(stderr,
                         "mgl replay: %s was captured with wire fingerprint %016llx (%s); this mgl reads "
                         "%016llx: replay refused (records may be laid out differently)\n",
                         o.file.c_str(), (unsigned long long)h.wire_fingerprint, h.build_id.c_str(),
                         (unsigned long long)gen::kWireFingerprint);
            return 1;
        }
        const std::string backend = !o.backend.empty() ? o.backend : !h.backend.empty() ? h.backend : "espryt";
        std::unique_ptr<wire::Applier> applier = appliers(backend);
        if (!applier) {
            std::fprintf(stderr, "mgl replay: the %s backend is not available\n", backend.c_str());
            return 1;
        }
        Replayer rp(std::move(applier), !o.benchmark);
        ValueRemap remap;
        remap.start_segment(&reader.replies());
        std::vector<uint8_t> rewritten;
        std::map<uint32_t, Surface> surfaces;
        uint32_t current_context = 0;
        std::vector<uint8_t> frame_bytes, last_frame;  // for --loop
        std::span<const uint8_t> block;
        uint32_t count;
        auto fail = [&](const std::string& why) {
            std::fprintf(stderr, "mgl replay: %s: session %llu, frame %llu: %s\n", o.file.c_str(),
                         (unsigned long long)h.session, (unsigned long long)frame, why.c_str());
            return 1;
        };
        // Applies [run, end) then takes the swap's snapshot where asked.
        auto take_snapshot = [&](uint32_t surface) -> bool {
            auto it = surfaces.find(surface);
            if (it == surfaces.end() || it->second.width <= 0 || it->second.height <= 0) return true;
            char name[32];
            std::snprintf(name, sizeof name, "%010llu.png", (unsigned long long)frame);
            std::string error;
            if (!rp.snapshot(surface, it->second, o.snapshot_dir + "/" + name, &error)) {
                std::fprintf(stderr, "mgl replay: snapshot of frame %llu: %s\n", (unsigned long long)frame, error.c_str());
                return false;
            }
            return true;
        };
        while (reader.next_block(&block, &count)) {
            size_t run = 0;
            for (size_t off = 0; off < block.size();) {
                const uint8_t* r = block.data() + off;
                const uint32_t size = wire::get<uint32_t>(r + 4);
                const uint16_t op = wire::get<uint16_t>(r);
                off += size;
                // A query of a server-chosen value: applied alone, its answer read.
                if (remap.observe(r, size)) {
                    if (!rp.apply(block.subspan(run, off - run))) return fail(rp.error());
                    uint64_t value;
                    if (rp.last_returned(op, &value)) remap.returned(r, size, value);
                    if (o.loop) frame_bytes.insert(frame_bytes.end(), block.begin() + run, block.begin() + off);
                    run = off;
                    continue;
                }
                if (remap.rewrite(r, size, &rewritten)) {
                    const size_t at = off - size;
                    if (!rp.apply(block.subspan(run, at - run)) || !rp.apply(rewritten)) return fail(rp.error());
                    if (o.loop) {
                        frame_bytes.insert(frame_bytes.end(), block.begin() + run, block.begin() + at);
                        frame_bytes.insert(frame_bytes.end(), rewritten.begin(), rewritten.end());
                    }
                    run = off;
                    continue;
                }
                if (op == uint16_t(gen::Op::mglCreateSurface) && size >= 24)
                    surfaces[wire::get<uint32_t>(r + 8)] = {wire::get<uint32_t>(r + 12), wire::get<int32_t>(r + 16),
                                                            wire::get<int32_t>(r + 20)};
                else if (op == uint16_t(gen::Op::mglResizeSurface) && size >= 20) {
                    Surface& s = surfaces[wire::get<uint32_t>(r + 8)];
                    s.width = wire::get<int32_t>(r + 12);
                    s.height = wire::get<int32_t>(r + 16);
                } else if (op == uint16_t(gen::Op::mglMakeCurrent) && size >= 24)
                    current_context = wire::get<uint32_t>(r + 16);
                if (op != uint16_t(gen::Op::mglSwapBuffers) || size < 24) continue;
                // A swap: the frame ends here.
                const uint32_t surface = wire::get<uint32_t>(r + 16);
                const bool snap = o.have_snapshots && o.snapshots.contains(frame);
                // eglretrace reads the back buffer before the swap; our window
                // surfaces show the last swapped frame, so they are read after it.
                const bool window = surfaces[surface].kind == 0x3034;
                const size_t swap_at = off - size;
                if (!rp.apply(block.subspan(run, (snap && !window ? swap_at : off) - run))) return fail(rp.error());
                if (snap && !take_snapshot(surface)) return 1;
                if (snap && !window && !rp.apply(block.subspan(swap_at, size))) return fail(rp.error());
                if (o.loop) {
                    frame_bytes.insert(frame_bytes.end(), block.begin() + run, block.begin() + off);
                    last_frame.swap(frame_bytes);
                    frame_bytes.clear();
                }
                run = off;
                ++frame;
            }
            if (!rp.apply(block.subspan(run))) return fail(rp.error());
            if (o.loop) frame_bytes.insert(frame_bytes.end(), block.begin() + run, block.end());
        }
        if (!reader.error().empty()) break;
        if (remap.unanswered() && backend != h.backend)  // on the capturing backend the captured values hold
            std::fprintf(stderr,
                         "mgl replay: warning: session %llu: %llu queries of server-chosen values have no stored "
                         "reply (a capture made before replies were stored): their values go as captured\n",
                         (unsigned long long)h.session, (unsigned long long)remap.unanswered());
        if (remap.differing())
            std::fprintf(stderr,
                         "mgl replay: session %llu: captured on %s, replayed on %s: %llu of %llu queried values "
                         "differ, %llu records remapped\n",
                         (unsigned long long)h.session, h.backend.c_str(), backend.c_str(),
                         (unsigned long long)remap.differing(), (unsigned long long)remap.queries(),
                         (unsigned long long)remap.rewritten());
        for (uint64_t i = 0; i < o.loop && !last_frame.empty(); ++i, ++frame)
            if (!rp.apply(last_frame)) return fail(rp.error());
        // The time covers the GPU's work: finish while a context is current.
        if (current_context && !rp.apply_own([](gen::Encoder& e) { e.glFinish(); })) return fail(rp.error());
        end = std::chrono::steady_clock::now();
    }
    const double secs = std::chrono::duration<double>(end - start).count();
    if (!reader.error().empty()) {
        std::fprintf(stderr, "mgl replay: %s\n", reader.error().c_str());
        return 1;
    }
    std::printf("Rendered %llu frames in %g secs, average of %g fps\n", (unsigned long long)frame, secs,
                secs > 0 ? double(frame) / secs : 0.0);
    return 0;
}

}  // namespace mgl::tools
