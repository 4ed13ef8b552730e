/* The pipelines' tuning parameters (tune.h): band, tile, groups, blocks,
 * threads, the streamed plans' sizes, and the snapshot a context takes of
 * them; environment overrides first. */
#include <limits.h>

#include "config.h"
#include "gpu.h"
#include "tune.h"
#include "tune_file.h"

/* A wider band makes stage 1's products faster and the chase, which is
 * memory-bound, slower.  On the host, values only (2 cores of
 * epyc-zen5-2core; the other widths tried:
 * docs/design/tried-and-not-kept.md): 32 was faster up to n = 3000 (dsyevd N 0.17 s
 * against 0.20 at 2000, dgesdd N 0.83 against 0.89 at 3000), 64 at 4000
 * (dsyevd N 0.93-1.03 s against 1.01-1.05, dgesdd N 1.63 against 1.77);
 * with vectors the back-transformation's blocks want the wider band: 64
 * from 1500 (dsyevd V 0.55 s against 0.65 at 2000).  On a GPU (H200,
 * docs/data/h200-2026-11-26-bands-leaves-0a0251d.txt), where stage 1 runs
 * on cuBLAS and the chase is a chain of dependent steps, narrower: values
 * 16 up to 4096 (dsyevd N 0.31 s against 0.37 at 32 and 0.47 at 64), 32
 * from 8192 on (at 16384 2.17 s against 2.36 at 64 and 2.66 at 16;
 * dgesdd N 2.87 against 3.60 and 3.59); with vectors 32 at 8192 (dsyevd V
 * 1.37 s against 1.60 at 64, 1.51 at 24), 64 at 16384 (4.87 s against
 * 5.60 at 32: the back-transformation grows). */
int gl_tune_band(const gl_tuning *t, char kind, int complex_, long n,
                 int vectors)
{
    long band = gl_config_get()->band;
    if (band > 0)
        return band > 1024 ? 1024 : (int)band;
    (void)kind, (void)complex_;
    if (t->device)
        return vectors ? (n >= 12288 ? 64 : 32) : (n >= 6144 ? 32 : 16);
    return n >= (vectors ? 1500 : 3500) ? 64 : 32;
}

int gl_tune_tile_width(int b)
{
    long tw = gl_config_get()->tile_width;
    if (tw > 0)
        return tw < b ? (int)tw : b;
    return b;
}

/* The host's kernel skips most of a block's zeros, and b/2 sweeps won
 * there (docs/design/backtransform-blocks.md; the other groups tried:
 * docs/design/tried-and-not-kept.md).  A device applies each wave of blocks as two
 * batched products that read and write all of the vectors, so the
 * waves' count (n/group + n/b) sets the memory traffic, and blocks of b
 * sweeps halve the b/2 ones' traffic per flop at 1.5 times their
 * multiplications of zeros (docs/design/backtransform-blocks.md, "The stage-2
 * back-transformation's blocks on a device"). */
int gl_tune_group(const gl_tuning *t, int b)
{
    long group = gl_config_get()->group;
    if (group > 0)
        return group < 256 ? (int)group : 256;
    if (t->device)
        return b > 1 ? b : 1;
    return b > 1 ? b / 2 : 1;
}

/* A device's update of the rest of the matrix runs far below the tensor
 * cores' rate at inner size b (32-64) and near it in the hundreds
 * ("Improving Tridiagonalization Performance on GPU Architectures": 50
 * TFLOP/s for syr2k at k = 1024 on an H100); a block of k columns costs
 * more flops than single blocking (the panels' catch-up and the
 * corrections of their products): 3 n^2 k for the Hermitian reduction,
 * 6 n^2 k for the SVD's, 9k / 4n of either's 4/3 n^3 or 8/3 n^3: k about
 * n / 32 keeps that near 7%, up to 1024 columns.  Each panel also costs
 * about 5 more launches (its catch-up and corrections), some 50 us: below
 * n = 8192 they cost more than the faster updates gain (counted in
 * docs/design/stage1-double-blocking.md).  The
 * host's BLAS runs its rank-b updates near its peak already, and there the
 * corrections cost more than the larger updates gain (about 0.2 s against
 * 0.14 s at n = 4000: docs/design/tried-and-not-kept.md). */
