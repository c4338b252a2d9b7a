// desktop_colour_zero (colour_zero.h): which variable of a desktop fragment
// source GL's alpha test reads on a backend that finds it in the source.
#include <doctest.h>

#include "colour_zero.h"

using mgl::gl::desktop_colour_zero;

TEST_CASE("colour zero: the built-in outputs of GLSL 1.10-1.40") {
    CHECK(desktop_colour_zero("void main() { gl_FragColor = vec4(1.0); }") == "gl_FragColor");
    CHECK(desktop_colour_zero("void main() { gl_FragData[0] = vec4(1.0); gl_FragData[1] = vec4(0.0); }") ==
          "gl_FragData[0]");
    // A declaration or use in a comment is none.
    CHECK(desktop_colour_zero("// gl_FragColor = x;\nout vec4 c;\nvoid main() { c = vec4(1.0); }") == "c");
    CHECK(desktop_colour_zero("/* out vec4 old; */ out vec4 c;\nvoid main() { c = vec4(1.0); }") == "c");
}

TEST_CASE("colour zero: declared outputs") {
    CHECK(desktop_colour_zero("#version 330\nout vec4 colour;\nvoid main() { colour = vec4(1.0); }") == "colour");
    CHECK(desktop_colour_zero("#version 330\nlayout(location = 1) out vec4 b;\nlayout(location=0) out highp vec4 a;\n"
                              "void main() {}") == "a");
    CHECK(desktop_colour_zero("#version 330\nflat out vec4 c[2];\nvoid main() {}") == "c[0]");
    // Only at location 1: not colour 0.
    CHECK(desktop_colour_zero("#version 330\nlayout(location = 1) out vec4 b;\nvoid main() {}").empty());
    // Two unlocated outputs: which is colour 0 is the link's choice.
    CHECK(desktop_colour_zero("#version 330\nout vec4 a;\nout vec4 b;\nvoid main() {}").empty());
    // Integer colours are not alpha-tested.
    CHECK(desktop_colour_zero("#version 330\nout ivec4 i;\nvoid main() {}").empty());
    // A function's out parameter is no output of the stage.
    CHECK(desktop_colour_zero("#version 330\nvoid f(out vec4 x) { x = vec4(0.0); }\nout vec4 c;\nvoid main() {}") == "c");
}
