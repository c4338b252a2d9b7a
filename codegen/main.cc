// mgl-codegen: reads protocol/*.fbs and writes every per-verb source of the
// project into one output folder of the build tree.
//
//   mgl-codegen --out DIR [--include DIR]... [--parts N] SCHEMA.fbs...
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "emit.h"
#include "enums.h"

int main(int argc, char** argv) {
    std::string outdir, enums_path;
    std::vector<std::string> includes, files;
    int parts = 4;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--out" && i + 1 < argc) outdir = argv[++i];
        else if (a == "--include" && i + 1 < argc) includes.push_back(argv[++i]);
        else if (a == "--enums" && i + 1 < argc) enums_path = argv[++i];
        else if (a == "--parts" && i + 1 < argc) parts = std::atoi(argv[++i]);
        else if (a == "--help") {
            std::puts("usage: mgl-codegen --out DIR [--include DIR]... [--enums TSV] [--parts N] SCHEMA.fbs...");
            return 0;
        } else if (!a.empty() && a[0] == '-') {
            std::fprintf(stderr, "mgl-codegen: unknown option %s\n", a.c_str());
            return 2;
        } else files.push_back(a);
    }
    if (outdir.empty() || files.empty() || parts < 1) {
        std::fprintf(stderr, "usage: mgl-codegen --out DIR [--include DIR]... [--enums TSV] [--parts N] SCHEMA.fbs...\n");
        return 2;
    }
    mglgen::Schema schema;
    std::string error;
    if (!mglgen::load_schema(files, includes, schema, error)) {
        std::fprintf(stderr, "mgl-codegen: %s\n", error.c_str());
        return 1;
    }
    mglgen::compute_layouts(schema);
    std::vector<mglgen::OutFile> out;
    mglgen::emit_types(schema, out);
    mglgen::emit_api(schema, out);
    mglgen::emit_backend(schema, out);
    mglgen::emit_encoder(schema, out);
    mglgen::emit_decoder(schema, parts, out);
    mglgen::emit_dumper(schema, out);
    mglgen::emit_tests(schema, parts, out);
    mglgen::emit_reference(schema, out);
    mglgen::emit_espryt(schema, out);
    mglgen::emit_client(schema, parts, out);
    mglgen::emit_values(schema, out);
    std::vector<mglgen::EnumEntry> enums;
    if (!enums_path.empty() && !mglgen::load_enums(enums_path, enums, error)) {
        std::fprintf(stderr, "mgl-codegen: %s\n", error.c_str());
        return 1;
    }
    mglgen::emit_enums(enums, out);
    for (const auto& f : out) {
        std::string path = outdir + "/" + f.name;
        std::ofstream os(path, std::ios::binary | std::ios::trunc);
        os << f.text;
        if (!os) {
            std::fprintf(stderr, "mgl-codegen: cannot write %s\n", path.c_str());
            return 1;
        }
    }
    return 0;
}
