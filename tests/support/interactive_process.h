#pragma once
// A child process driven line by line through pipes, as a GUI drives an engine: write a command,
// read answer lines, close the input, collect the exit status. Reads wait for an explicit line;
// the timeout only turns a hang into a test failure.
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace rainet::test {

class InteractiveProcess {
  public:
    explicit InteractiveProcess(const std::string& command) {
        int in[2], out[2];
        if (pipe(in) != 0 || pipe(out) != 0) return;
        pid_ = fork();
        if (pid_ == 0) {
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
        toChild_ = in[1];
        fromChild_ = out[0];
        signal(SIGPIPE, SIG_IGN);
    }
    ~InteractiveProcess() {
        closeInput();
        if (pid_ > 0 && !exited_) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
        if (fromChild_ >= 0) close(fromChild_);
    }
    bool started() const { return pid_ > 0; }

    bool send(const std::string& line) {
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
    void closeInput() {
        if (toChild_ >= 0) close(toChild_);
        toChild_ = -1;
    }

    // The next line, or nothing at the end of the output or after `timeout`.
    std::optional<std::string> readLine(
        std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            const auto nl = buffer_.find('\n');
            if (nl != std::string::npos) {
                std::string line = buffer_.substr(0, nl);
                buffer_.erase(0, nl + 1);
                return line;
            }
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) return std::nullopt;
            pollfd p{fromChild_, POLLIN, 0};
            if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
            char chunk[4096];
            const ssize_t n = read(fromChild_, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return std::nullopt;
            buffer_.append(chunk, static_cast<std::size_t>(n));
        }
    }
    // Lines up to and including the first one that starts with `prefix`; nothing if it never
    // comes.
    std::optional<std::vector<std::string>> readUntil(const std::string& prefix) {
        std::vector<std::string> lines;
        for (;;) {
            auto line = readLine();
            if (!line) return std::nullopt;
            lines.push_back(*line);
            if (line->rfind(prefix, 0) == 0) return lines;
        }
    }
    // Waits for the exit (up to `timeout`); its status, or nothing if it is still running.
    std::optional<int> wait(std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            int status = 0;
            const pid_t r = waitpid(pid_, &status, WNOHANG);
            if (r == pid_) {
                exited_ = true;
                return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            }
            if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
            // Drain the output meanwhile so that the child never blocks on a full pipe.
            pollfd p{fromChild_, POLLIN, 0};
            if (outputEnded_) {
                poll(nullptr, 0, 10);
            } else if (poll(&p, 1, 10) > 0) {
                char chunk[4096];
                const ssize_t n = read(fromChild_, chunk, sizeof chunk);
                if (n > 0) buffer_.append(chunk, static_cast<std::size_t>(n));
                if (n == 0) outputEnded_ = true;
            }
        }
    }
    // Output read but not yet returned as lines.
    const std::string& pending() const { return buffer_; }

  private:
    pid_t pid_ = -1;
    int toChild_ = -1, fromChild_ = -1;
    std::string buffer_;
    bool exited_ = false;
    bool outputEnded_ = false;
};

}  // namespace rainet::test
