#!/usr/bin/env bash
# CPU-time A/B of two pixflow CLIs (less sensitive to a loaded machine than wall time):
#   bench/cpu_ab.sh N CLI_A CLI_B -- run FOLDER --epochs E ...
# N interleaved rounds; prints each round's user+sys CPU seconds and `throughput` line, then
# the medians and the B/A ratios. Build the two CLIs as ../shared/tools/ab-bench.sh does
# (it caches them under /tmp/pf-ab/REV/build/pixflow).
n=$1; a=$2; b=$3; shift 4
ca=(); cb=(); ta=(); tb=()
one() { local out; out=$( { /usr/bin/time -f "CPU %U %S" "$@" ; } 2>&1 ); 
  echo "$(echo "$out" | awk '/^CPU/{print $2+$3}') $(echo "$out" | awk '/^throughput/{print $2}')"; }
for r in $(seq 1 $n); do
  if [ $((r%2)) = 1 ]; then x=$(one $a "$@"); y=$(one $b "$@"); else y=$(one $b "$@"); x=$(one $a "$@"); fi
  echo "round $r A: $x  B: $y"
  ca+=(${x% *}); ta+=(${x#* }); cb+=(${y% *}); tb+=(${y#* })
done
med() { printf "%s\n" "$@" | sort -g | awk '{v[NR]=$1} END{print (NR%2)?v[(NR+1)/2]:(v[NR/2]+v[NR/2+1])/2}'; }
mca=$(med "${ca[@]}"); mcb=$(med "${cb[@]}"); mta=$(med "${ta[@]}"); mtb=$(med "${tb[@]}")
echo "median cpu A $mca B $mcb  ratio B/A $(echo "$mcb/$mca" | bc -l | cut -c1-5)"
echo "median thr A $mta B $mtb  ratio B/A $(echo "$mtb/$mta" | bc -l | cut -c1-5)"
