#include "session_threads.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <system_error>
#include <utility>

namespace mgl::server {

void SessionThreads::Job::wait() {
    std::unique_lock lock(mutex_);
    done_changed_.wait(lock, [&] { return done_; });
}

SessionThreads::SessionThreads(std::function<void()> warm, size_t spare, size_t max_idle)
    : warm_(std::move(warm)), spare_(spare), max_idle_(std::max(max_idle, spare)) {}

SessionThreads::~SessionThreads() { shutdown(); }

void SessionThreads::shutdown() {
    std::list<std::thread> threads;
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        threads = std::move(threads_);
    }
    work_changed_.notify_all();
    for (std::thread& t : threads) {
        if (t.get_id() == std::this_thread::get_id()) t.detach();  // the last owner let go on a pool thread
        else if (t.joinable()) t.join();
    }
}

void SessionThreads::prestart() {
    std::unique_lock lock(mutex_);
    keep_spares_locked();
    // Waited for: a driver sets threads up one at a time (NVIDIA: a second
    // thread's first eglMakeCurrent waits for the first's), so warming
    // behind a running session would hold up that session's own calls.
    warmed_.wait_for(lock, std::chrono::seconds(5), [&] { return warming_ == 0; });
}

std::shared_ptr<SessionThreads::Job> SessionThreads::run(std::function<void()> work) {
    auto job = std::make_shared<Job>();
    {
        std::lock_guard lock(mutex_);
        if (stopping_) throw std::system_error(std::make_error_code(std::errc::operation_canceled), "the server is stopping");
        pending_.push_back({std::move(work), job});
        // A warming thread is sooner than a new one, which would warm too.
        if (idle_ + warming_ < pending_.size()) {
            try {
                add_thread_locked();
            } catch (...) {
                pending_.pop_back();
                throw;
            }
        }
    }
    work_changed_.notify_one();
    return job;
}

void SessionThreads::add_thread_locked() {
    // Threads that left their loop (too many idle) are joined here, not leaked.
    for (auto it = threads_.begin(); it != threads_.end();) {
        bool ended = false;
        for (auto e = ended_.begin(); e != ended_.end(); ++e) {
            if (*e == it->get_id()) {
                ended_.erase(e);
                ended = true;
                break;
            }
        }
        if (ended) {
            it->join();  // past its loop: returns at once
            it = threads_.erase(it);
        } else {
            ++it;
        }
    }
    threads_.emplace_back([this] { worker(); });
    ++warming_;
}

void SessionThreads::keep_spares_locked() {
    if (stopping_) return;
    while (idle_ + warming_ < pending_.size() + spare_) {
        try {
            add_thread_locked();
        } catch (const std::system_error& e) {
            spdlog::warn("mgl server: no spare session thread: {}", e.what());
            return;
        }
    }
}

void SessionThreads::worker() {
    if (warm_) {
        try {
            warm_();
        } catch (const std::exception& e) {
            spdlog::warn("mgl server: warming a session thread: {}", e.what());
        }
    }
    std::unique_lock lock(mutex_);
    if (--warming_ == 0) warmed_.notify_all();
    for (;;) {
        ++idle_;
        work_changed_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
        --idle_;
        if (pending_.empty()) break;  // stopping, nothing left to run
        Task task = std::move(pending_.front());
        pending_.pop_front();
        lock.unlock();
        try {
            task.work();
        } catch (const std::exception& e) {  // sessions catch their own: this is a last resort
            spdlog::error("mgl server: a session thread's work threw: {}", e.what());
        }
        task.work = nullptr;  // what it captured goes before the job is done
        {
            std::lock_guard done(task.job->mutex_);
            task.job->done_ = true;
        }
        task.job->done_changed_.notify_all();
        task.job.reset();
        lock.lock();
        if (stopping_ || idle_ >= max_idle_) break;
    }
    if (!stopping_) ended_.push_back(std::this_thread::get_id());
}

}  // namespace mgl::server
