"""Why LAPACK's xlintstrf tests of STFSM and CTFSM tip over their threshold under some BLAS
libraries: the study behind docs/blas.md ("LAPACK's test programs").

Usage: /usr/bin/python3 bench/blas_tfsm_study.py <libcoheriq_blas.so> [trials per case]

xlintstrf compares two solutions of op(A)·X = alpha·B, A triangular (the R of a QR, or the L of
an LQ, of a random matrix): ?TRSM on A, and ?TFSM on A in RFP format (two ?TRSM on halves and a
?GEMM between them). It fails a case when max|X_tfsm − X_trsm| / sqrt(eps) / max(m, n) >= 30:
an absolute difference, so a badly conditioned A fails whenever the two paths round
differently. This script repeats the test's setup for every option (RFP form, side, uplo, trans,
diag) at m = n = 50 with its own random matrices, under the reference BLAS, OpenBLAS and
Coheriq (each the libblas.so.3 of its own process, under the reference LAPACK), and prints per
library how many cases tip and the forward error of each path against a float64 solution.
"""
import ctypes
import os
import subprocess
import sys
import tempfile

import numpy as np

M = N = 50
OPTIONS = [(f, s, u, t, d) for f in "NT" for s in "LR" for u in "UL" for t in "NT"
           for d in "NU"]
THRESHOLD = 30.0


def cases(trials, complex_data):
    rng = np.random.default_rng(20240521)
    out = []
    for option in OPTIONS:
        for _ in range(trials):
            na = M if option[1] == "L" else N
            g = rng.uniform(-1, 1, (na, na))
            if complex_data:
                g = g + 1j * rng.uniform(-1, 1, (na, na))
            # R of a QR (upper), or L of an LQ (lower), as the test builds A.
            a = np.linalg.qr(g)[1] if option[2] == "U" else np.linalg.qr(g.conj().T)[1].conj().T
            b = rng.uniform(-1, 1, (M, N))
            if complex_data:
                b = b + 1j * rng.uniform(-1, 1, (M, N))
            alpha = rng.uniform(-1, 1) + (1j * rng.uniform(-1, 1) if complex_data else 0)
            out.append((option, a, b, alpha))
    return out


def exact(option, a, b, alpha):
    """The solution in float64 of the float32 data (a has cond < 1e7 here: 9+ digits left)."""
    side, trans, diag = option[1], option[3], option[4]
    if np.iscomplexobj(a) and trans == "T":
        trans = "C"  # as the child passes it
    t = a.copy()
    if diag == "U":
        np.fill_diagonal(t, 1)
    op = t if trans == "N" else (t.T if trans == "T" else t.conj().T)
    rhs = alpha * b
    return np.linalg.solve(op, rhs) if side == "L" else np.linalg.solve(op.T, rhs.T).T