int gl_tune_stage1_block(const gl_tuning *t, long n, int b)
{
    long block = gl_config_get()->stage1_block;
    if (b < 1)
        b = 1;
    if (block <= 0) {
        if (!t->device || n < 8192)
            return b;
        long panels = n / (32L * b), most = 1024 / b;
        block = (panels < 2 ? 2 : panels > most ? most : panels) * b;
    }
    block = block / b * b;
    return block < b ? b : block > 4096 ? 4096 / b * b : (int)block;
}

/* Each device's columns are its tiles': the trailing matrix shrinks by
 * a panel at a time, so the devices stay about even only while each
 * holds several tiles of the rest.  At most n / (4 devices) then, and
 * 1024 columns (8 GiB of FP64 at n = 1M rows is far off; at n = 32768 a
 * tile column is 256 MiB, long copies at the bus's rate). */
int gl_tune_stage1_tile(long n, int b, int devices)
{
    long tile = gl_config_get()->ooc_tile;
    if (b < 1)
        b = 1;
    if (tile <= 0) {
        long even = n / (4L * (devices > 1 ? devices : 1));
        tile = even < 1024 ? even : 1024;
    }
    tile = (tile + b - 1) / b * b;
    return tile < b ? b : tile > n ? (int)((n + b - 1) / b * b) : (int)tile;
}

/* One stage by default: on the host it runs at LAPACK's own speed, where
 * the two stages with the re-factorization took 1.8 times as long at
 * n = 4000 (docs/performance.md); on a GPU the second re-factors its Q on
 * the host (kernels/pipelines/sytrd.c). */
int gl_tune_sytrd_stages(void)
{
    return gl_config_get()->sytrd_stages == 2 ? 2 : 1;
}

int gl_tune_chunk(void)
{
    long chunk = gl_config_get()->chunk;
    return chunk > 0 ? (chunk < 4096 ? (int)chunk : 4096) : 128;
}

int gl_host_threads(void)
{
    long threads = gl_config_get()->host_threads;
    if (threads > 0)
        return threads > 64 ? 64 : (int)threads;
    return gl_tune_cpu_count();
}

int gl_tune_chase_schedule(void)
{
    switch (gl_config_get()->host_chase) {
        case GL_HOST_CHASE_SWEEPS: return GL_SCHEDULE_SWEEPS;
        case GL_HOST_CHASE_EVEN: return GL_SCHEDULE_EVEN;
        default: return GL_SCHEDULE_BALANCED;
    }
}

int gl_tune_group_threads(void)
{
    long t = gl_config_get()->group_threads;
    return t > 0 ? (t < 1024 ? (int)t : 1024) : 64;
}

long gl_tune_max_groups(void) { return gl_config_get()->max_groups; }

/* Not measured on a GPU yet (no device was lent since the kernels were
 * written): 256 rows make 64 work-groups for the 16384-row panels, about
 * half an H100's multiprocessors, at two rows per work-item. */
long gl_tune_chase_groups(void) { return gl_config_get()->chase_groups; }

/* The window kernel: a sweep's block stays in local memory from one step
 * to the next, a step's three updates run as one phase and its reflector
 * is made before the wait for the sweep ahead (kernels/device/chase.h).
 * Not timed on a GPU yet; the tasks kernel is the one measured on the
 * H200 (0.40 s at n = 8192, b = 32). */
int gl_tune_chase_kernel(void)
{
    int k = gl_config_get()->chase_kernel;
    return k != GL_CHASE_TUNED ? k : GL_CHASE_WINDOW;
}

long gl_tune_panel_groups(void) { return gl_config_get()->panel_groups; }

long gl_tune_panel_rows(void)
{
    long rows = gl_config_get()->panel_rows;
    return rows > 0 ? (rows < (1L << 20) ? rows : 1L << 20) : 256;
}

