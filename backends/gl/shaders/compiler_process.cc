#include "compiler_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include <spdlog/spdlog.h>

#include "byte_fields.h"
#include "cache_format.h"
#include "glsl_lift.h"
#include "translate.h"

namespace mgl::gl {

namespace {

// More sources than any program has; a bad count must not allocate.
constexpr uint32_t kMaxSources = 1u << 16;
// Workers kept alive between compiles (more run at once when more
// sessions compile at once; the extra ones end after their compile).
constexpr size_t kIdleWorkers = 4;

bool isolation_wanted() {
    const char* v = std::getenv("MOBILEGL_SHADER_ISOLATION");
    return !(v && std::string(v) == "0");
}

// ---- messages: u64 length, then the bytes ----

bool write_all(int fd, const char* p, size_t n) {
    while (n) {
        const ssize_t w = ::send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w;
        n -= size_t(w);
    }
    return true;
}

bool write_message(int fd, const std::string& bytes) {
    const uint64_t n = bytes.size();
    return write_all(fd, reinterpret_cast<const char*>(&n), 8) && write_all(fd, bytes.data(), bytes.size());
}

// Reads n bytes; until `deadline` (none when it is the epoch).
bool read_all(int fd, char* p, size_t n, std::chrono::steady_clock::time_point deadline) {
    const bool timed = deadline.time_since_epoch().count() != 0;
    while (n) {
        if (timed) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) return false;
            pollfd pfd{fd, POLLIN, 0};
            const int r = ::poll(&pfd, 1, int(left.count()));
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) return false;
        }
        const ssize_t got = ::recv(fd, p, n, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        p += got;
        n -= size_t(got);
    }
    return true;
}

bool read_message(int fd, std::string& bytes, std::chrono::steady_clock::time_point deadline = {}) {
    uint64_t n = 0;
    if (!read_all(fd, reinterpret_cast<char*>(&n), 8, deadline) || n > 4 * kMaxField) return false;
    bytes.resize(size_t(n));
    return read_all(fd, bytes.data(), bytes.size(), deadline);
}

// ---- the worker and the compiler's parent (both in forked children) ----

[[noreturn]] void worker_main(int fd) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    ::signal(SIGALRM, SIG_DFL);
    for (;;) {
        std::string request;
        if (!read_message(fd, request) || request.size() < 8) ::_exit(0);
        CompilerTask task;
        std::memcpy(&task, request.data(), sizeof task);
        ::alarm(kCompileSeconds);
        const std::string reply = task(request.substr(8));
        ::alarm(0);
        if (!write_message(fd, reply)) ::_exit(0);
    }
}

int receive_fd(int control) {
    char byte;
    iovec io{&byte, 1};
    alignas(cmsghdr) char space[CMSG_SPACE(sizeof(int))];
    msghdr msg{};
    msg.msg_iov = &io;
    msg.msg_iovlen = 1;
    msg.msg_control = space;
    msg.msg_controllen = sizeof space;
    ssize_t r;
    do r = ::recvmsg(control, &msg, MSG_CMSG_CLOEXEC);
    while (r < 0 && errno == EINTR);
    if (r <= 0) return -1;
    for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
            int fd;
            std::memcpy(&fd, CMSG_DATA(c), sizeof fd);
            return fd;
        }
    return -2;  // a message without a socket: ignored
}

bool send_fd(int control, int fd) {
    char byte = 'w';
    iovec io{&byte, 1};
    alignas(cmsghdr) char space[CMSG_SPACE(sizeof(int))] = {};
    msghdr msg{};
    msg.msg_iov = &io;
    msg.msg_iovlen = 1;
    msg.msg_control = space;
    msg.msg_controllen = sizeof space;
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(c), &fd, sizeof fd);
    ssize_t r;
    do r = ::sendmsg(control, &msg, MSG_NOSIGNAL);
    while (r < 0 && errno == EINTR);
    return r == 1;
}

// The server's descriptors (listeners, session sockets, shared memory, the
// GPU) must not live on in the children: a client's socket held open here
// would hide its peer's death from the server. stderr stays (sanitizer
// reports); stdin and stdout become /dev/null, so that nothing waiting for
// the server's output to end waits for a child.
void close_inherited_fds(int keep) {
    const int null = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null >= 0) {
        ::dup2(null, 0);
        ::dup2(null, 1);
    }
    if (keep > 3) ::close_range(3, unsigned(keep) - 1, 0);
    ::close_range(unsigned(keep) + 1, ~0u, 0);
}

