#!/usr/bin/env bash
# The operator's kit, end to end (docs/deploy.md), as root on Debian 12: builds the Debian package
# from the release tree (cpack in build/), installs it with apt, starts rainet.service from it,
# checks /healthz, the web client and a played game (the installed `rainet loadtest`); then two
# nodes (rainet@PORT.service) as a cluster, set up as docs/deploy.md section 4 does (one
# PostgreSQL database owned by the role `rainet`, one Redis: both throwaway, on loopback), behind
# nginx with the packaged proxy configuration: HTTP, WebSocket games through nginx and games whose
# players sit on different nodes (played through forwarding), and which client address each node
# believes (X-Forwarded-For only with --trust-proxy). Then purges the package and checks that
# nothing of it is left.
#
# With systemd as PID 1 the units are started with systemctl. Without it (a CI container) the
# unit's ExecStart is run the way systemd would: as its User/Group, with its EnvironmentFile=s,
# its StateDirectory= made and owned by that user, %i replaced by the instance; systemd's
# sandboxing (ProtectSystem=, ...) is then not applied, and ${VAR} is split on whitespace as $VAR
# is (none of our values holds a space).
#
# Needs: the release build (scripts/setup.sh: build/rainet and web/dist), dpkg-dev, nginx, python3,
# curl, openssl, systemd's systemd-analyze, postgresql, redis-server (setup.sh installs them). Refuses to run when a rainet package, user or /var/lib/rainet is
# there already: it would not leave the machine as it found it. The one exception is its own
# leftover: a run killed before its purge (SIGKILL, a machine stopped mid-run: no EXIT trap runs)
# leaves the package installed, and the next run on that machine must not fail for it. Before it
# installs, the test writes $marker (root's /var/lib, so no other user can forge it); it removes
# the marker only once the purge is done. A package found together with the marker is purged.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

fail() {
    echo "package_test: FAIL: $*" >&2
    exit 1
}
step() { echo "== package: $*"; }
# dpkg knows the package: installed (wholly or in part) or its configuration files left.
package_known() { dpkg-query -W -f='${Status}' rainet 2>/dev/null | grep -q "installed\|config-files"; }
# Purges it; apt's output is shown only when the purge fails.
purge_package() {
    local out
    out=$(DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq rainet 2>&1) ||
        { echo "$out" >&2; return 1; }
}

[[ $(id -u) == 0 ]] || fail "must run as root (it installs a package)"
# This test's own leftover from a killed run (see above): purge it, then check as usual.
marker=/var/lib/rainet-package-test.marker
if [[ -f $marker && ! -L $marker && $(stat -c %u "$marker") == 0 ]]; then
    step "an earlier run stopped before its purge ($(head -n 1 "$marker")): purging its package"
    if package_known; then
        purge_package || fail "apt-get purge of the earlier run's package"
    fi
    rm -f "$marker"
fi
for tool in cpack dpkg-shlibdeps apt-get nginx python3 curl openssl setpriv systemd-analyze psql \
    redis-server redis-cli; do
    command -v "$tool" >/dev/null || fail "$tool is missing (bash scripts/setup.sh installs it)"
done
[[ -x build/rainet ]] || fail "build/rainet is missing: build the release tree first"
[[ -f web/dist/index.html ]] || fail "web/dist is missing: cd web && npm run build"
if dpkg-query -W -f='${Status}' rainet 2>/dev/null | grep -q installed; then
    fail "the rainet package is installed already; apt-get purge rainet first"
fi
if getent passwd rainet >/dev/null || [[ -e /var/lib/rainet || -e /etc/default/rainet ]]; then
    fail "a rainet user, /var/lib/rainet or /etc/default/rainet exists already; not touching it"
fi

systemd=false
[[ -d /run/systemd/system ]] && systemd=true
tmp=$(mktemp -d /tmp/rainet-package-test.XXXXXX)
chmod 755 "$tmp"
declare -A unit_pid=()
nginx_pid=""
redis_pid=""
pgdir=""

stop_unit() {
    if $systemd; then
        systemctl stop "$1" || true
    elif [[ -n ${unit_pid[$1]:-} ]]; then
        kill "${unit_pid[$1]}" 2>/dev/null || true
        wait "${unit_pid[$1]}" 2>/dev/null || true
        unset "unit_pid[$1]"
    fi
}

