"""Building blocks of the random program generator: a ProgramBuilder that
declares tensors (.hbm/.sbuf/.psum in LANGUAGE.md 2.1 syntax), picks partition
ranges that respect S1.5's alignment rule, loads tiles from HBM inputs and
stores them to HBM outputs, and random values that each dtype represents
exactly (so an input file means the same thing to nisa and the model)."""
import numpy as np

import ref_dtypes

FP32_MIN = float(np.finfo(np.float32).min)
DTYPE_SPELLINGS = {  # LANGUAGE.md 2.2 aliases, used now and then
    "f32": ["float32"], "bf16": ["bfloat16"], "f16": ["float16"], "i32": ["int32"], "u8": ["uint8"],
    "fp8e4m3": ["float8_e4m3"], "fp8e4m3fn": ["float8_e4m3fn"], "fp8e5m2": ["float8_e5m2"],
}
INT_RANGES = {"i8": (-128, 127), "i16": (-3000, 3000), "i32": (-100000, 100000),
              "u8": (0, 255), "u16": (0, 5000), "u32": (0, 200000),
              # MX (S13) bits: filler only; the MX emitters make their own values
              "fp8e4m3fn_x4": (0, 0x3E3E3E3E), "fp8e5m2_x4": (0, 0x3B3B3B3B), "fp4e2m1fn_x4": (0, 65535), "fp8e8m0": (110, 140)}


def fmt(x):
    """A scalar literal that rounds (as float32) to exactly x (LANGUAGE.md 2.3)."""
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    x = float(np.float32(x))
    if x == FP32_MIN:
        return "fp32.min"
    if np.isnan(x):
        return "nan"
    if np.isinf(x):
        return "inf" if x > 0 else "-inf"
    text = repr(x)
    if "e" in text and "." not in text.split("e")[0]:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}.0e{exponent}"
    return text


class Tile:
    """A view of an SBUF/PSUM tensor: partitions [pstart, pstart+pcount), free dims `free`."""

    def __init__(self, name, dtype, mem, pstart, pcount, free, whole, col_offset=0, windowed=False, decl_free=None):
        self.name, self.dtype, self.mem = name, dtype, mem
        self.pstart, self.pcount, self.free = pstart, pcount, list(free)
        self.whole, self.col_offset = whole, col_offset
        self.windowed = windowed or col_offset != 0  # declared wider than the tile
        self.decl_free = list(decl_free or free)
        # Written as NAME.ap(...) (LANGUAGE.md 2.3), optionally walking its
        # innermost dimension backwards: the same elements in another order.
        self.pattern_form, self.reversed = False, False

    @property
    def elems(self):
        return int(np.prod(self.free))

    def pattern_ref(self):
        per_partition = int(np.prod(self.decl_free))
        pattern = [[per_partition, self.pcount]]
        offset = self.pstart * per_partition + self.col_offset
        if self.windowed:
            pattern += [[1, self.free[-1]]]
        else:
            strides = np.cumprod([1] + self.decl_free[::-1])[:-1][::-1]
            pattern += [[int(st), n] for st, n in zip(strides, self.free)]
        if self.reversed and pattern[-1][1] > 1:
            step, num = pattern[-1]
            offset += step * (num - 1)
            pattern[-1] = [-step, num]
        text = ", ".join(f"[{a}, {b}]" for a, b in pattern)
        return f"{self.name}.ap(pattern=[{text}], offset={offset})"

    def ref(self):
        if self.pattern_form:
            return self.pattern_ref()
        if self.whole:
            return self.name
        parts = [f"{self.pstart}:{self.pstart + self.pcount}"]
        if self.windowed:
            parts += [":"] * (len(self.free) - 1)
            parts.append(f"{self.col_offset}:{self.col_offset + self.free[-1]}")
        return f"{self.name}[{', '.join(parts)}]"


