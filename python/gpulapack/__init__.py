"""gpulapack from Python: load the library into the process, read its C API.

Import this module *before* numpy or scipy::

    import gpulapack        # loads libgpulapack.so with RTLD_GLOBAL
    import numpy            # numpy.linalg's LAPACK calls now go through it

Why the order matters: Python opens extension modules with RTLD_LOCAL and
RTLD_NOW (``sys.getdlopenflags()``), so every LAPACK symbol of
``numpy/linalg/_umath_linalg*.so`` is bound once, when numpy is imported.
The dynamic loader looks a module's symbols up in the global scope first
(the program, its libraries, then every library opened RTLD_GLOBAL, in
load order) and only then in the module's own dependencies (its
``liblapack.so.3``).  A libgpulapack.so opened RTLD_GLOBAL before numpy is
in that global scope, so ``dsyevd_`` and the others bind to it; opened after
numpy, it comes too late and numpy keeps calling the system LAPACK directly
(this module then warns).  Checked on Debian 12 with Debian's python3-numpy
(``LD_DEBUG=bindings``: ``binding file .../_umath_linalg...so to
.../libgpulapack.so: normal symbol `dsyevd_'``); the library then forwards
what it does not accelerate to the system LAPACK it finds itself.  The same
holds for any extension module that links the system LAPACK by its plain
names (Debian's scipy).  ``LD_PRELOAD=/path/to/libgpulapack.so python3 ...``
stays the way that needs no change to the program, and works whatever the
import order.

pip's numpy and scipy wheels do not call the plain names: they carry their
own OpenBLAS with renamed symbols (``scipy_dsyevd_64_``, ``scipy_dgesdd_``,
...), which this library does not export yet, so with pip's wheels neither
this import nor LD_PRELOAD reaches their calls today.

Which library is loaded: the file named by the environment variable
``GPULAPACK_LIBRARY``; else the one recorded next to this package by
``make install`` (``_install.py``); else ``lib/libgpulapack.so`` of the
source tree this package sits in (``python/gpulapack`` of a checkout, used
with ``PYTHONPATH=python``); else ``libgpulapack.so`` from the system
loader's search path.  ``library`` holds the path that was loaded.

Settings: the library reads its ``GPULAPACK_*`` environment variables once
per process, on its first LAPACK call or the first query below that needs
them (all but ``version()`` and ``backends()``).  ``configure()`` sets them
in this process's environment and must therefore come before that::

    import gpulapack
    gpulapack.configure(device="host", min_n=0, verbose=1)
    import numpy
"""

import ctypes
import os
import sys
import warnings
from collections import namedtuple

__all__ = [
    "library", "version", "lapack_library", "backends", "gpu_runtimes",
    "device_count", "devices", "Device", "path", "tune_table", "last_timing",
    "Timing", "plan_call", "CallPlan", "configure", "SETTINGS",
]

# The variables the library reads (docs/env.md), without GPULAPACK_.
SETTINGS = (
    "BAND", "CHASE", "CHASE_GROUPS", "CHUNK", "CLBLAST", "CUBLAS",
    "CUSOLVER_SYEVD_ALG", "CUSOLVER_SYEVD_FUNCTION", "DC_LEAF",
    "DEVICE", "DEVICE_MEMORY_MB", "DISABLE", "FAULT", "GRAPHS", "GROUP",
    "GROUP_THREADS",
    "HOST_CHASE", "HOST_KEEP_MB", "HOST_MEMORY_MB", "HOST_THREADS", "HOST_VALUES", "HUGEPAGES", "LAPACK",
    "LAPACK64",
    "LOG", "LWORK_LIMIT", "MAX_GROUPS", "METHOD", "MIN_N", "OOC_BAND", "OOC_CHASE_BAND", "OOC_QUEUES",
    "OOC_SEGMENT", "OOC_TILE",
    "PANEL_GROUPS", "PANEL_ROWS", "PLAN",
    "PROFILE", "STAGE1_BLOCK", "SYTRD_STAGES",
    "TILE_WIDTH", "TUNE_FILE", "VERBOSE",
)

_HERE = os.path.dirname(os.path.abspath(__file__))
_SONAME = "libgpulapack.so"


def _candidates():
    env = os.environ.get("GPULAPACK_LIBRARY")
    if env:
        return [env]
    found = []
    try:  # written by `make install`
        from ._install import LIBRARY
        found.append(LIBRARY)
    except ImportError:
        pass
    tree = os.path.join(os.path.dirname(os.path.dirname(_HERE)), "lib", _SONAME)
    if os.path.exists(tree):
        found.append(tree)
    found.append(_SONAME)
    return found


