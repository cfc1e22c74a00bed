#include "cli/options.h"

#include <iostream>

namespace rainet::cli {

Options parseOptions(const Args& args, const std::set<std::string>& valueFlags,
                     const std::set<std::string>& switchFlags) {
    Options o;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.rfind("--", 0) != 0 || a == "--") {
            o.positional.push_back(a);
            continue;
        }
        const std::string name = a.substr(2);
        if (switchFlags.count(name)) {
            o.switches.insert(name);
        } else if (valueFlags.count(name)) {
            if (i + 1 >= args.size()) {
                o.error = "option " + a + " needs a value";
                return o;
            }
            o.values[name] = args[++i];
        } else {
            o.error = "unknown option " + a;
            return o;
        }
    }
    return o;
}

Result<Rules> presetOption(const Options& o) {
    const std::string name = o.get("preset", "standard");
    auto r = Rules::byName(name);
    if (!r) return Error{"unknown preset '" + name + "' (standard or official)"};
    return *r;
}

std::optional<int> loadPosition(const Command& c, const Options& o, Position& out) {
    auto rules = presetOption(o);
    if (!rules) return usageError(c, rules.error().message);
    auto pos = Position::parse(o.get("position", std::string(Position::kStartString)), *rules);
    if (!pos) {
        std::cerr << "rainet " << c.name << ": " << pos.error().message << "\n";
        return 1;
    }
    out = *pos;
    return std::nullopt;
}

}  // namespace rainet::cli
