// How a host EGL driver pays for threads: the first eglMakeCurrent on a new
// thread, a thread warmed by a throwaway context (destroyed, kept,
// surfaceless), and two threads' first ones at once. Behind docs/PERFORMANCE.md 4k
// (server/src/session_threads.h). Not built by meson (a one-off probe):
//   cc -O2 -o egl-thread-probe tools/bench/frames/egl_thread_probe.c -lEGL -lGLESv2 -lpthread
#define _GNU_SOURCE
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e3+t.tv_nsec/1e6;}
static EGLDisplay dpy; static EGLConfig cfg;
static EGLContext mk(void){const EGLint a[]={EGL_CONTEXT_MAJOR_VERSION,3,EGL_CONTEXT_MINOR_VERSION,2,EGL_NONE};return eglCreateContext(dpy,cfg,EGL_NO_CONTEXT,a);}
static EGLSurface pbuf(void){const EGLint pa[]={EGL_WIDTH,16,EGL_HEIGHT,16,EGL_NONE};return eglCreatePbufferSurface(dpy,cfg,pa);}
static double cur(EGLContext c,EGLSurface s){double t=now();eglMakeCurrent(dpy,s,s,c);double r=now()-t;glClear(GL_COLOR_BUFFER_BIT);glFinish();eglMakeCurrent(dpy,EGL_NO_SURFACE,EGL_NO_SURFACE,EGL_NO_CONTEXT);return r;}
static void* warm_destroy(void*p){EGLContext x=mk();EGLSurface s=pbuf();double w=cur(x,s);eglDestroySurface(dpy,s);eglDestroyContext(dpy,x);
 EGLContext y=mk();EGLSurface s2=pbuf();double r=cur(y,s2);printf("warm (ctx destroyed) %.2f, then new ctx on same thread %.2f ms\n",w,r);return 0;}
static void* warm_keep(void*p){EGLContext x=mk();EGLSurface s=pbuf();double w=cur(x,s);
 EGLContext y=mk();EGLSurface s2=pbuf();double r=cur(y,s2);printf("warm (ctx kept) %.2f, then new ctx on same thread %.2f ms\n",w,r);return 0;}
static void* warm_nosurf(void*p){EGLContext x=mk();double t=now();eglMakeCurrent(dpy,EGL_NO_SURFACE,EGL_NO_SURFACE,x);double w=now()-t;eglMakeCurrent(dpy,EGL_NO_SURFACE,EGL_NO_SURFACE,EGL_NO_CONTEXT);eglDestroyContext(dpy,x);
 EGLContext y=mk();EGLSurface s2=pbuf();double r=cur(y,s2);printf("warm surfaceless (destroyed) %.2f, then new ctx %.2f ms\n",w,r);return 0;}
static void* sleepy(void*p){struct timespec ts={0,200000000};nanosleep(&ts,0);EGLContext y=mk();EGLSurface s2=pbuf();double r=cur(y,s2);printf("%s: new ctx %.2f ms\n",(char*)p,r);return 0;}
static void* plain(void*p){EGLContext y=mk();EGLSurface s2=pbuf();double r=cur(y,s2);printf("%s: first current %.2f ms\n",(char*)p,r);return 0;}
static void run(void*(*f)(void*),void*a){pthread_t t;pthread_create(&t,0,f,a);pthread_join(t,0);}
int main(void){
 PFNEGLGETPLATFORMDISPLAYEXTPROC gpd=(PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
 dpy=gpd?gpd(0x31DD,EGL_DEFAULT_DISPLAY,0):EGL_NO_DISPLAY; if(dpy==EGL_NO_DISPLAY)dpy=eglGetDisplay(EGL_DEFAULT_DISPLAY);
 eglInitialize(dpy,0,0);eglBindAPI(EGL_OPENGL_ES_API);
 const EGLint ca[]={EGL_SURFACE_TYPE,EGL_PBUFFER_BIT,EGL_RENDERABLE_TYPE,EGL_OPENGL_ES3_BIT,EGL_RED_SIZE,8,EGL_NONE};EGLint n=0;eglChooseConfig(dpy,ca,&cfg,1,&n);
 run(plain,"thread A (first GL thread)");
 run(plain,"thread B");
 run(warm_destroy,0); run(warm_keep,0); run(warm_nosurf,0);
 /* two threads first-current at once: serialized? */
 pthread_t t1,t2; double t=now(); pthread_create(&t1,0,plain,"concurrent 1");pthread_create(&t2,0,plain,"concurrent 2");pthread_join(t1,0);pthread_join(t2,0);printf("both done in %.2f ms\n",now()-t);
 return 0;}
