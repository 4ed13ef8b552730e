#!/bin/bash
# Real-client smoke tests (the clients level of docs/testing.md, "Real
# clients"): run Debian numpy, scipy, Octave and R once without the library
# and once with it preloaded, compare the results and check that the
# library's log shows our entry points were used.
#
# usage: testing/clients/run_clients.sh [--compare exact|accuracy] [--out DIR]
#            [--only numpy,scipy,octave,r] [--expect-path PATH] [--keep]
#            [--keep-ref] [--ref-from DIR] [LIB]
#   LIB        library to preload (default: lib/libgpulapack.so of this checkout)
#   --compare  exact (default): every output array bitwise identical (right
#              while the library forwards everything to the system LAPACK);
#              accuracy: LAPACK-style tolerances, vectors judged by residual
#              and orthogonality (for when fast paths are on).
#   --out DIR  put results, logs and client stderr there (default: a fresh
#              /tmp/gpulapack-clients.XXXXXX, kept and named on stderr)
#   --only     comma-separated subset of clients
#   --keep     keep both runs' result files (.npz/.bin/.rds, several hundred
#              MB per client) even when they agree; by default they are
#              deleted once agree-<mode> passed (logs and stderr stay)
#   --keep-ref keep the run without the library's result file (for a later
#              --ref-from), delete only the run with it
#   --ref-from DIR  take the run without the library from DIR (a run of
#              this script with --keep-ref and --out DIR) where its result
#              file is there, instead of running the client again: the run
#              without the library does not depend on the library or its
#              settings (make check's clients-default and clients-host
#              reuse the clients run's)
#   --expect-path PATH  (off by default) every call the client's run logged
#              must show path=PATH, except workspace queries (reason=query),
#              invalid arguments (reason=args) and calls from inside the real
#              LAPACK (reason=nested); one check per client and routine,
#              path-PATH/<routine>, whose FAIL names the options and sizes of
#              the calls that took another path.
# Environment: GPULAPACK_* variables are passed through to the preloaded run
# (GPULAPACK_LOG is always set to DIR/<client>.log, GPULAPACK_VERBOSE to 1
# unless already >= 1); CLIENT_TIMEOUT seconds per client run (default 600);
# PYTHON (default /usr/bin/python3 -- Debian's, with numpy/scipy; the python3
# first on PATH may be a pyenv one without them); OCTAVE (default octave-cli);
# RSCRIPT (default Rscript).
#
# Output: exactly one line per check on stdout,
#   PASS clients/<client>/<check>   or   FAIL clients/<client>/<check>: <detail>
# with checks run-without-lib, run-with-lib, agree-<mode>, log-routines (and
# path-PATH/<routine> with --expect-path).  Diagnostics go to stderr, among
# them the calls per routine, options and path read from each log.  Exit
# status 0 iff every check passed.
#
# Which LAPACK routines each client reaches (verified with an LD_PRELOAD
# logging shim on Debian 12: numpy 1.24.2, scipy 1.10.1, Octave 7.3.0,
# R 4.2.2, OpenBLAS 0.3.21 as liblapack.so.3; ltrace is not installed, and
# LD_DEBUG=bindings only shows bindings, not calls; per-function details in
# the header comments of numpy_client.py, octave_client.m and r_client.R):
#   numpy : numpy.linalg.svd/pinv/norm/matrix_rank -> dgesdd, zgesdd (JOBZ A/S/N)
#           eigh/eigvalsh/pinv(hermitian) -> dsyevd, zheevd (JOBZ V/N)
#           never s/c: float32/complex64 are computed in double and cast back
#   scipy : svd(lapack_driver=gesdd|gesvd) -> ?gesdd, ?gesvd (s/d/c/z)
#           eigh(): default ?syevr/?heevr; driver ev/evd/evr/evx -> ?syev,
#           ?syevd, ?syevr, ?syevx (subset_by_index/value: RANGE I/V)
#           eig_banded/eigvals_banded: select='a' -> ?sbevd/?hbevd;
#           select='i'/'v' -> ?sbevx/?hbevx (-> ?sbtrd/?hbtrd through the PLT)
#           eigh(a, b): ?sygv/?sygvd/?sygvx -> ?syev/?syevd/?syevx via the PLT
#   octave: svd -> ?gesvd (JOBU=JOBVT A/S/N); with svd_driver("gesdd") -> ?gesdd;
#           eig of a symmetric/Hermitian matrix -> ?syev/?heev (JOBZ V/N, UPLO U);
#           eig(A,B) -> ?sygv/?hegv -> ?syev/?heev via the PLT
#   r     : svd/La.svd -> dgesdd, zgesdd (JOBZ N/S/A); eigen(symmetric=TRUE)
#           -> dsyevr (RANGE A, UPLO L) for real, zheev (UPLO L) for complex
# Every client first makes an LWORK=-1 workspace query, so each routine
# appears at least twice in the log.  The system liblapack.so.3 calls its
# own ?sytrd, ?sbtrd, ?syev, ... through the PLT, so those nested calls reach
# an exported symbol of a preloaded library too.  numpy's _umath_linalg and
# scipy's _flapack are dlopen'ed RTLD_LOCAL by Python: liblapack.so.3 is not
# in the global scope there, so dlsym(RTLD_NEXT, "dgesdd_") from a preloaded
# library finds nothing in a Python process (dlopen("liblapack.so.3") does);
# in Octave, liblapack.so.3 is a DT_NEEDED of liboctave and RTLD_NEXT works.

