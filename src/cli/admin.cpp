// rainet admin --db DB ACTION ...: the operator's moderation tools, on the server's database
// (SQLite or PostgreSQL, while the server runs): roles, bans, mutes, reports and the
// moderation log (docs/deploy.md, "Moderation"). Every action is written to the moderation log
// as the operator's.
#include <chrono>
#include <iostream>

#include "cli/options.h"
#include "store/store.h"
#include "store/utc_time.h"

namespace rainet::cli {
namespace {

int run(const Args& args);
const Command kCommand{
    "admin",
    "admin --db FILE|postgresql://URI ACTION [ARGS...] [--reason TEXT] [--minutes N] "
    "[--days N] [--limit N]\n"
    "  grant NAME moderator|admin, revoke NAME moderator|admin, ban NAME [--days N], "
    "unban NAME, mute NAME --minutes N, unmute NAME, reports, close-report ID, log, export NAME, "
    "close NAME",
    "moderate on the server's database: roles, bans, mutes, reports, the log (docs/deploy.md)",
    run};

std::int64_t nowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

int fail(const std::string& why) {
    std::cerr << "rainet admin: " << why << "\n";
    return 1;
}

// A player by username (an account) or by public id ("p...").
store::Lookup<store::PlayerRow> findPlayer(store::Store& st, const std::string& name) {
    auto acc = st.accountByUsername(name);
    if (!acc) return acc.error();
    if (*acc) return st.playerById((*acc)->player);
    return st.playerByPublicId(name);
}

int run(const Args& args) {
    auto app = makeApp(kCommand);
    std::string db, action, reason;
    std::vector<std::string> operands;
    int minutes = 0, days = 0, limit = 50;
    app->add_option("--db", db, "the server's SQLite file or postgresql:// URI")->required();
    app->add_option("action", action, "what to do")
        ->required()
        ->check(CLI::IsMember({"grant", "revoke", "ban", "unban", "mute", "unmute", "reports",
                               "close-report", "log", "export", "close"}));
    app->add_option("operands", operands, "the player (username or id), a role, a report id");
    app->add_option("--reason", reason, "why (written to the moderation log)");
    app->add_option("--minutes", minutes, "mute: for how long")->check(CLI::Range(1, 525600));
    app->add_option("--days", days, "ban: for how long (default: with no end)")
        ->check(CLI::Range(1, 36500));
    app->add_option("--limit", limit, "reports, log: how many lines at most")
        ->check(CLI::Range(1, 10000));
    if (auto status = parseArgs(*app, kCommand, args)) return *status;
    const bool needsPlayer = action != "reports" && action != "log" && action != "close-report";
    const std::size_t wanted = action == "grant" || action == "revoke"   ? 2
                               : needsPlayer || action == "close-report" ? 1
                                                                         : 0;
    if (operands.size() != wanted)
        return fail(action + " takes " + std::to_string(wanted) +
                    (wanted == 2   ? " operands (a player and a role)"
                     : wanted == 1 ? (needsPlayer ? " operand (a player)" : " operand (an id)")
                                   : " operands"));
    if (action == "mute" && !minutes) return fail("mute needs --minutes N");
    auto opened = store::Store::open(db);
    if (!opened) return fail(opened.error().message);
    store::Store& st = **opened;
    const std::int64_t now = nowMs();

    if (action == "reports") {
        auto list = st.reports("open", limit);
        if (!list) return fail(list.error().message);
        if (list->empty()) std::cout << "no open reports\n";
        for (const auto& r : *list)
            std::cout << "#" << r.id << " " << store::utcTime(r.created) << " " << r.reporterName
                      << " reports " << r.targetName << " (" << r.targetPublicId
                      << "): " << r.reason << (r.game.empty() ? "" : " in game " + r.game)
                      << (r.text.empty() ? "" : " \"" + r.text + "\"") << "\n";
        return 0;
    }
    if (action == "log") {
        auto list = st.moderationLog(limit);
        if (!list) return fail(list.error().message);
        if (list->empty()) std::cout << "the moderation log is empty\n";
        for (const auto& l : *list)
            std::cout << store::utcTime(l.at) << " " << l.actorName << " " << l.action << " "
                      << l.targetName << (l.reason.empty() ? "" : ": " + l.reason) << "\n";
        return 0;
    }
    if (action == "close-report") {
        std::int64_t id = 0;
        try {
            id = std::stoll(operands[0]);
        } catch (const std::exception&) {
            return fail("not a report id: " + operands[0]);
        }
        auto closed = st.closeReport(id, 0, reason, now);
        if (!closed) return fail(closed.error().message);
        if (!*closed) return fail("no open report #" + operands[0]);
        std::cout << "report #" << id << " closed\n";
        return 0;
    }

    auto found = findPlayer(st, operands[0]);
    if (!found) return fail(found.error().message);
    if (!*found) return fail("no player named " + operands[0]);
    const store::PlayerRow& p = **found;
    if (action == "export") {  // the player's data, on stdout (docs/deploy.md, "Privacy")
        auto data = st.exportPlayer(p.id);
        if (!data) return fail(data.error().message);
        if (!*data) return fail("no player named " + operands[0]);
        std::cout << **data << "\n";
        return 0;
    }
    if (action == "close") {
        auto closed = st.closeAccount(p.id, 0, reason, now);
        if (!closed) return fail(closed.error().message);
        if (!*closed) return fail("no player named " + operands[0]);
        std::cout << p.name << "'s account is closed; its games remain, by \"deleted player\"\n";
        return 0;
    }
    if (action == "grant" || action == "revoke") {
        const std::string& role = operands[1];
        if (role != "moderator" && role != "admin")
            return fail("no role " + role + " (moderator or admin)");
        auto changed = st.setRole(p.id, role, action == "grant", 0, reason, now);
        if (!changed) return fail(changed.error().message);
        if (!*changed)
            return fail(p.name + (action == "grant" ? " is already " : " is not ") + role);
        std::cout << p.name << (action == "grant" ? " is now " : " is no longer ") << role << "\n";
        return 0;
    }
    if (action == "unban" || action == "unmute") {
        const std::string kind = action.substr(2);
        auto lifted = st.liftSanction(p.id, kind, 0, reason, now);
        if (!lifted) return fail(lifted.error().message);
        if (!*lifted) return fail(p.name + " is not " + kind + (kind == "ban" ? "ned" : "d"));
        std::cout << p.name << (kind == "ban" ? " is no longer banned\n" : " is no longer muted\n");
        return 0;
    }
    store::SanctionRow s;
    s.player = p.id;
    s.kind = action;  // ban, mute
    s.until = action == "mute" ? now + std::int64_t{minutes} * 60'000
              : days           ? now + std::int64_t{days} * 86'400'000
                               : 0;
    s.reason = reason;
    if (auto e = st.sanction(s, now)) return fail(e->message);
    std::cout << p.name << (action == "ban" ? " is banned" : " is muted")
              << (s.until ? " until " + store::utcTime(s.until) : std::string()) << "\n";
    return 0;
}

}  // namespace
RAINET_COMMAND(admin, kCommand);
}  // namespace rainet::cli
