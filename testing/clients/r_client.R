# Real-client test: GNU R (Debian r-base-core) calling LAPACK SVD and
# symmetric/Hermitian eigen drivers.
#
#   Rscript --vanilla r_client.R run OUT.rds
#       Compute every case from deterministic inputs (R's default generator,
#       seeded per case name) and save inputs and outputs with saveRDS.
#       Meant to run twice: plain, and with LD_PRELOAD=libgpulapack.so.
#   Rscript --vanilla r_client.R compare exact|accuracy REF.rds TEST.rds
#       exact: same cases, bitwise identical outputs.
#       accuracy: singular values / eigenvalues within 30*max(m,n)*eps*|A|_2;
#       vectors judged by residual and orthogonality (never by sign/phase),
#       LAPACK's test ratios (1-norms) <= 30; where the system LAPACK's own
#       ratio on the same input already exceeds 30, LAPACK's own test
#       threshold 50 (sep.in/svd.in) applies to that ratio (NOTE on stderr).
#       Run compare WITHOUT the library preloaded (it uses LAPACK for |A|_2).
#       Prints one summary line on stdout, details on stderr; exit status
#       0 = agree, 1 = differ, 2 = usage/load error.
#
# What each R function reaches in LAPACK (R 4.2.2 on Debian 12 with OpenBLAS
# 0.3.21 as liblapack.so.3, observed with GPULAPACK_VERBOSE=2).  R always
# makes an LWORK=-1 query first.  R has no single precision.
#   svd(A, nu = 0, nv = 0)          dgesdd/zgesdd JOBZ=N
#   svd(A), La.svd(A), svd(A, nu=0) or (nv=0)   JOBZ=S (R drops u or v)
#   svd(A, nu = nrow(A)) or nv = ncol(A) beyond min(m,n)   JOBZ=A
#   eigen(A, symmetric = TRUE), real      dsyevr JOBZ=V|N RANGE=A UPLO=L
#   eigen(A, symmetric = TRUE), complex   zheev  JOBZ=V|N UPLO=L
#   (only.values = TRUE gives JOBZ=N; symmetric = TRUE reads the lower
#   triangle only; eigen() of an exactly Hermitian matrix picks the same.)

seed_of <- function(name) {
  # Stable per-case seed (a polynomial hash of the case name), as in Octave.
  s <- 0
  for (ch in utf8ToInt(name)) s <- (s * 131 + ch) %% 2147483647
  as.integer(s)
}

gen <- function(name, m, n, cplx) {
  set.seed(seed_of(name), kind = "Mersenne-Twister", normal.kind = "Inversion")
  a <- matrix(rnorm(m * n), m, n)
  if (cplx) a <- (a + 1i * matrix(rnorm(m * n), m, n)) / sqrt(2)
  a
}

orth_hh <- function(name, n, cplx) {
  # Dense orthogonal/unitary matrix from 4 Householder reflectors, made with
  # plain arithmetic and BLAS only (no LAPACK), so inputs never depend on the
  # library under test.
  set.seed(seed_of(paste0(name, "#q")), kind = "Mersenne-Twister", normal.kind = "Inversion")
  q <- diag(n)
  if (cplx) q <- q + 0i
  for (k in 1:4) {
    v <- rnorm(n)
    if (cplx) v <- v + 1i * rnorm(n)
    v <- v / sqrt(sum(Mod(v)^2))
    q <- q - 2 * (q %*% v) %*% Conj(t(v))
  }
  q
}

ct <- function(x) Conj(t(x))

herm_sym <- function(h) {
  h <- (h + ct(h)) / 2
  if (is.complex(h)) diag(h) <- Re(diag(h))
  h
}

# Matrix families (as in numpy_client.py and octave_client.m):
#   rand (Gaussian), ir1 (identity plus rank one), cluster (known spectrum
#   with clusters 4 ulps wide and an exact triple), zero, tiny and huge
#   (Gaussian times 1e-150 / 1e150, beyond LAPACK's scaling thresholds).
cluster_values <- function(k) {
  e <- .Machine$double.eps
  t <- floor(k / 3)
  v <- c(1 + 4 * e * seq_len(t) - 4 * e, 2 - 4 * e * seq_len(t) + 4 * e, rep(0.5, 3), 3 + 0:(k - 1))
  v[seq_len(k)]
}