# shellcheck disable=SC2034,SC2206,SC2086  # EXPECT_* read indirectly; $PY/$OCT may carry arguments
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MODE=exact
OUT=
ONLY=numpy,scipy,octave,r
LIB=
EXPECT_PATH=
KEEP=
KEEP_REF=
REF_FROM=
while [ $# -gt 0 ]; do
  case "$1" in
    --compare) MODE=${2:-}; shift 2 ;;
    --compare=*) MODE=${1#*=}; shift ;;
    --out) OUT=${2:-}; shift 2 ;;
    --out=*) OUT=${1#*=}; shift ;;
    --only) ONLY=${2:-}; shift 2 ;;
    --only=*) ONLY=${1#*=}; shift ;;
    --expect-path) EXPECT_PATH=${2:-}; shift 2 ;;
    --expect-path=*) EXPECT_PATH=${1#*=}; shift ;;
    --keep) KEEP=1; shift ;;
    --keep-ref) KEEP_REF=1; shift ;;
    --ref-from) REF_FROM=${2:-}; shift 2 ;;
    --ref-from=*) REF_FROM=${1#*=}; shift ;;
    -h|--help) sed -n '2,47p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run_clients.sh: unknown option $1" >&2; exit 2 ;;
    *) LIB=$1; shift ;;
  esac
done
case "$MODE" in exact|accuracy) ;; *) echo "run_clients.sh: --compare must be exact or accuracy" >&2; exit 2 ;; esac
LIB=${LIB:-$(cd "$HERE/../.." && pwd)/lib/libgpulapack.so}
[ -e "$LIB" ] && LIB=$(realpath "$LIB")   # LD_PRELOAD must not depend on the cwd
T=${CLIENT_TIMEOUT:-600}
PY=${PYTHON:-/usr/bin/python3}
OCT=${OCTAVE:-octave-cli}
RS=${RSCRIPT:-Rscript}
if [ -z "$OUT" ]; then
  OUT=$(mktemp -d /tmp/gpulapack-clients.XXXXXX) || exit 2
else
  mkdir -p "$OUT" || exit 2
