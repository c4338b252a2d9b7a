// The threads sessions run on, kept after a session ends for the next one.
//
// Why: a host GL driver sets a thread up at its first eglMakeCurrent, and
// NVIDIA's takes 22-28 ms a thread (H100, 2026-12-05: a context made current
// on a thread that had one before takes 0.5 ms; docs/PERFORMANCE.md 4k). On
// a thread of its own, every Espryt session paid that inside the program's
// eglMakeCurrent. Each new thread first runs the warm-up it is given (Espryt
// makes a throwaway host context current), and `spare` warm threads can be
// made when the server starts, for its first sessions (a program's first one
// or two contexts); later sessions reuse the threads of ended ones.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <thread>

namespace mgl::server {

class SessionThreads {
public:
    // Done when the work it was made for has returned.
    class Job {
    public:
        void wait();

    private:
        friend class SessionThreads;
        std::mutex mutex_;
        std::condition_variable done_changed_;
        bool done_ = false;
    };

    // `warm` runs first on every new thread (may be empty); at most
    // `max_idle` threads wait idle, the others end.
    SessionThreads(std::function<void()> warm, size_t spare, size_t max_idle);
    ~SessionThreads();  // every job must have returned; idle threads end and are joined
    // The same, now: after it no thread runs this class's code (a job's
    // `done` is signalled before its thread leaves the job, so waiting for
    // jobs alone leaves threads running here: an embedded server stopped at
    // exit would have its library unmapped under them). run() refuses after it.
    void shutdown();

    // Makes `spare` warm threads now and waits (at most 5 s) until they are.
    void prestart();
    // Runs `work` on an idle (or warming) thread, or a new one. Throws
    // std::system_error when a needed thread cannot be made (nothing runs then).
    std::shared_ptr<Job> run(std::function<void()> work);

private:
    struct Task {
        std::function<void()> work;
        std::shared_ptr<Job> job;
    };
    void worker();
    void add_thread_locked();   // throws std::system_error
    void keep_spares_locked();  // never throws

    std::function<void()> warm_;
    const size_t spare_, max_idle_;
    std::mutex mutex_;
    std::condition_variable work_changed_;
    std::condition_variable warmed_;  // warming_ reached 0
    std::deque<Task> pending_;
    size_t idle_ = 0;      // waiting for a task
    size_t warming_ = 0;   // new, still in warm_
    bool stopping_ = false;
    std::list<std::thread> threads_;
    std::list<std::thread::id> ended_;  // threads past their loop, to be joined
};

}  // namespace mgl::server
