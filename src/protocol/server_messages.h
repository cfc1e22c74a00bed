#pragma once
// Server messages as values with one serializer each (issue 11's design, started with the messages
// of every action: the ack and the action event). Each is written directly as JSON text, byte for
// byte what the former tree-and-dump rendering gave (server_messages_test.cpp checks it on random
// games for every viewer, so that the leak tests' byte-identical property cannot drift).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/action.h"
#include "core/view.h"
#include "protocol/messages.h"

namespace rainet::protocol {

// The players' clocks in a timed game, in cs: {"1": cs, "2": cs, "running": "1" | "2" | null}.
struct Clocks {
    std::int64_t remaining[2] = {0, 0};
    std::optional<Side> running;  // the side whose time runs, while the game is in play
};
// `null` for an untimed game.
void write(std::string& out, const std::optional<Clocks>& c);
Json toJson(const std::optional<Clocks>& c);

// {"type":"ack","id":ID[,"game":G][,"v":V]}: a request was applied (or repeated).
struct Ack {
    const Json& id;
    std::string_view game;          // omitted when empty
    std::optional<std::int64_t> v;  // the version the request led to, when it made one
};
std::string render(const Ack& a);

// {"type":"event","kind":"action",...}: one action as one viewer observes it (docs/protocol.md).
struct ActionEvent {
    std::string_view game;
    std::int64_t v = 0;
    int ply = 0;  // of the position before the action
    Side side = Side::One;
    Observation seen;                   // observe(before, action, viewer)
    std::string_view view;              // View::of(after, viewer).toString()
    const ActionList* legal = nullptr;  // the viewer's legal actions when it is to move, else none
    std::optional<Clocks> clocks;
};
std::string render(const ActionEvent& e);

}  // namespace rainet::protocol