fi
OUT=$(realpath "$OUT")
case "$EXPECT_PATH" in ''|[a-z]*) ;; *) echo "run_clients.sh: --expect-path needs a path name (host, lapack, cuda, ...)" >&2; exit 2 ;; esac
echo "info: outputs, logs and client stderr in $OUT; library $LIB; compare $MODE${EXPECT_PATH:+; expect path=$EXPECT_PATH}" >&2

NFAIL=0
pass() { echo "PASS clients/$1/$2"; }
fail() { echo "FAIL clients/$1/$2: $3"; NFAIL=$((NFAIL + 1)); }

# Expected routines per client (lowercase, no underscore, as in the log).
# Only calls that enter the library while none of its own calls runs are
# required: those the client makes itself, and scipy's ?sbtrd/?hbtrd, which
# the system ?sbevx/?hbevx call through the PLT; nested ones (?sytrd from a
# forwarded ?syev, ...) are not.
EXPECT_numpy="dgesdd zgesdd dsyevd zheevd"
EXPECT_scipy="sgesdd dgesdd cgesdd zgesdd sgesvd dgesvd cgesvd zgesvd
  ssyev dsyev cheev zheev ssyevd dsyevd cheevd zheevd
  ssyevr dsyevr cheevr zheevr ssyevx dsyevx cheevx zheevx
  ssbevd dsbevd chbevd zhbevd ssbtrd dsbtrd chbtrd zhbtrd"
EXPECT_octave="sgesvd dgesvd cgesvd zgesvd sgesdd dgesdd cgesdd zgesdd ssyev dsyev cheev zheev"
EXPECT_r="dgesdd zgesdd dsyevr zheev"

# Verbosity for the preloaded run: 1 unless the caller asked for more.
VERB=${GPULAPACK_VERBOSE:-1}
case "$VERB" in ''|*[!0-9]*|0) VERB=1 ;; esac

# run_one CLIENT TAG RESULTFILE [with-lib]: runs the client under timeout and
# sets RUN_DETAIL ("" on success).
run_one() {
  local c=$1 tag=$2 res=$3 withlib=${4:-} rc
  local err="$OUT/$c.$tag.stderr"
  rm -f "$res"
  local -a cmd
  case "$c" in
    numpy|scipy) cmd=($PY -s -E "$HERE/numpy_client.py" run --part "$c" "$res") ;;
    octave) cmd=($OCT --norc --no-history --quiet "$HERE/octave_client.m" run "$res") ;;
    r) cmd=($RS --vanilla "$HERE/r_client.R" run "$res") ;;
  esac
  if [ -n "$withlib" ]; then
    rm -f "$OUT/$c.log"
    env LD_PRELOAD="$LIB" GPULAPACK_VERBOSE="$VERB" GPULAPACK_LOG="$OUT/$c.log" \
      timeout -k 10 "$T" "${cmd[@]}" >"$OUT/$c.$tag.stdout" 2>"$err" </dev/null
    rc=$?
  else
    env -u LD_PRELOAD -u GPULAPACK_LOG \
      timeout -k 10 "$T" "${cmd[@]}" >"$OUT/$c.$tag.stdout" 2>"$err" </dev/null
    rc=$?
  fi
  RUN_DETAIL=
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    RUN_DETAIL="timed out after ${T}s (CLIENT_TIMEOUT)"
  elif [ $rc -gt 128 ]; then
    RUN_DETAIL="killed by signal $((rc - 128)) ($(kill -l $((rc - 128)) 2>/dev/null)); see $err"
  elif [ $rc -ne 0 ]; then
    RUN_DETAIL="exit status $rc: $(grep -v 'ignoring const execution_exception' "$err" | tail -n 1 | cut -c1-200)"
  elif [ ! -s "$res" ]; then
    RUN_DETAIL="exit status 0 but no result file $res"
  elif [ -n "$withlib" ] && grep -q "cannot be preloaded" "$err"; then
    RUN_DETAIL="ld.so did not preload the library: $(grep -m1 'cannot be preloaded' "$err" | cut -c1-200)"
  fi
}

