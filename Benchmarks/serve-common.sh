# Sourced by serve-load.sh and serve-soak.sh (from the repository root): checks for wrk, builds
# the release `parlance` ($bin), makes a scratch folder ($work) removed on exit with the server,
# and `start_server ARGS…` runs `parlance serve ARGS… --port 0` and sets $pid and $port.
command -v wrk >/dev/null || { echo "$(basename "$0"): needs wrk (apt-get install wrk)" >&2; exit 1; }
swift build -c release --product parlance >&2
bin="$(swift build -c release --show-bin-path)/parlance"
work="$(mktemp -d)"
pid=""
cleanup() { [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
start_server() {
    "$bin" serve "$@" --port 0 2> "$work/serve.err" &
    pid=$!
    for _ in $(seq 100); do grep -q "listening on" "$work/serve.err" 2>/dev/null && break; sleep 0.1; done
    port=$(grep -o 'listening on http://[0-9.]*:[0-9]*' "$work/serve.err" | grep -o '[0-9]*$')
}
