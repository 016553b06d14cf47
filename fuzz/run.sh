#!/usr/bin/env bash
# Builds the fuzz targets with libFuzzer's coverage instrumentation (what `cargo fuzz build`
# does, without needing cargo-fuzz installed) and runs one or all of them.
#
#   fuzz/run.sh build                      # build every target
#   fuzz/run.sh <target> [libFuzzer args]  # e.g. fuzz/run.sh world_api -max_total_time=600
#   fuzz/run.sh ci                         # every target, fixed seed and run count (CI)
#
# Needs a nightly toolchain (`cargo +nightly`) and a C++ compiler (libfuzzer-sys builds
# libFuzzer). Corpora go to fuzz/corpus/<target> (not committed).
set -euo pipefail
cd "$(dirname "$0")"
targets="scene_load snapshot_load snapshot_structured world_api narrowphase casts"
triple="$(rustc +nightly -vV | sed -n 's/^host: //p')"
bin="target/$triple/release"

build() {
  # The target triple keeps build scripts and proc macros uninstrumented.
  RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions -Coverflow-checks" \
    cargo +nightly build --quiet --release --target "$triple" $(for t in $targets; do echo --bin "$t"; done)
}

run() {
  local target="$1"
  shift
  mkdir -p "corpus/$target" "artifacts/$target"
  "$bin/$target" "corpus/$target" -artifact_prefix="artifacts/$target/" -timeout=20 \
    -rss_limit_mb=3000 "$@"
}

case "${1:-}" in
  build) build ;;
  ci)
    build
    # Runs sized to about half a minute each on a 2-core machine (3.5 min in all); the fixed seed makes a red run
    # reproducible with the same command.
    for spec in scene_load:40000 snapshot_load:6000 snapshot_structured:10000 world_api:50000 \
      narrowphase:20000 casts:400000; do
      target="${spec%%:*}"
      log="artifacts/$target.log"
      mkdir -p artifacts
      if ! run "$target" -seed=1 -runs="${spec##*:}" -print_final_stats=1 >"$log" 2>&1; then
        tail -n 40 "$log"
        echo "fuzz target $target failed; reproduce with: fuzz/run.sh $target -seed=1 -runs=${spec##*:}"
        exit 1
      fi
      echo "fuzz $target: $(sed -n 's/^stat::number_of_executed_units: *//p' "$log") runs, no failure"
    done
    ;;
  "" | -h | --help) sed -n 2,10p "$0" ;;
  *)
    build
    run "$@"
    ;;
esac
