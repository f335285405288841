#!/usr/bin/env python3
"""Writes a small C project for `sluice scale -- make -j{N}` (bench/README.md, "make -jN").

40 sources of 16 arithmetic-loop functions each, a main that calls them, and a Makefile with one object
per source (CFLAGS=-O2): about 13 s of gcc at -j1 on the 2-core VM the record was made on. Deterministic
(seed 1), so every machine builds the same code.

usage: bench/gen_make_project.py DIR
"""
import os
import random
import sys

SOURCES = 40
FUNCTIONS = 16


def write_source(path, i, rng):
    with open(path, "w") as f:
        f.write("#include <stdint.h>\n")
        for j in range(FUNCTIONS):
            f.write(f"uint64_t f{i}_{j}(uint64_t x) {{ uint64_t a = x;\n")
            for _ in range(12):
                f.write(f"  for (int t = 0; t < {rng.randint(3, 9)}; ++t) a = a * {rng.randint(3, 99999)}u + "
                        f"(a >> {rng.randint(1, 30)}) ^ {rng.randint(1, 1 << 30)}u;\n")
            f.write("  return a; }\n")
        calls = " + ".join(f"f{i}_{j}(x)" for j in range(FUNCTIONS))
        f.write(f"uint64_t entry{i}(uint64_t x) {{ return {calls}; }}\n")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(1)
    for i in range(SOURCES):
        write_source(os.path.join(out, f"m{i}.c"), i, rng)
    with open(os.path.join(out, "main.c"), "w") as f:
        f.write("#include <stdint.h>\n#include <stdio.h>\n")
        f.writelines(f"uint64_t entry{i}(uint64_t);\n" for i in range(SOURCES))
        f.write("int main(void) { uint64_t s = 0;\n")
        f.writelines(f"  s += entry{i}(s);\n" for i in range(SOURCES))
        f.write('  printf("%llu\\n", (unsigned long long)s); return 0; }\n')
    objects = " ".join([f"m{i}.o" for i in range(SOURCES)] + ["main.o"])
    with open(os.path.join(out, "Makefile"), "w") as f:
        f.write(f"CFLAGS=-O2\nprog: {objects}\n\t$(CC) -o $@ $^\n%.o: %.c\n\t$(CC) $(CFLAGS) -c -o $@ $<\n"
                "clean:\n\trm -f *.o prog\n")


if __name__ == "__main__":
    main()