def child(path, complex_data):
    """Runs in the process of one BLAS: both paths for every case, results to `path`."""
    data = np.load(path, allow_pickle=True)
    lapack = ctypes.CDLL("liblapack.so.3")
    blas = ctypes.CDLL("libblas.so.3")
    kind = np.complex64 if complex_data else np.float32
    p = "c" if complex_data else "s"
    trsm, tfsm, trttf = getattr(blas, p + "trsm_"), getattr(lapack, p + "tfsm_"), getattr(
        lapack, p + "trttf_")
    ch = lambda c: ctypes.c_char_p(c.encode())  # noqa: E731
    i = lambda v: ctypes.byref(ctypes.c_int(v))  # noqa: E731
    results = []
    for option, a, b, alpha in data["cases"]:
        form, side, uplo, trans, diag = option
        if complex_data and form == "T":
            form = "C"  # the complex RFP's transposed form is the conjugate one
        if complex_data and trans == "T":
            trans = "C"
        na = a.shape[0]
        a32 = np.asfortranarray(a, dtype=kind)
        arf = np.zeros(na * (na + 1) // 2, dtype=kind)
        info = ctypes.c_int(0)
        trttf(ch(form), ch(uplo), i(na), a32.ctypes, i(na), arf.ctypes, ctypes.byref(info),
              ctypes.c_size_t(1), ctypes.c_size_t(1))
        alpha32 = np.array([alpha], dtype=kind)
        b1 = np.asfortranarray(b, dtype=kind)
        b2 = b1.copy(order="F")
        trsm(ch(side), ch(uplo), ch(trans), ch(diag), i(M), i(N), alpha32.ctypes, a32.ctypes,
             i(na), b1.ctypes, i(M), *[ctypes.c_size_t(1)] * 4)
        tfsm(ch(form), ch(side), ch(uplo), ch(trans), ch(diag), i(M), i(N), alpha32.ctypes,
             arf.ctypes, b2.ctypes, i(M), *[ctypes.c_size_t(1)] * 5)
        results.append((b1.astype(np.complex128), b2.astype(np.complex128)))
    np.save(path + ".out.npy", np.array(results, dtype=object), allow_pickle=True)


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--child":
        return child(sys.argv[2], sys.argv[3] == "c")
    coheriq = os.path.abspath(sys.argv[1])
    trials = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    libraries = {
        "reference BLAS": "/usr/lib/x86_64-linux-gnu/blas/libblas.so.3",
        "OpenBLAS": "/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3",
        "Coheriq": coheriq,
    }
    lapack = "/usr/lib/x86_64-linux-gnu/lapack/liblapack.so.3"
    for complex_data in (False, True):
        data = cases(trials, complex_data)
        eps = np.finfo(np.float32).eps
        print(f"{'CTFSM' if complex_data else 'STFSM'}: {len(data)} cases (m = n = 50, "
              f"{len(OPTIONS)} options x {trials})")
        with tempfile.TemporaryDirectory() as scratch:
            path = os.path.join(scratch, "cases.npy")
            # The float32 data the libraries see, so that the float64 solution is of it.
            kind = np.complex64 if complex_data else np.float32
            rounded = [(o, a.astype(kind).astype(np.complex128 if complex_data else np.float64),
                        b.astype(kind).astype(np.complex128 if complex_data else np.float64),
                        complex(np.array(al, dtype=kind)) if complex_data else
                        float(np.float32(al))) for o, a, b, al in data]
            np.savez(path, cases=np.array(rounded, dtype=object))
            truth = [exact(*c) for c in rounded]
            for name, library in libraries.items():
                folder = os.path.join(scratch, name.replace(" ", "_"))
                os.mkdir(folder)
                os.symlink(library, os.path.join(folder, "libblas.so.3"))
                os.symlink(lapack, os.path.join(folder, "liblapack.so.3"))
                env = dict(os.environ, LD_LIBRARY_PATH=folder, OPENBLAS_NUM_THREADS="1")
                subprocess.run([sys.executable, __file__, "--child", path + ".npz",
                                "c" if complex_data else "s"], env=env, check=True)
                results = np.load(path + ".npz.out.npy", allow_pickle=True)
                ratios, trsm_err, tfsm_err = [], [], []
                for (x1, x2), x in zip(results, truth):
                    # The test's measure: ?LANGE('I') (largest row sum of |.|) of the difference.
                    ratios.append(np.abs(x2 - x1).sum(axis=1).max() / np.sqrt(eps) / max(M, N))
                    scale = np.abs(x).max()
                    trsm_err.append(np.abs(x1 - x).max() / scale / eps)
                    tfsm_err.append(np.abs(x2 - x).max() / scale / eps)
                ratios = np.array(ratios)
                print(f"  {name:15s} tip (>= {THRESHOLD:g}): {int((ratios >= THRESHOLD).sum()):3d}; "
                      f"test ratio median {np.median(ratios):8.3g} max {ratios.max():8.3g}; "
                      f"forward error / eps: ?TRSM median {np.median(trsm_err):8.3g} "
                      f"max {max(trsm_err):8.3g}, ?TFSM median {np.median(tfsm_err):8.3g} "
                      f"max {max(tfsm_err):8.3g}")


if __name__ == "__main__":
    main()
