#pragma once
// A PostgreSQL database of its own for one test, when the environment variable RAINET_TEST_PG
// holds a libpq URI of a maintenance database (scripts/postgres.sh prints one): created under a
// unique name on construction, dropped (its connections closed) on destruction.
#include <libpq-fe.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace rainet::test {

// The maintenance URI, or null when PostgreSQL tests are off.
inline const char* postgresTestUri() {
    const char* s = std::getenv("RAINET_TEST_PG");
    return s && *s ? s : nullptr;
}

// The first value of the first row of `sql` run on `uri` ("" if none, or if it failed).
inline std::string firstValue(const std::string& uri, const std::string& sql) {
    PGconn* c = PQconnectdb(uri.c_str());
    std::string v;
    PGresult* r = PQexec(c, sql.c_str());
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0) v = PQgetvalue(r, 0, 0);
    PQclear(r);
    PQfinish(c);
    return v;
}

class PostgresTestDb {
  public:
    explicit PostgresTestDb(const std::string& name) {
        static std::atomic<int> counter{0};
        name_ =
            "rainet_" + name + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
        for (char& c : name_)
            c = std::isalnum(static_cast<unsigned char>(c))
                    ? static_cast<char>(std::tolower(static_cast<unsigned char>(c)))
                    : '_';
        if (!postgresTestUri()) {
            error_ = "RAINET_TEST_PG is not set";
            return;
        }
        error_ = execMaintenance("DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
        if (error_.empty()) error_ = execMaintenance("CREATE DATABASE " + name_);
        if (error_.empty()) uri_ = uriFor(name_);
    }
    ~PostgresTestDb() {
        if (!uri_.empty()) execMaintenance("DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
    }
    PostgresTestDb(const PostgresTestDb&) = delete;
    PostgresTestDb& operator=(const PostgresTestDb&) = delete;

    // A postgresql:// URI of the new database; empty if it could not be made (then error()).
    const std::string& uri() const { return uri_; }
    const std::string& name() const { return name_; }
    const std::string& error() const { return error_; }

    // Runs SQL on the maintenance database; returns the error, empty on success.
    std::string execMaintenance(const std::string& sql) const {
        return exec(postgresTestUri(), sql);
    }
    // Runs SQL on the test's database; returns the error, empty on success.
    std::string execHere(const std::string& sql) const { return exec(uri_, sql); }
    // The first value of the first row of a query on the test's database ("" if none).
    std::string query(const std::string& sql) const { return firstValue(uri_, sql); }

  private:
    static std::string exec(const std::string& uri, const std::string& sql) {
        PGconn* c = PQconnectdb(uri.c_str());
        std::string err;
        if (PQstatus(c) != CONNECTION_OK) {
            err = PQerrorMessage(c);
        } else {
            PQsetNoticeProcessor(
                c, [](void*, const char*) {}, nullptr);
            PGresult* r = PQexec(c, sql.c_str());
            if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK)
                err = PQresultErrorMessage(r);
            PQclear(r);
        }
        PQfinish(c);
        return err;
    }
    // The maintenance URI's settings with another dbname, as a postgresql:// URI.
    static std::string uriFor(const std::string& db) {
        std::string uri = "postgresql://?dbname=" + db;
        char* err = nullptr;
        PQconninfoOption* opts = PQconninfoParse(postgresTestUri(), &err);
        if (!opts) {
            PQfreemem(err);
            return "";
        }
        for (PQconninfoOption* o = opts; o->keyword; ++o) {
            if (!o->val || !*o->val || std::string(o->keyword) == "dbname") continue;
            uri += std::string("&") + o->keyword + "=";
            for (const char* p = o->val; *p; ++p) {
                const unsigned char ch = static_cast<unsigned char>(*p);
                if (std::isalnum(ch) || ch == '-' || ch == '_' || ch == '.') {
                    uri += *p;
                } else {
                    char hex[4];
                    std::snprintf(hex, sizeof hex, "%%%02X", ch);
                    uri += hex;
                }
            }
        }
        PQconninfoFree(opts);
        return uri;
    }

    std::string name_, uri_, error_;
};

}  // namespace rainet::test
