#!/usr/bin/env python3
"""Deterministic mutated copies of FBX files, for fbx_mutation.sh.

    fbx_mutate.py batches COUNT BATCH FILE...    prints "FILE FIRST END" lines
    fbx_mutate.py write FILE FIRST END OUTDIR    writes mutations FIRST..END-1
    fbx_mutate.py describe FILE INDEX            names mutation INDEX

Mutation INDEX of FILE is a pure function of the file's bytes, its base
name and INDEX (a random.Random seeded with "NAME:INDEX"), so a failure is
reproduced by its name alone. Kinds cycle with INDEX so every kind is
exercised even at small counts.

Binary files (the record structure is indexed first: node records with
their offset/count/length fields, array properties, strings):
  flip        1-4 random bytes XORed
  truncate    cut at a random offset or at a record boundary (+-3)
  record-len  one record header field (end offset, property count,
              property list length, name length) set to 0, +-1, x2, a
              random or an all-ones value
  array-zero  an array property's element count set to 0
  array-huge  an array's count, encoding or compressed length made huge
              or inconsistent
  zlib-swap   two bytes swapped (or one bit flipped) inside compressed data
  string-len  a string/raw property's length corrupted
  prop-type   a property's type code replaced
ASCII files: flip (with FBX syntax characters), truncate, `*N` counts
set to 0/-1/huge/N+1, a brace removed, a number replaced by an extreme
one, a closing quote removed.
"""
import os
import random
import struct
import sys

MAGIC = b"Kaydara FBX Binary  \x00"
SCALAR = {b"Y": 2, b"C": 1, b"I": 4, b"F": 4, b"D": 8, b"L": 8}
ARRAY = b"fdlib"


class Index:
    """Record headers, array and string properties of a binary FBX."""

    def __init__(self, data):
        self.records = []   # (offset, field width, end_offset)
        self.arrays = []    # (offset of the u32 count, encoding, compressed length)
        self.strings = []   # (offset of the u32 length, length)
        self.props = []     # offset of a type code
        self.version = struct.unpack_from("<I", data, 23)[0] if len(data) >= 27 else 0
        self.wide = self.version >= 7500
        try:
            self._scan(data)
        except (struct.error, IndexError, ValueError):
            pass  # a partly indexed file still mutates

    def _scan(self, data):
        w = 8 if self.wide else 4
        fmt = "<Q" if self.wide else "<I"
        head = 3 * w + 1
        # Iterative walk: a stack of the end offsets of open records.
        pos, stack, guard = 27, [len(data)], 0
        while pos + head <= len(data) and stack and guard < 2_000_000:
            guard += 1
            end = struct.unpack_from(fmt, data, pos)[0]
            if end == 0:  # null record: closes the current list
                pos += head
                stack.pop()
                if not stack:
                    break
                continue
            if end <= pos or end > len(data):
                break
            nprops = struct.unpack_from(fmt, data, pos + w)[0]
            plen = struct.unpack_from(fmt, data, pos + 2 * w)[0]
            nlen = data[pos + 3 * w]
            self.records.append((pos, w, end))
            p = pos + head + nlen
            props_end = p + plen
            for _ in range(min(nprops, 1 << 20)):
                if p >= props_end:
                    break
                t = data[p:p + 1]
                self.props.append(p)
                if t in SCALAR:
                    p += 1 + SCALAR[t]
                elif t in (b"S", b"R"):
                    n = struct.unpack_from("<I", data, p + 1)[0]
                    self.strings.append((p + 1, n))
                    p += 5 + n
                elif t and t in ARRAY:
                    _, enc, clen = struct.unpack_from("<III", data, p + 1)
                    self.arrays.append((p + 1, enc, clen))
                    p += 13 + clen
                else:
                    break
            if end > props_end:  # has children, closed by a null record
                stack.append(end)
                pos = props_end
            else:
                pos = end
            while len(stack) > 1 and pos >= stack[-1]:
                stack.pop()


def put(data, off, fmt, value):
    size = struct.calcsize(fmt)
    if 0 <= off and off + size <= len(data):
        struct.pack_into(fmt, data, off, value)


def odd_value(rng, old, bits):
    top = (1 << bits) - 1
    return rng.choice([0, max(old - 1, 0), (old + 1) & top, (old * 2) & top,
                       rng.randrange(top + 1), top, top >> 1, 1 << (bits - 2)])


def flip(rng, data, charset=None):
    for _ in range(rng.randint(1, 4)):
        if not data:
            return
        i = rng.randrange(len(data))
        data[i] = rng.choice(charset) if charset else data[i] ^ rng.randrange(1, 256)


def truncate(rng, data, cuts):
    if cuts and rng.random() < 0.6:
        at = rng.choice(cuts) + rng.randint(-3, 3)
    else:
        at = rng.randrange(max(len(data), 1))
    del data[max(0, min(at, len(data))):]


