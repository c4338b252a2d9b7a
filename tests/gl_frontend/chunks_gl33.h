// The four shaders of /work/shared/traces-gl/workloads/chunks-gl33.c,
// verbatim (the workload behind the chunks-gl33-1471 trace).
#pragma once

#define CAMERA_BLOCK                                   \
    "layout(std140) uniform Camera {\n"                \
    "  mat4 uView;\n"                                  \
    "  mat4 uProj;\n"                                  \
    "  vec4 uFog;      /* start, end, -, - */\n"       \
    "  vec4 uFogColor;\n"                              \
    "};\n"

static const char *chunk_vs =
    "#version 330 core\n"
    CAMERA_BLOCK
    "uniform vec3 uChunkOrigin;\n"
    "layout(location = 0) in vec3 aPos;\n"
    "layout(location = 1) in vec2 aUV;\n"
    "layout(location = 2) in vec4 aColor;\n"
    "out vec2 vUV;\n"
    "out vec4 vColor;\n"
    "out float vFog;\n"
    "void main() {\n"
    "  vec4 vp = uView * vec4(aPos + uChunkOrigin, 1.0);\n"
    "  gl_Position = uProj * vp;\n"
    "  vUV = aUV;\n"
    "  vColor = aColor;\n"
    "  vFog = clamp((-vp.z - uFog.x) / (uFog.y - uFog.x), 0.0, 1.0);\n"
    "}\n";

/* program 0: opaque/cutout terrain (alpha test, like leaves) */
static const char *chunk_fs0 =
    "#version 330 core\n"
    CAMERA_BLOCK
    "uniform sampler2D uAtlas;\n"
    "in vec2 vUV;\n"
    "in vec4 vColor;\n"
    "in float vFog;\n"
    "out vec4 oColor;\n"
    "void main() {\n"
    "  vec4 t = texture(uAtlas, vUV);\n"
    "  if (t.a < 0.5) discard;\n"
    "  vec3 c = t.rgb * vColor.rgb;\n"
    "  oColor = vec4(mix(c, uFogColor.rgb, vFog), 1.0);\n"
    "}\n";

/* program 1: a second terrain material (tinted, no alpha test, extra light term) */
static const char *chunk_fs1 =
    "#version 330 core\n"
    CAMERA_BLOCK
    "uniform sampler2D uAtlas;\n"
    "in vec2 vUV;\n"
    "in vec4 vColor;\n"
    "in float vFog;\n"
    "out vec4 oColor;\n"
    "void main() {\n"
    "  vec4 t = texture(uAtlas, vUV);\n"
    "  float l = 0.55 + 0.45 * vColor.r;\n"
    "  vec3 c = t.rgb * vec3(0.8, 0.9, 1.15) * l;\n"
    "  oColor = vec4(mix(c, uFogColor.rgb, vFog * vFog), 1.0);\n"
    "}\n";

static const char *entity_vs =
    "#version 330 core\n"
    CAMERA_BLOCK
    "uniform mat4 uModel;\n"
    "layout(location = 0) in vec3 aPos;\n"
    "layout(location = 1) in vec2 aUV;\n"
    "layout(location = 2) in float aShade;\n"
    "out vec2 vUV;\n"
    "out float vShade;\n"
    "out float vFog;\n"
    "void main() {\n"
    "  vec4 vp = uView * (uModel * vec4(aPos, 1.0));\n"
    "  gl_Position = uProj * vp;\n"
    "  vUV = aUV;\n"
    "  vShade = aShade;\n"
    "  vFog = clamp((-vp.z - uFog.x) / (uFog.y - uFog.x), 0.0, 1.0);\n"
    "}\n";

static const char *entity_fs =
    "#version 330 core\n"
    CAMERA_BLOCK
    "uniform sampler2D uTex;\n"
    "in vec2 vUV;\n"
    "in float vShade;\n"
    "in float vFog;\n"
    "out vec4 oColor;\n"
    "void main() {\n"
    "  vec3 c = texture(uTex, vUV).rgb * vShade;\n"
    "  oColor = vec4(mix(c, uFogColor.rgb, vFog), 1.0);\n"
    "}\n";
