#pragma once
// Reads stdin on its own thread and posts each line (then the end of input) to an io_context, so
// that the terminal client's one io thread never blocks on the keyboard. A line's '\r' is dropped;
// a last line without '\n' still counts.
#include <utility>  // before Boost.Asio under C++20

#include <atomic>
#include <functional>
#include <string>
#include <thread>

#include <boost/asio/io_context.hpp>

namespace rainet::client::play {

class StdinReader {
  public:
    StdinReader(boost::asio::io_context& io, std::function<void(std::string)> onLine,
                std::function<void()> onEof);
    ~StdinReader();  // stops reading (within 100 ms) and joins the thread
    StdinReader(const StdinReader&) = delete;
    StdinReader& operator=(const StdinReader&) = delete;

  private:
    void read(boost::asio::io_context& io, const std::function<void(std::string)>& onLine,
              const std::function<void()>& onEof);

    std::atomic<bool> stop_{false};
    std::thread thread_;  // last: started once stop_ exists
};

}  // namespace rainet::client::play
