#!/bin/sh
# Installs what `make check` needs on Debian 12 (apt-get, when run as root).
# Prints what is missing and carries on when it cannot install: the tests
# that need a missing package then fail and say so.
set -u
PACKAGES="gcc make binutils libc6-dev liblapack-dev libblas-dev liblapacke-dev
liblapack-test libopenblas0-pthread python3 python3-numpy python3-scipy pkgconf
python3-venv liblapack64-dev libopenblas64-0
octave r-base-core valgrind
ocl-icd-libopencl1 opencl-headers pocl-opencl-icd libclblast1
hipcc libamdhip64-dev rocm-device-libs
openmpi-bin libopenmpi-dev libscalapack-openmpi-dev scalapack-mpi-test libelpa-dev"

missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
        missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps: missing packages (run as root to install):$missing"
    exit 0
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=600 update -qq &&
apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends \
    $missing >/dev/null ||
    echo "install-deps: apt-get failed; the tests needing$missing will fail"
exit 0
