#if defined(GL_ES) && defined(GL_FRAGMENT_PRECISION_HIGH)
#define HIGHP_OR_DEFAULT highp
#else
#define HIGHP_OR_DEFAULT
#endif
#if defined(GL_ES)
#define MEDIUMP_OR_DEFAULT mediump
#else
#define MEDIUMP_OR_DEFAULT
#endif
#ifdef GL_ES
precision mediump float;
#endif
uniform vec3 color1;
uniform vec3 color2;

varying vec2 uv;

void main()
{
    vec3 color = mix(color1, color2, uv.x * uv.y);
    gl_FragColor = vec4(color, 1.0);
}
