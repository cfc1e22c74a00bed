#pragma once
// The engine's calls for the browser (the WebAssembly module) and for its native twin
// (`rainet_api`, the reference of the cross-check): one request string in, one JSON answer out.
// A request is a command and its arguments separated by tabs (position strings hold spaces):
//
//   start   RULES SETUP1 SETUP2            the game from both arrangements ("LLLVVVLV")
//   state   RULES POSITION                 to move, ply, over, result, end reason
//   legal   RULES POSITION                 the legal actions, sorted
//   apply   RULES POSITION ACTION          the state after it, and what each side observed
//   view    RULES POSITION VIEWER          one viewer's view string (1, 2, spectator)
//   perft   RULES POSITION DEPTH           leaves of the action tree
//   setup   RULES SIDE BOT SEED            a bot's arrangement
//   think   RULES SIDE BOT NODES SEED KNOWLEDGE
//                                          a bot's action; KNOWLEDGE is the engine protocol's
//                                          `view F1 .. F6 [moves OBS ...]`
//                                          (docs/engine-protocol.md)
//   analyse SIDE NODES RECORD              the analysis of a full record, as the server's
//                                          GET /api/games/{id}/analysis answers it
//   bench   ITERATIONS                     `rainet bench`'s search: iterations, nodes, seconds
//
// Every answer is one line of JSON; a bad request is answered {"error":"..."} and changes nothing
// (the engine keeps no state between calls).
#include <string>
#include <string_view>

namespace rainet::wasm {

std::string call(std::string_view request);

}  // namespace rainet::wasm