[[noreturn]] void compiler_parent_main(int control, pid_t server) {
    // Ends with the server (a crash included), and its workers with it.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != server) ::_exit(0);
    close_inherited_fds(control);
    struct sigaction reap{};
    reap.sa_handler = SIG_IGN;
    reap.sa_flags = SA_NOCLDWAIT;  // workers that end are reaped by the kernel
    ::sigaction(SIGCHLD, &reap, nullptr);
    for (int s : {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2}) ::signal(s, SIG_DFL);
    ::signal(SIGPIPE, SIG_IGN);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    for (;;) {
        const int fd = receive_fd(control);
        if (fd == -1) ::_exit(0);  // the server closed its end (or ended)
        if (fd < 0) continue;
        const pid_t worker = ::fork();
        if (worker == 0) {
            ::close(control);
            worker_main(fd);
        }
        ::close(fd);  // fork failed: the server sees its socket closed
    }
}

// The server's side: the compiler's parent and the idle workers.
class CompilerPool {
public:
    static CompilerPool& process() {
        // Never destroyed: server threads may compile during the application's
        // exit(); the forked processes die with the server (PR_SET_PDEATHSIG).
        static CompilerPool& pool = *new CompilerPool;
        return pool;
    }

    bool start() {
        std::lock_guard lock(mutex_);
        return start_locked();
    }

    // A worker's socket; -1 when no worker can be had.
    int acquire() {
        std::lock_guard lock(mutex_);
        if (!idle_.empty()) {
            const int fd = idle_.back();
            idle_.pop_back();
            return fd;
        }
        for (int attempt = 0; attempt < 2; ++attempt) {
            if (!start_locked()) return -1;
            int pair[2];
            if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) return -1;
            const bool sent = send_fd(control_, pair[1]);
            ::close(pair[1]);
            if (sent) return pair[0];
            ::close(pair[0]);
            stop_parent_locked();  // it died: the next attempt forks a new one
        }
        return -1;
    }

    void release(int fd) {
        std::lock_guard lock(mutex_);
        if (idle_.size() < kIdleWorkers) idle_.push_back(fd);
        else ::close(fd);
    }

private:
    bool start_locked() {
        if (control_ >= 0) return true;
        if (failed_) return false;
        int pair[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) return fail("socketpair", errno);
        const pid_t server = ::getpid();
        const pid_t child = ::fork();
        if (child < 0) {
            const int e = errno;
            ::close(pair[0]);
            ::close(pair[1]);
            return fail("fork", e);
        }
        if (child == 0) {
            ::close(pair[0]);
            compiler_parent_main(pair[1], server);
        }
        ::close(pair[1]);
        control_ = pair[0];
        parent_ = child;
        return true;
    }

    void stop_parent_locked() {
        ::close(control_);
        control_ = -1;
        ::kill(parent_, SIGKILL);
        ::waitpid(parent_, nullptr, 0);
    }

    bool fail(const char* what, int e) {
        failed_ = true;
        spdlog::error("shader compiler process: {} failed ({}); shaders compile in the server's own process, "
                      "where a compiler crash ends the server",
                      what, std::strerror(e));
        return false;
    }

    std::mutex mutex_;
    int control_ = -1;
    pid_t parent_ = -1;
    bool failed_ = false;
    std::vector<int> idle_;
};

const char* stage_name(Stage s) {
    static const char* const kNames[] = {"vertex", "fragment", "geometry", "tessellation control",
                                         "tessellation evaluation", "compute"};
    return kNames[size_t(s)];
}

std::shared_ptr<Translation> compiler_failure(const CompileJob& job, const std::string& failure) {
    auto t = std::make_shared<Translation>();
    const ShaderInput& first = job.inputs.front();
    t->stage = first.stage;
    const SourceVersion v = source_version(first.sources, first.api);
    t->source_version = v.number;
    t->source_es = v.es;
    (job.link ? t->link_log : t->log) = compiler_failure_log(failure);
    return t;
}