compare() {  # compare CLIENT REF TEST -> sets CMP_DETAIL ("" if they agree)
  local c=$1 ref=$2 test=$3 rc line
  local err="$OUT/$c.compare.stderr"
  case "$c" in
    numpy|scipy) line=$(env -u LD_PRELOAD timeout -k 10 "$T" $PY -s -E "$HERE/numpy_client.py" compare --mode "$MODE" "$ref" "$test" 2>"$err" </dev/null); rc=$? ;;
    octave) line=$(env -u LD_PRELOAD timeout -k 10 "$T" $OCT --norc --no-history --quiet "$HERE/octave_client.m" compare "$MODE" "$ref" "$test" 2>"$err" </dev/null); rc=$? ;;
    r) line=$(env -u LD_PRELOAD timeout -k 10 "$T" $RS --vanilla "$HERE/r_client.R" compare "$MODE" "$ref" "$test" 2>"$err" </dev/null); rc=$? ;;
  esac
  CMP_DETAIL=
  if [ $rc -ne 0 ]; then
    [ -z "$line" ] && line="comparison exit status $rc: $(grep -v 'ignoring const execution_exception' "$err" | tail -n 1)"
    CMP_DETAIL="$(echo "$line" | tail -n 1 | cut -c1-300) (all: $err)"
  fi
}

# check_log CLIENT: sets LOG_DETAIL ("" if all expected routines were logged)
check_log() {
  local c=$1 log="$OUT/$1.log" r missing='' bad
  local expect_var="EXPECT_$c"
  LOG_DETAIL=
  if [ ! -s "$log" ]; then
    LOG_DETAIL="no log lines in $log (library not entered, or GPULAPACK_VERBOSE/GPULAPACK_LOG ignored)"
    return
  fi
  # well-formed: gpulapack: <routine> [key=value ...] path=<p> [...] info=<i> time=<s>s
  # (at GPULAPACK_VERBOSE=2 also: gpulapack: <routine> path=lapack reason=nested,
  # and the notice of a missing tune file: gpulapack: tune file ...)
  local re='^gpulapack: ([a-z][a-z0-9_]* ((.* )?path=[^ ]+ (.* )?info=-?[0-9]+ time=[0-9.eE+-]+s|path=lapack reason=nested)|tune file .*)$'
  for r in ${!expect_var}; do
    grep -Eq "^gpulapack: $r " "$log" || missing="$missing $r"
  done
  bad=$(grep '^gpulapack: ' "$log" | grep -Evc "$re")
  if [ -n "$missing" ]; then
    LOG_DETAIL="expected routines not in log:$missing"
  fi
  if [ "${bad:-0}" -gt 0 ]; then
    LOG_DETAIL="${LOG_DETAIL:+$LOG_DETAIL; }$bad malformed line(s), first: $(grep '^gpulapack: ' "$log" | grep -Ev -m1 "$re" | cut -c1-120)"
  fi
  # summary for humans: calls per routine and per path
  echo "info: $c log: $(grep -Ec "$re" "$log") calls; $(grep -Eo ' path=[^ ]+' "$log" | sort | uniq -c | tr -s ' \n' ' ')" >&2
}

