// The front end's link-time rules: uniform initialisers (taken out of the
// ESSL, read back as values to set after link) and a stage made of several
// shader objects (linked as one; GL's link errors).
#include <doctest.h>

#include <cstring>
#include <regex>

#include "translate.h"
#include "uniform_init.h"

using namespace mgl::gl;

namespace {

ShaderInput input(Stage stage, const std::string& src) {
    ShaderInput in;
    in.stage = stage;
    in.sources = {src};
    return in;
}

}  // namespace

TEST_CASE("uniform initialisers leave the ESSL and come back as leaves to set") {
    const auto t = translate(input(Stage::fragment, R"(#version 120
struct S { int i; vec2 v[2]; };
uniform S s = S(3, vec2[2](vec2(1.0, 2.0), vec2(3.0, 4.0)));
uniform mat2 m = mat2(1.0, 2.0, 3.0, 4.0);
uniform bool b = true;
void main() { gl_FragColor = vec4(float(s.i) + s.v[1].y + m[1][0] + float(b)); }
)"), {});
    REQUIRE_MESSAGE(t->ok, t->log);
    CHECK_FALSE(std::regex_search(t->essl, std::regex(R"(uniform[^;]*=)")));  // ESSL refuses initialised uniforms
    const auto inits = uniform_initialisers(t->spirv);
    REQUIRE(inits.size() == 5);
    CHECK(inits[0].name == "s.i");
    CHECK(inits[0].kind == UniformInit::Kind::i32);
    CHECK(inits[0].words == std::vector<uint32_t>{3});
    CHECK(inits[2].name == "s.v[1]");
    float y;
    std::memcpy(&y, &inits[2].words[1], 4);
    CHECK(y == 4.0f);
    CHECK(inits[3].name == "m");
    CHECK(inits[3].columns == 2);
    CHECK(inits[3].rows == 2);
    CHECK(inits[4].kind == UniformInit::Kind::boolean);
    CHECK(inits[4].words == std::vector<uint32_t>{1});
}

TEST_CASE("a stage of several shader objects links as one, with GL's link errors") {
    const ShaderInput with_main = input(Stage::vertex, "float f(float x);\nvoid main() { gl_Position = vec4(f(1.0)); }\n");
    const ShaderInput with_f = input(Stage::vertex, "float f(float x) { return x * 2.0; }\n");
    const auto alone = translate(with_main, {});
    CHECK(alone->deferred);  // compiles; its stage is whole only with the other object
    const auto both = translate_stage({with_main, with_f}, {});
    CHECK_MESSAGE(both->ok, both->link_log);
    CHECK(both->essl.find("main") != std::string::npos);
    const auto missing = translate_stage({with_main}, {});
    CHECK_FALSE(missing->ok);
    CHECK_FALSE(missing->link_log.empty());
    const auto two_mains = translate_stage({with_main, with_f, input(Stage::vertex, "void main() {}\n")}, {});
    CHECK_FALSE(two_mains->ok);
    const auto differing = translate_stage({input(Stage::vertex, "float g = 1.0;\nvoid h() {}\n"),
                                            input(Stage::vertex, "float g = 2.0;\nvoid main() { gl_Position = vec4(g); }\n")},
                                           {});
    CHECK_FALSE(differing->ok);
    CHECK(differing->link_log.find("differing values") != std::string::npos);
    const auto same = translate_stage({input(Stage::vertex, "float g = 2.0;\nvoid h() {}\n"),
                                       input(Stage::vertex, "float g = 2.0;\nvoid main() { gl_Position = vec4(g); }\n")},
                                      {});
    CHECK_MESSAGE(same->ok, same->link_log);
}