def _load():
    errors = []
    for name in _candidates():
        try:
            return ctypes.CDLL(name, mode=ctypes.RTLD_GLOBAL), name
        except OSError as e:
            errors.append("%s: %s" % (name, e))
    raise ImportError("gpulapack: cannot load %s (set GPULAPACK_LIBRARY to "
                      "its path): %s" % (_SONAME, "; ".join(errors)))


_lib, _name = _load()
# the file actually mapped (a bare soname resolved by the loader)
library = _name
try:
    _info = ctypes.CDLL(None).dladdr  # glibc
except AttributeError:
    _info = None
if _info is not None:
    class _DlInfo(ctypes.Structure):
        _fields_ = [("dli_fname", ctypes.c_char_p), ("dli_fbase", ctypes.c_void_p),
                    ("dli_sname", ctypes.c_char_p), ("dli_saddr", ctypes.c_void_p)]
    _di = _DlInfo()
    _info.argtypes = [ctypes.c_void_p, ctypes.POINTER(_DlInfo)]
    if _info(ctypes.cast(_lib.gpulapack_version, ctypes.c_void_p), ctypes.byref(_di)) \
            and _di.dli_fname:
        library = os.path.realpath(_di.dli_fname.decode())
    del _di
del _info

# Imported too late for the extension modules already loaded to bind to us.
_late = [m for m in ("numpy.linalg", "scipy.linalg") if m in sys.modules]
if _late and "libgpulapack" not in os.environ.get("LD_PRELOAD", ""):
    warnings.warn("gpulapack imported after %s: its LAPACK calls keep going "
                  "to the system LAPACK; import gpulapack first (or use "
                  "LD_PRELOAD)" % " and ".join(_late), RuntimeWarning, stacklevel=2)


