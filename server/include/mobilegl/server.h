/* MobileGL server: embedding C API.
 *
 * A host application creates a server, serves in-process clients and/or shm
 * clients on a unix socket, and stops it. Thread-safe except that
 * mgl_server_destroy must be the last call on a server.
 */
#ifndef MOBILEGL_SERVER_H
#define MOBILEGL_SERVER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mgl_server mgl_server;
/* What a client in the same process connects to (owned by the server). */
typedef struct mgl_inproc_endpoint mgl_inproc_endpoint;

/* backend: "espryt", "magma", "null"... (NULL: the build's default).
 * token: required from tcp clients on non-loopback listeners and checked on
 * every socket client when set (NULL: none). Returns NULL on failure. */
mgl_server* mgl_server_create(const char* backend, const char* token);

/* Serves clients of this process. The endpoint also becomes the process
 * default, so MOBILEGL_TRANSPORT=inproc clients find it. NULL on failure. */
mgl_inproc_endpoint* mgl_server_serve_inproc(mgl_server* server);

/* Serves shm clients on a unix socket (NULL: the default path). 0 on success. */
int mgl_server_serve_shm(mgl_server* server, const char* socket_path);

/* Serves "unix:/path" or "tcp://host:port". 0 on success. */
int mgl_server_listen(mgl_server* server, const char* address);

/* What one session may hold in server memory, in bytes: the record it is
 * reassembling, its replies, and its backend's buffers and textures. A
 * session that asks for more ends with a fault ("session memory budget of N
 * bytes exceeded by ..."); the others go on. Applies to sessions that start
 * after the call. 0: the default, 512 MiB. 0 on success. */
int mgl_server_set_session_memory(mgl_server* server, unsigned long long bytes);

unsigned mgl_server_session_count(const mgl_server* server);

/* The last error of a call on this server ("" if none). */
const char* mgl_server_last_error(const mgl_server* server);

/* Ends every session and stops listening. The server can be destroyed after. */
void mgl_server_stop(mgl_server* server);

void mgl_server_destroy(mgl_server* server);

#ifdef __cplusplus
}
#endif

#endif
