#!/usr/bin/python3
"""Checks every Element<T> conversion of common/numbers.hpp against an
independent NumPy model (SEMANTICS.md S2.2-S2.4).

The model computes correctly rounded results by a different method than the
C++ bit tricks: it enumerates every finite value of the target format, finds
the two neighbours of each input with a binary search, and picks the nearer,
ties to the even code. Inputs: float32 specials, every value of each format
plus the midpoints between neighbours and the float32 values just beside those,
and random float32 bit patterns; int64 boundary and random values.

usage: make_reference.py PATH/TO/nisa_conversion_dump
Writes inputs to a temporary folder, runs the tool, compares, and exits 1
(printing the first mismatches) if anything differs.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

RNG = np.random.default_rng(20261123)


class FloatFormat:
    """1 sign bit, E exponent bits (bias 2^(E-1)-1), M mantissa bits.
    ieee: all-ones exponent is inf/NaN, overflow to inf; otherwise (fn) only the
    all-ones code is NaN and values beyond the largest finite saturate."""

    def __init__(self, name, exp_bits, man_bits, ieee, storage_shift=0):
        self.name, self.E, self.M, self.ieee = name, exp_bits, man_bits, ieee
        self.bias = (1 << (exp_bits - 1)) - 1
        self.bits = 1 + exp_bits + man_bits
        self.sign_bit = 1 << (exp_bits + man_bits)
        self.storage_shift = storage_shift  # tf32 is stored as float32 bits
        self.storage = {8: np.uint8, 16: np.uint16}.get(self.bits, np.uint32)

    def decode(self, codes):
        """float64 value of each code (NaN for NaN codes)."""
        codes = codes.astype(np.int64)
        mag = codes & (self.sign_bit - 1)
        exp = mag >> self.M
        man = mag & ((1 << self.M) - 1)
        sub = np.ldexp(man.astype(np.float64), 1 - self.bias - self.M)
        nor = np.ldexp((man + (1 << self.M)).astype(np.float64), (exp - self.bias - self.M).astype(np.int32))
        val = np.where(exp == 0, sub, nor)
        all_ones = (1 << self.E) - 1
        if self.ieee:
            val = np.where((exp == all_ones) & (man == 0), np.inf, val)
            val = np.where((exp == all_ones) & (man != 0), np.nan, val)
        else:
            val = np.where(mag == self.sign_bit - 1, np.nan, val)
        return np.where(codes & self.sign_bit, -val, val)

    def finite_positive(self):
        codes = np.arange(self.sign_bit, dtype=np.int64)
        vals = self.decode(codes)
        keep = np.isfinite(vals)
        return vals[keep], codes[keep]

    def nearest(self, x32):
        """Correctly rounded code (ties to even) of each float32 input."""
        vals, codes = self.finite_positive()
        if self.ieee:  # the value one ulp past max, standing for inf (even code)
            emax = (1 << self.E) - 2 - self.bias
            vals = np.append(vals, 2.0 ** (emax + 1))
            codes = np.append(codes, ((1 << self.E) - 1) << self.M)
        ax = np.abs(x32.astype(np.float64))
        i = np.searchsorted(vals, ax, side="left")  # vals[i-1] < ax <= vals[i]
        beyond = i >= len(vals)
        ic = np.clip(i, 1, len(vals) - 1)
        lo, hi = vals[ic - 1], vals[ic]
        clo, chi = codes[ic - 1], codes[ic]
        dlo, dhi = ax - lo, hi - ax  # exact: lo, hi within a factor 2 of ax
        pick_hi = (dhi < dlo) | ((dhi == dlo) & (chi % 2 == 0))
        out = np.where(pick_hi, chi, clo)
        out = np.where(ax == 0, 0, out)
        out = np.where(beyond, codes[-1], out)  # ieee: inf; fn: saturate at max
        out = np.where(np.signbit(x32), out | self.sign_bit, out)
        return out.astype(np.int64)


FLOATS = [
    FloatFormat("bf16", 8, 7, True),
    FloatFormat("f16", 5, 10, True),
    FloatFormat("tf32", 8, 10, True, storage_shift=13),
    FloatFormat("fp8e4m3", 4, 3, True),
    FloatFormat("fp8e4m3fn", 4, 3, False),
    FloatFormat("fp8e5m2", 5, 2, True),
]
INTS = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32}


def f32_inputs():
    specials = np.array([0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001,
                         0xFF800001, 0x7FBFFFFF, 0x7FFFFFFF, 0xFFFFFFFF, 0x00000001, 0x80000001, 0x007FFFFF,
                         0x807FFFFF, 0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000],
                        dtype=np.uint32)
    parts = [specials]
    for fmt in FLOATS:
        vals, _ = fmt.finite_positive()
        if len(vals) > 70000:  # tf32: a random sample of its 2^18 positive values
            vals = np.sort(RNG.choice(vals, 70000, replace=False))
        mids = (vals[:-1] + vals[1:]) / 2
        emax = (1 << fmt.E) - 2 - fmt.bias if fmt.ieee else (1 << fmt.E) - 1 - fmt.bias
        top = 2.0 ** (emax + 1)
        extra = np.array([(vals[-1] + top) / 2, top, top * 1.5, vals[-1] * 1.0625, 0.0])
        base = np.concatenate([vals, mids, extra])
        base = base[base < 3.4e38].astype(np.float32)
        up = np.nextafter(base, np.float32(np.inf))
        down = np.nextafter(base, np.float32(0))
        allv = np.concatenate([base, up, down])
        parts += [allv.view(np.uint32), (-allv).view(np.uint32)]
    ints = np.arange(-70000, 70000, dtype=np.float64) / 2  # integer rounding ties
    bounds = np.array([2.0 ** k + d for k in (7, 8, 15, 16, 23, 24, 31, 32, 40, 41) for d in (-1.5, -1, -0.5, 0, 0.5, 1)])
    parts += [ints.astype(np.float32).view(np.uint32), bounds.astype(np.float32).view(np.uint32),
              (-bounds).astype(np.float32).view(np.uint32)]
    parts.append(RNG.integers(0, 2**32, 400000, dtype=np.uint64).astype(np.uint32))
    return np.concatenate(parts).astype(np.uint32)


def i64_inputs():
    edges = []
    for k in (7, 8, 15, 16, 24, 25, 31, 32, 40, 53, 62):
        for d in range(-3, 4):
            edges += [2**k + d, -(2**k) + d]
    edges += [2**63 - 1, -(2**63)]
    parts = [np.arange(-300, 301), np.array(edges, dtype=np.int64),
             RNG.integers(-(2**63), 2**63 - 1, 20000, dtype=np.int64),
             RNG.integers(-(2**32), 2**32, 20000, dtype=np.int64)]
    return np.concatenate(parts).astype(np.int64)


class Report:
    def __init__(self):
        self.failures = 0

    def check(self, what, inputs, expected, actual, fmt_in=hex):
        bad = np.nonzero(expected != actual)[0] if len(expected) else []
        if len(bad):
            self.failures += 1
            print(f"FAIL {what}: {len(bad)} of {len(expected)} differ")
            for j in bad[:10]:
                print(f"  input {fmt_in(inputs[j])}: expected {expected[j]!r}, actual {actual[j]!r}")
        else:
            print(f"ok   {what}: {len(expected)} values")


def f32_bits_equal_or_both_nan(expected64, actual32):
    """Compare exactly (including -0.0); NaNs match when both NaN with the same sign."""
    exp32 = expected64.astype(np.float32)
    same_bits = exp32.view(np.uint32) == actual32.view(np.uint32)
    both_nan = np.isnan(exp32) & np.isnan(actual32) & (np.signbit(exp32) == np.signbit(actual32))
    return same_bits | both_nan


def main():
    np.seterr(all="ignore")  # NaN and overflow casts are intended inputs
    tool = sys.argv[1]
    x_bits = f32_inputs()
    x = x_bits.view(np.float32)
    i64 = i64_inputs()
    report = Report()
    with tempfile.TemporaryDirectory() as d:
        x_bits.tofile(os.path.join(d, "f32.bin"))
        i64.tofile(os.path.join(d, "i64.bin"))
        subprocess.run([tool, d], check=True)

        def load(kind, name, dtype):
            return np.fromfile(os.path.join(d, f"{kind}.{name}.bin"), dtype=dtype)

        nan_in = np.isnan(x)
        for fmt in FLOATS:
            got = load("from_f32", fmt.name, fmt.storage).astype(np.int64) >> fmt.storage_shift
            want = fmt.nearest(x)
            if fmt.storage_shift:
                low = load("from_f32", fmt.name, fmt.storage).astype(np.int64) & ((1 << fmt.storage_shift) - 1)
                report.check(f"from_f32 {fmt.name} low bits zero", x_bits, np.zeros_like(low), low)
            # NaN inputs: the result must be a NaN code of the format with the input's sign.
            got_val = fmt.decode(got)
            nan_ok = np.isnan(got_val) & (((got & fmt.sign_bit) != 0) == np.signbit(x))
            report.check(f"from_f32 {fmt.name} NaN", x_bits[nan_in], np.ones(nan_in.sum(), bool), nan_ok[nan_in])
            report.check(f"from_f32 {fmt.name}", x_bits[~nan_in], want[~nan_in], got[~nan_in])
            # from_i64 on a float dtype: through the nearest float32 of the integer.
            got_i = load("from_i64", fmt.name, fmt.storage).astype(np.int64) >> fmt.storage_shift
            report.check(f"from_i64 {fmt.name}", i64, fmt.nearest(i64.astype(np.float32)), got_i, fmt_in=str)
            # Widening: every code for the 8/16-bit formats.
            if fmt.bits <= 16:
                codes = np.arange(1 << fmt.bits, dtype=np.int64)
                ok = f32_bits_equal_or_both_nan(fmt.decode(codes), load("to_f32", fmt.name, np.float32))
                report.check(f"to_f32 {fmt.name}", codes, np.ones(len(codes), bool), ok)

        # The model itself agrees with NumPy's own float16 rounding.
        ref16 = x.astype(np.float16).view(np.uint16).astype(np.int64)
        report.check("model f16 vs numpy float16", x_bits[~nan_in], ref16[~nan_in], FLOATS[1].nearest(x)[~nan_in])

        # float32 and tf32 widening are the identity on float32 bits.
        for name in ("f32", "tf32"):
            report.check(f"to_f32 {name}", x_bits, x_bits, load("to_f32", name, np.uint32))
        report.check("from_f32 f32", x_bits, x_bits, load("from_f32", "f32", np.uint32))

        # S2.3: round half to even, saturate, NaN -> 0; integers -> nearest float32.
        xd = np.where(nan_in, 0.0, x.astype(np.float64))
        for name, np_type in INTS.items():
            info = np.iinfo(np_type)
            want = np.clip(np.rint(xd), info.min, info.max).astype(np.int64)
            report.check(f"from_f32 {name}", x_bits, want, load("from_f32", name, np_type).astype(np.int64))
            want = np.clip(i64, info.min, info.max)
            report.check(f"from_i64 {name}", i64, want, load("from_i64", name, np_type).astype(np.int64), fmt_in=str)
            if info.bits <= 16:  # every code, in the tool's order (as unsigned bits)
                codes = np.arange(2**info.bits, dtype=np.int64).astype(np_type).astype(np.int64)
            else:
                codes = i64.astype(np_type).astype(np.int64)  # wrapped, as the tool does
            want = codes.astype(np.float64).astype(np.float32).view(np.uint32)  # exact, then one rounding
            report.check(f"to_f32 {name}", codes, want, load("to_f32", name, np.uint32), fmt_in=str)

    print(f"{len(x_bits)} float32 inputs, {len(i64)} int64 inputs")
    sys.exit(1 if report.failures else 0)


if __name__ == "__main__":
    main()
