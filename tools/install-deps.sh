#!/bin/sh
# Installs what `make check` needs on Debian 12 (apt-get, when run as root).
# Prints what is missing and carries on when it cannot install: the tests
# that need a missing package then fail and say so.
#
#   tools/install-deps.sh --demo   (`make demo`): only what the demo needs,
#   a LAPACK and BLAS that $CC links with $LAPACK_LIBS (-llapack -lblas);
#   installed when root, else one line saying what to install and exit 1.
set -u
PACKAGES="gcc make binutils libc6-dev liblapack-dev libblas-dev liblapacke-dev
liblapack-test libopenblas0-pthread python3 python3-numpy python3-scipy pkgconf
python3-venv liblapack64-dev libopenblas64-0
octave r-base-core valgrind
ocl-icd-libopencl1 opencl-headers pocl-opencl-icd libclblast1
hipcc libamdhip64-dev rocm-device-libs
openmpi-bin libopenmpi-dev libscalapack-openmpi-dev scalapack-mpi-test libelpa-dev"
# what `make demo` links with and forwards to (liblapack-dev brings
# liblapack.so.3, the library's LAPACK)
DEMO_PACKAGES="libc6-dev liblapack-dev libblas-dev"

# The packages of $1 that dpkg does not list as installed.
missing_of() {
    m=""
    for p in $1; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
            m="$m $p"
    done
    echo "$m"
}

can_install() {
    [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1
}

apt_install() {
    export DEBIAN_FRONTEND=noninteractive
    apt-get -o DPkg::Lock::Timeout=600 update -qq &&
        apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends \
            "$@" >/dev/null
}

# Whether ${CC:-cc} links a LAPACK call with ${LAPACK_LIBS:--llapack -lblas},
# as the demo's link does.
lapack_links() {
    dir=$(mktemp -d) || return 1
    printf 'void dgesdd_(void);\nint main(void) { dgesdd_(); return 0; }\n' >"$dir/t.c"
    # shellcheck disable=SC2086 # LAPACK_LIBS is a list of flags
    ${CC:-cc} "$dir/t.c" -o "$dir/t" ${LAPACK_LIBS:--llapack -lblas} >/dev/null 2>&1
    rc=$?
    rm -rf "$dir"
    return $rc
}

if [ "${1:-}" = --demo ]; then
    lapack_links && exit 0
    libs=${LAPACK_LIBS:--llapack -lblas}
    missing=$(missing_of "$DEMO_PACKAGES")
    if [ -n "$missing" ] && can_install; then
        echo "install-deps: installing$missing"
        # shellcheck disable=SC2086 # a list of packages
        apt_install $missing && lapack_links && exit 0
        missing=$(missing_of "$DEMO_PACKAGES")
        [ -n "$missing" ] &&
            echo "install-deps: apt-get could not install$missing; the demo needs them" &&
            exit 1
    fi
    if [ -z "$missing" ]; then
        echo "install-deps: ${CC:-cc} cannot link $libs; set LAPACK_LIBS in make.inc to your LAPACK and BLAS"
    else
        echo "install-deps: the demo links with $libs, not found: apt-get install$missing (as root), or run make demo as root"
    fi
    exit 1
fi

missing=$(missing_of "$PACKAGES")
[ -z "$missing" ] && exit 0

if ! can_install; then
    echo "install-deps: missing packages (run as root to install):$missing"
    exit 0
fi
echo "install-deps: installing$missing"
# shellcheck disable=SC2086 # a list of packages
apt_install $missing ||
    echo "install-deps: apt-get failed; the tests needing$missing will fail"
exit 0
