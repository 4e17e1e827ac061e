#!/usr/bin/env python3
"""The fits behind sinter's maths kernels of 2026-11 (docs/math.md).

Prints, as C hex-float literals (lowest degree first), the coefficients of:
  erfc_f   Q(u) of erf_f32.hpp: erfc(a) e^(a^2), u = 1/(1 + 0.4a) - tc, a in [0, 10.2], degree 12
  erf_f    P(z) of erf_f32.hpp: erf(x)/x, z = x^2 in [0, 1], degree 7
  exp_r    e^r of erf_f32.hpp on |r| <= 0.35, degree 7
  log_f    P(f) of log_f32.hpp: log1p(f)/f on [sqrt(1/2) - 1, sqrt(2) - 1], degree 11
  tanh_d   P/Q of exp_log.hpp's tanh(double): (tanh a - a)/a^3, z = a^2, a in [0, 0.625], degrees 2 and 3
  tanh_f   P then Q of exp_f32.hpp's tanh(float): S(u) = (2 tanh(a/2)/a - 1)/u, u = a^2, a in [0, 9.02],
           degrees 2 and 2, Q(0) = 1, rounded to float
The polynomials are weighted least-squares fits by Lawson's iteration on
Chebyshev nodes (relative error, reference values from mpmath, solves in
numpy's double precision); the double tanh's rational is a linearised
least-squares iteration carried out in mpmath at 60 digits. The float
tanh's rational is a minimax fit by linear programming (bisection on the
bound, each step a feasibility LP in scipy's HiGHS) of the error it passes
on to tanh. Needs numpy and mpmath (pip install numpy mpmath), and scipy for
tanh_f. `python3 docs/math_fit.py [name ...]`.
"""
import sys

import mpmath as mp
import numpy as np


def poly_fit(fn, lo, hi, deg, nodes, iters):
    """Relative minimax-like fit (Lawson's IRLS); coefficients low to high, max relative error."""
    mp.mp.dps = 40
    k = np.arange(nodes)
    u = (lo + hi) / 2 + (hi - lo) / 2 * np.cos(np.pi * (k + 0.5) / nodes)
    f = np.array([float(fn(mp.mpf(x))) for x in u])
    w = np.ones(nodes) / nodes
    V = np.vander(u, deg + 1, increasing=True)
    for _ in range(iters):
        W = np.sqrt(w) / np.abs(f)
        c, *_ = np.linalg.lstsq(V * W[:, None], f * W, rcond=None)
        e = np.abs(np.polyval(c[::-1], u) / f - 1)
        w = w * e
        w /= w.sum()
    return c, e.max()


def erfc_f():
    p = 0.4
    tlo, thi = 1 / (1 + p * 10.2), 1.0
    tc = (tlo + thi) / 2

    def q(u):
        a = (1 / (u + tc) - 1) / p
        return mp.erfc(a) * mp.exp(a * a)

    c, e = poly_fit(q, tlo - tc, thi - tc, 12, 3000, 60)
    return list(c) + [tc], e


def erf_f():
    return poly_fit(lambda z: mp.erf(mp.sqrt(z)) / mp.sqrt(z) if z > 0 else 2 / mp.sqrt(mp.pi), 0, 1.0, 7, 3000, 60)


def exp_r():
    return poly_fit(mp.exp, -0.35, 0.35, 7, 3000, 60)


def log_f():
    return poly_fit(lambda f: mp.log1p(f) / f if f != 0 else mp.mpf(1), 2**-0.5 - 1, 2**0.5 - 1, 11, 4000, 80)


def tanh_d(np_=2, nq=3, n=300, iters=40):
    mp.mp.dps = 60
    t = mp.mpf("0.625")

    def r(z):
        if z == 0:
            return mp.mpf(-1) / 3
        a = mp.sqrt(z)
        return (mp.tanh(a) - a) / a**3

    zs = [t**2 * (1 - mp.cos(mp.pi * (i + mp.mpf(0.5)) / n)) / 2 for i in range(n)]
    rv = [r(z) for z in zs]
    w = [mp.mpf(1)] * n
    qprev = [mp.mpf(1)] * n
    best = None
    for _ in range(iters):
        a = mp.matrix(n, np_ + 1 + nq)
        b = mp.matrix(n, 1)
        for i, z in enumerate(zs):
            s = mp.sqrt(w[i]) / (abs(rv[i]) * abs(qprev[i]))
            for j in range(np_ + 1):
                a[i, j] = s * z**j
            for j in range(1, nq + 1):
                a[i, np_ + j] = -s * rv[i] * z**j
            b[i] = s * rv[i]
        x = mp.qr_solve(a, b)[0]
        p = [x[j] for j in range(np_ + 1)]
        q = [mp.mpf(1)] + [x[np_ + j] for j in range(1, nq + 1)]
        qprev = [sum(c * z**k for k, c in enumerate(q)) for z in zs]
        err = [abs(sum(c * z**k for k, c in enumerate(p)) / qprev[i] / rv[i] - 1) for i, z in enumerate(zs)]
        e = max(err)
        if best is None or e < best[1]:
            best = ([float(c) for c in p] + [float(c) for c in q], e)
        tot = sum(w[i] * err[i] for i in range(n))
        w = [w[i] * err[i] / tot for i in range(n)]
    return best


