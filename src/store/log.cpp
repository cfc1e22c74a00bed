#include "store/log.h"

#include <chrono>
#include <cstdio>
#include <mutex>

namespace rainet {

void logEvent(std::string_view event, nlohmann::ordered_json fields) {
    static std::mutex mu;
    using namespace std::chrono;
    nlohmann::ordered_json line;
    line["ts"] = duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
    line["event"] = event;
    for (auto& [k, v] : fields.items()) line[k] = v;
    const std::string s = line.dump() + "\n";
    std::lock_guard lock(mu);
    std::fwrite(s.data(), 1, s.size(), stderr);
    std::fflush(stderr);
}

}  // namespace rainet
