#pragma once
// Test support for the terminal clients in tournaments: an account of the test's own, on a
// WebSocket connection, that creates tournaments on a Server (play_process.h).
#include <nlohmann/json.hpp>

#include "play/play_process.h"
#include "wsclient/blocking_client.h"

namespace rainet::test {

// A connection of the test's own: an account that creates a tournament.
class Host {
    using Json = nlohmann::json;

  public:
    explicit Host(const Server& s) : ws_(target(s)) {
        ws_.send(R"({"type":"hello"})");
        take("welcome");
        ws_.send(
            R"({"type":"register","id":1,"username":"host","password":"correct horse staple"})");
        EXPECT_EQ(take("ack")["id"], 1);
    }
    // A 5-minute arena of 30 s games named "Bot arena", starting now; `bots`: bot accounts
    // admitted. Its id.
    std::string createArena(bool bots) {
        ws_.send(Json{
            {"type", "tournament_create"},
            {"id", 2},
            {"name", "Bot arena"},
            {"clock", {{"initial", 3000}, {"increment", 0}}},
            {"startsIn", 0},
            {"minutes", 5},
            {"bots",
             bots}}.dump());
        return take("ack").value("tournament", "");
    }

  private:
    static wsclient::Target target(const Server& s) {
        wsclient::Target t;
        t.host = "127.0.0.1";
        t.port = s.port();
        return t;
    }
    Json take(const std::string& type) {
        while (auto m = ws_.next(10s)) {
            Json j = Json::parse(*m, nullptr, false);
            if (!j.is_discarded() && j.value("type", "") == type) return j;
            if (!j.is_discarded() && j.value("type", "") == "error") ADD_FAILURE() << *m;
        }
        ADD_FAILURE() << "no " << type;
        return Json::object();
    }
    wsclient::BlockingClient ws_;
};

}  // namespace rainet::test
