#if defined(GL_ES)
#define HIGHP_OR_DEFAULT highp
#else
#define HIGHP_OR_DEFAULT
#endif
#if defined(GL_ES)
#define MEDIUMP_OR_DEFAULT mediump
#else
#define MEDIUMP_OR_DEFAULT
#endif
attribute vec2 position;
attribute vec2 uvIn;

varying vec2 uv;

void main()
{
    uv = uvIn;
    gl_Position = vec4(position, 1.0, 1.0);
}
