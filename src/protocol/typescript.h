#pragma once
// The TypeScript types of every server message (web/src/protocol.gen.ts), generated from the field
// tables of server_messages.h: one interface per message and shared object, a type per enum, and
// the union of the messages discriminated on `type` (events on `kind`); then the HTTP JSON answers
// of http_answers.h.
#include <string>

namespace rainet::protocol {

// The whole text of web/src/protocol.gen.ts.
std::string typescriptTypes();

}  // namespace rainet::protocol
