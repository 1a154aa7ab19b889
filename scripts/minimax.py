#!/usr/bin/env python3
"""Minimax polynomial coefficients for the vector math (src/math/*.h), rounded to float or double.

    python3 scripts/minimax.py exp f64        # one fit, by name (see FITS below)
    python3 scripts/minimax.py --list         # the fits and what each approximates

Each fit approximates g(x) on [a, b] by sum c_j x^e_j (the exponents e_j given), minimizing the
largest weighted error |w(x) (g(x) - p(x))| by the Remez exchange in 100-digit arithmetic (mpmath).
The coefficients are then rounded to the target type one at a time, lowest exponent first, the
remaining ones refitted after each rounding, so the rounding of one is compensated by the others.
Prints the coefficients of P highest degree first (the order of a Horner evaluation) as hex
float literals, with the weighted error of the rounded polynomial measured on a dense grid.

Needs mpmath (Debian: python3-mpmath).
"""

import argparse
import sys

import mpmath as mp

mp.mp.dps = 50


def solve_reference(g, w, exps, points):
    """Coefficients and levelled error E with w(x_i)(g(x_i) - p(x_i)) = (-1)^i E at the points."""
    m = len(exps)
    rows, rhs = [], []
    for i, x in enumerate(points):
        rows.append([x ** e for e in exps] + [(-1) ** i / w(x)])
        rhs.append(g(x))
    sol = mp.lu_solve(mp.matrix(rows), mp.matrix(rhs))
    return [sol[j] for j in range(m)], sol[m]


def error_fn(g, w, exps, coeffs):
    return lambda x: w(x) * (g(x) - mp.fsum(c * x ** e for c, e in zip(coeffs, exps)))


def refine_max(f, lo, hi, sign):
    """The abscissa of the extremum of sign*f on [lo, hi] (golden-section search)."""
    gr = (mp.sqrt(5) - 1) / 2
    a, b = lo, hi
    c, d = b - gr * (b - a), a + gr * (b - a)
    fc, fd = sign * f(c), sign * f(d)
    for _ in range(60):
        if fc > fd:
            b, d, fd = d, c, fc
            c = b - gr * (b - a)
            fc = sign * f(c)
        else:
            a, c, fc = c, d, fd
            d = a + gr * (b - a)
            fd = sign * f(d)
    return (a + b) / 2


def remez(g, w, exps, a, b, grid=2000, iterations=40):
    m = len(exps)
    a, b = mp.mpf(a), mp.mpf(b)
    # Chebyshev extrema as the first reference.
    # Chebyshev extrema, one more than needed, less the one of smallest weight (a weight that
    # vanishes inside, e.g. r^2 for an r^2 P(r) term, would make the first system singular).
    points = [(a + b) / 2 - (b - a) / 2 * mp.cos(mp.pi * i / (m + 1)) for i in range(m + 2)]
    points.remove(min(points, key=lambda x: abs(w(x)) if abs(w(x)) != mp.inf else mp.inf))
    coeffs, level = None, None
    for _ in range(iterations):
        coeffs, level = solve_reference(g, w, exps, points)
        err = error_fn(g, w, exps, coeffs)
        xs = [a + (b - a) * i / grid for i in range(grid + 1)]
        es = [err(x) for x in xs]
        # Local extrema of the error (the ends count), refined.
        extrema = []
        for i in range(grid + 1):
            left = es[i - 1] if i > 0 else None
            right = es[i + 1] if i < grid else None
            s = 1 if es[i] >= 0 else -1
            if (left is None or s * es[i] >= s * left) and (right is None or s * es[i] >= s * right):
                if 0 < i < grid:
                    x = refine_max(err, xs[i - 1], xs[i + 1], s)
                else:
                    x = xs[i]
                extrema.append((x, err(x)))
        # Merge runs of the same sign, keeping the largest of each run; extrema far below the
        # others (where the weight vanishes) are no candidates.
        peak = max(abs(e) for _, e in extrema)
        extrema = [(x, e) for x, e in extrema if abs(e) > peak * mp.mpf("1e-3")]
        alternating = []
        for x, e in extrema:
            if alternating and (alternating[-1][1] >= 0) == (e >= 0):
                if abs(e) > abs(alternating[-1][1]):
                    alternating[-1] = (x, e)
            else:
                alternating.append((x, e))
        # Keep m + 1 of them: drop the smallest at either end until the count fits.
        while len(alternating) > m + 1:
            if abs(alternating[0][1]) < abs(alternating[-1][1]):
                alternating.pop(0)
            else:
                alternating.pop()
        if len(alternating) < m + 1:
            break
        new_points = [x for x, _ in alternating]
        largest = max(abs(e) for _, e in alternating)
        smallest = min(abs(e) for _, e in alternating)
        points = new_points
        if largest / smallest - 1 < mp.mpf("1e-6"):
            break
    return coeffs, abs(level)


