"""numpy (Debian's, calling CBLAS through libblas.so.3) under LD_PRELOAD=libcoheriq_blas.so.

Usage: numpy_test.py <libcoheriq_blas.so> [expected engine]

Computes numpy.dot of float32 and float64 matrices (cblas_?gemm, also transposed operands) and
vectors (cblas_?dot, also strided views) here, without the preload, then the same in a child
process with the library preloaded and COHERIQ_LOG=info. Passes when every result agrees within
the bound 2·k·eps·(|A|·|B|) elementwise (both sides are inexact), and the child's log shows the
drop-in locking the kernels domain to an engine (the expected one, when given).
"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np


def products():
    rng = np.random.default_rng(5)
    out = {}
    for dtype in (np.float32, np.float64):
        name = np.dtype(dtype).name
        for m, k, n in ((64, 48, 80), (129, 67, 33), (7, 300, 5)):
            a = rng.uniform(-1, 1, (m, k)).astype(dtype)
            b = rng.uniform(-1, 1, (k, n)).astype(dtype)
            out[f"{name}_mm_{m}_{k}_{n}"] = (np.dot(a, b), np.abs(a) @ np.abs(b), k)
            at = np.ascontiguousarray(a.T)
            out[f"{name}_mtm_{m}_{k}_{n}"] = (np.dot(at.T, b), np.abs(a) @ np.abs(b), k)
        for size in (1, 17, 1000, 4099):
            x = rng.uniform(-1, 1, 3 * size).astype(dtype)
            y = rng.uniform(-1, 1, 2 * size).astype(dtype)
            out[f"{name}_dot_{size}"] = (np.dot(x[:size], y[:size]),
                                         np.dot(np.abs(x[:size]), np.abs(y[:size])), size)
            out[f"{name}_dot_strided_{size}"] = (np.dot(x[::3], y[::2]),
                                                 np.dot(np.abs(x[::3]), np.abs(y[::2])), size)
    return out


def save(path):
    np.savez(path, **{key: np.asarray(v[0]) for key, v in products().items()})


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--save":
        save(sys.argv[2])
        return 0
    library = sys.argv[1]
    expected = sys.argv[2] if len(sys.argv) > 2 else None
    here = products()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "preloaded.npz")
        env = dict(os.environ, LD_PRELOAD=library, COHERIQ_LOG="info")
        child = subprocess.run([sys.executable, __file__, "--save", path], env=env,
                               capture_output=True, text=True, timeout=120)
        sys.stderr.write(child.stderr)
        if child.returncode != 0:
            print(f"coheriq: the preloaded numpy run failed with exit code {child.returncode}")
            return 1
        preloaded = dict(np.load(path))
    failures = 0
    for key, (value, magnitude, k) in here.items():
        eps = np.finfo(np.asarray(value).dtype).eps
        error = np.abs(np.asarray(preloaded[key], dtype=np.float64) - value)
        bound = 2 * k * eps * np.asarray(magnitude, dtype=np.float64) + 1e-300
        if not np.all(error <= bound):
            failures += 1
            print(f"FAILED {key}: max error {error.max():.3g} > bound {bound.max():.3g}")
    locked = re.search(r"coheriq: coheriq\.kernels locked to (\S+)", child.stderr)
    if locked is None:
        print("FAILED: the preloaded run's log shows no 'coheriq.kernels locked to <engine>': "
              "numpy's calls did not reach libcoheriq_blas")
        failures += 1
    elif expected is not None and locked.group(1) != expected:
        print(f"FAILED: locked to {locked.group(1)}, expected {expected}")
        failures += 1
    if failures:
        return 1
    print(f"numpy_test: {len(here)} products agree; engine {locked.group(1)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
