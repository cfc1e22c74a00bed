// rainet backup --db FILE --to FILE: a copy of a live SQLite database (store/backup.h).
#include <iostream>

#include "cli/options.h"
#include "store/backup.h"

namespace rainet::cli {
namespace {

int run(const Args& args);
const Command kCommand{"backup", "backup --db FILE --to FILE",
                       "copy a SQLite database, even while `rainet serve` uses it "
                       "(PostgreSQL: pg_dump, docs/deploy.md)",
                       run};

int run(const Args& args) {
    auto app = makeApp(kCommand);
    std::string db, to;
    app->add_option("--db", db, "the server's SQLite file")->required();
    app->add_option("--to", to, "the backup file (replaced whole, never half-written)")->required();
    if (auto status = parseArgs(*app, kCommand, args)) return *status;
    auto done = store::backupDatabase(db, to);
    if (!done) {
        std::cerr << "rainet " << done.error().message << "\n";
        return 1;
    }
    std::cout << "backup: " << to << " (" << done->bytes << " bytes, schema version "
              << done->schemaVersion << ")\n";
    return 0;
}

}  // namespace
RAINET_COMMAND(backup, kCommand);
}  // namespace rainet::cli
