// The C types of the GL entry points, ABI-identical to the Khronos headers
// (GLintptr/GLsizeiptr are `long`, GLsync a pointer, ...). The GLES 3.2
// headers give most of them and every GL_* constant; the desktop and vendor
// typedefs that gl.xml uses and the GLES headers lack are added here.
// Prototypes are disabled: the client never calls the system's GL.
#pragma once

#ifndef GL_GLES_PROTOTYPES
#define GL_GLES_PROTOTYPES 0
#endif
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

// Desktop and vendor typedefs (same definitions as the Khronos glext.h).
typedef double GLdouble;
typedef double GLclampd;
typedef unsigned int GLhandleARB;
typedef char GLcharARB;
typedef unsigned short GLhalfNV;
typedef unsigned short GLhalfARB;
typedef khronos_intptr_t GLintptrARB;
typedef khronos_ssize_t GLsizeiptrARB;
typedef khronos_int64_t GLint64EXT;
typedef khronos_uint64_t GLuint64EXT;
typedef khronos_int32_t GLclampx;
typedef GLintptr GLvdpauSurfaceNV;
typedef void (*GLDEBUGPROCARB)(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                               const GLchar* message, const void* userParam);
typedef void (*GLDEBUGPROCAMD)(GLuint id, GLenum category, GLenum severity, GLsizei length, const GLchar* message,
                               void* userParam);
typedef void (*GLVULKANPROCNV)(void);
// Defined by gl2ext.h only when no other GL header claimed the extension first.
typedef void (*GLDEBUGPROCKHR)(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                               const GLchar* message, const void* userParam);
typedef void* GLeglImageOES;
typedef void* GLeglClientBufferEXT;
// OpenCL interop handles: declared here so that every declaration names the same struct.
struct _cl_context;
struct _cl_event;

static_assert(sizeof(GLintptr) == sizeof(long) && sizeof(GLsizeiptr) == sizeof(long), "GLintptr/GLsizeiptr are long");
static_assert(sizeof(GLsync) == sizeof(void*), "GLsync is a pointer");
