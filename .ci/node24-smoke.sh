#!/usr/bin/env bash
# Node 24 smoke test, run by .ci/run after the suite (which runs on the machine's Node).
# In a scratch folder: Node 24 from the npm registry, a copy of this working tree, `npm ci`
# under Node 24 (better-sqlite3 compiles for its ABI), a build, `kubesim up` on a free port
# with its own state, and one informer of @kubernetes/client-node 2.x seeing a pod it creates.
# Exits non-zero on any failure; every process it started is stopped and the folder removed.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/kubesim-node24.XXXXXX")"
cluster_pid=''
started=$SECONDS

say() { echo "node24: $* ($((SECONDS - started))s)"; }

# stop_cluster stops `kubesim up` and returns its exit status (0 when it stops cleanly).
stop_cluster() {
  [ -n "$cluster_pid" ] || return 0
  local pid=$cluster_pid status=0
  cluster_pid=''
  # `kubesim up` stops its components on SIGTERM; whatever is left of its process group
  # (it runs in a session of its own) is killed after 15 s.
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 150); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL -- "-$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || status=$?
  return "$status"
}

cleanup() {
  stop_cluster || true
  rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 143' TERM INT

fail() {
  say "FAILED: $*"
  if [ -f "$scratch/cluster.log" ]; then
    echo '--- kubesim up log (last 40 lines) ---'
    tail -n 40 "$scratch/cluster.log"
  fi
  exit 1
}

command -v kubectl >/dev/null 2>&1 || fail 'kubectl not found on PATH'

# 1. Node 24 from the npm registry: the `node` package brings the binary and its headers.
say "installing node@24 into $scratch/node24"
mkdir -p "$scratch/node24"
(cd "$scratch/node24" && npm install --no-audit --no-fund --loglevel=error node@24 >install.log 2>&1) || {
  cat "$scratch/node24/install.log"
  fail 'npm install node@24'
}
export PATH="$scratch/node24/node_modules/.bin:$PATH"
platform_package="node-$(node -p 'process.platform + "-" + process.arch')"
node_dir="$(find "$scratch/node24/node_modules" -maxdepth 4 -type d -name "$platform_package" | head -n 1)"
[ -f "$node_dir/include/node/node_api.h" ] || fail "no Node headers under $node_dir"
# node-gyp compiles native modules against these headers instead of downloading them.
export npm_config_nodedir="$node_dir"
version="$(node --version)"
case "$version" in v24.*) say "using node $version" ;; *) fail "node on PATH is $version, not 24" ;; esac

# 2. A copy of the working tree (tracked and new files, as git sees them; no node_modules).
say 'copying the working tree'
mkdir -p "$scratch/repo"
(cd "$repo" && git ls-files -z --cached --others --exclude-standard) |
  while IFS= read -r -d '' file; do if [ -e "$repo/$file" ]; then printf '%s\0' "$file"; fi; done |
  tar -C "$repo" --null -T - -cf - | tar -C "$scratch/repo" -xf -

say 'npm ci (builds better-sqlite3 for Node 24; takes minutes)'
(cd "$scratch/repo" && npm ci --no-audit --no-fund --loglevel=error >npm-ci.log 2>&1) || {
  tail -n 40 "$scratch/repo/npm-ci.log"
  fail 'npm ci'
}
# The lockfile's better-sqlite3 12 aborts under Node 24.19+ when the garbage collector frees a
# statement (an upstream bug fixed in 13); 13 in turn no longer runs on Node 20. Until Node 20
# support ends and the lockfile moves to 13, Node 24 runs kubesim with 13 installed over it.
say 'better-sqlite3 13 for Node 24 (see docs/testing.md)'
(cd "$scratch/repo" && npm install --no-save --no-audit --no-fund --loglevel=error better-sqlite3@^13 >>npm-ci.log 2>&1) || {
  tail -n 40 "$scratch/repo/npm-ci.log"
  fail 'npm install better-sqlite3@13'
}
(cd "$scratch/repo" && node -e "require('better-sqlite3')(':memory:').close()") || fail 'better-sqlite3 does not load under Node 24'

say 'building'
(cd "$scratch/repo" && npm run build --silent) || fail 'npm run build'

# 3. The 2.x client, in a folder of its own so it does not touch the repo's 1.x devDependency.
say 'installing @kubernetes/client-node@2'
mkdir -p "$scratch/client"
echo '{ "private": true, "type": "module" }' >"$scratch/client/package.json"
(cd "$scratch/client" && npm install --no-audit --no-fund --loglevel=error @kubernetes/client-node@2 >install.log 2>&1) || {
  cat "$scratch/client/install.log"
  fail 'npm install @kubernetes/client-node@2'
}
cp "$repo/.ci/node24-informer.mjs" "$scratch/client/"

# 4. A cluster on a free port with its own state folder and kubeconfig.
kubeconfig="$scratch/kubeconfig"
say 'starting kubesim up'
setsid node "$scratch/repo/dist/cli/main.js" up --port 0 --data-dir "$scratch/state" --kubeconfig "$kubeconfig" >"$scratch/cluster.log" 2>&1 &
cluster_pid=$!

say 'waiting for 3 Ready nodes'
ready=''
for _ in $(seq 120); do
  kill -0 "$cluster_pid" 2>/dev/null || fail 'kubesim up exited'
  if [ -f "$kubeconfig" ]; then
    nodes="$(kubectl --kubeconfig "$kubeconfig" get nodes --no-headers 2>/dev/null || true)"
    if [ "$(echo "$nodes" | grep -c ' Ready ')" -eq 3 ]; then
      ready=yes
      break
    fi
  fi
  sleep 0.5
done
[ -n "$ready" ] || fail "nodes not Ready after 60 s: ${nodes:-no answer}"
kubectl --kubeconfig "$kubeconfig" get nodes

say 'informer (client-node 2.x) sees a pod it creates'
(cd "$scratch/client" && node node24-informer.mjs "$kubeconfig") || fail 'informer'

# A native module can work at first and crash only when the garbage collector frees its
# objects (better-sqlite3 12 does under Node 24.19+), so the cluster must also stay up for a
# while under reads, and stop cleanly.
say 'reading pods and nodes for 30 s; the cluster must stay up'
soak_until=$((SECONDS + 30))
while [ "$SECONDS" -lt "$soak_until" ]; do
  kill -0 "$cluster_pid" 2>/dev/null || fail 'kubesim up exited while in use'
  kubectl --kubeconfig "$kubeconfig" get pods,nodes -A >/dev/null || fail 'kubectl get pods,nodes failed'
  sleep 0.5
done

say 'stopping the cluster'
stop_status=0
stop_cluster || stop_status=$?
[ "$stop_status" -eq 0 ] || fail "kubesim up exited with status $stop_status when stopped"
say 'passed'