cleanup() {
    local rc=$?
    set +e
    [[ -n $nginx_pid ]] && kill "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null
    for u in "${!unit_pid[@]}"; do stop_unit "$u"; done
    [[ -n $redis_pid ]] && kill "$redis_pid" 2>/dev/null && wait "$redis_pid" 2>/dev/null
    [[ -n $pgdir ]] && bash "$repo/scripts/postgres.sh" stop "$pgdir"
    package_known && purge_package
    package_known || rm -f "$marker"
    rm -rf "$tmp"
    exit $rc
}
trap cleanup EXIT

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# The value of KEY= in a unit file (the last one), or all of them with `all`.
unit_key() {
    local values
    values=$(sed -n "s/^$2=//p" "$1")
    if [[ ${3:-} == all ]]; then echo "$values"; else echo "$values" | tail -n 1; fi
}

# Starts UNIT (rainet.service or rainet@PORT.service) as systemd would; its output goes to the
# journal (systemd) or to $tmp/UNIT.log.
start_unit() {
    local unit=$1
    if $systemd; then
        # postinst started rainet.service on 8080, which may be taken here: clear its failures.
        systemctl reset-failed "$unit" 2>/dev/null || true
        systemctl restart "$unit"
        return
    fi
    local instance="" template=$unit
    if [[ $unit == *@*.service ]]; then
        instance=${unit#*@}
        instance=${instance%.service}
        template=${unit%%@*}@.service
    fi
    local file=/usr/lib/systemd/system/$template
    [[ -f $file ]] || fail "$file is not installed"
    local user group state exec
    user=$(unit_key "$file" User)
    group=$(unit_key "$file" Group)
    state=$(unit_key "$file" StateDirectory)
    exec=$(unit_key "$file" ExecStart)
    state=${state//%i/$instance}
    exec=${exec//%i/$instance}
    if [[ -n $state ]]; then
        install -d -o "$user" -g "$group" -m "$(unit_key "$file" StateDirectoryMode)" \
            "/var/lib/$state"
    fi
    local -a env=()
    local envfile optional line
    while read -r envfile; do
        envfile=${envfile//%i/$instance}
        optional=false
        [[ $envfile == -* ]] && optional=true && envfile=${envfile#-}
        if [[ ! -f $envfile ]]; then
            $optional || fail "$unit: EnvironmentFile $envfile is missing"
            continue
        fi
        while IFS= read -r line; do
            [[ $line =~ ^[[:space:]]*(#|$) ]] && continue
            env+=("$line")
        done <"$envfile"
    done < <(unit_key "$file" EnvironmentFile all)
    (
        cd /
        for kv in "${env[@]}"; do export "${kv%%=*}=${kv#*=}"; done
        umask "$(unit_key "$file" UMask)"
        eval "set -- $exec"
        exec setpriv --reuid="$user" --regid="$group" --init-groups --no-new-privs -- "$@"
    ) >"$tmp/$unit.log" 2>&1 &
    unit_pid[$unit]=$!
}

unit_log() {
    if $systemd; then journalctl -q -o cat -u "$1"; else cat "$tmp/$1.log"; fi
}

# Waits for /healthz on PORT to answer 200 (the service started; a cluster node also has its
# PostgreSQL and Redis links up), or fails after 30 s.
await_health() {
    local port=$1 unit=$2
    for _ in $(seq 300); do
        curl -fsS -o /dev/null "http://127.0.0.1:$port/healthz" 2>/dev/null && return
        sleep 0.1
    done
    unit_log "$unit" | tail -n 20 >&2
    fail "$unit: /healthz on 127.0.0.1:$port did not answer 200 within 30 s"
}

# Plays random games through PORT with the installed binary; asserts that games were played to
# the end without errors, and that a node in UNITS logged one ending. At 25 actions a second a
# game (at most a few hundred plies) ends well within the 15 s; 4 games need 8 guests, within the
# default burst of 10 new identities per address.
play_games() {
    local port=$1 what=$2 out=$tmp/loadtest-$1.txt join=()
    shift 2
    if [[ $1 == --join-port ]]; then
        join=(--join-port "$2")
        out=$tmp/loadtest-$port-$2.txt
        shift 2
    fi
    /usr/bin/rainet loadtest --port "$port" "${join[@]}" --games 4 --pace 40 --ramp 20 --seconds 10 \
        >"$out" 2>&1 ||
        { cat "$out" >&2; fail "$what: rainet loadtest exited with an error"; }
    local actions finished errors
    actions=$(awk '/^actions /{print $2}' "$out")
    finished=$(awk '/^games finished /{print $3}' "$out")
    errors=$(awk '/^connect errors /{print $3}' "$out" | tr -d ,)
    if ((actions == 0 || finished == 0 || errors != 0)) || grep -q '^error ' "$out"; then
        cat "$out" >&2
        fail "$what: expected played games (actions > 0, finished > 0, no errors)"
    fi
    local unit ended=0
    for unit in "$@"; do
        ended=$((ended + $(unit_log "$unit" | grep -c '"event":"game_end"' || true)))
    done
    ((ended > 0)) || fail "$what: no node logged a game_end"
    echo "$what: $actions actions, $finished games finished"
}

step "cmake --install to another prefix (a staging directory)"
stage=$tmp/stage
DESTDIR=$stage cmake --install build --prefix /opt/rainet >"$tmp/install-prefix.log" 2>&1 ||
    { cat "$tmp/install-prefix.log" >&2; fail "cmake --install"; }
for f in bin/rainet share/rainet/web/index.html share/rainet/nginx/rainet.conf \
    share/doc/rainet/deploy.md lib/systemd/system/rainet.service etc/default/rainet; do
    [[ -f $stage/opt/rainet/$f ]] || fail "cmake --install --prefix /opt/rainet: no $f"
done
unit=$stage/opt/rainet/lib/systemd/system/rainet.service
if ! grep -qx 'EnvironmentFile=/opt/rainet/etc/default/rainet' "$unit" ||
    ! grep -q '^ExecStart=/opt/rainet/bin/rainet serve .* --web /opt/rainet/share/rainet/web ' "$unit"; then
    fail "the installed unit does not name the prefix's files"
fi
# A second install keeps the operator's settings.
echo "RAINET_OPTIONS=--edited" >>"$stage/opt/rainet/etc/default/rainet"
DESTDIR=$stage cmake --install build --prefix /opt/rainet >"$tmp/install-prefix.log" 2>&1 ||
    { cat "$tmp/install-prefix.log" >&2; fail "cmake --install, again"; }
grep -qx 'RAINET_OPTIONS=--edited' "$stage/opt/rainet/etc/default/rainet" ||
    fail "cmake --install overwrote an edited etc/default/rainet"

step "building the package (cpack)"
rm -f build/rainet_*.deb
(cd build && cpack -G DEB >"$tmp/cpack.log" 2>&1) || { cat "$tmp/cpack.log" >&2; fail "cpack"; }
debs=(build/rainet_*.deb)
[[ -f ${debs[0]} && ${#debs[@]} == 1 ]] || fail "expected one build/rainet_*.deb"
deb=$tmp/$(basename "${debs[0]}")
cp "${debs[0]}" "$deb"
echo "built ${debs[0]}"
version=$(sed -n 's/^project(rainet VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
[[ $(dpkg-deb -f "$deb" Package) == rainet && $(dpkg-deb -f "$deb" Version) == "$version" ]] ||
    fail "package name/version: $(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version)"
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libc6 libsqlite3 libpq5 libsodium libjemalloc2; do
    [[ $depends == *"$lib"* ]] || fail "Depends ($depends) lacks $lib: shlibdeps did not run"
done
dpkg-deb -c "$deb" | awk '{print $6}' >"$tmp/contents"
for f in ./usr/bin/rainet ./usr/share/rainet/web/index.html \
    ./usr/share/rainet/web/manifest.webmanifest ./usr/lib/systemd/system/rainet.service \
    ./usr/lib/systemd/system/rainet@.service ./usr/lib/systemd/system/rainet-backup.service \
    ./usr/lib/systemd/system/rainet-backup.timer \
    ./etc/default/rainet ./usr/share/rainet/nginx/rainet.conf \
    ./usr/share/rainet/nginx/rainet-proxy.conf ./usr/share/doc/rainet/deploy.md; do
    grep -qxF "$f" "$tmp/contents" || fail "the package lacks $f"
done
grep -qE '^\./usr/share/rainet/web/app\.[0-9a-f]{12}\.js$' "$tmp/contents" ||
    fail "the package lacks the content-hashed app.<hash>.js"
[[ $(dpkg-deb --info "$deb" conffiles 2>/dev/null) == /etc/default/rainet ]] ||
    fail "/etc/default/rainet is not a conffile"

step "installing it (apt-get install ./$(basename "$deb"))"
echo "$(date -u +%FT%TZ) pid $$: scripts/package_test.sh installed the rainet package" >"$marker"
(cd "$tmp" && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "./$(basename "$deb")" \
    >"$tmp/install.log" 2>&1) || { cat "$tmp/install.log" >&2; fail "apt-get install"; }
[[ $(getent passwd rainet | cut -d: -f7) == /usr/sbin/nologin ]] || fail "no rainet system user"
(($(id -u rainet) < 1000)) || fail "the rainet user is not a system user"
[[ $(stat -c '%U:%G %a' /var/lib/rainet) == "rainet:rainet 750" ]] ||
    fail "/var/lib/rainet: $(stat -c '%U:%G %a' /var/lib/rainet)"
grep -q '^ExecStart=/usr/bin/rainet serve ' /usr/lib/systemd/system/rainet.service ||
    fail "rainet.service does not run /usr/bin/rainet"
# Unknown keys and bad values in the units (systemd-analyze needs no running systemd; it prints
# them as warnings, so any output fails).
systemd-analyze verify /usr/lib/systemd/system/rainet.service \
    /usr/lib/systemd/system/rainet@8081.service /usr/lib/systemd/system/rainet-backup.service \
    /usr/lib/systemd/system/rainet-backup.timer >"$tmp/verify.log" 2>&1 ||
    { cat "$tmp/verify.log" >&2; fail "systemd-analyze verify"; }
if grep -q . "$tmp/verify.log"; then
    cat "$tmp/verify.log" >&2
    fail "systemd-analyze verify complains about the units"
fi

step "rainet.service from the package ($($systemd && echo systemctl || echo "no systemd: its ExecStart as its User"))"
port=$(free_port)
sed -i "s/^RAINET_LISTEN=.*/RAINET_LISTEN=127.0.0.1:$port/" /etc/default/rainet
start_unit rainet.service
await_health "$port" rainet.service
curl -fsS "http://127.0.0.1:$port/" | grep -q '<script' || fail "/ does not serve the web client"
app=$(curl -fsS "http://127.0.0.1:$port/" | sed -n 's|.*<script type="module" src="\(/app\.[0-9a-f]*\.js\)".*|\1|p')
[[ -n $app ]] || fail "index.html names no content-hashed script"
[[ $(curl -fsS -o /dev/null -H 'Accept-Encoding: br' -w '%{content_type} %{header_json}' \
    "http://127.0.0.1:$port$app") == *'"content-encoding":["br"]'* ]] ||
    fail "$app is not served brotli-compressed"
[[ $(systemctl is-enabled rainet-backup.timer 2>/dev/null) != enabled ]] ||
    fail "the backup timer is enabled by the package: it is off until the operator turns it on"
# What the backup timer runs: a copy of the live database (its restore is tested by the server
# suite's restore drill).
runuser -u rainet -- /usr/bin/rainet backup --db /var/lib/rainet/rainet.db \
    --to /var/lib/rainet/backup-test.db >"$tmp/backup.log" 2>&1 ||
    { cat "$tmp/backup.log" >&2; fail "rainet backup of the running service's database"; }
[[ $(head -c 15 /var/lib/rainet/backup-test.db) == "SQLite format 3" ]] ||
    fail "the backup is not a SQLite database"
[[ $(stat -c '%U %a' /var/lib/rainet/backup-test.db) == "rainet 600" ]] ||
    fail "the backup is not private to rainet: $(stat -c '%U %a' /var/lib/rainet/backup-test.db)"
rm -f /var/lib/rainet/backup-test.db
[[ $(stat -c %U /var/lib/rainet/rainet.db) == rainet ]] ||
    fail "the database is not /var/lib/rainet/rainet.db owned by rainet"
play_games "$port" "rainet.service" rainet.service
stop_unit rainet.service

step "two nodes as a cluster (PostgreSQL, Redis) behind nginx (the packaged rainet-proxy.conf) on loopback"
# docs/deploy.md section 4 on a throwaway PostgreSQL (unix socket only, trust authentication in
# place of the packaged server's peer authentication) and a throwaway redis-server.
pgdir=$tmp/pg
bash scripts/postgres.sh start "$pgdir" >"$tmp/pg.url"
psql -q -v ON_ERROR_STOP=1 "$(cat "$tmp/pg.url")" -c 'CREATE ROLE rainet LOGIN' \
    -c 'CREATE DATABASE rainet OWNER rainet' >"$tmp/psql.log" 2>&1 ||
    { cat "$tmp/psql.log" >&2; fail "creating the role and database rainet"; }
rp=$(free_port)
redis-server --bind 127.0.0.1 --port "$rp" --save '' --appendonly no >"$tmp/redis.log" 2>&1 &
redis_pid=$!
for _ in $(seq 100); do
    [[ $(redis-cli -p "$rp" ping 2>/dev/null) == PONG ]] && break
    sleep 0.1
done
[[ $(redis-cli -p "$rp" ping 2>/dev/null) == PONG ]] || { cat "$tmp/redis.log" >&2; fail "redis-server"; }
# The two runs below make 16 guests from 127.0.0.1 within a minute, and a cluster counts new
# identities per address across its nodes (Redis): over the default 10 a minute.
cluster="--db postgresql://rainet@/rainet?host=$pgdir --redis redis://127.0.0.1:$rp --identities-per-minute 100"
p1=$(free_port)
p2=$(free_port)
while [[ $p2 == "$p1" ]]; do p2=$(free_port); done
# Node 1 believes nginx's X-Forwarded-For (as docs/deploy.md configures it), node 2 does not. A short hello timeout makes a node
# close a silent connection soon, logging the client address it believed (hello_timeout).
m1=$(free_port)
m2=$(free_port)
echo "RAINET_OPTIONS=--trust-proxy 127.0.0.1/32 ::1/128 --hello-timeout 1 $cluster --node-id n$p1 --metrics-listen 127.0.0.1:$m1" \
    >"/etc/default/rainet-$p1"
echo "RAINET_OPTIONS=--hello-timeout 1 $cluster --node-id n$p2 --metrics-listen 127.0.0.1:$m2" >"/etc/default/rainet-$p2"
start_unit "rainet@$p1.service"
start_unit "rainet@$p2.service"
await_health "$p1" "rainet@$p1.service"
await_health "$p2" "rainet@$p2.service"
for p in "$p1" "$p2"; do
    health=$(curl -fsS "http://127.0.0.1:$p/healthz")
    [[ $health == *'"node":"n'$p'"'* && $health == *'"role":"cluster"'* &&
        $health == *'"redis":"up"'* && $health == *'"database":"up"'* ]] ||
        fail "node $p: /healthz is not a cluster node's with both links up: $health"
done
[[ ! -e /var/lib/rainet/node-$p1/rainet.db && ! -e /var/lib/rainet/node-$p2/rainet.db ]] ||
    fail "a cluster node made a SQLite database: its --db was not the shared PostgreSQL"
# Players on different nodes: one creates each game on node 1, the other joins it on node 2, and
# every action of the joiner is forwarded to the owner.
play_games "$p1" "across the nodes" --join-port "$p2" "rainet@$p1.service" "rainet@$p2.service"
forwarded=$(curl -fsS "http://127.0.0.1:$m2/metrics" | awk '/^rainet_forwarded_out_total /{print $2}')
((${forwarded:-0} > 0)) || fail "node 2 forwarded nothing to node 1 (rainet_forwarded_out_total ${forwarded:-none})"
echo "across the nodes: node 2 forwarded $forwarded messages to the games' owner"

# docs/deploy.md's PostgreSQL backup and restore: pg_dump of the live database, pg_restore into
# an empty one; the games and accounts are all there.
pg_url() { echo "postgresql://rainet@/$1?host=$pgdir"; }
pg_dump --format=custom --file="$tmp/rainet.dump" "$(pg_url rainet)" 2>"$tmp/pgdump.log" ||
    { cat "$tmp/pgdump.log" >&2; fail "pg_dump"; }
psql -q -v ON_ERROR_STOP=1 "$(cat "$tmp/pg.url")" -c 'CREATE DATABASE rainet_restored OWNER rainet' \
    >"$tmp/psql.log" 2>&1 || { cat "$tmp/psql.log" >&2; fail "creating rainet_restored"; }
pg_restore --no-owner --exit-on-error --dbname="$(pg_url rainet_restored)" "$tmp/rainet.dump" \
    2>"$tmp/pgrestore.log" || { cat "$tmp/pgrestore.log" >&2; fail "pg_restore"; }
rows='SELECT g.id, g.status, count(a.ply) FROM games g LEFT JOIN actions a ON a.game = g.id GROUP BY g.id, g.status ORDER BY g.id'
[[ -n $(psql -At "$(pg_url rainet)" -c "$rows") &&
    $(psql -At "$(pg_url rainet)" -c "$rows") == "$(psql -At "$(pg_url rainet_restored)" -c "$rows")" ]] ||
    fail "the restored PostgreSQL database lacks games or actions"
echo "pg_dump/pg_restore: $(psql -At "$(pg_url rainet_restored)" -c 'SELECT count(*) FROM games') games restored"

# The full site file (TLS, HTTP redirect) must be valid: with a throwaway certificate.
mkdir -p "$tmp/full/snippets"
cp /usr/share/rainet/nginx/rainet-proxy.conf "$tmp/full/snippets/"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=rainet.example.org \
    -keyout "$tmp/full/key.pem" -out "$tmp/full/cert.pem" >/dev/null 2>&1
sed -e "s|/etc/letsencrypt/live/rainet.example.org/fullchain.pem|$tmp/full/cert.pem|" \
    -e "s|/etc/letsencrypt/live/rainet.example.org/privkey.pem|$tmp/full/key.pem|" \
    /usr/share/rainet/nginx/rainet.conf >"$tmp/full/rainet.conf"
cat >"$tmp/full/nginx.conf" <<EOF
pid $tmp/full/nginx.pid;
error_log $tmp/full/error.log;
events {}
http { access_log off; include $tmp/full/rainet.conf; }
EOF
nginx -t -q -p "$tmp/full" -c "$tmp/full/nginx.conf" 2>"$tmp/full/test.log" ||
    { cat "$tmp/full/test.log" >&2; fail "nginx -t refuses the packaged rainet.conf"; }

pn=$(free_port)
mkdir -p "$tmp/nginx"
cat >"$tmp/nginx/nginx.conf" <<EOF
daemon off;
worker_processes 1;
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx/error.log;
events { worker_connections 256; }
http {
    access_log $tmp/nginx/access.log;
    client_body_temp_path $tmp/nginx/body;
    proxy_temp_path $tmp/nginx/proxy;
    fastcgi_temp_path $tmp/nginx/fastcgi;
    uwsgi_temp_path $tmp/nginx/uwsgi;
    scgi_temp_path $tmp/nginx/scgi;
$(awk '/^map /,/^}/' /usr/share/rainet/nginx/rainet.conf)
$(awk '/^upstream rainet /,/^}/' /usr/share/rainet/nginx/rainet.conf |
    grep -v '^ *server ' | sed "s/^}/    server 127.0.0.1:$p1;\n    server 127.0.0.1:$p2;\n}/")
    server {
        listen 127.0.0.1:$pn;
        include /usr/share/rainet/nginx/rainet-proxy.conf;
    }
}
EOF
nginx -p "$tmp/nginx" -c "$tmp/nginx/nginx.conf" &
nginx_pid=$!
for _ in $(seq 300); do
    curl -fsS -o /dev/null "http://127.0.0.1:$pn/healthz" 2>/dev/null && break
    kill -0 "$nginx_pid" 2>/dev/null || { cat "$tmp/nginx/error.log" >&2; fail "nginx exited"; }
    sleep 0.1
done
[[ $(curl -fsS "http://127.0.0.1:$pn/healthz") == *'"role":"cluster"'* ]] || fail "/healthz through nginx"
curl -fsS "http://127.0.0.1:$pn/" | grep -q '<script' || fail "/ through nginx"
[[ $(curl -sS -o /dev/null -w '%{http_code}' "http://127.0.0.1:$pn/metrics") == 404 ]] ||
    fail "/metrics is not refused through nginx"
[[ $(curl -sS -o /dev/null -w '%{http_code}' "http://127.0.0.1:$p1/metrics") == 404 ]] ||
    fail "/metrics is served on a node's public address"
curl -fsS "http://127.0.0.1:$m1/metrics" | grep -q '^rainet_' || fail "/metrics on --metrics-listen"
# HSTS: from the node that trusts its proxy's X-Forwarded-Proto: https, never from the other.
curl -fsS -D - -o /dev/null -H 'X-Forwarded-Proto: https' "http://127.0.0.1:$p1/" |
    grep -qi '^strict-transport-security: max-age=' || fail "no HSTS behind a trusted TLS proxy"
! curl -fsS -D - -o /dev/null -H 'X-Forwarded-Proto: https' "http://127.0.0.1:$p2/" |
    grep -qi '^strict-transport-security' || fail "HSTS believed from an untrusted peer"
curl -fsS -D - -o /dev/null "http://127.0.0.1:$pn/" | grep -qi "^content-security-policy: default-src 'none'" ||
    fail "no Content-Security-Policy through nginx"
play_games "$pn" "through nginx" "rainet@$p1.service" "rainet@$p2.service"

# hello_timeout addresses a node logged.
logged() { unit_log "rainet@$1.service" | sed -n 's/.*"event":"hello_timeout","address":"\([^"]*\)".*/\1/p'; }
# A silent WebSocket from SOURCE through nginx, with a forged X-Forwarded-For; the node that
# got it closes it (1008 no hello) after logging.
probe() {
    local out
    out=$(python3 "$repo/scripts/ws_probe.py" 127.0.0.1 "$2" "$1" "${3:-}") ||
        fail "ws_probe from $1 to $2: $out"
    [[ $out == "closed 1008 no hello" ]] || fail "ws_probe from $1: $out"
}
# Probes from 127.0.0.2, .3, ... until each node has logged one (nginx hashes on the address).
sources=()
for n in $(seq 2 40); do
    probe "127.0.0.$n" "$pn" 203.0.113.9
    sources+=("127.0.0.$n")
    c1=0 c2=0
    for _ in $(seq 50); do  # the journal may take a moment; the close came after the log line
        c1=$(logged "$p1" | wc -l)
        c2=$(logged "$p2" | wc -l)
        ((c1 + c2 == ${#sources[@]})) && break
        sleep 0.1
    done
    ((c1 + c2 == ${#sources[@]})) || fail "a probe left no hello_timeout line"
    ((c1 > 0 && c2 > 0)) && break
done
((c1 > 0 && c2 > 0)) || fail "nginx sent 39 client addresses to one node"
# Node 1 (--trust-proxy 127.0.0.1/32) saw the real client addresses: neither nginx's nor the
# forged one. Node 2 saw nginx.
while read -r a; do
    [[ " ${sources[*]} " == *" $a "* ]] || fail "the trusting node believed $a"
done < <(logged "$p1")
while read -r a; do
    [[ $a == 127.0.0.1 ]] || fail "the node without --trust-proxy believed $a"
done < <(logged "$p2")
echo "through nginx: --trust-proxy node saw $(logged "$p1" | sort -u | xargs), the other $(logged "$p2" | sort -u | xargs)"
# Directly, the trusting node reads the header only from its trusted proxy's address.
probe 127.0.0.7 "$p1" 203.0.113.9
probe 127.0.0.1 "$p1" 203.0.113.9
for _ in $(seq 50); do
    [[ $(logged "$p1" | tail -n 2 | xargs) == "127.0.0.7 203.0.113.9" ]] && break
    sleep 0.1
done
[[ $(logged "$p1" | tail -n 2 | xargs) == "127.0.0.7 203.0.113.9" ]] ||
    fail "direct probes: the trusting node believed $(logged "$p1" | tail -n 2 | xargs)"

kill "$nginx_pid"
wait "$nginx_pid" 2>/dev/null || true
nginx_pid=""
stop_unit "rainet@$p1.service"
stop_unit "rainet@$p2.service"

step "purging the package"
purge_package || fail "apt-get purge"
! package_known ||
    fail "rainet is still known to dpkg"
! getent passwd rainet >/dev/null || fail "the rainet user is left"
! getent group rainet >/dev/null || fail "the rainet group is left"
for f in /var/lib/rainet /etc/default/rainet "/etc/default/rainet-$p1" /usr/bin/rainet \
    /usr/share/rainet /usr/lib/systemd/system/rainet.service; do
    [[ ! -e $f ]] || fail "$f is left after purge"
done
echo "package_test: OK"
