#!/usr/bin/env bash
# pixflow run on a packed dataset vs on the JPEG folder it was packed from, in one run,
# interleaved (the order alternates per round), on a shared, noisy machine: prints each
# round, the median samples/s of each and the median of the per-round ratios pack/folder, and
# the same for the decode+augment stage's busy time per sample (its CPU cost, which a loaded
# machine disturbs less than wall-clock throughput).
#
#   bench/pack_bench.sh [-n ROUNDS] [-e EPOCHS] [-w WORKERS] [-c PIXFLOW_CLI] [-s MAX_SIDE] [-q QUALITY] [-f]
#
# -f adds FFCV 1.0.2 (bench/python/bench_ffcv.py; built into .pydeps, see that file) on an
# FFCV file written at the same max side and quality, in the same rounds (after the two
# pixflow runs of each round).
#
# Data: bench/python/make_imagenet_folder.py (600 JPEGs at ImageNet's sizes, long side 500,
# made from data/; Debian's python3 with OpenCV), packed with
# `pixflow pack FOLDER P.pfpack --max-side S --quality Q`. Both runs: recipe imagenet-train
# (RandomResizedCrop 224 + flip + normalize, f32 NCHW), batch 64.
set -euo pipefail
rounds=5; epochs=10; workers=2; cli=build/pixflow; side=320; quality=90; ffcv=0
while getopts "n:e:w:c:s:q:f" o; do case $o in n) rounds=$OPTARG;; e) epochs=$OPTARG;; w) workers=$OPTARG;;
  c) cli=$OPTARG;; s) side=$OPTARG;; q) quality=$OPTARG;; f) ffcv=1;; *) sed -n 2,14p "$0"; exit 2;; esac; done
py="env PYTHONPATH=$PWD/.pydeps /opt/pixflow-venv/bin/python"
cd "$(dirname "$0")/.."
work=${PACK_BENCH_DIR:-/tmp/pixflow_pack_bench}
mkdir -p "$work"
/usr/bin/python3 bench/python/make_imagenet_folder.py "$work/folder" --count 600 >/dev/null
pack="$work/p${side}_q${quality}.pfpack"
"$cli" pack "$work/folder" "$pack" --max-side "$side" --quality "$quality" --quiet
beton="$work/ffcv${side}_q${quality}.beton"
if [ "$ffcv" = 1 ] && [ ! -f "$beton" ]; then
  $py bench/python/bench_ffcv.py write "$work/folder" "$beton" --max-side "$side" --quality "$quality" >/dev/null 2>&1
fi
run_ffcv() { $py bench/python/bench_ffcv.py run "$beton" --epochs "$epochs" --workers "$workers" 2>/dev/null |
  sed -n 's/^throughput \([0-9.]*\) samples\/s/\1/p'; }
# prints "<samples/s> <decode_augment busy ms per sample>"
run() { "$cli" run "$1" --epochs "$epochs" --batch 64 --workers "$workers" --seed 1 --quiet 2>&1 |
  awk '/^decode_augment/ { busy = $4; items = $3 } /^throughput/ { tput = $2 } END { printf "%s %.4f\n", tput, 1000 * busy / items }'; }
run "$work/folder" >/dev/null; run "$pack" >/dev/null  # warm the page cache and the CPU
fs=(); ps=(); rs=(); fc=(); pc=(); rc=(); xs=(); xrs=()
for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) = 1 ]; then f=$(run "$work/folder"); p=$(run "$pack"); else p=$(run "$pack"); f=$(run "$work/folder"); fi
  set -- $f; ft=$1; fb=$2; set -- $p; pt=$1; pb=$2
  ratio=$(awk -v a="$pt" -v b="$ft" 'BEGIN { printf "%.3f", a / b }')
  cratio=$(awk -v a="$fb" -v b="$pb" 'BEGIN { printf "%.3f", a / b }')
  extra=""
  if [ "$ffcv" = 1 ]; then
    x=$(run_ffcv); xr=$(awk -v a="$pt" -v b="$x" 'BEGIN { printf "%.3f", a / b }')
    xs+=("$x"); xrs+=("$xr"); extra=", ffcv $x samples/s, pack/ffcv $xr"
  fi
  echo "round $r: folder $ft samples/s ($fb ms/sample busy), pack $pt samples/s ($pb ms/sample busy), pack/folder $ratio (CPU $cratio)$extra"
  fs+=("$ft"); ps+=("$pt"); rs+=("$ratio"); fc+=("$fb"); pc+=("$pb"); rc+=("$cratio")
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "folder: $(du -sk "$work/folder" | cut -f1) KiB; pack: $(( $(stat -c %s "$pack") / 1024 )) KiB (max side $side, quality $quality)"
echo "median folder $(median "${fs[@]}") samples/s, median pack $(median "${ps[@]}") samples/s, median ratio pack/folder $(median "${rs[@]}")"
echo "decode+augment busy per sample: median folder $(median "${fc[@]}") ms, median pack $(median "${pc[@]}") ms, median ratio folder/pack $(median "${rc[@]}")"
if [ "$ffcv" = 1 ]; then
  echo "ffcv: $(( $(stat -c %s "$beton") / 1024 )) KiB; median ffcv $(median "${xs[@]}") samples/s, median ratio pack/ffcv $(median "${xrs[@]}")"
fi