class ProgramBuilder:
    def __init__(self, rng, arch):
        self.rng, self.arch = rng, arch
        self.nki = None       # `.nki` when an emitter chose it (topk: both forms), else none written
        self.decls, self.body = [], []
        self.inputs = {}      # name -> ndarray passed with --input
        self.counter = 0
        self.psum_bytes = 0   # automatic PSUM use, kept well under 16 KiB per partition
        self.features = set()

    # ---- random helpers ----
    def chance(self, p):
        return self.rng.random() < p

    def pick(self, seq):
        return seq[int(self.rng.integers(len(seq)))]

    def fresh(self, prefix):
        self.counter += 1
        return f"{prefix}{self.counter}"

    def spell(self, dtype):
        if dtype in DTYPE_SPELLINGS and self.chance(0.15):
            return self.pick(DTYPE_SPELLINGS[dtype])
        return dtype

    def emit(self, line):
        self.body.append(line)

    def instr(self, mnemonic, **ops):
        parts = []
        for key, value in ops.items():
            if value is None:
                continue
            if isinstance(value, Tile):
                value = value.ref()
            elif isinstance(value, bool):
                value = "true" if value else "false"
            elif isinstance(value, (float, np.floating)):
                value = self.literal(float(value))
            elif isinstance(value, (int, np.integer)) and value >= 0 and self.chance(0.1):
                value = hex(int(value))  # LANGUAGE.md 2: 0x integers
            parts.append(f"{key}={value}")
        sep = ", " if self.chance(0.8) else ","
        comment = self.pick(["  ; ", "  # "]) + "note" if self.chance(0.05) else ""
        self.emit(f"{mnemonic} {sep.join(parts)}{comment}")

    def literal(self, x):
        """A float scalar as a literal, an .equ name or a small expression (LANGUAGE.md 2.1)."""
        text = fmt(x)
        r = self.rng.random()
        if r < 0.05:
            name = self.fresh("C")
            self.emit(f".equ {name}, {text}")
            return name
        if r < 0.08 and np.isfinite(x) and x != 0 and not np.signbit(x):
            return f"-(-{text})"
        if r < 0.1 and np.isfinite(x) and abs(x) < 1e30 and float(np.float32(x * 2)) == x * 2:
            return f"({fmt(x * 2)})/2"
        return text

    # ---- shapes and partitions ----
    def lanes(self):
        """(start, count) satisfying S1.5: >64 at 0; 33..64 at 0/64; 1..32 at 0/32/64/96."""
        r = self.rng.random()
        if r < 0.45:
            return self.pick([0, 32, 64, 96]), int(self.rng.integers(1, 33))
        if r < 0.75:
            return self.pick([0, 64]), int(self.rng.integers(33, 65))
        return 0, int(self.rng.integers(65, 129))

    def shifted(self, start, count, p=0.2):
        """Sometimes another S1.5-aligned start for an operand of `count` partitions."""
        if not self.chance(p):
            return start
        starts = [0] if count > 64 else [0, 64] if count > 32 else [0, 32, 64, 96]
        return self.pick([st for st in starts if st + count <= 128])

    def sub_lanes(self, start, count):
        """An aligned 1..32-partition range inside [start, start+count)."""
        options = [s for s in (0, 32, 64, 96) if start <= s < start + count]
        s = self.pick(options)
        return s, int(self.rng.integers(1, min(32, start + count - s) + 1))

    def free_shape(self, max_elems=160):
        r = self.rng.random()
        if r < 0.3:
            n = self.pick([1, 2, 3, 5, 7, 9, 13, 17, 31, 33, 63, 65])
        else:
            n = int(self.rng.integers(1, max_elems + 1))
        if n > 3 and self.chance(0.25):
            for a in (2, 3, 4, 5, 7):
                if n % a == 0:
                    return [a, n // a]
        return [n]

    # ---- declarations ----
    def hbm(self, dtype, shape, role, values=None, init=None):
        name = self.fresh({"input": "in", "output": "out", "inout": "io", "scratch": "hs"}[role])
        line = f".hbm {name} {self.spell(dtype)} [{', '.join(map(str, shape))}] {role}"
        if init is not None:
            line += f" = {init}"
        elif values is not None:
            self.inputs[name] = ref_dtypes.to_npy(dtype, ref_dtypes.from_npy(dtype, values)).reshape(shape)
        self.decls.append(line)
        return name

    def reg(self):
        """Declares a sequencer register (`.reg NAME`, SEMANTICS S17.1); returns its name."""
        name = self.fresh("r")
        self.decls.append(f".reg {name}")
        return name

    def sbuf_element(self):
        """One element of a new int32 SBUF tensor, at any partition (the sequencers,
        like DMA, have no alignment rule), as a slice or an .ap(...) view."""
        p, k = int(self.rng.integers(1, 129)), int(self.rng.integers(1, 5))
        name = self.fresh("t")
        self.decls.append(f".sbuf {name} i32 [{p}, {k}]")
        i, j = int(self.rng.integers(0, p)), int(self.rng.integers(0, k))
        if self.chance(0.3):
            return f"{name}.ap(pattern=[[{k}, 1], [1, 1]], offset={i * k + j})"
        return f"{name}[{i}, {j}]"

    def tile(self, dtype, pstart, pcount, free, mem="sbuf", offset=None):
        """Declares a tensor holding the tile; sometimes larger, the tile being a slice of it."""
        if mem == "psum":
            size = -(-int(np.prod(free)) * ref_dtypes.itemsize(dtype) // 64) * 64
            if self.psum_bytes + size > 8192:
                mem = "sbuf"
            else:
                self.psum_bytes += size
        name = self.fresh("p" if mem == "psum" else "t")
        total_p = pstart + pcount
        if self.chance(0.3):
            total_p = 128
        decl_free = list(free)
        col = 0
        if len(free) == 1 and self.chance(0.2):
            col = int(self.rng.integers(0, 9))
            decl_free = [free[0] + col + int(self.rng.integers(0, 5))]
        whole = total_p == pcount and pstart == 0 and decl_free == list(free)
        line = f".{mem} {name} {self.spell(dtype)} [{', '.join(map(str, [total_p] + decl_free))}]"
        if offset is not None:
            line += f" @ {offset}"
        self.decls.append(line)
        tile = Tile(name, dtype, mem, pstart, pcount, free, whole, col, decl_free != list(free), decl_free)
        if self.chance(0.2):
            self.features.add("sbuf_pattern")
            tile.pattern_form, tile.reversed = True, self.chance(0.4)
        return tile

    # ---- values each dtype holds exactly ----
    def values(self, dtype, shape, lo=-4.0, hi=4.0, specials=False, irange=None):
        rng = self.rng
        if not ref_dtypes.is_float(dtype):
            a, b = INT_RANGES[dtype]
            if irange is not None:
                a, b = max(a, irange[0]), min(b, irange[1])
            return rng.integers(a, b + 1, size=shape).astype(np.int64)
        v = rng.uniform(lo, hi, size=shape)
        snap = rng.random(shape) < 0.25  # ties for integer rounding and exact small values
        v = np.where(snap, np.round(v * 4) / 4, v)
        if specials:
            r = rng.random(shape)
            v = np.where(r < 0.03, 0.0, v)
            v = np.where((r >= 0.03) & (r < 0.05), -0.0, v)
            v = np.where((r >= 0.05) & (r < 0.07), rng.uniform(-1e5, 1e5, size=shape), v)
            if self.chance(0.3):  # S2.1: NaN propagates (np.maximum semantics); inf saturates ints
                # NaNs of either sign with random payloads (quiet): bit copies keep them (issue 26)
                bits = (0x7FC00000 | rng.integers(0, 1 << 22, size=shape) | (rng.integers(0, 2, size=shape) << 31))
                nans = bits.astype(np.uint32).view(np.float32).astype(np.float64)
                v = np.where((r >= 0.07) & (r < 0.075), nans, v)
                v = np.where((r >= 0.075) & (r < 0.08), np.inf, v)
                v = np.where((r >= 0.08) & (r < 0.085), -np.inf, v)
        return ref_dtypes.round_to(dtype, v.astype(np.float32)).astype(np.float64)

    # ---- moving tiles in and out (DMA has no partition alignment rule, S1.5) ----
    def load(self, tile, values):
        """Fills `tile` from a new HBM input holding `values` [pcount, elems]; returns them as stored."""
        values = np.asarray(values).reshape(tile.pcount, tile.elems)
        if tile.mem == "psum":  # PSUM is written by DMA, or by compute from SBUF
            if self.chance(0.5):
                self.features.add("dma_to_psum")
                src = self._hbm_source(tile.dtype, values, tile)
                self.instr("dma_copy", dst=tile, src=src)
                return values
            stage = self.tile(tile.dtype, tile.pstart, tile.pcount, tile.free)
            values = self.load(stage, values)
            self.instr("tensor_scalar", dst=tile, data=stage, op0="multiply", operand0=1.0)
            return values
        if ref_dtypes.is_float(tile.dtype) and self.chance(0.1):
            # via another SBUF tile at an unaligned partition (DMA SBUF -> SBUF)
            ps = int(self.rng.integers(0, 128 - tile.pcount + 1))
            mid = self.tile(tile.dtype, ps, tile.pcount, [tile.elems])
            mid.whole = False
            self.instr("dma_copy", dst=mid, src=self._hbm_source(tile.dtype, values, tile))
            self.instr("dma_copy", dst=tile, src=mid)
            self.features.add("dma_sbuf_sbuf")
            return values
        if tile.dtype in ("f32", "i32") and self.chance(0.05) and tile.elems * tile.pcount < 5000:
            init = "iota" if self.chance(0.5) else "3"
            name = self.hbm(tile.dtype, [tile.pcount, tile.elems], "input", init=init)
            self.instr("dma_copy", dst=tile, src=name)
            self.features.add("hbm_init")
            n = tile.pcount * tile.elems
            return (np.arange(n) if init == "iota" else np.full(n, 3)).reshape(tile.pcount, tile.elems)
        if self.chance(0.2):
            src, values = self._hbm_pattern_source(tile.dtype, values, tile)
            self.instr("dma_copy", dst=tile, src=src)
            return values
        self.instr("dma_copy", dst=tile, src=self._hbm_source(tile.dtype, values, tile))
        return values

    def _hbm_pattern_source(self, dtype, values, tile):
        """An HBM input read through NAME.ap(...) (LANGUAGE.md 2.3): transposed,
        broadcast from one row (step 0), or a 3-D permute; returns (src, values)."""
        p, n = values.shape
        r = self.rng.random()
        if r < 0.4:  # stored transposed: element (i, j) at flat j * p + i
            name = self.hbm(dtype, [n, p], "input", values.T.copy())
            self.features.add("hbm_pattern_transpose")
            return f"{name}.ap(pattern=[[1, {p}], [{p}, {n}]])", values
        if r < 0.7 or len(tile.free) != 2:  # one row broadcast to every partition
            row = values[:1]
            name = self.hbm(dtype, [1, n], "input", row)
            self.features.add("hbm_pattern_broadcast")
            return f"{name}.ap(pattern=[[0, {p}], [1, {n}]], offset=0)", np.repeat(row, p, axis=0)
        a, b = tile.free  # stored as [a, p, b]: a 3-D permute into [p, a, b]
        name = self.hbm(dtype, [a, p, b], "input", values.reshape(p, a, b).transpose(1, 0, 2).copy())
        self.features.add("hbm_pattern_permute")
        return f"{name}.ap([[{b}, {p}], [{p * b}, {a}], [1, {b}]], 0)", values

    def _hbm_source(self, dtype, values, tile):
        p, n = values.shape
        r = self.rng.random()
        if r < 0.15:  # strided view of a wider input
            full = np.zeros((p, 2 * n))
            full[:, ::2] = values
            full[:, 1::2] = self.values(dtype, (p, n))
            name = self.hbm(dtype, [p, 2 * n], "input", full)
            self.features.add("hbm_step")
            return f"{name}[:, 0:{2 * n}:2]"
        if r < 0.3:  # a row window of a taller input
            extra = int(self.rng.integers(1, 5))
            full = np.concatenate([self.values(dtype, (extra, n)), values])
            name = self.hbm(dtype, [p + extra, n], "input", full)
            return f"{name}[{extra}:{extra + p}]"
        if r < 0.4 and len(tile.free) == 2:
            return self.hbm(dtype, [p] + tile.free, "input", values.reshape([p] + tile.free))
        return self.hbm(dtype, [p, n], "input", values)

    def store(self, tile):
        """Copies `tile` to a new HBM output (PSUM goes through SBUF: it is never a DMA source)."""
        if tile.mem == "psum":
            stage = self.tile(tile.dtype, tile.pstart, tile.pcount, tile.free)
            if self.chance(0.5):
                self.instr("tensor_scalar", dst=stage, data=tile, op0="multiply", operand0=1.0)
            else:
                self.instr("activation", dst=stage, op="copy", data=tile)
            tile = stage
        p, n = tile.pcount, tile.elems
        r = self.rng.random()
        if r < 0.1:  # stored transposed through an access pattern
            name = self.hbm(tile.dtype, [n, p], "output")
            self.instr("dma_copy", dst=f"{name}.ap(pattern=[[1, {p}], [{p}, {n}]], offset=0)", src=tile)
            self.features.add("hbm_pattern_store")
        elif r < 0.2:
            name = self.hbm(tile.dtype, [2 * p, n], "output")
            self.instr("dma_copy", dst=f"{name}[0:{2 * p}:2]", src=tile)
        elif r < 0.28:
            name = self.hbm(tile.dtype, [p, n], "inout", self.values(tile.dtype, (p, n)))
            self.instr("dma_copy", dst=name, src=tile)
        elif r < 0.35:
            scratch = self.hbm(tile.dtype, [p, n], "scratch")
            name = self.hbm(tile.dtype, [p + 1, n + 2], "output")
            self.instr("dma_copy", dst=scratch, src=tile)
            self.instr("dma_copy", dst=f"{name}[1:{p + 1}, 2:{n + 2}]", src=scratch)
            self.features.add("hbm_to_hbm")
        else:
            name = self.hbm(tile.dtype, [p, n], "output")
            self.instr("dma_copy", dst=name, src=tile)

    def column(self, pstart, pcount, lo, hi, dtype="f32", mem=None):
        """A [P, 1] tile of per-partition values in [lo, hi]; returns (tile, values[P, 1])."""
        mem = mem or ("psum" if self.chance(0.15) else "sbuf")
        t = self.tile(dtype, self.shifted(pstart, pcount), pcount, [1], mem)
        return t, self.load(t, self.values(dtype, (pcount, 1), lo, hi))

    def text(self):
        head = [] if (self.arch == "trn2" and self.chance(0.2)) else [f".arch {self.arch}"]
        head += [f".nki {self.nki}"] if self.nki else []
        return "\n".join(head + self.decls + [""] + self.body) + "\n"
