#!/bin/bash
# `make install` / `make uninstall` into a scratch DESTDIR with
# PREFIX=/usr, from the built tree:
#   files      the library (.so, .a), the header, gpulapack-info (and
#              gpulapack-tune when built), the Python package with the
#              installed library's path, gpulapack.pc; nothing rebuilt;
#   pkg-config --cflags --libs gpulapack through PKG_CONFIG_PATH and
#              PKG_CONFIG_SYSROOT_DIR;
#   program    a C program built with those flags against the installed
#              header and library runs and prints gpulapack_version();
#   tools      the installed gpulapack-info runs on the installed library;
#   python     the installed package imports, loads the installed library;
#   uninstall  removes every file install put.
# usage: testing/unit/check_install.sh; prints PASS/FAIL lines.
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/root
PYTHON=${PYTHON:-/usr/bin/python3}

pass() { echo "PASS unit/install/$1"; }
fail() { echo "FAIL unit/install/$1: $2"; }

version=$(sed -n 's/^#define GPULAPACK_VERSION "\(.*\)"/\1/p' include/gpulapack.h)
# install builds nothing: no compiler run, no file of lib/ or bin/ touched
before=$(find lib bin -type f -printf '%p %T@\n' 2>/dev/null | sort)
if ! make --no-print-directory install DESTDIR="$dest" PREFIX=/usr >"$tmp/install.log" 2>&1; then
    fail make-install "$(tail -n 5 "$tmp/install.log" | tr '\n' '|')"
    exit 0
fi
after=$(find lib bin -type f -printf '%p %T@\n' 2>/dev/null | sort)
if [ "$before" = "$after" ] && ! grep -qE '^(cc|gcc|ar|nvcc|hipcc) ' "$tmp/install.log"; then
    pass nothing-rebuilt
else
    fail nothing-rebuilt "make install compiled or changed files: $(grep -E '^(cc|gcc|ar) ' "$tmp/install.log" | head -3 | tr '\n' '|')"
fi

