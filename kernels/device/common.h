/* Scalars of one precision for the device kernels, from the PRECISION
 * macro (1 s, 2 d, 3 c, 4 z; set by the build of the program), on top of a
 * shim (shim/opencl.h, shim/cuda.h).  Complex numbers are 2-vectors used
 * through these helpers only (nvcc has no operators on them). */
#if PRECISION == 1 || PRECISION == 3
typedef float real_t;
#define MAKE_R2 MAKE_FLOAT2
typedef float2 real2_t;
#define R_SAFMIN (1.17549435e-38f / (5.96046448e-08f))
#define R_EPS 5.96046448e-08f
#else
typedef double real_t;
#define MAKE_R2 MAKE_DOUBLE2
typedef double2 real2_t;
#define R_SAFMIN (2.2250738585072014e-308 / 1.1102230246251565e-16)
#define R_EPS 1.1102230246251565e-16
#endif

/* Polls of a wait between work-groups (the one-launch chase, the panel
 * leaves) before it counts as a hang and fails the call over to LAPACK:
 * on a GPU about 2^24 memory round trips.  The OpenCL runtime raises it
 * for CPU devices, where a poll is a cache hit and the thread of the
 * awaited work-group may be descheduled for a while on a loaded host. */
#ifndef SPIN_POLLS
#define SPIN_POLLS (1 << 24)
#endif

