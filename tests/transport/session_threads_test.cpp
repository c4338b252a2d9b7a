// The server's session thread pool (server/src/session_threads.h): threads
// are warmed once, kept for later sessions, and spares wait ahead of them.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

#include "session_threads.h"

using namespace std::chrono_literals;
using mgl::server::SessionThreads;

namespace {
bool eventually(const std::function<bool()>& f) {
    for (auto until = std::chrono::steady_clock::now() + 5s; std::chrono::steady_clock::now() < until;) {
        if (f()) return true;
        std::this_thread::sleep_for(1ms);
    }
    return f();
}
}  // namespace

TEST_CASE("session threads: spares are warmed ahead, and sessions run on warmed threads") {
    std::mutex m;
    std::set<std::thread::id> warmed;
    std::atomic<int> warms{0};
    SessionThreads pool([&] {
        std::lock_guard lock(m);
        warmed.insert(std::this_thread::get_id());
        ++warms;
    }, 2, 4);
    pool.prestart();
    CHECK(warms == 2);  // done when prestart returns

    // Sequential sessions: each on a warmed thread, and no thread is warmed twice.
    std::set<std::thread::id> ran;
    for (int i = 0; i < 6; ++i) {
        std::thread::id id;
        auto job = pool.run([&] { id = std::this_thread::get_id(); });
        job->wait();
        std::lock_guard lock(m);
        CHECK(warmed.count(id) == 1);
        ran.insert(id);
    }
    // One session at a time: the spares serve them all, nothing more is warmed.
    CHECK(ran.size() <= 2);
    CHECK(warms == 2);
    CHECK(warms == int(warmed.size()));
}

TEST_CASE("session threads: concurrent sessions each get a thread, and wait() returns when the work has") {
    std::atomic<int> warms{0};
    SessionThreads pool([&] { ++warms; }, 1, 2);
    std::atomic<bool> go{false};
    std::atomic<int> running{0}, finished{0};
    std::vector<std::shared_ptr<SessionThreads::Job>> jobs;
    for (int i = 0; i < 5; ++i) {
        jobs.push_back(pool.run([&] {
            ++running;
            while (!go) std::this_thread::sleep_for(1ms);
            std::this_thread::sleep_for(5ms);
            ++finished;
        }));
    }
    REQUIRE(eventually([&] { return running == 5; }));  // all at once: none waits for another
    go = true;
    for (auto& j : jobs) j->wait();
    CHECK(finished == 5);
    CHECK(warms >= 5);
    // Past max_idle (2) the extra threads end; the pool still serves.
    std::atomic<bool> ran{false};
    pool.run([&] { ran = true; })->wait();
    CHECK(ran);
}
