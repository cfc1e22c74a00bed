#pragma once
// A command run with /bin/sh, spoken to line by line over pipes: what a controller needs of an
// engine (engine_client.h), and what the process-level tests need of `rainet engine`. POSIX only.
#include <sys/types.h>

#include <memory>
#include <string>

#include "core/error.h"

namespace rainet::ai {

class ChildProcess {
  public:
    static Result<std::unique_ptr<ChildProcess>> start(const std::string& command);
    // Closes its input, gives it `graceMs` to exit on its own, then kills it.
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    // Writes one line; false when the child no longer reads.
    [[nodiscard]] bool send(const std::string& line);
    // The next line (without its "\r\n"), or an error after `timeoutMs` or when the output ends.
    Result<std::string> readLine(int timeoutMs);
    // Ends the child's input (it sees the end of its stdin).
    void closeInput();
    // The exit status once the child has exited (within `timeoutMs`), or an error; output that
    // arrives meanwhile is kept for readLine.
    Result<int> wait(int timeoutMs);
    // Output received but not yet returned as lines.
    const std::string& pending() const { return buffer_; }
    int graceMs = 500;

  private:
    ChildProcess() = default;
    // Reads what is there within `timeoutMs` into the buffer; false at the end of the output.
    [[nodiscard]] bool fill(int timeoutMs);

    pid_t pid_ = -1;
    int toChild_ = -1, fromChild_ = -1;
    std::string buffer_;
    bool outputEnded_ = false;
};

}  // namespace rainet::ai
