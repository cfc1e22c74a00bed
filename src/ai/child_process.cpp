#include "ai/child_process.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>

namespace rainet::ai {

namespace {
using Clock = std::chrono::steady_clock;
int msLeft(Clock::time_point deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left > 0 ? static_cast<int>(left) : 0;
}
}  // namespace

Result<std::unique_ptr<ChildProcess>> ChildProcess::start(const std::string& command) {
    int in[2], out[2];
    if (pipe(in) != 0) return Error{"pipe failed"};
    if (pipe(out) != 0) {
        close(in[0]);
        close(in[1]);
        return Error{"pipe failed"};
    }
    const pid_t pid = fork();
    if (pid < 0) return Error{"fork failed"};
    if (pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    signal(SIGPIPE, SIG_IGN);  // a child that exits makes send() fail instead
    std::unique_ptr<ChildProcess> c(new ChildProcess());
    c->pid_ = pid;
    c->toChild_ = in[1];
    c->fromChild_ = out[0];
    return c;
}

ChildProcess::~ChildProcess() {
    closeInput();
    if (pid_ > 0 && !wait(graceMs).ok()) {
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
    }
    close(fromChild_);
}

bool ChildProcess::send(const std::string& line) {
    if (toChild_ < 0) return false;
    const std::string data = line + "\n";
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = write(toChild_, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

void ChildProcess::closeInput() {
    if (toChild_ >= 0) close(toChild_);
    toChild_ = -1;
}

bool ChildProcess::fill(int timeoutMs) {
    if (outputEnded_) return false;
    pollfd p{fromChild_, POLLIN, 0};
    if (poll(&p, 1, timeoutMs) <= 0) return true;
    char chunk[4096];
    const ssize_t n = read(fromChild_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) return true;
    if (n <= 0) {
        outputEnded_ = true;
        return false;
    }
    buffer_.append(chunk, static_cast<std::size_t>(n));
    return true;
}

Result<std::string> ChildProcess::readLine(int timeoutMs) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
    for (;;) {
        const auto nl = buffer_.find('\n');
        if (nl != std::string::npos) {
            std::string line = buffer_.substr(0, nl);
            buffer_.erase(0, nl + 1);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            return line;
        }
        const int left = msLeft(deadline);
        if (left == 0) return Error{"no answer in time"};
        if (!fill(left)) return Error{"the process exited"};
    }
}

Result<int> ChildProcess::wait(int timeoutMs) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
    for (;;) {
        int status = 0;
        if (pid_ <= 0) return Error{"no process"};
        if (waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        }
        const int left = msLeft(deadline);
        if (left == 0) return Error{"still running"};
        // Drain the output meanwhile (a child blocked on a full pipe never exits); once it has
        // ended, poll only paces the loop.
        if (!fill(std::min(left, 10))) poll(nullptr, 0, std::min(left, 10));
    }
}

}  // namespace rainet::ai