#if PRECISION >= 3
#define IS_COMPLEX 1
typedef real2_t scalar_t;
DEVFN scalar_t s_make(real_t re, real_t im) { return MAKE_R2(re, im); }
DEVFN real_t s_re(scalar_t a) { return a.x; }
DEVFN real_t s_im(scalar_t a) { return a.y; }
DEVFN scalar_t s_add(scalar_t a, scalar_t b) { return s_make(a.x + b.x, a.y + b.y); }
DEVFN scalar_t s_sub(scalar_t a, scalar_t b) { return s_make(a.x - b.x, a.y - b.y); }
DEVFN scalar_t s_mul(scalar_t a, scalar_t b)
{
    return s_make(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
DEVFN scalar_t s_conj(scalar_t a) { return s_make(a.x, -a.y); }
DEVFN scalar_t s_rscale(real_t r, scalar_t a) { return s_make(r * a.x, r * a.y); }
#else
#define IS_COMPLEX 0
typedef real_t scalar_t;
DEVFN scalar_t s_make(real_t re, real_t im) { return re + 0 * im; }
DEVFN real_t s_re(scalar_t a) { return a; }
DEVFN real_t s_im(scalar_t a) { return 0 * a; }
DEVFN scalar_t s_add(scalar_t a, scalar_t b) { return a + b; }
DEVFN scalar_t s_sub(scalar_t a, scalar_t b) { return a - b; }
DEVFN scalar_t s_mul(scalar_t a, scalar_t b) { return a * b; }
DEVFN scalar_t s_conj(scalar_t a) { return a; }
DEVFN scalar_t s_rscale(real_t r, scalar_t a) { return r * a; }
#endif
DEVFN scalar_t s_zero(void) { return s_make(0, 0); }
DEVFN int s_is_zero(scalar_t a) { return s_re(a) == 0 && s_im(a) == 0; }
/* c - a*b and c + conj(a)*b, the updates of the reflector kernels */
DEVFN scalar_t s_fms(scalar_t c, scalar_t a, scalar_t b) { return s_sub(c, s_mul(a, b)); }
DEVFN scalar_t s_fcma(scalar_t c, scalar_t a, scalar_t b) { return s_add(c, s_mul(s_conj(a), b)); }

/* sqrt(a^2 + b^2 + c^2) without overflow (?lapy3). */
DEVFN real_t r_lapy3(real_t a, real_t b, real_t c)
{
    a = fabs(a);
    b = fabs(b);
    c = fabs(c);
    real_t w = fmax(a, fmax(b, c));
    if (w == 0)
        return a + b + c;
    return w * sqrt((a / w) * (a / w) + (b / w) * (b / w) + (c / w) * (c / w));
}

/* 1/(dr + i di), the scale of a reflector's vector 1/(alpha - beta), as
 * ?ladiv computes it: robustly. */
DEVFN scalar_t s_reciprocal(real_t dr, real_t di)
{
    if (fabs(di) <= fabs(dr)) {
        real_t r = di / dr, den = dr + di * r;
        return s_make(1 / den, -r / den);
    }
    real_t r = dr / di, den = di + dr * r;
    return s_make(r / den, -1 / den);
}

/* ?nrm2 and ?larfg for vectors in global memory (panels) and in local
 * memory (the chase's reflectors): OpenCL C 1.2 has no generic address
 * space, so the body is written once and instantiated for each. */
#define GL_DEFINE_LARFG(SPACE, NRM2, LARFG)                                   \
/* |x|_2 of x[0], x[inc], ... (n values) without overflow or underflow   \
 * in the squares: the scale/ssq recurrence of ?nrm2. */                   \
DEVFN real_t NRM2(int n, const SPACE scalar_t *x, gl_long inc)               \
{                                                                             \
    real_t scale = 0, ssq = 1;                                                \
    for (int i = 0; i < n; i++) {                                             \
        real_t parts[2];                                                      \
        parts[0] = s_re(x[i * inc]);                                          \
        parts[1] = s_im(x[i * inc]);                                          \
        for (int k = 0; k < 1 + IS_COMPLEX; k++) {                            \
            if (parts[k] == 0)                                                \
                continue;                                                     \
            real_t a = fabs(parts[k]);                                        \
            if (scale < a) {                                                  \
                ssq = 1 + ssq * (scale / a) * (scale / a);                    \
                scale = a;                                                    \
            } else {                                                          \
                ssq += (a / scale) * (a / scale);                             \
            }                                                                 \
        }                                                                     \
    }                                                                         \
    return scale * sqrt(ssq);                                                 \
}                                                                             \
/* ?larfg, run by one work-item: H^H [alpha; x] = [beta; 0] with          \
 * H = I - tau v v^H, v = [1; x/(alpha - beta)]; on return *alpha = beta,  \
 * x holds v(2:n), the result is tau.  tau = 0 (H = I) for x = 0 and a    \
 * real alpha; |beta| < safmin rescales (up to 20 times) as LAPACK does;   \
 * never 0/0. */                                                          \
DEVFN scalar_t LARFG(int n, SPACE scalar_t *alpha, SPACE scalar_t *x,         \
                     gl_long inc)                                             \
{                                                                             \
    if (n <= 0)                                                               \
        return s_zero();                                                      \
    real_t xnorm = NRM2(n - 1, x, inc);                                       \
    real_t alphr = s_re(*alpha), alphi = s_im(*alpha);                        \
    if (xnorm == 0 && alphi == 0)                                             \
        return s_zero();                                                      \
    real_t beta = -copysign(r_lapy3(alphr, alphi, xnorm), alphr);             \
    const real_t safmin = R_SAFMIN, rsafmn = 1 / R_SAFMIN;                    \
    int knt = 0;                                                              \
    if (fabs(beta) < safmin) {                                                \
        do {                                                                  \
            knt++;                                                            \
            for (int i = 0; i < n - 1; i++)                                   \
                x[i * inc] = s_rscale(rsafmn, x[i * inc]);                    \
            beta *= rsafmn;                                                   \
            alphr *= rsafmn;                                                  \
            alphi *= rsafmn;                                                  \
        } while (fabs(beta) < safmin && knt < 20);                            \
        xnorm = NRM2(n - 1, x, inc);                                          \
        *alpha = s_make(alphr, alphi);                                        \
        beta = -copysign(r_lapy3(alphr, alphi, xnorm), alphr);                \
    }                                                                         \
    scalar_t tau = s_make((beta - alphr) / beta, -alphi / beta);              \
    scalar_t scal = s_reciprocal(alphr - beta, alphi);                        \
    for (int i = 0; i < n - 1; i++)                                           \
        x[i * inc] = s_mul(scal, x[i * inc]);                                 \
    for (int j = 0; j < knt; j++)                                             \
        beta *= safmin;                                                       \
    *alpha = s_make(beta, 0);                                                 \
    return tau;                                                               \
}

GL_DEFINE_LARFG(GLOBAL, nrm2_global, larfg_global)
GL_DEFINE_LARFG(LOCAL, nrm2_local, larfg_local)