def _fn(name, restype, *argtypes):
    f = getattr(_lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


def _text(b):
    return b.decode() if b is not None else None


class _CDevice(ctypes.Structure):
    _fields_ = [("id", ctypes.c_char * 24), ("name", ctypes.c_char * 96),
                ("platform", ctypes.c_char * 64), ("version", ctypes.c_char * 48),
                ("gpu", ctypes.c_int), ("fp64", ctypes.c_int),
                ("memory", ctypes.c_ulonglong), ("compute_units", ctypes.c_uint),
                ("clock_mhz", ctypes.c_uint), ("chosen", ctypes.c_int)]


class _CTiming(ctypes.Structure):
    _fields_ = [("routine", ctypes.c_char * 16), ("path", ctypes.c_char * 8),
                ("stage1", ctypes.c_double), ("stage2", ctypes.c_double),
                ("stage3", ctypes.c_double), ("backtransform", ctypes.c_double),
                ("other", ctypes.c_double), ("total", ctypes.c_double)]


class _CCallPlan(ctypes.Structure):
    _fields_ = [("path", ctypes.c_char * 8), ("plan", ctypes.c_char * 12),
                ("reason", ctypes.c_char * 72),
                ("device_bytes", ctypes.c_longlong), ("devices", ctypes.c_int),
                ("lwork_rule", ctypes.c_char * 12), ("lwork_min", ctypes.c_longlong)]


Device = namedtuple("Device", "id name platform version gpu fp64 memory "
                              "compute_units clock_mhz chosen")
Device.__doc__ = "One device found (gpulapack_device of gpulapack.h)."
Timing = namedtuple("Timing", "routine path stage1 stage2 stage3 backtransform other total")
Timing.__doc__ = "Where the time of the last accelerated call went, in seconds."
CallPlan = namedtuple("CallPlan",
                      "path plan reason device_bytes devices lwork_rule lwork_min")
CallPlan.__doc__ = "What a call would do now (gpulapack_call_plan of gpulapack.h)."

_version = _fn("gpulapack_version", ctypes.c_char_p)
_lapack_library = _fn("gpulapack_lapack_library", ctypes.c_char_p)
_backends = _fn("gpulapack_backends", ctypes.c_char_p)
_device_count = _fn("gpulapack_device_count", ctypes.c_int)
_device_info = _fn("gpulapack_device_info", ctypes.c_int, ctypes.c_int,
                   ctypes.POINTER(_CDevice))
_path = _fn("gpulapack_path", ctypes.c_char_p)
_gpu_runtimes = _fn("gpulapack_gpu_runtimes", ctypes.c_char_p)
_tune_table = _fn("gpulapack_tune_table", ctypes.c_char_p)
_last_timing = _fn("gpulapack_last_timing", ctypes.c_int, ctypes.POINTER(_CTiming))
_plan_call = _fn("gpulapack_plan_call", ctypes.c_int, ctypes.c_char_p,
                 ctypes.c_char_p, ctypes.c_longlong, ctypes.c_longlong,
                 ctypes.c_longlong, ctypes.POINTER(_CCallPlan))

# set once a query has made the library read its settings
_settings_read = False


def _reads_settings(f):
    def wrapper(*args):
        global _settings_read
        _settings_read = True
        return f(*args)
    wrapper.__name__ = f.__name__
    wrapper.__doc__ = f.__doc__
    return wrapper


def version():
    """The library's version string, e.g. "0.1.0"."""
    return _text(_version())


def backends():
    """The backends compiled in, e.g. ["host", "opencl"]."""
    return _text(_backends()).split()


@_reads_settings
def lapack_library():
    """File name of the real LAPACK forwarded to, or None if none was found."""
    return _text(_lapack_library())


@_reads_settings
def gpu_runtimes():
    """GPU runtime libraries found on this machine, e.g. ["libcuda.so.1"]."""
    return (_text(_gpu_runtimes()) or "").split()


@_reads_settings
def device_count():
    """Number of devices found by the compiled-in GPU backends."""
    return _device_count()


@_reads_settings
def devices():
    """The devices found, as a list of Device (as gpulapack-info lists them)."""
    out = []
    for i in range(_device_count()):
        d = _CDevice()
        if _device_info(i, ctypes.byref(d)):
            out.append(Device(_text(d.id), _text(d.name), _text(d.platform),
                              _text(d.version), bool(d.gpu), bool(d.fp64), d.memory,
                              d.compute_units, d.clock_mhz, bool(d.chosen)))
    return out


@_reads_settings
def path():
    """The path accelerated calls take: "cuda", "hip", "opencl", "host" or
    "lapack" (the requested device is missing)."""
    return _text(_path())


@_reads_settings
def tune_table():
    """The crossover table in force: "built-in" or the tune file's name."""
    return _text(_tune_table())


def last_timing():
    """Timing of this thread's last call that took an accelerated path, or
    None if it made none yet."""
    t = _CTiming()
    if not _last_timing(ctypes.byref(t)):
        return None
    return Timing(_text(t.routine), _text(t.path), t.stage1, t.stage2, t.stage3,
                  t.backtransform, t.other, t.total)


@_reads_settings
def plan_call(routine, jobs, n, m=None, count=0):
    """What a call of the LAPACK routine (e.g. "dsyevd", "zheevr", "dgesdd")
    with these job letters ("V"; "VA" for JOBZ, RANGE; "SS" for ?gesvd's
    JOBU, JOBVT), n columns and m rows (default n) would do now, before it
    is made, as a CallPlan: path ("cuda", "hip", "opencl", "host" or
    "lapack"), plan ("in-core", "lean", "streamed"; "" off a device), the
    reason for "lapack", the plan's device bytes, the devices sharing it,
    and the rule of docs/large.md an LP64 caller's workspace falls under
    (lwork_rule "lapack", "ours" or "true-size"; lwork_min, LAPACK's largest
    minimum).
    count: the vectors of a RANGE 'I' (IU - IL + 1).  ValueError for a
    routine or jobs the library does not know."""
    p = _CCallPlan()
    if not _plan_call(routine.encode(), jobs.encode(), n if m is None else m,
                      n, count, ctypes.byref(p)):
        raise ValueError("gpulapack: %s with jobs %s is not a call the "
                         "library knows" % (routine, jobs))
    return CallPlan(_text(p.path), _text(p.plan), _text(p.reason),
                    p.device_bytes, p.devices, _text(p.lwork_rule), p.lwork_min)


def configure(**settings):
    """Set GPULAPACK_* environment variables of this process, e.g.
    configure(device="host", min_n=0, verbose=1) sets GPULAPACK_DEVICE=host,
    GPULAPACK_MIN_N=0 and GPULAPACK_VERBOSE=1; None unsets a variable,
    True/False give 1/0.  Names are those of docs/env.md, in any case,
    without the GPULAPACK_ prefix.

    The library reads these variables once per process, on its first LAPACK
    call or the first query that needs them (everything here except
    version() and backends()): call configure() before numpy or scipy make
    any LAPACK call.  It raises RuntimeError if a query of this module has
    already made the library read them; it cannot see a LAPACK call made
    earlier, after which the new values are silently ignored."""
    unknown = [k for k in settings if k.upper() not in SETTINGS]
    if unknown:
        raise TypeError("gpulapack.configure: unknown setting(s) %s; known: %s"
                        % (", ".join(unknown), ", ".join(s.lower() for s in SETTINGS)))
    if _settings_read:
        raise RuntimeError("gpulapack.configure: the library has already read its "
                           "settings in this process; call configure() first")
    for k, v in settings.items():
        name = "GPULAPACK_" + k.upper()
        if v is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = str(int(v)) if isinstance(v, bool) else str(v)
