// `mgl dump`: a capture as text, one record a line, through the generated
// dumper (build/protocol/gen/dumper.cc); frame boundaries at each swap.
// `--stats` prints per frame the records, bytes, blocking waits (records
// whose verb waits for a reply) and a verb histogram, then checks the totals
// against the summary the capturing server wrote.
#include "dump.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <regex>
#include <string>

#include "frame_set.h"
#include "gen/opcodes.h"
#include "mgl/wire/capture/reader.h"
#include "mgl/wire/dump_support.h"
#include "mgl/wire/record.h"

namespace mgl::tools {

namespace {

void usage() {
    std::puts(
        "usage: mgl dump FILE [--frames LIST] [--grep REGEX] [--stats]\n"
        "\n"
        "Prints a capture (mgl capture, mgl server --capture-dir) one record a line with\n"
        "the generated dumper, '# frame N ends' after each swap (frame k ends at the k-th\n"
        "swap, from 0).\n"
        "  --frames LIST   only these frames: 5, 10-20, 1,3,7-9\n"
        "  --grep REGEX    only records whose verb name matches (e.g. '^glDraw')\n"
        "  --stats         per frame: records, bytes, blocking waits, verb histogram");
}

struct FrameStats {
    uint64_t records = 0, bytes = 0, blocking = 0;
    std::map<std::string, uint64_t> verbs;
};

void print_stats(uint64_t frame, const FrameStats& s, bool ended) {
    std::printf("frame %llu%s: %llu records, %llu bytes, %llu blocking:", (unsigned long long)frame,
                ended ? "" : " (no swap)", (unsigned long long)s.records, (unsigned long long)s.bytes,
                (unsigned long long)s.blocking);
    for (auto& [verb, n] : s.verbs) std::printf(" %s=%llu", verb.c_str(), (unsigned long long)n);
    std::printf("\n");
}

}  // namespace

int dump_main(int argc, char** argv) {
    std::string file, grep;
    FrameSet frames;
    bool stats = false, have_frames = false;
    for (int i = 0; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&](const char* name) -> const char* {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "mgl dump: %s needs a value\n", name);
                return nullptr;
            }
            return argv[++i];
        };
        if (a == "--help" || a == "-h") { usage(); return 0; }
        if (a == "--stats") stats = true;
        else if (a == "--grep") {
            const char* v = value("--grep");
            if (!v) return 2;
            grep = v;
        } else if (a == "--frames") {
            const char* v = value("--frames");
            std::string error;
            if (!v) return 2;
            if (!frames.parse(v, &error)) {
                std::fprintf(stderr, "mgl dump: --frames: %s\n", error.c_str());
                return 2;
            }
            have_frames = true;
        } else if (!a.empty() && a[0] == '-') {
            std::fprintf(stderr, "mgl dump: unknown option %s\n", a.c_str());
            return 2;
        } else if (file.empty()) file = a;
        else { std::fprintf(stderr, "mgl dump: one capture file at a time\n"); return 2; }
    }
    if (file.empty()) { usage(); return 2; }
    std::regex verb_re;
    try {
        if (!grep.empty()) verb_re = std::regex(grep, std::regex::extended);
    } catch (const std::regex_error& e) {
        std::fprintf(stderr, "mgl dump: --grep '%s': %s\n", grep.c_str(), e.what());
        return 2;
    }

    wire::capture::Reader reader;
    if (!reader.open(file)) {
        std::fprintf(stderr, "mgl dump: %s\n", reader.error().c_str());
        return 1;
    }
    wire::capture::HeaderInfo h;
    uint64_t frame = 0, total_records = 0, total_bytes = 0, total_blocking = 0, sessions = 0;
    bool mismatch = false;
    std::string line;
    while (reader.next_segment(&h)) {
        ++sessions;
        std::printf("# session %llu of pid %u (%s): backend %s, wire fingerprint %016llx, %s\n",
                    (unsigned long long)h.session, h.pid, h.program.c_str(), h.backend.c_str(),
                    (unsigned long long)h.wire_fingerprint, h.build_id.c_str());
        FrameStats fs;
        bool frame_open = false;
        uint64_t seg_records = 0, seg_bytes = 0, seg_blocking = 0, seg_frames = 0;
        std::span<const uint8_t> block;
        uint32_t count;
        while (reader.next_block(&block, &count)) {
            for (size_t off = 0; off < block.size();) {
                const uint8_t* r = block.data() + off;
                const uint32_t size = wire::get<uint32_t>(r + 4);
                off += size;
                const uint16_t op = wire::get<uint16_t>(r);
                const gen::VerbInfo* v = gen::verb_info(op);
                const bool blocking = v && v->replies;
                const bool swap = op == uint16_t(gen::Op::mglSwapBuffers);
                ++seg_records;
                seg_bytes += size;
                seg_blocking += blocking;
                const bool shown = (!have_frames || frames.contains(frame)) &&
                                   (grep.empty() || std::regex_search(gen::verb_name(op), verb_re));
                if (shown) {
                    frame_open = true;
                    if (stats) {
                        ++fs.records;
                        fs.bytes += size;
                        fs.blocking += blocking;
                        ++fs.verbs[gen::verb_name(op)];
                    } else {
                        line.clear();
                        gen::dump_record(r, size, line);
                        std::printf("%s\n", line.c_str());
                    }
                }
                if (swap) {
                    ++seg_frames;
                    if (!have_frames || frames.contains(frame)) {
                        if (stats) print_stats(frame, fs, true);
                        else std::printf("# frame %llu ends\n", (unsigned long long)frame);
                    }
                    fs = {};
                    frame_open = false;
                    ++frame;
                }
            }
        }
        if (!reader.error().empty()) break;
        if (stats && frame_open) print_stats(frame, fs, false);
        const wire::capture::SummaryInfo& s = reader.summary();
        if (s.records != seg_records || s.record_bytes != seg_bytes || s.frames != seg_frames ||
            s.blocking != seg_blocking) {
            std::fprintf(stderr,
                         "mgl dump: %s: session %llu holds %llu records, %llu bytes, %llu frames, %llu blocking; "
                         "its summary says %llu, %llu, %llu, %llu\n",
                         file.c_str(), (unsigned long long)h.session, (unsigned long long)seg_records,
                         (unsigned long long)seg_bytes, (unsigned long long)seg_frames,
                         (unsigned long long)seg_blocking, (unsigned long long)s.records,
                         (unsigned long long)s.record_bytes, (unsigned long long)s.frames,
                         (unsigned long long)s.blocking);
            mismatch = true;
        }
        if (!s.ended.empty()) std::printf("# session %llu ended: %s\n", (unsigned long long)h.session, s.ended.c_str());
        if (s.replies)
            std::printf("# session %llu: %llu stored replies (server-chosen values, for a replay on another backend)\n",
                        (unsigned long long)h.session, (unsigned long long)s.replies);
        total_records += seg_records;
        total_bytes += seg_bytes;
        total_blocking += seg_blocking;
    }
    if (!reader.error().empty()) {
        std::fflush(stdout);
        std::fprintf(stderr, "mgl dump: %s\n", reader.error().c_str());
        return 1;
    }
    if (stats)
        std::printf("total: %llu sessions, %llu frames, %llu records, %llu bytes, %llu blocking\n",
                    (unsigned long long)sessions, (unsigned long long)frame, (unsigned long long)total_records,
                    (unsigned long long)total_bytes, (unsigned long long)total_blocking);
    return mismatch ? 1 : 0;
}

}  // namespace mgl::tools