svd_family <- function(fam, nm, m, n, cplx) {
  switch(fam,
    rand = gen(nm, m, n, cplx),
    ir1 = diag(1, m, n) + gen(paste0(nm, "u"), m, 1, cplx) %*% ct(gen(paste0(nm, "v"), n, 1, cplx)),
    cluster = {
      k <- min(m, n)
      orth_hh(nm, m, cplx)[, 1:k, drop = FALSE] %*% diag(cluster_values(k), k) %*%
        ct(orth_hh(paste0(nm, "v"), n, cplx)[, 1:k, drop = FALSE])
    },
    zero = if (cplx) matrix(0i, m, n) else matrix(0, m, n),
    tiny = gen(nm, m, n, cplx) * 1e-150,
    huge = gen(nm, m, n, cplx) * 1e150)
}

herm_family <- function(fam, nm, n, cplx) {
  h <- switch(fam,
    rand = gen(nm, n, n, cplx),
    ir1 = { u <- gen(paste0(nm, "u"), n, 1, cplx); diag(n) + u %*% ct(u) },
    cluster = { q <- orth_hh(nm, n, cplx); q %*% diag(sort(cluster_values(n)) - 1.25, n) %*% ct(q) },
    zero = if (cplx) matrix(0i, n, n) else matrix(0, n, n),
    tiny = gen(nm, n, n, cplx) * 1e-150,
    huge = gen(nm, n, n, cplx) * 1e150)
  herm_sym(h)
}

lower_herm <- function(b) {
  # The Hermitian matrix LAPACK sees when it reads only the lower triangle.
  l <- b
  l[upper.tri(l)] <- 0
  d <- diag(l)
  h <- l + ct(l)
  diag(h) <- Re(d)
  h
}

cases <- list()
inputs <- list()   # stored once per run of consecutive cases on the same matrix
add_case <- function(name, kind, A, fn) {
  mark <- Sys.getenv("CLIENT_MARK_LOG")     # debugging aid: which case made which log lines
  if (nzchar(mark)) cat(sprintf("client-case: %s\n", name), file = mark, append = TRUE)
  if (!length(inputs) || !identical(A, inputs[[length(inputs)]], num.eq = FALSE))
    inputs[[length(inputs) + 1]] <<- A
  out <- tryCatch(fn(), error = function(e) conditionMessage(e))
  err <- if (is.character(out)) out else ""
  if (is.character(out)) out <- list()
  cases[[length(cases) + 1]] <<- list(name = name, kind = kind, ai = length(inputs), out = out, err = err)
}

all_cases <- function() {
  rsvd <- rbind(c(1, 1), c(1, 7), c(7, 1), c(2, 3), c(7, 7), c(12, 5), c(5, 12), c(17, 17), c(45, 45),
                c(97, 97), c(151, 151), c(263, 263), c(300, 300), c(37, 5), c(5, 37), c(150, 71),
                c(71, 150), c(299, 130), c(130, 299), c(201, 1), c(1, 201))
  reig <- c(1, 2, 3, 5, 7, 17, 33, 45, 97, 151, 211, 263, 300)
  fsvd <- rbind(c(1, 1), c(8, 8), c(57, 33), c(33, 57), c(120, 120))
  feig <- c(1, 8, 57, 120)
  for (cplx in c(FALSE, TRUE)) {
    tag <- if (cplx) "z" else "d"
    for (fam in c("rand", "ir1", "cluster", "zero", "tiny", "huge")) {
      sz <- if (fam == "rand") rsvd else fsvd
      for (i in seq_len(nrow(sz))) {
        m <- sz[i, 1]; n <- sz[i, 2]
        nm <- sprintf("r.svd.%s.%s.%dx%d", tag, fam, m, n)
        A <- svd_family(fam, nm, m, n, cplx)
        add_case(paste0(nm, ".vals"), "svd", A, function() list(d = svd(A, nu = 0, nv = 0)$d))
        add_case(paste0(nm, ".uv"), "svd", A, function() svd(A))
        add_case(paste0(nm, ".full"), "svd", A, function() svd(A, nu = m, nv = n))
        add_case(paste0(nm, ".nu0"), "svd", A, function() svd(A, nu = 0))
        add_case(paste0(nm, ".nv0"), "svd", A, function() svd(A, nv = 0))
        add_case(paste0(nm, ".fullu"), "svd", A, function() svd(A, nu = m, nv = 0))
        add_case(paste0(nm, ".La"), "svd", A, function() {
          s <- La.svd(A)
          list(d = s$d, u = s$u, v = ct(s$vt))
        })
      }
      sz <- if (fam == "rand") reig else feig
      for (n in sz) {
        nm <- sprintf("r.eigen.%s.%s.%d", tag, fam, n)
        H <- herm_family(fam, nm, n, cplx)
        add_case(paste0(nm, ".vecs"), "eig", H, function() unclass(eigen(H, symmetric = TRUE)))
        add_case(paste0(nm, ".vals"), "eig", H, function() list(values = eigen(H, symmetric = TRUE, only.values = TRUE)$values))
        if (fam == "rand") {
          # symmetric = TRUE on a non-Hermitian array: only the lower triangle counts
          B <- gen(paste0(nm, "b"), n, n, cplx)
          if (cplx) diag(B) <- Re(diag(B))
          add_case(paste0(nm, ".lowertri"), "eig", lower_herm(B), function() unclass(eigen(B, symmetric = TRUE)))
          add_case(paste0(nm, ".auto"), "eig", H, function() unclass(eigen(H)))
        }
      }
    }
  }
  # the input stored for .lowertri is the matrix LAPACK sees, not B itself;
  # inputs are compared between the runs like every other input.
}

