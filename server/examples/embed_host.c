/* A host application embedding the MobileGL server: it serves clients of its
 * own process (inproc) and clients of other processes over shared memory,
 * until it is interrupted.
 *
 *   embed_host [SOCKET_PATH]
 *
 * then, in another shell: MOBILEGL_TRANSPORT=shm:SOCKET_PATH some-gl-program
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mobilegl/server.h"

static volatile sig_atomic_t stop_requested = 0;

static void on_signal(int sig) {
    (void)sig;
    stop_requested = 1;
}

int main(int argc, char** argv) {
    const char* socket_path = argc > 1 ? argv[1] : NULL; /* NULL: the default path */

    mgl_server* server = mgl_server_create(NULL, NULL);
    if (!server) {
        fprintf(stderr, "embed_host: cannot create the server\n");
        return 1;
    }

    /* Clients in this process connect to this endpoint (it is also the
     * process default for MOBILEGL_TRANSPORT=inproc). */
    mgl_inproc_endpoint* inproc = mgl_server_serve_inproc(server);
    if (!inproc) {
        fprintf(stderr, "embed_host: cannot serve inproc clients\n");
        mgl_server_destroy(server);
        return 1;
    }

    if (mgl_server_serve_shm(server, socket_path) != 0) {
        fprintf(stderr, "embed_host: cannot serve shm clients: %s\n", mgl_server_last_error(server));
        mgl_server_destroy(server);
        return 1;
    }

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    printf("embed_host: serving inproc and shm clients; Ctrl-C stops\n");
    fflush(stdout);
    while (!stop_requested) {
        sleep(1);
    }
    printf("embed_host: stopping (%u sessions open)\n", mgl_server_session_count(server));
    mgl_server_stop(server);
    mgl_server_destroy(server);
    return 0;
}
