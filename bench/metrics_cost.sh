#!/usr/bin/env bash
# The cost of serving metrics (docs/observability.md): the same `pixflow run`
# without (A) and with (B) `--metrics 127.0.0.1:0` scraped once a second by
# curl, interleaved for ROUNDS rounds (A first on odd rounds, B first on
# even ones); prints each round's throughput and the median ratio B/A. The
# stage histograms are counted in both (they are always on).
#   bench/metrics_cost.sh PIXFLOW SOURCE [ROUNDS] [-- extra run args]
set -euo pipefail
cli=$1; src=$2; rounds=${3:-7}; shift $(( $# >= 3 ? 3 : 2 ))
[ "${1:-}" = "--" ] && shift
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
tput() { grep -oE '^throughput [0-9.]+' "$1" | grep -oE '[0-9.]+$'; }
run_a() { "$cli" run "$src" --quiet "$@" > "$tmp/a.out" 2>/dev/null; tput "$tmp/a.out"; }
run_b() {
  "$cli" run "$src" --quiet --metrics 127.0.0.1:0 "$@" > "$tmp/b.out" 2> "$tmp/b.err" &
  local pid=$! url="" n=0
  for _ in $(seq 1 100); do url=$(grep -oE 'http://[^ ]+/metrics' "$tmp/b.err" || true); [ -n "$url" ] && break; sleep 0.05; done
  while kill -0 "$pid" 2>/dev/null; do curl -s -o /dev/null --max-time 2 "$url" && n=$((n + 1)); sleep 1; done
  wait "$pid"
  echo "$(tput "$tmp/b.out") $n"
}
va=(); vb=()
for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) = 1 ]; then a=$(run_a "$@"); b=$(run_b "$@"); else b=$(run_b "$@"); a=$(run_a "$@"); fi
  echo "round $r: A=$a samples/s  B=${b% *} samples/s (${b#* } scrapes)"
  va+=("$a"); vb+=("${b% *}")
done
python3 - "${va[*]}" "${vb[*]}" <<'PY'
import statistics, sys
a = [float(x) for x in sys.argv[1].split()]; b = [float(x) for x in sys.argv[2].split()]
r = [y / x for x, y in zip(a, b)]
print(f"median A {statistics.median(a):g}, B {statistics.median(b):g} samples/s; median per-round B/A = "
      f"{statistics.median(r):.3f} (ratios {', '.join(f'{x:.3f}' for x in r)})")
PY