# log_groups LOG: the log's calls grouped by routine, character options,
# path and reason, sorted; one line per group:
#   routine<TAB>path<TAB>reason<TAB>options<TAB>calls<TAB>sizes (m=a..b n=c..d)
log_groups() {
  awk '
  function rng(a, b) { return a == b ? a : a ".." b }
  /^gpulapack: [a-z]/ {
    r = $2; p = ""; why = ""; o = ""; m = ""; n = ""
    for (i = 3; i <= NF; i++) {
      eq = index($i, "="); if (!eq) continue
      k = substr($i, 1, eq - 1); v = substr($i, eq + 1)
      if (k == "path") p = v
      else if (k == "reason") why = v
      else if (k == "m") m = v + 0
      else if (k == "n") n = v + 0
      else if (v ~ /^[A-Za-z]$/) o = o (o == "" ? "" : " ") $i
    }
    if (p == "") next
    # n < 2 (min(m,n) < 2) is answered by the real routine by design
    if (why == "option" && ((m != "" && m < 2) || (n != "" && n < 2))) why = "trivial"
    g = r "\t" p "\t" why "\t" o
    cnt[g]++
    if (m != "") { if (!(g in mlo) || m < mlo[g]) mlo[g] = m; if (!(g in mhi) || m > mhi[g]) mhi[g] = m }
    if (n != "") { if (!(g in nlo) || n < nlo[g]) nlo[g] = n; if (!(g in nhi) || n > nhi[g]) nhi[g] = n }
  }
  END {
    for (g in cnt) {
      sz = ""
      if (g in mlo) sz = "m=" rng(mlo[g], mhi[g])
      if (g in nlo) sz = sz (sz == "" ? "" : " ") "n=" rng(nlo[g], nhi[g])
      print g "\t" cnt[g] "\t" sz
    }
  }' "$1" | sort
}