site=$(cd "$dest" && ls -d usr/lib/python3*/*-packages 2>/dev/null | head -1)
expected="usr/bin/gpulapack-info
usr/include/gpulapack.h
usr/lib/libgpulapack.a
usr/lib/libgpulapack.so
usr/lib/libgpulapack_scalapack.so
usr/lib/pkgconfig/gpulapack.pc
usr/lib/pkgconfig/gpulapack-scalapack.pc
$site/gpulapack/__init__.py
$site/gpulapack/_install.py"
[ -f bin/gpulapack-tune ] && expected="$expected
usr/bin/gpulapack-tune"
got=$(cd "$dest" && find . -type f | sed 's|^\./||' | sort)
if [ -n "$site" ] && [ "$got" = "$(sort <<<"$expected")" ] &&
    cmp -s lib/libgpulapack.so "$dest/usr/lib/libgpulapack.so" &&
    cmp -s lib/libgpulapack_scalapack.so "$dest/usr/lib/libgpulapack_scalapack.so" &&
    [ "$(PKG_CONFIG_PATH="$dest/usr/lib/pkgconfig" pkg-config --variable=interposer gpulapack-scalapack 2>/dev/null)" = /usr/lib/libgpulapack_scalapack.so ] &&
    cmp -s include/gpulapack.h "$dest/usr/include/gpulapack.h" &&
    grep -qx 'LIBRARY = "/usr/lib/libgpulapack.so"' "$dest/$site/gpulapack/_install.py"; then
    pass "files ($(wc -l <<<"$got") files, Python package in /$site)"
else
    fail files "expected: $(tr '\n' ' ' <<<"$expected") got: $(tr '\n' ' ' <<<"$got")"
fi
# the package where Debian's python3 looks for PREFIX=/usr packages
if [ -x "$PYTHON" ] && [ -n "$site" ] &&
    ! "$PYTHON" -c 'import sys; sys.exit("/'"$site"'" not in sys.path)'; then
    fail python-site "/$site is not on $PYTHON's sys.path"
elif [ -x "$PYTHON" ]; then
    pass "python-site (/$site is on $PYTHON's sys.path)"
fi

if ! command -v pkg-config >/dev/null; then
    fail pkg-config "pkg-config is not installed (tools/install-deps.sh installs pkgconf)"
else
    flags=$(PKG_CONFIG_PATH="$dest/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest" \
        pkg-config --cflags --libs gpulapack 2>&1)
    pcversion=$(PKG_CONFIG_PATH="$dest/usr/lib/pkgconfig" pkg-config --modversion gpulapack 2>&1)
    if grep -q -- "-I$dest/usr/include" <<<"$flags" && grep -q -- "-L$dest/usr/lib" <<<"$flags" &&
        grep -q -- "-lgpulapack" <<<"$flags" && [ "$pcversion" = "$version" ]; then
        pass "pkg-config ($(sed "s|$dest|\$DESTDIR|g" <<<"$flags" | xargs), version $pcversion)"
    else
        fail pkg-config "flags '$flags', version '$pcversion'"
    fi
    cat >"$tmp/hello.c" <<'EOF'
#include <gpulapack.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
    printf("gpulapack %s\n", gpulapack_version());
    return strcmp(gpulapack_version(), GPULAPACK_VERSION) != 0;
}
EOF
    # shellcheck disable=SC2086
    if cc -std=c11 -Wall -Werror "$tmp/hello.c" -o "$tmp/hello" $flags >"$tmp/cc.log" 2>&1; then
        out=$(LD_LIBRARY_PATH="$dest/usr/lib" "$tmp/hello" 2>&1)
        lib_used=$(LD_LIBRARY_PATH="$dest/usr/lib" ldd "$tmp/hello" | awk '/libgpulapack/ {print $3}')
        if [ "$out" = "gpulapack $version" ] && [ "$lib_used" = "$dest/usr/lib/libgpulapack.so" ]; then
            pass "program (prints '$out', runs on the installed library)"
        else
            fail program "printed '$out', library '$lib_used'"
        fi
    else
        fail program "compile: $(tr '\n' ' ' <"$tmp/cc.log")"
    fi
fi

# gpulapack-info finds the installed library next to it ($ORIGIN/../lib)
out=$("$dest/usr/bin/gpulapack-info" 2>&1)
lib_used=$(ldd "$dest/usr/bin/gpulapack-info" | awk '/libgpulapack/ {print $3}')
if grep -qx "gpulapack $version" <<<"$out" && [ "$(readlink -f "$lib_used")" = "$dest/usr/lib/libgpulapack.so" ]; then
    pass gpulapack-info
else
    fail gpulapack-info "library '$lib_used', output: $(head -n 3 <<<"$out" | tr '\n' '|')"
fi

# the installed package, told where the DESTDIR copy is (its _install.py
# names /usr/lib/libgpulapack.so, the final place)
if [ -x "$PYTHON" ]; then
    out=$(env -u LD_PRELOAD GPULAPACK_LIBRARY="$dest/usr/lib/libgpulapack.so" \
        PYTHONPATH="$dest/$site" "$PYTHON" -c 'import gpulapack, gpulapack._install as i
print(gpulapack.__file__, gpulapack.library, gpulapack.version(), i.LIBRARY)' 2>&1)
    if [ "$out" = "$dest/$site/gpulapack/__init__.py $dest/usr/lib/libgpulapack.so $version /usr/lib/libgpulapack.so" ]; then
        pass python-package
    else
        fail python-package "$out"
    fi
fi

if make --no-print-directory uninstall DESTDIR="$dest" PREFIX=/usr >"$tmp/uninstall.log" 2>&1; then
    left=$(cd "$dest" && find . ! -type d | sed 's|^\./||')
    if [ -z "$left" ] && [ ! -e "$dest/$site/gpulapack" ]; then
        pass "uninstall (no file left)"
    else
        fail uninstall "left behind: $(tr '\n' ' ' <<<"$left")"
    fi
else
    fail uninstall "$(tail -n 5 "$tmp/uninstall.log" | tr '\n' '|')"
fi
exit 0
