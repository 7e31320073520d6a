#!/bin/sh
# `pixflow run --out DIR` on a full disk: exit 1, the OS error by name,
# no partial batch left where a reader looks (each file is written under a
# hidden .part name and renamed when complete), and the final line counts
# the batches really written.
#
# The disk is a 2 MiB tmpfs: mounted directly when we are root, else in a
# user + mount namespace (unshare -rm). Where neither works, a file size
# limit (ulimit -f, SIGXFSZ ignored: write() fails with EFBIG) stands in:
# the same code path, with "File too large" and no batch written.
#
# usage: cli_full_disk.sh PIXFLOW DATA WORK [tmpfs|fsize]
set -u
pixflow=$1 data=$2 work=$3 mode=${4:-}
dir="$work/cli_full_disk"
# imagenet-train, batch 2: (2, 3, 224, 224) float32 = 1,204,224 bytes + a
# 128-byte header: one batch fits in 2 MiB, the second does not
size=1204352

fail() {
    echo "cli_full_disk ($mode): $*"
    echo "--- output:"
    cat "$dir.log"
    exit 1
}

run_and_check() { # $1: the errno text; $2: the least batches that fit
    out="$dir/out"
    "$pixflow" run "$data" --batch 2 --workers 1 --quiet --out "$out" >"$dir.log" 2>&1
    rc=$?
    [ "$rc" -eq 1 ] || fail "exit $rc, want 1"
    grep -q "cannot write $out/batch_0000_0000[0-9][0-9].npy: $1" "$dir.log" || fail "no '$1' naming the batch file"
    line=$(grep "written to $out/" "$dir.log") || fail "no 'written to' line"
    n=$(echo "$line" | sed -n 's/^\([0-9][0-9]*\) batch.*/\1/p')
    [ -n "$n" ] || fail "the 'written to' line has no count: $line"
    echo "$line" | grep -q "stopped early" || fail "the 'written to' line does not say the run stopped: $line"
    [ "$n" -ge "$2" ] || fail "$n batches written, want >= $2"
    have=$(ls "$out" | grep -c '^batch_.*\.npy$')
    [ "$have" -eq "$n" ] || fail "$have batch files in $out, the CLI says $n"
    [ "$(ls "$out" | grep -c '^labels_.*\.npy$')" -eq "$n" ] || fail "labels files do not match the batches"
    [ -z "$(ls -A "$out" | grep '\.part$')" ] || fail "a .part file was left behind: $(ls -A "$out")"
    for f in "$out"/batch_*.npy; do
        [ -e "$f" ] || continue
        [ "$(wc -c <"$f")" -eq "$size" ] || fail "$f is $(wc -c <"$f") bytes, a complete batch is $size"
        head -c 128 "$f" | grep -q "'shape': (2, 3, 224, 224" || fail "$f has no (2, 3, 224, 224) header"
    done
    echo "cli_full_disk ($mode): exit 1, '$1', $n complete batch(es), nothing partial"
}

case "$mode" in
"")
    rm -rf "$dir" 2>/dev/null; mkdir -p "$dir" || exit 1
    if mount -t tmpfs -o size=2m pixflow_full_disk "$dir" 2>/dev/null; then
        sh "$0" "$pixflow" "$data" "$work" tmpfs
        rc=$?
        umount "$dir"
        exit $rc
    fi
    if command -v unshare >/dev/null 2>&1 &&
        unshare -rm sh -c 'mount -t tmpfs -o size=2m pixflow_full_disk "$1"' sh "$dir" 2>/dev/null; then
        exec unshare -rm sh -c 'mount -t tmpfs -o size=2m pixflow_full_disk "$5" && exec sh "$1" "$2" "$3" "$4" tmpfs' \
            sh "$0" "$pixflow" "$data" "$work" "$dir"
    fi
    echo "cli_full_disk: no tmpfs here (not root, no user namespace): a file size limit instead"
    exec sh "$0" "$pixflow" "$data" "$work" fsize
    ;;
tmpfs)
    run_and_check "No space left on device" 1
    ;;
fsize)
    # 1000 blocks (512 or 1024 bytes, by shell) < one batch file
    trap '' XFSZ
    ulimit -f 1000 || { echo "cli_full_disk: ulimit -f failed"; exit 1; }
    run_and_check "File too large" 0
    ;;
*)
    echo "cli_full_disk: unknown mode $mode"
    exit 2
    ;;
esac
