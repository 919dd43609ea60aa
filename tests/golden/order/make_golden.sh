#!/bin/sh
# Regenerate the `order` goldens with the real tools (clang-R and llvm-profdata R).
# Usage: sh make_golden.sh            (from any directory; writes next to this script)
# Needs /usr/lib/llvm-19 and /usr/lib/llvm-22 (Debian packages) and setarch.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/gen_program.py" "$here/src"
# one run per plan: each run's raw profile holds one temporal trace
plans="0123456789ab 9876543210ba 0246a 13579b 5 82b 4170 6a3 b0a9 77"
for rel in 19 22; do
  bin=/usr/lib/llvm-$rel/bin
  dir=$work/l$rel
  mkdir -p "$dir"
  (cd "$here/src" && "$bin/clang" -O1 -fprofile-generate -mllvm -pgo-temporal-instrumentation \
      -ffile-compilation-dir=. phases.c local_a.c local_b.c -o "$dir/phases")
  i=0
  for plan in $plans; do
    i=$((i + 1))
    (cd "$dir" && LLVM_PROFILE_FILE=run$i.profraw setarch -R ./phases "$plan")
  done
  out=$here/l$rel
  mkdir -p "$out"
  cp "$dir/run1.profraw" "$out/run1.profraw"
  "$bin/llvm-profdata" merge --num-threads=1 "$dir"/run*.profraw -o "$out/merged.profdata"
  "$bin/llvm-profdata" merge --num-threads=1 --text "$dir"/run*.profraw -o "$out/merged.proftext"
  "$bin/llvm-profdata" order "$out/merged.profdata" > "$out/order.txt"
  "$bin/llvm-profdata" order --num-test-traces=3 "$out/merged.profdata" > "$out/order-test3.txt"
  "$bin/llvm-profdata" order "$out/merged.proftext" > "$out/order-text.txt"
  "$bin/llvm-profdata" order "$out/run1.profraw" > "$out/order-raw.txt"
done
# llvm-profdata 22 reads 19's indexed files (19 cannot read 22's)
/usr/lib/llvm-22/bin/llvm-profdata order "$here/l19/merged.profdata" > "$here/l19/order-by22.txt"

# Bad inputs: bad/inputs holds a profile without traces and one whose traces are partly
# empty (no real profile has empty traces: raw profiles drop them and text cannot spell
# them, so that file is profdata's own indexed writer output; only the expectations come
# from the real tools).  Each case NAME.args (one argument per line, run in bad/inputs)
# gets NAME.lRELEASE.{stdout,stderr,rc}; argv[0] is "llvm-profdata", as profdata prints;
# NAME.args holds no argument with white space.
bad=$here/bad
mkdir -p "$bad/inputs"
printf ':ir\nfoo\n1\n1\n1\n' > "$bad/inputs/no-traces.proftext"
python3 - "$here/l22/merged.profdata" "$bad/inputs/empty-traces.profdata" <<'PY'
import sys
from profdata.formats import open_instr
from profdata.formats.indexed_write import write_indexed
from profdata.model.instr import TemporalTrace
from profdata.releases import release
profile = open_instr(sys.argv[1])
kept = profile.traces[:2]
empty = TemporalTrace(1, ())
profile.traces = [empty, kept[0], empty, kept[1], empty]
profile.trace_stream_size = len(profile.traces)
with open(sys.argv[2], "wb") as fh:
    fh.write(write_indexed(profile, release=release(19)))
PY
cp "$here/l19/merged.profdata" "$bad/inputs/ten-traces.profdata"
for case in "$bad"/*.args; do
  name=$(basename "$case" .args)
  for rel in 19 22; do
    set +e
    # shellcheck disable=SC2046  # one argument per line, none with spaces
    (cd "$bad/inputs" && PATH=/usr/lib/llvm-$rel/bin:$PATH &&
      llvm-profdata order $(cat "$case") \
        > "$bad/$name.l$rel.stdout" 2> "$bad/$name.l$rel.stderr")
    echo $? > "$bad/$name.l$rel.rc"
    set -e
  done
done
# llvm-profdata 16 has no order subcommand
set +e
PATH=/usr/lib/llvm-16/bin:$PATH llvm-profdata order "$bad/inputs/ten-traces.profdata" \
  > "$bad/no-order-command.l16.stdout" 2> "$bad/no-order-command.l16.stderr"
echo $? > "$bad/no-order-command.l16.rc"
set -e
echo "goldens written under $here"
