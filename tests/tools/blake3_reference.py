#!/usr/bin/env python3
"""An independent BLAKE3 and Bevy AnimationTargetId, for cross-checking.

Written separately from src/generate/blake3.c and in a different shape: the
tree is built by the paper's recursive definition (the left subtree
holds the largest power of two of chunks that leaves at least one byte to the
right) instead of the C code's incremental chaining-value stack, so a mistake
in either one's tree does not repeat in the other. Python's hashlib has no
BLAKE3, hence this file.

usage:
  blake3_reference.py check                  self-check against the official
                                             BLAKE3 test vectors (exit 1 on a
                                             mismatch)
  blake3_reference.py hash LEN               the 32-byte digest of LEN bytes of
                                             the vector input (i % 251)
  blake3_reference.py target-id BITS NAME... Bevy's AnimationTargetId of the
                                             name path, BITS 32 or 64
"""
import sys

IV = [0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
      0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19]
PERM = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8]
CHUNK_START, CHUNK_END, PARENT, ROOT = 1, 2, 4, 8
MASK = 0xFFFFFFFF
BLOCK, CHUNK = 64, 1024


def rotr(x, n):
    return ((x >> n) | (x << (32 - n))) & MASK


def g(v, a, b, c, d, x, y):
    v[a] = (v[a] + v[b] + x) & MASK
    v[d] = rotr(v[d] ^ v[a], 16)
    v[c] = (v[c] + v[d]) & MASK
    v[b] = rotr(v[b] ^ v[c], 12)
    v[a] = (v[a] + v[b] + y) & MASK
    v[d] = rotr(v[d] ^ v[a], 8)
    v[c] = (v[c] + v[d]) & MASK
    v[b] = rotr(v[b] ^ v[c], 7)


def compress(cv, block, counter, block_len, flags):
    m = [int.from_bytes(block[4 * i:4 * i + 4].ljust(4, b"\0"), "little") for i in range(16)]
    v = list(cv) + IV[:4] + [counter & MASK, (counter >> 32) & MASK, block_len, flags]
    for r in range(7):
        g(v, 0, 4, 8, 12, m[0], m[1])
        g(v, 1, 5, 9, 13, m[2], m[3])
        g(v, 2, 6, 10, 14, m[4], m[5])
        g(v, 3, 7, 11, 15, m[6], m[7])
        g(v, 0, 5, 10, 15, m[8], m[9])
        g(v, 1, 6, 11, 12, m[10], m[11])
        g(v, 2, 7, 8, 13, m[12], m[13])
        g(v, 3, 4, 9, 14, m[14], m[15])
        m = [m[p] for p in PERM]
    return [v[i] ^ v[i + 8] for i in range(8)] + [v[i + 8] ^ cv[i] for i in range(8)]


def chunk_node(data, counter):
    """The final (cv, block, counter, len, flags) of one chunk."""
    blocks = [data[i:i + BLOCK] for i in range(0, len(data), BLOCK)] or [b""]
    cv = list(IV)
    for i, blk in enumerate(blocks[:-1]):
        cv = compress(cv, blk.ljust(BLOCK, b"\0"), counter, BLOCK,
                      CHUNK_START if i == 0 else 0)[:8]
    last = blocks[-1]
    flags = CHUNK_END | (CHUNK_START if len(blocks) == 1 else 0)
    return (cv, last.ljust(BLOCK, b"\0"), counter, len(last), flags)


def node_cv(node):
    return compress(*node)[:8]


def words_bytes(words):
    return b"".join(w.to_bytes(4, "little") for w in words)


def tree_node(data, first_chunk):
    """The root node of the subtree over data, its first chunk index given."""
    if len(data) <= CHUNK:
        return chunk_node(data, first_chunk)
    chunks = (len(data) + CHUNK - 1) // CHUNK
    left_chunks = 1
    while left_chunks * 2 < chunks:
        left_chunks *= 2
    split = left_chunks * CHUNK
    left = node_cv(tree_node(data[:split], first_chunk))
    right = node_cv(tree_node(data[split:], first_chunk + left_chunks))
    return (list(IV), words_bytes(left + right), 0, BLOCK, PARENT)


def blake3(data, out_len=32):
    cv, block, _, block_len, flags = tree_node(data, 0)
    out = b""
    counter = 0
    while len(out) < out_len:
        out += words_bytes(compress(cv, block, counter, block_len, flags | ROOT))
        counter += 1
    return out[:out_len]


NAMESPACE = bytes.fromhex("3179f519d9274ff2b5966fd077023911")


def target_id(bits, names):
    width = bits // 8
    pre = NAMESPACE + b"".join(len(n).to_bytes(width, "little") + n for n in names)
    b = bytearray(blake3(pre, 16))
    b[6] = (b[6] & 0x0F) | 0x50
    b[8] = (b[8] & 0x3F) | 0x80
    h = b.hex()
    return "-".join([h[0:8], h[8:12], h[12:16], h[16:20], h[20:32]])


def vector_input(n):
    return bytes(i % 251 for i in range(n))


# The first 32 bytes of the "hash" field of the official BLAKE3
# test_vectors.json, for the input lengths the unit test checks too.
OFFICIAL = {
    0: "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262",
    1: "2d3adedff11b61f14c886e35afa036736dcd87a74d27b5c1510225d0f592e213",
    1023: "10108970eeda3eb932baac1428c7a2163b0e924c9a9e25b35bba72b28f70bd11",
    1024: "42214739f095a406f3fc83deb889744ac00df831c10daa55189b5d121c855af7",
    1025: "d00278ae47eb27b34faecf67b4fe263f82d5412916c1ffd97c8cb7fb814b8444",
    2048: "e776b6028c7cd22a4d0ba182a8bf62205d2ef576467e838ed6f2529b85fba24a",
    2049: "5f4d72f40d7a5f82b15ca2b2e44b1de3c2ef86c426c95c1af0b6879522563030",
    3072: "b98cb0ff3623be03326b373de6b9095218513e64f1ee2edd2525c7ad1e5cffd2",
    3073: "7124b49501012f81cc7f11ca069ec9226cecb8a2c850cfe644e327d22d3e1cd3",
    4096: "015094013f57a5277b59d8475c0501042c0b642e531b0a1c8f58d2163229e969",
    4097: "9b4052b38f1c5fc8b1f9ff7ac7b27cd242487b3d890d15c96a1c25b8aa0fb995",
    5120: "9cadc15fed8b5d854562b26a9536d9707cadeda9b143978f319ab34230535833",
    31744: "62b6960e1a44bcc1eb1a611a8d6235b6b4b78f32e7abc4fb4c6cdcce94895c47",
    102400: "bc3e3d41a1146b069abffad3c0d44860cf664390afce4d9661f7902e7943e085",
}


def main(argv):
    if len(argv) >= 2 and argv[1] == "check":
        bad = 0
        for n, want in sorted(OFFICIAL.items()):
            got = blake3(vector_input(n)).hex()
            if got != want:
                print(f"length {n}: got {got}, want {want}")
                bad = 1
        print("mismatch" if bad else f"ok {len(OFFICIAL)} official vectors")
        return bad
    if len(argv) == 3 and argv[1] == "hash":
        print(blake3(vector_input(int(argv[2]))).hex())
        return 0
    if len(argv) >= 3 and argv[1] == "target-id" and argv[2] in ("32", "64"):
        print(target_id(int(argv[2]), [a.encode("utf-8") for a in argv[3:]]))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
