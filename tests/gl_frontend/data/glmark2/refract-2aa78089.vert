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
attribute vec3 position;
attribute vec3 normal;

uniform mat4 ModelViewProjectionMatrix;

varying vec3 Normal;

void main(void)
{
    Normal = normal;
    gl_Position = ModelViewProjectionMatrix * vec4(position, 1.0);
}
