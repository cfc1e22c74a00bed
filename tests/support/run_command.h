#pragma once
// Runs the built `rainet` binary as a user would (RAINET_BIN is defined by the test's CMake) and
// collects its exit status and combined stdout + stderr. Shared by the process-level test suites.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace rainet::test {

struct CliRun {
    int status;
    std::string out;  // stdout and stderr together
};

// `input`, when given, is fed to stdin through printf (so "\\n" in it becomes a newline).
inline CliRun runRainet(const std::string& args, const std::string& input = "") {
    std::string cmd = std::string(RAINET_BIN) + " " + args + " 2>&1";
    if (!input.empty()) cmd = "printf '" + input + "' | " + cmd;
    CliRun r{-1, ""};
    FILE* f = popen(cmd.c_str(), "r");
    if (!f) return r;
    std::array<char, 4096> buf;
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), f)) > 0) r.out.append(buf.data(), n);
    const int st = pclose(f);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

}  // namespace rainet::test