# path_checks CLIENT: writes DIR/<client>.paths (the log grouped as by
# log_groups); with --expect-path, one check path-PATH/<routine> per routine
# in the log: every call on path=PATH unless it was a workspace query, had
# invalid arguments, came from inside the real LAPACK or was of size < 2
# (reason "trivial": answered by the real routine by design).
path_checks() {
  local c=$1 log="$OUT/$1.log" groups r bad nbad total
  groups=$(log_groups "$log")
  {
    echo "# $c: calls per routine, options, path and reason (from $log)"
    printf '%s\n' "$groups" | awk -F'\t' 'NF { printf "%6d  %s %s path=%s%s  (%s)\n", $5, $1, $4, $2, ($3 == "" ? "" : " reason=" $3), $6 }'
  } >"$OUT/$c.paths"
  echo "info: $c: $(printf '%s\n' "$groups" | awk -F'\t' '$2 == "lapack" && $3 != "query" && $3 != "nested" && $3 != "args" && $3 != "trivial" { n += $5; g++ } END { printf "%d call(s) forwarded, in %d routine/option group(s)", n, g }') (table: $OUT/$c.paths)" >&2
  [ -n "$EXPECT_PATH" ] || return 0
  if [ -z "$groups" ]; then
    fail "$c" "path-$EXPECT_PATH" "no calls in $log"
    return
  fi
  for r in $(printf '%s\n' "$groups" | cut -f1 | sort -u); do
    bad=$(printf '%s\n' "$groups" | awk -F'\t' -v r="$r" -v want="$EXPECT_PATH" '
      $1 == r && $2 != want && $3 != "query" && $3 != "args" && $3 != "nested" && $3 != "trivial" {
        printf "%s%d x %s%s path=%s%s (%s)", (k++ ? "; " : ""), $5, r, ($4 == "" ? "" : " " $4), $2, ($3 == "" ? "" : " reason=" $3), $6 }')
    nbad=$(printf '%s\n' "$groups" | awk -F'\t' -v r="$r" -v want="$EXPECT_PATH" '$1 == r && $2 != want && $3 != "query" && $3 != "args" && $3 != "nested" && $3 != "trivial" { n += $5 } END { print n + 0 }')
    total=$(printf '%s\n' "$groups" | awk -F'\t' -v r="$r" '$1 == r && $3 != "query" && $3 != "nested" { n += $5 } END { print n + 0 }')
    if [ "$nbad" -eq 0 ]; then
      pass "$c" "path-$EXPECT_PATH/$r"
    else
      fail "$c" "path-$EXPECT_PATH/$r" "$nbad of $total call(s) not on path=$EXPECT_PATH: $bad"
    fi
  done
}

for c in numpy scipy octave r; do
  case ",$ONLY," in *",$c,"*) ;; *) continue ;; esac
  # Is the client there at all?
  why=
  case "$c" in
    numpy)  $PY -s -E -c 'import numpy' >/dev/null 2>&1 || why="$PY cannot import numpy (install Debian python3-numpy)" ;;
    scipy)  $PY -s -E -c 'import numpy, scipy.linalg' >/dev/null 2>&1 || why="$PY cannot import scipy.linalg (install Debian python3-scipy)" ;;
    octave) command -v "$OCT" >/dev/null 2>&1 || why="$OCT not found (install Debian octave)" ;;
    r)      command -v "$RS" >/dev/null 2>&1 || why="$RS not found (install Debian r-base-core)" ;;
  esac
  if [ -n "$why" ]; then
    for chk in run-without-lib run-with-lib "agree-$MODE" log-routines ${EXPECT_PATH:+path-$EXPECT_PATH}; do
      fail "$c" "$chk" "not run: $why"
    done
    continue
  fi
  case "$c" in octave) ext=bin ;; r) ext=rds ;; *) ext=npz ;; esac
  ref="$OUT/$c.nolib.$ext"
  test="$OUT/$c.lib.$ext"

  t0=$(date +%s%N)
  reused=
  if [ -n "$REF_FROM" ] && [ -s "$REF_FROM/$c.nolib.$ext" ] &&
    [ "$(realpath "$REF_FROM")" != "$OUT" ]; then
    # the same client and system LAPACK, no library: the same result file
    rm -f "$ref"
    if ln -s "$(realpath "$REF_FROM/$c.nolib.$ext")" "$ref"; then
      reused=" (reused from $REF_FROM)"
      RUN_DETAIL=
    else
      run_one "$c" nolib "$ref"
    fi
  else
    run_one "$c" nolib "$ref"
  fi
  t1=$(date +%s%N)
  if [ -z "$RUN_DETAIL" ]; then pass "$c" "run-without-lib$reused"; ok_ref=1; else fail "$c" run-without-lib "$RUN_DETAIL"; ok_ref=; fi

  if [ ! -r "$LIB" ]; then
    RUN_DETAIL="library $LIB not found (run make first)"
    ok_test=
  else
    run_one "$c" lib "$test" with-lib
  fi
  t2=$(date +%s%N)
  echo "info: $c: $(( (t1 - t0) / 1000000 )) ms without, $(( (t2 - t1) / 1000000 )) ms with library" >&2
  if [ -z "$RUN_DETAIL" ]; then pass "$c" run-with-lib; ok_test=1; else fail "$c" run-with-lib "$RUN_DETAIL"; ok_test=; fi

  if [ -n "$ok_ref" ] && [ -n "$ok_test" ]; then
    compare "$c" "$ref" "$test"
    if [ -z "$CMP_DETAIL" ]; then
      pass "$c" "agree-$MODE"
      if [ -z "$KEEP" ]; then
        rm -f "$test"
        [ -n "$KEEP_REF" ] || rm -f "$ref"
      fi
    else
      fail "$c" "agree-$MODE" "$CMP_DETAIL"
    fi
  else
    fail "$c" "agree-$MODE" "not compared: a run failed"
  fi

  if [ -r "$LIB" ]; then
    check_log "$c"
    if [ -z "$LOG_DETAIL" ]; then pass "$c" log-routines; else fail "$c" log-routines "$LOG_DETAIL"; fi
    if [ -n "$ok_test" ]; then
      path_checks "$c"
    elif [ -n "$EXPECT_PATH" ]; then
      fail "$c" "path-$EXPECT_PATH" "not checked: the run with the library failed"
    fi
  else
    fail "$c" log-routines "library $LIB not found"
    [ -n "$EXPECT_PATH" ] && fail "$c" "path-$EXPECT_PATH" "library $LIB not found"
  fi
done

[ $NFAIL -eq 0 ]