# ----------------------------------------------------------------- compare
one <- function(x) if (length(x)) max(colSums(Mod(x))) else 0   # 1-norm, no LAPACK
over <- function(a, b) if (b > 0) a / b else if (a == 0) 0 else Inf

compare_case <- function(name, kind, A, ro, to, mode) {
  probs <- character(0)
  f <- sort(names(ro)); g <- sort(names(to))
  if (!identical(f, g)) return("different output fields")
  for (k in f) {
    x <- ro[[k]]; y <- to[[k]]
    if (!identical(class(x), class(y)) || !identical(typeof(x), typeof(y)) || !identical(dim(x), dim(y)) ||
        length(x) != length(y)) {
      probs <- c(probs, sprintf("%s: type/size %s[%s] vs %s[%s]", k, typeof(x), paste(dim(x) %||% length(x), collapse = "x"),
                                typeof(y), paste(dim(y) %||% length(y), collapse = "x")))
    } else if (mode == "exact" && !identical(x, y, num.eq = FALSE)) {
      probs <- c(probs, sprintf("%s: not bitwise identical (max abs diff %.3g)", k, max(c(0, Mod(x - y)))))
    }
  }
  if (mode == "exact" || length(probs)) return(probs)
  TH <- 30
  e <- .Machine$double.eps
  m <- nrow(A); n <- ncol(A)
  # Scale-invariant ratios: divide A and the values by a power of two near max|A|.
  amax <- max(c(0, Mod(A)))
  sc <- if (amax > 0 && is.finite(amax)) 2^floor(log2(amax)) else 1
  A <- A / sc
  anorm <- if (length(A)) norm(A, "2") else 0
  anorm1 <- one(A)
  chk <- function(label, ratio) {
    if (!is.finite(ratio) || ratio > TH) probs <<- c(probs, sprintf("%s ratio %.3g > %g", label, ratio, TH))
  }
  vchk <- function(label, f) {
    rt <- f(to); rr <- f(ro)
    lim <- TH
    if (rr > TH) {
      lim <- max(50, rr)
      message(sprintf("NOTE %s: reference %s ratio %.3g > %g: limit %.3g", name, label, rr, TH, lim))
    }
    if (!is.finite(rt) || rt > lim) probs <<- c(probs, sprintf("%s ratio %.3g > %.3g (reference %.3g)", label, rt, lim, rr))
  }
  if (kind == "svd") {
    mn <- min(m, n)
    sr <- ro$d / sc; st <- to$d / sc
    chk("singular values", if (mn) over(max(abs(sr - st)), anorm * max(m, n) * e) else 0)
    s2 <- function(o, k) { s <- o$d / sc; c(s^2, rep(0, k))[seq_len(k)] }
    if (!is.null(to$u) && !is.null(to$v) && ncol(to$u) >= mn && ncol(to$v) >= mn) {
      vchk("|A-U*S*VH|/(|A|*max(m,n)*eps)", function(o)
        over(one(A - o$u[, seq_len(mn), drop = FALSE] %*% diag(o$d[seq_len(mn)] / sc, mn) %*%
                   ct(o$v[, seq_len(mn), drop = FALSE])), anorm1 * max(m, n) * e))
    } else if (!is.null(to$u) && ncol(to$u)) {   # u only: A*AH*U = U*S^2
      vchk("|A*AH*U-U*S^2|/(|A|^2*max(m,n)*eps)", function(o)
        over(one(A %*% (ct(A) %*% o$u) - o$u %*% diag(s2(o, ncol(o$u)), ncol(o$u))), anorm^2 * max(m, n) * e))
    } else if (!is.null(to$v) && ncol(to$v)) {   # v only: AH*A*V = V*S^2
      vchk("|AH*A*V-V*S^2|/(|A|^2*max(m,n)*eps)", function(o)
        over(one(ct(A) %*% (A %*% o$v) - o$v %*% diag(s2(o, ncol(o$v)), ncol(o$v))), anorm^2 * max(m, n) * e))
    }
    if (!is.null(to$u) && ncol(to$u))
      vchk("|I-UH*U|/(m*eps)", function(o) one(diag(ncol(o$u)) - ct(o$u) %*% o$u) / (max(m, 1) * e))
    if (!is.null(to$v) && ncol(to$v))
      vchk("|I-VH*V|/(n*eps)", function(o) one(diag(ncol(o$v)) - ct(o$v) %*% o$v) / (max(n, 1) * e))
  } else if (kind == "eig") {
    wr <- ro$values / sc; wt <- to$values / sc
    chk("eigenvalues", if (n) over(max(abs(wr - wt)), anorm * n * e) else 0)
    if (!is.null(to$vectors) && n) {
      vchk("|A*V-V*W|/(|A|*n*eps)", function(o)
        over(one(A %*% o$vectors - o$vectors %*% diag(o$values / sc, n)), anorm1 * n * e))
      vchk("|I-VH*V|/(n*eps)", function(o) one(diag(n) - ct(o$vectors) %*% o$vectors) / (n * e))
    }
  } else {
    probs <- c(probs, paste("unknown kind", kind))
  }
  probs
}