/* The leaves go to the host's threads and their vectors once to the
 * device; the merges above them run on the device.  On an H200 (16-core
 * host) at n = 8192, leaves of 128 rows took dsyevd V from 1.76 s (1024)
 * to 1.60 s and dgesdd S from 2.61 to 2.33 s; 64 was no faster, 256 in
 * between (docs/data/h200-2026-11-26-bands-leaves-0a0251d.txt). */
long gl_tune_dc_leaf(void)
{
    long leaf = gl_config_get()->dc_leaf;
    return leaf > 0 ? leaf : 128;
}

static int band_below(long b, long n)
{
    return (int)(b < n - 1 ? b : n > 2 ? n - 1 : 1);
}

int gl_tune_ooc_band(long n)
{
    long b = gl_config_get()->ooc_band;
    if (b <= 0)
        b = 256;
    return band_below(b < 256 ? b : 256, n);
}

/* A pass does about 8 b flops per element of the trailing matrix (the
 * pending update and the next panel's product, 4 b each) for 8 bytes
 * each way in FP64, so its copies and its products take about as long
 * at b = F / W (F the GEMM rate, W the slower direction's bytes per
 * second): the device's measured rates (the tune file's rates line),
 * else an H200's 40 TFLOP/s over 25 GB/s, 1600, rounded down to 1024;
 * multiples of 64 from 256 to 4096.  At most n / 4 (a few panels at
 * least: the band-to-band reduction in core would do the rest) unless
 * that is under the chase's band. */
int gl_tune_ooc_wide_band(const gl_tuning *t, long n)
{
    long b = gl_config_get()->ooc_band;
    if (b > 0)
        return band_below(b < 4096 ? b : 4096, n);
    long narrow = gl_tune_ooc_band(n);
    long wide = t && t->ooc_wide_band > 0 ? t->ooc_wide_band : 1024;
    wide = n / 4 < wide ? n / 4 : wide;
    return (int)(wide > narrow ? wide : narrow);
}

int gl_tune_ooc_chase_band(long n, int wide)
{
    long b = gl_config_get()->ooc_chase_band;
    if (b <= 0 || b > 256)
        b = 256;
    return band_below(b < wide ? b : wide, n);
}

/* Tiles of 4096: 128 MiB in double, long enough transfers for the bus's
 * rate (docs/performance.md, "Copies at link speed"). */
int gl_tune_ooc_tile(long n, int b)
{
    long tile = gl_config_get()->ooc_tile;
    if (tile <= 0)
        tile = 4096;
    if (tile > n)
        tile = n;
    return (int)(tile > b + 1 ? tile : b + 1);
}

int gl_tune_ooc_segment(int group)
{
    long sweeps = gl_config_get()->ooc_segment;
    if (sweeps <= 0)
        return 0;
    if (group < 1)
        group = 1;
    sweeps = sweeps / group * group;
    if (sweeps > INT_MAX / 2)
        sweeps = INT_MAX / 2 / group * group;
    return (int)(sweeps > group ? sweeps : group);
}

/* Today's values are the same for every device of a kind (the built-in
 * defaults and the environment); the snapshot is where a device's own
 * measured values go. */
void gl_tune_snapshot(const gl_gpu_device_info *info, gl_tuning *out)
{
    *out = (gl_tuning){
        .device = info != NULL,
        .group_threads = gl_tune_group_threads(),
        .max_groups = gl_tune_max_groups(),
        .panel_rows = gl_tune_panel_rows(),
        .panel_groups = gl_tune_panel_groups(),
        .chase_groups = gl_tune_chase_groups(),
        .chase_kernel = gl_tune_chase_kernel(),
        .dc_leaf = gl_tune_dc_leaf(),
        .chunk = gl_tune_chunk(),
        .sytrd_stages = gl_tune_sytrd_stages(),
        .ooc_wide_band = gl_tune_file_wide_band(info),
        .chase_schedule = gl_tune_chase_schedule(),
        .host_values = gl_config_get()->host_values,
    };
    /* GPULAPACK_HOST_THREADS decides alone, over the file's lines */
    if (gl_config_get()->host_threads <= 0)
        out->host_lines =
            gl_tune_file_host_lines(out->host_line, GL_TUNE_HOST_LINES);
}