def round_to(value, kind):
    """Nearest float (kind 'f32') or double ('f64')."""
    if kind == "f64":
        return mp.mpf(float(value))
    import struct
    return mp.mpf(struct.unpack("f", struct.pack("f", float(value)))[0])


def max_error(g, w, exps, coeffs, a, b, grid=2000):
    err = error_fn(g, w, exps, coeffs)
    a, b = mp.mpf(a), mp.mpf(b)
    return max(abs(err(a + (b - a) * i / grid)) for i in range(grid + 1))


def next_value(v, kind, direction):
    import struct
    if kind == "f64":
        bits = struct.unpack("<q", struct.pack("<d", float(v)))[0]
        return mp.mpf(struct.unpack("<d", struct.pack("<q", bits + direction * (1 if v > 0 else -1)))[0])
    bits = struct.unpack("<i", struct.pack("<f", float(v)))[0]
    return mp.mpf(struct.unpack("<f", struct.pack("<i", bits + direction * (1 if v > 0 else -1)))[0])


def fit(g, w, exps, a, b, kind, fixed=None, unrounded=()):
    """Remez, each coefficient rounded to the type, then a coordinate search: each rounded
    coefficient moved by one ulp either way while that lowers the error on a grid.
    `fixed`: {exponent: value} kept exactly as given; `unrounded`: exponents fitted but not
    rounded (the algorithm holds them as hi + lo)."""
    fixed = dict(fixed or {})
    free = [e for e in exps if e not in fixed]

    def target(x):
        return g(x) - mp.fsum(v * x ** e for e, v in fixed.items())

    coeffs, _ = remez(target, w, free, a, b)
    values = {**fixed, **{e: c if e in unrounded else round_to(c, kind)
                          for e, c in zip(free, coeffs)}}
    current = [values[e] for e in exps]
    best = max_error(g, w, exps, current, a, b)
    for _ in range(3):
        improved = False
        for i, e in enumerate(exps):
            if e in fixed or e in unrounded:
                continue
            for direction in (1, -1):
                trial = list(current)
                trial[i] = next_value(current[i], kind, direction)
                error = max_error(g, w, exps, trial, a, b)
                if error < best:
                    current, best, improved = trial, error, True
                    break
        if not improved:
            break
    return current, max_error(g, w, exps, current, a, b, grid=20000)


def hexf(v, kind):
    return float_hex32(float(v)) if kind == "f32" else float(v).hex()


def float_hex32(x):
    """A float's value as a C hex literal with the 6 hex digits a float's mantissa needs."""
    if x == 0:
        return "0.0f"
    h = x.hex()  # e.g. 0x1.5555560000000p-3
    sign = "-" if h.startswith("-") else ""
    h = h.lstrip("-")
    mant, exp = h[4:].split("p")
    mant = mant.rstrip("0") or "0"
    return f"{sign}0x1.{mant}p{exp}f" if mant != "0" else f"{sign}0x1p{exp}f"


# ------------------------------ The fits
# name -> (description, type, g, w, exponents, a, b, fixed). g and w take an mpf.

LN2 = mp.log(2)


def rel(f):
    return lambda x: 1 / abs(f(x))


def by_type(kind, f32, f64):
    return f32 if kind == "f32" else f64


def expm1_core(r):  # (e^r - 1 - r) / r^2, smooth at 0
    return mp.mpf(1) / 2 if r == 0 else (mp.expm1(r) - r) / r ** 2


FITS = {}


