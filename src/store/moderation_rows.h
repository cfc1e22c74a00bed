#pragma once
// The rows of moderation (store/moderation_store.cpp; docs/deploy.md, "Moderation"): reports,
// bans and mutes, and the moderation log. Times are unix ms.
#include <cstdint>
#include <string>

namespace rainet::store {

// A player's report of another: a reason from protocol's list, a short text, the game if any.
// state: "open" until a moderator closes it ("closed").
struct ReportRow {
    std::int64_t id = 0;
    std::int64_t reporter = 0, target = 0;
    std::string reporterName, targetName;          // read with the row
    std::string reporterPublicId, targetPublicId;  // likewise
    std::string game;                              // "" when none
    std::string reason, text;
    std::int64_t created = 0;
    std::string state = "open";
};

// A ban (the account cannot log in) or a mute (its chat is refused) until `until` (0: no end);
// `by` the moderator's player id, 0 for the operator.
struct SanctionRow {
    std::int64_t player = 0;
    std::string kind;  // ban, mute
    std::int64_t until = 0;
    std::int64_t by = 0;
    std::string reason;
    std::int64_t created = 0;
};

// One line of the moderation log: who did what to whom, why, when. actor 0: the operator.
struct ModLogRow {
    std::int64_t id = 0;
    std::int64_t actor = 0, target = 0;
    std::string actorName, targetName;  // "operator" for actor 0
    std::string action, reason;
    std::int64_t at = 0;
};

enum class BlockResult { Added, Already, Full };

}  // namespace rainet::store
