#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <spdlog/cfg/env.h>

int main(int argc, char** argv) {
    spdlog::cfg::load_env_levels();  // SPDLOG_LEVEL=warn keeps test output readable
    return doctest::Context(argc, argv).run();
}