def define(name, description):
    def register(builder):
        FITS[name] = (description, builder)
        return builder
    return register


@define("exp", "e^r = 1 + r + r^2 P(r) on [-ln2/2, ln2/2], relative to e^r")
def _(kind):
    degree = by_type(kind, 5, 9)  # of P
    h = lambda r: mp.mpf(1) / 2 if r == 0 else (mp.exp(r) - 1 - r) / r ** 2
    w = lambda r: r ** 2 / mp.exp(r)
    return h, w, list(range(degree + 1)), -LN2 / 2, LN2 / 2, {}


@define("log1p", "log(1 + f) = f - f^2/2 + f^3 P(f) on [sqrt(1/2) - 1, sqrt(2) - 1], relative")
def _(kind):
    degree = by_type(kind, 7, 20)
    h = lambda f: mp.mpf(1) / 3 if f == 0 else (mp.log1p(f) - f + f ** 2 / 2) / f ** 3
    w = lambda f: mp.mpf(3) if f == 0 else abs(f ** 3 / mp.log1p(f))
    return h, w, list(range(degree + 1)), mp.sqrt(0.5) - 1, mp.sqrt(2) - 1, {}


SMAX = (mp.sqrt(2) - 1) / (mp.sqrt(2) + 1)  # s = f / (2 + f) for f in [sqrt(1/2) - 1, sqrt(2) - 1]


@define("log_atanh", "2 atanh(s) = 2s + s z Q(z), z = s^2 in [0, smax^2]: absolute error of z Q")
def _(kind):
    degree = by_type(kind, 3, 6)
    def q(z):
        if z == 0:
            return mp.mpf(2) / 3
        t = mp.sqrt(z)
        return (2 * mp.atanh(t) / t - 2) / z
    return q, lambda z: z, list(range(degree + 1)), 0, SMAX ** 2, {}


@define("exp2", "2^r = 1 + r ln2 + r^2 P(r) on [-1/2, 1/2], relative to 2^r (pow's, f64)")
def _(kind):
    degree = by_type(kind, 5, 9)
    h = lambda r: LN2 ** 2 / 2 if r == 0 else (mp.power(2, r) - 1 - r * LN2) / r ** 2
    w = lambda r: r ** 2 / mp.power(2, r)
    return h, w, list(range(degree + 1)), -mp.mpf(1) / 2, mp.mpf(1) / 2, {}


@define("exp2_short", "2^r = 1 + r Q(r) on [-1/2, 1/2], r Q(r) relative to 2^r (exp2 itself)")
def _(kind):
    degree = by_type(kind, 5, 11)
    h = lambda r: LN2 if r == 0 else (mp.power(2, r) - 1) / r
    w = lambda r: abs(r) / mp.power(2, r)
    return h, w, list(range(degree + 1)), -mp.mpf(1) / 2, mp.mpf(1) / 2, {}


@define("expm1", "e^r - 1 = r + r^2/2 + r^3 P(r) on [-ln2/2, ln2/2], relative to e^r - 1")
def _(kind):
    degree = by_type(kind, 5, 9)
    h = lambda r: mp.mpf(1) / 6 if r == 0 else (mp.exp(r) - 1 - r - r ** 2 / 2) / r ** 3
    w = lambda r: mp.mpf(0) if r == 0 else abs(r ** 3 / mp.expm1(r))
    return h, w, list(range(degree + 1)), -LN2 / 2, LN2 / 2, {}


@define("cbrt_guess", "m^(-1/3) on [1, 2], relative: the first guess of cbrt's Newton iteration")
def _(kind):
    degree = 4
    g = lambda m: mp.power(m, -mp.mpf(1) / 3)
    return g, lambda m: 1 / g(m), list(range(degree + 1)), 1, 2, {}


@define("pow_log", "2 atanh(s) = 2s + (2/3) s^3 + s z^2 R(z), z = s^2: absolute error of z^2 R / 2")
def _(kind):
    degree = 7
    def r(z):
        if z == 0:
            return mp.mpf(2) / 5
        t = mp.sqrt(z)
        return (2 * mp.atanh(t) / t - 2 - 2 * z / 3) / z ** 2
    return r, lambda z: z ** 2 / 2, list(range(degree + 1)), 0, SMAX ** 2, {}