def mutate_binary(rng, data, kind, idx):
    fields = "<Q" if idx.wide else "<I"
    bits = 64 if idx.wide else 32
    if kind == "flip":
        flip(rng, data)
    elif kind == "truncate":
        truncate(rng, data, [r[0] for r in idx.records] + [r[2] for r in idx.records])
    elif kind == "record-len" and idx.records:
        off, w, _ = rng.choice(idx.records)
        which = rng.randrange(4)
        if which == 3:
            data[off + 3 * w] = rng.choice([0, 255, data[off + 3 * w] + 1 & 255])
        else:
            old = struct.unpack_from(fields, data, off + which * w)[0]
            put(data, off + which * w, fields, odd_value(rng, old, bits))
    elif kind == "array-zero" and idx.arrays:
        off, _, _ = rng.choice(idx.arrays)
        put(data, off, "<I", 0)
    elif kind == "array-huge" and idx.arrays:
        off, enc, clen = rng.choice(idx.arrays)
        which = rng.randrange(3)
        if which == 0:
            put(data, off, "<I", rng.choice([0xFFFFFFFF, 0x7FFFFFFF, 0x10000000, 0x40000001]))
        elif which == 1:
            put(data, off + 4, "<I", rng.choice([1 - min(enc, 1), 2, 0xFFFFFFFF]))
        else:
            put(data, off + 8, "<I", odd_value(rng, clen, 32))
    elif kind == "zlib-swap":
        packed = [a for a in idx.arrays if a[1] == 1 and a[2] >= 4]
        if packed:
            off, _, clen = rng.choice(packed)
            start = off + 12
            i, j = start + rng.randrange(clen), start + rng.randrange(clen)
            if i < len(data) and j < len(data):
                if i != j and rng.random() < 0.7:
                    data[i], data[j] = data[j], data[i]
                else:
                    data[i] ^= 1 << rng.randrange(8)
        else:
            flip(rng, data)
    elif kind == "string-len" and idx.strings:
        off, n = rng.choice(idx.strings)
        put(data, off, "<I", odd_value(rng, n, 32))
    elif kind == "prop-type" and idx.props:
        off = rng.choice(idx.props)
        data[off] = rng.choice(b"YCIFDLSRfdlibZ\x00")
    else:
        flip(rng, data)


def number_spans(data):
    """(start, end) of numeric tokens in an ASCII FBX, sampled."""
    spans, i, n = [], 0, len(data)
    digits = b"0123456789"
    while i < n:
        if data[i] in digits or (data[i] == 45 and i + 1 < n and data[i + 1] in digits):
            j = i + 1
            while j < n and data[j] in b"0123456789.eE+-":
                j += 1
            spans.append((i, j))
            i = j
        else:
            i += 1
    return spans


def mutate_ascii(rng, data, kind, _idx):
    text = bytes(data)
    if kind == "flip":
        flip(rng, data, b'{}",:*-0123456789e.;\n\x00\xff')
    elif kind == "truncate":
        truncate(rng, data, [i for i, c in enumerate(text) if c in b"{}\n"][::7])
    elif kind == "count":
        stars = [i for i in range(len(text)) if text[i] == 42]
        if stars:
            at = rng.choice(stars) + 1
            end = at
            while end < len(text) and text[end] in b"0123456789":
                end += 1
            old = int(text[at:end] or b"0")
            new = rng.choice([b"0", b"-1", b"4294967295", b"99999999999999999999",
                              str(old + 1).encode(), str(max(old - 1, 0)).encode()])
            data[at:end] = new
    elif kind == "brace":
        braces = [i for i in range(len(text)) if text[i] in b"{}"]
        if braces:
            del data[rng.choice(braces)]
    elif kind == "number":
        spans = number_spans(text[:2_000_000])
        if spans:
            a, b = rng.choice(spans)
            data[a:b] = rng.choice([b"1e999", b"-1e999", b"nan", b"9223372036854775808",
                                    b"-9223372036854775809", b"1e-400", b"0x10", b"--1"])
    elif kind == "quote":
        quotes = [i for i in range(len(text)) if text[i] == 34]
        if quotes:
            del data[rng.choice(quotes)]
    else:
        flip(rng, data)


BINARY_KINDS = ["flip", "truncate", "record-len", "array-zero", "array-huge",
                "zlib-swap", "string-len", "prop-type"]
ASCII_KINDS = ["flip", "truncate", "count", "brace", "number", "quote"]


def mutation(path, data, index, idx=None):
    """(kind, bytes) of mutation INDEX; idx: the file's Index, when the
    caller makes many mutations of one binary file."""
    binary = data.startswith(MAGIC)
    if binary and idx is None:
        idx = Index(data)
    kinds = BINARY_KINDS if binary else ASCII_KINDS
    kind = kinds[index % len(kinds)]
    rng = random.Random("%s:%d" % (os.path.basename(path), index))
    out = bytearray(data)
    (mutate_binary if binary else mutate_ascii)(rng, out, kind, idx)
    return kind, bytes(out)


def main(argv):
    if len(argv) >= 2 and argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0
    if len(argv) >= 5 and argv[1] == "batches":
        count, batch = int(argv[2]), max(int(argv[3]), 1)
        for path in argv[4:]:
            for first in range(0, count, batch):
                print(path, first, min(first + batch, count))
        return 0
    if len(argv) == 6 and argv[1] == "write":
        path, first, end, outdir = argv[2], int(argv[3]), int(argv[4]), argv[5]
        with open(path, "rb") as f:
            data = f.read()
        stem = os.path.basename(path)
        idx = Index(data) if data.startswith(MAGIC) else None
        for i in range(first, end):
            kind, out = mutation(path, data, i, idx)
            with open(os.path.join(outdir, "%s.m%05d-%s.fbx" % (stem[:-4], i, kind)), "wb") as f:
                f.write(out)
        return 0
    if len(argv) == 4 and argv[1] == "describe":
        with open(argv[2], "rb") as f:
            data = f.read()
        kind, out = mutation(argv[2], data, int(argv[3]))
        print("%s mutation %s: %s, %d -> %d bytes" % (argv[2], argv[3], kind, len(data), len(out)))
        return 0
    print("usage: fbx_mutate.py batches|write|describe ... (see --help)", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