// The worker's side of compile_isolated().
std::string translate_task(const std::string& request) {
    CompileJob job;
    if (!decode_job(request, job)) return {};
    const std::shared_ptr<Translation> t =
        job.link ? link_in_process(job.inputs, job.opt) : translate_in_process(job.inputs.front(), job.opt);
    return encode_entry({}, *t);
}

}  // namespace

std::string encode_job(const CompileJob& job) {
    FieldWriter w;
    w.u32(job.link);
    w.u32(uint32_t(job.opt.version));
    w.u32(uint32_t(job.opt.max_draw_buffers));
    w.u32(job.opt.clip_distance);
    w.u32(job.opt.alpha_test);
    w.u32(uint32_t(job.inputs.size()));
    for (const ShaderInput& in : job.inputs) {
        w.u32(uint32_t(in.stage));
        w.u32(uint32_t(in.api));
        w.u32(uint32_t(in.major));
        w.u32(uint32_t(in.minor));
        w.u32(uint32_t(in.sources.size()));
        for (const std::string& s : in.sources) w.str(s);
    }
    return w.out;
}

bool decode_job(const std::string& bytes, CompileJob& job) {
    FieldReader r{bytes.data(), bytes.size()};
    const uint32_t link = r.u32();
    job.link = link != 0;
    job.opt.version = int(r.u32());
    job.opt.max_draw_buffers = int(r.u32());
    job.opt.clip_distance = r.u32() != 0;
    job.opt.alpha_test = r.u32() != 0;
    const uint32_t n = r.u32();
    if (!r.ok || link > 1 || n == 0 || (!job.link && n != 1) || n > r.left / 20) return false;
    job.inputs.assign(n, {});
    for (ShaderInput& in : job.inputs) {
        const uint32_t stage = r.u32(), api = r.u32();
        in.major = int(r.u32());
        in.minor = int(r.u32());
        const uint32_t strings = r.u32();
        if (!r.ok || stage > uint32_t(Stage::compute) || api > uint32_t(Api::gles) || strings > kMaxSources ||
            strings > r.left / 8)
            return false;
        in.stage = Stage(stage);
        in.api = Api(api);
        in.sources.resize(strings);
        for (std::string& s : in.sources) s = r.str();
    }
    return r.ok && r.left == 0;
}

void start_compiler_process() {
    if (isolation_wanted()) CompilerPool::process().start();
}

std::string compiler_failure_log(const std::string& failure) {
    return "ERROR: the shader compiler process " + failure + " on this shader; it cannot be compiled\n";
}

CompilerReply run_in_compiler(CompilerTask task, const std::string& request, const std::string& what) {
    CompilerReply out;
    if (!isolation_wanted()) return out;
    CompilerPool& pool = CompilerPool::process();
    std::string message(8, '\0');
    std::memcpy(message.data(), &task, sizeof task);
    message += request;
    // A worker kept idle may have ended since (killed from outside): its
    // socket refuses the request, and a fresh worker takes it.
    for (int attempt = 0; attempt < 2; ++attempt) {
        const int fd = pool.acquire();
        if (fd < 0) return out;
        out.isolated = true;
        if (!write_message(fd, message)) {
            ::close(fd);
            continue;
        }
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kCompileSeconds + 10);
        if (read_message(fd, out.bytes, deadline)) {
            pool.release(fd);
            out.ok = true;
            return out;
        }
        ::close(fd);
        out.failure = std::chrono::steady_clock::now() >= deadline
                          ? "took longer than " + std::to_string(kCompileSeconds) + " s"
                          : "crashed";
        spdlog::warn("shader compiler process {} during the {}; that compile fails, the server goes on", out.failure,
                     what);
        return out;
    }
    out.failure = "could not be reached";
    return out;
}

IsolatedResult compile_isolated(const CompileJob& job) {
    if (job.inputs.empty()) return {};
    const std::string what = std::string(job.link ? "link of a " : "compile of a ") +
                             stage_name(job.inputs.front().stage) + " shader";
    const CompilerReply r = run_in_compiler(translate_task, encode_job(job), what);
    if (!r.isolated) return {};
    if (r.ok)
        if (auto t = decode_entry(r.bytes, {})) return {t, false};
    return {compiler_failure(job, r.ok ? "answered nothing usable" : r.failure), true};
}

}  // namespace mgl::gl