@define("pow_log_float", "2 atanh(s) = 2s + s z Q(z) as log_atanh, shorter: pow of a float's log2")
def _(kind):
    h, w, _, a, b, fixed = FITS["log_atanh"][1](kind)
    return h, w, list(range(5)), a, b, fixed


@define("pow_exp2", "2^r = 1 + r ln2 + r^2 P(r) on [-1/2, 1/2] to 2^-34, for pow in float")
def _(kind):
    degree = 5
    h = lambda r: LN2 ** 2 / 2 if r == 0 else (mp.power(2, r) - 1 - r * LN2) / r ** 2
    w = lambda r: r ** 2 / mp.power(2, r)
    return h, w, list(range(degree + 1)), -mp.mpf(1) / 2, mp.mpf(1) / 2, {}


def odd_remainder(f, limit):
    """For an odd f with f(t) = t + t^3 P(t^2): P's target h(z) = (f(t) - t) / t^3, t = sqrt(z)
    (limit at z = 0), and the weight w(z) = |t^3 / f(t)| that makes the error relative to f."""
    def h(z):
        if z == 0:
            return limit
        t = mp.sqrt(z)
        return (f(t) - t) / t ** 3
    w = lambda z: mp.mpf(0) if z == 0 else abs(mp.sqrt(z) ** 3 / f(mp.sqrt(z)))
    return h, w


@define("sinh", "sinh x = x + x^3 P(x^2), P in z = x^2 on [0, 1], relative to sinh x")
def _(kind):
    degree = by_type(kind, 3, 6)
    h, w = odd_remainder(mp.sinh, mp.mpf(1) / 6)
    return h, w, list(range(degree + 1)), 0, 1, {}


@define("sin_float", "sin r = r + r^3 S(r^2), S in z = r^2 on [0, (pi/2)^2], relative: f32 sin and cos in double")
def _(kind):
    degree = 3
    h, w = odd_remainder(mp.sin, -mp.mpf(1) / 6)
    return h, w, list(range(degree + 1)), 0, (mp.pi / 2) ** 2, {}


@define("tan_sin", "sin r = r + r^3 S(r^2), S in z = r^2 on [0, (pi/4)^2], relative: f32 tan in double")
def _(kind):
    degree = 3
    h, w = odd_remainder(mp.sin, -mp.mpf(1) / 6)
    return h, w, list(range(degree + 1)), 0, (mp.pi / 4) ** 2, {}


@define("tan_cos", "cos r = 1 - z/2 + z^2 C(z), z = r^2 in [0, (pi/4)^2], relative: f32 tan in double")
def _(kind):
    degree = 2
    def h(z):
        if z == 0:
            return mp.mpf(1) / 24
        return (mp.cos(mp.sqrt(z)) - 1 + z / 2) / z ** 2
    w = lambda z: z ** 2 / mp.cos(mp.sqrt(z))
    return h, w, list(range(degree + 1)), 0, (mp.pi / 4) ** 2, {}


@define("erf_small", "erf a = a P(a^2), P in z = a^2 on [0, 1], relative: f32 erf in double (f64)")
def _(kind):
    degree = 7
    def h(z):
        if z == 0:
            return 2 / mp.sqrt(mp.pi)
        t = mp.sqrt(z)
        return mp.erf(t) / t
    return h, lambda z: 1 / h(z), list(range(degree + 1)), 0, 1, {}


@define("erfc_large", "erfc a = e^(-a^2) t Q(t), t = 1/a in [1/10.1, 1], relative: f32 in double")
def _(kind):
    degree = 14
    q = lambda t: mp.erfc(1 / t) * mp.exp(1 / (t * t)) / t
    return q, lambda t: 1 / q(t), list(range(degree + 1)), mp.mpf(1) / mp.mpf("10.1"), 1, {}


@define("erf_large", "erf a = 1 - e^(-a^2) t Q(t), t = 1/a in [1/4, 1], relative to Q: f32 erf in double")
def _(kind):
    degree = 10
    q = lambda t: mp.erfc(1 / t) * mp.exp(1 / (t * t)) / t
    return q, lambda t: 1 / q(t), list(range(degree + 1)), mp.mpf(1) / 4, 1, {}


