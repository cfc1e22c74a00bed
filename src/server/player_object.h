#pragma once
// The one builder of the protocol's player object (protocol::Player). Each place a player is sent
// shows different fields (docs/protocol.md §5); the place and what the server knows of the player
// are its inputs, so that the fields of each place are decided here and nowhere else.
#include <cstdint>
#include <string_view>

#include "protocol/objects.h"
#include "store/store.h"

namespace rainet::server {

enum class PlayerPlace : std::uint8_t {
    Chat,    // a chat line's `from`: id and name
    Seat,    // a snapshot's seat: rating (null for the computer), connected, bot, away
    Own,     // welcome, and the ack of register and rename: kind, rating, bot for a bot account
    Public,  // a joined event, a lobby entry: rating, bot for a bot account
};

struct PlayerFacts {
    std::string_view publicId, name;
    std::string_view kind = "guest";  // guest, account
    double rating = 0;
    bool computer = false;    // the server's computer player: no rating
    bool botAccount = false;  // an account played by a program
    int connections = 0;      // Seat: connections following the game now
    std::int64_t awayCs = 0;  // Seat: cs since the last one closed (connections 0)
};

PlayerFacts factsOf(const store::PlayerRow& p);
protocol::Player playerObject(const PlayerFacts& p, PlayerPlace place);

}  // namespace rainet::server