`%||%` <- function(a, b) if (is.null(a)) b else a

do_compare <- function(mode, reffile, testfile) {
  R <- tryCatch(list(readRDS(reffile), readRDS(testfile)), error = function(e) conditionMessage(e))
  if (is.character(R)) {
    cat(sprintf("cannot load results: %s\n", R))
    return(2)
  }
  expand <- function(x) lapply(x$cases, function(c) { c$A <- x$inputs[[c$ai]]; c })
  T <- expand(R[[2]]); R <- expand(R[[1]])
  rn <- vapply(R, `[[`, "", "name"); tn <- vapply(T, `[[`, "", "name")
  bad <- character(0)
  if (!identical(rn, tn)) bad <- c(bad, "(case list): case lists differ")
  for (k in seq_len(min(length(R), length(T)))) {
    r <- R[[k]]; t <- T[[k]]
    if (r$name != t$name) next
    probs <- character(0)
    if (!identical(r$A, t$A, num.eq = FALSE)) probs <- c(probs, "input differs (generator not deterministic?)")
    if (r$err != t$err) {
      probs <- c(probs, sprintf("error '%s' vs '%s'", r$err, t$err))
    } else if (!nzchar(r$err)) {
      probs <- c(probs, tryCatch(compare_case(r$name, r$kind, r$A, r$out, t$out, mode),
                                 error = function(e) paste("comparison raised:", conditionMessage(e))))
    }
    if (length(probs)) bad <- c(bad, paste0(r$name, ": ", paste(probs, collapse = "; ")))
  }
  for (b in bad) message("DIFF ", b)
  if (length(bad)) {
    cat(sprintf("%d of %d cases differ (%s); first: %s\n", length(bad), length(R), mode, bad[1]))
    return(1)
  }
  cat(sprintf("%d cases agree (%s)\n", length(R), mode))
  0
}

# -------------------------------------------------------------------- main
args <- commandArgs(trailingOnly = TRUE)
if (length(args) == 2 && args[1] == "run") {
  all_cases()
  saveRDS(list(cases = cases, inputs = inputs), args[2], compress = FALSE)
  maps <- readLines("/proc/self/maps")
  libs <- unique(sub("^.* ", "", grep("lapack|blas|gpulapack|standin", maps, value = TRUE)))
  message(sprintf("r: mapped: %s", paste(libs, collapse = " ")))
  message(sprintf("r: %d cases (%d raised) -> %s", length(cases),
                  sum(vapply(cases, function(c) nzchar(c$err), TRUE)), args[2]))
  quit(status = 0)
} else if (length(args) == 4 && args[1] == "compare" && args[2] %in% c("exact", "accuracy")) {
  quit(status = do_compare(args[2], args[3], args[4]))
} else {
  message("usage: r_client.R run OUT.rds | compare exact|accuracy REF.rds TEST.rds")
  quit(status = 2)
}