# erf and erfc in double: erfc a = e^(-a^2) F(a) with F = erfcx, the scaled complementary error
# function, on three intervals of a (src/math/erf.h): [1/2, 3/2) as a polynomial in u = a - 1,
# [3/2, 4) and [4, 27.3] as t G(t), G = F(a) a smooth in t = 1/a (in u = t - 7/16 on the first,
# exact there). The constant term is not rounded and is printed as hi + lo: rounded to one double
# it alone would cost F up to 2^-54.
ERFCX_DEGREE = 18


def erfcx(a):
    return mp.erfc(a) * mp.exp(a * a)


def erfcx_fit(g, lo, hi):
    return g, rel(g), list(range(ERFCX_DEGREE + 1)), lo, hi, {}


# Fits whose coefficients of these exponents are held as hi + lo.
UNROUNDED = {"erfcx_near_1": (0,), "erfcx_mid": (0,), "erfcx_far": (0,)}


@define("erf_small_f64", "erf a = a + a R(a^2), R in z = a^2 on [0, 1], relative to erf a / a")
def _(kind):
    degree = 12
    def h(z):
        if z == 0:
            return 2 / mp.sqrt(mp.pi) - 1
        t = mp.sqrt(z)
        return mp.erf(t) / t - 1
    return h, lambda z: 1 / (1 + h(z)), list(range(degree + 1)), 0, 1, {}


@define("erfcx_near_1", "erfc a e^(a^2) on a in [1/2, 3/2], in u = a - 1, relative")
def _(kind):
    return erfcx_fit(lambda u: erfcx(1 + u), -mp.mpf(1) / 2, mp.mpf(1) / 2)


@define("erfcx_mid", "G(t) = erfc a e^(a^2) a on a in [3/2, 4], in u = t - 7/16, t = 1/a, relative")
def _(kind):
    c = mp.mpf(7) / 16
    return erfcx_fit(lambda u: erfcx(1 / (c + u)) / (c + u), mp.mpf(1) / 4 - c, mp.mpf(2) / 3 - c)


@define("erfcx_far", "G(t) = erfc a e^(a^2) a on a in [4, 27.3], in t = 1/a, relative")
def _(kind):
    return erfcx_fit(lambda t: erfcx(1 / t) / t, 1 / mp.mpf("27.3"), mp.mpf(1) / 4)


@define("tanh", "1 - e^(-2s) = s S(s), S = 2 - 2s + s^2 Q(s) on [-ln2/4, ln2/4], relative to S")
def _(kind):
    degree = by_type(kind, 5, 13)  # of S
    g = lambda s: mp.mpf(2) if s == 0 else -mp.expm1(-2 * s) / s
    return g, rel(g), list(range(degree + 1)), -LN2 / 4, LN2 / 4, {0: mp.mpf(2), 1: mp.mpf(-2)}


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("name", nargs="?")
    parser.add_argument("type", nargs="?", choices=["f32", "f64"])
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    if args.list or not args.name:
        for name, (description, _) in FITS.items():
            print(f"{name:16} {description}")
        return 0
    if args.name not in FITS or not args.type:
        parser.error("give a fit name from --list and a type (f32 or f64)")
    description, builder = FITS[args.name]
    g, w, exps, a, b, fixed = builder(args.type)
    unrounded = UNROUNDED.get(args.name, ())
    coeffs, worst = fit(g, w, exps, a, b, args.type, fixed, unrounded)
    print(f"// {args.name} {args.type}: {description}")
    print(f"// weighted error {mp.nstr(worst, 4)} (2^{mp.nstr(mp.log(worst, 2), 4)})")
    for e, c in sorted(zip(exps, coeffs), reverse=True):
        rounded = round_to(c, args.type)
        if (e in fixed or e in unrounded) and rounded != c:
            # A value that the type does not hold: as hi + lo.
            print(f"    {hexf(rounded, args.type)}, {hexf(c - rounded, args.type)},  // hi + lo")
        else:
            print(f"    {hexf(c, args.type)},  // {mp.nstr(c, 17)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