def tanh_f(c=9.02, m=2, n=2, nodes=2500, tight=(0.6, 3.0, 0.25), clamp_g=0.01):
    """tanh a = 4d/(4 + d^2), d = a + a u S(u): S's relative error reaches tanh times
    W = |d/2 - a/2| / (d/2) * (1 - (d/2)^2) / (1 + (d/2)^2). Minimises max |S error| W / g,
    g = tight[2] for a in [tight[0], tight[1]] (where the kernel's float roundings peak,
    about a = 1: 1.46 ulp over all floats with these weights, 1.58 with g = 1), clamp_g
    at a = c (1 - tanh(9.02) = 2.93e-8 lies just below half an ulp of 1, 2.98e-8: the
    kernel rounds to 1 at its clamp only if the fit is that close there), else 1."""
    from scipy.optimize import linprog

    mp.mp.dps = 40
    xs = np.array([c * (1 - np.cos(np.pi * (i + 0.5) / nodes)) / 2 for i in range(nodes)])
    xs = np.unique(np.concatenate([xs, np.linspace(c / nodes, c, nodes)]))
    xs = xs[xs > 1e-3]
    s = np.array([float(mp.tanh(mp.mpf(x) / 2)) for x in xs])
    S = np.array([float((2 * mp.tanh(mp.mpf(x) / 2) / x - 1) / (x * x)) for x in xs])
    W = np.maximum(np.abs(s - xs / 2) / s * (1 - s**2) / (1 + s**2), 1e-4)
    G = np.where((xs >= tight[0]) & (xs <= tight[1]), tight[2], 1.0)
    G[xs >= c * (1 - 1e-12)] = clamp_g
    sc = c * c
    t = xs * xs / sc  # the LP's variable, in [0, 1]

    def feasible(bound):
        rows, rhs = [], []
        for ti, Si, Wi, Gi in zip(t, S, W, G):
            tol = bound * Gi * abs(Si) / Wi  # |P - S Q| <= tol Q, each row scaled by k = 1/tol
            k = 1 / tol
            pp = [ti**i for i in range(m + 1)]
            qq = [ti**j for j in range(1, n + 1)]
            rows.append([k * v for v in pp] + [-k * (Si + tol) * v for v in qq] + [-1])
            rhs.append(k * (Si + tol))
            rows.append([-k * v for v in pp] + [k * (Si - tol) * v for v in qq] + [-1])
            rhs.append(-k * (Si - tol))
        return linprog([0] * (m + 1 + n) + [1], A_ub=np.array(rows), b_ub=np.array(rhs),
                       bounds=[(None, None)] * (m + 1 + n) + [(0, None)], method="highs",
                       options=dict(primal_feasibility_tolerance=1e-10, dual_feasibility_tolerance=1e-10))

    lo, hi, best = 1e-12, 1e-2, None
    while hi / lo >= 1.03:
        bound = (lo * hi) ** 0.5
        r = feasible(bound)
        if r.status == 0 and r.x[-1] <= 1e-13:
            hi, best = bound, r.x
        else:
            lo = bound
    p = [float(np.float32(best[i] / sc**i)) for i in range(m + 1)]
    q = [1.0] + [float(np.float32(best[m + 1 + j] / sc ** (j + 1))) for j in range(n)]
    xx = np.linspace(1e-3, c, 400001)
    uu = xx * xx
    d = xx + xx * uu * np.polyval(p[::-1], uu) / np.polyval(q[::-1], uu)
    return p + q, np.max(np.abs(4 * d / (d * d + 4) / np.tanh(xx) - 1))


FITS = {"erfc_f": erfc_f, "erf_f": erf_f, "exp_r": exp_r, "log_f": log_f, "tanh_d": tanh_d, "tanh_f": tanh_f}

if __name__ == "__main__":
    for name in sys.argv[1:] or FITS:
        coeffs, err = FITS[name]()
        print(f"{name}: max relative error {float(err):.3g}")
        print("  " + ", ".join(float(c).hex() for c in coeffs))
