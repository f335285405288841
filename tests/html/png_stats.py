#!/usr/bin/env python3
"""Prints "WIDTH HEIGHT NONWHITE DISTINCT" for an 8-bit RGB/RGBA PNG (stdlib only: zlib + the PNG filters).
Used by it_report_test to check that a headless-Chromium screenshot is not blank."""
import struct
import sys
import zlib


def main(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit('not a PNG')
    pos, idat, width, height, ctype = 8, b'', 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            width, height, depth, ctype = struct.unpack('>IIBB', body[:10])
            if depth != 8 or ctype not in (2, 6):
                sys.exit('unsupported PNG (depth %d, colour type %d)' % (depth, ctype))
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    nonwhite, colours, at = 0, set(), 0
    for _ in range(height):
        f = raw[at]
        line = bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, stride, bpp):
            px = bytes(line[x:x + 3])
            if px != b'\xff\xff\xff':
                nonwhite += 1
                if len(colours) < 1000:
                    colours.add(px)
        prev = line
    print(width, height, nonwhite, len(colours))


if __name__ == '__main__':
    main(sys.argv[1])
