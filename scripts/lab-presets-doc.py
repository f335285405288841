#!/usr/bin/env python3
"""Rewrites the "## Presets" section of docs/lab.md (to the end of the file) from the binary: each preset's model
text (`sluice lab models NAME`) and its truth (`sluice lab truth NAME`). it_lab's LabDocs test fails when the two
disagree; run this after changing a preset or the truth.

    scripts/lab-presets-doc.py [build/sluice]
"""
import pathlib
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parent.parent
binary = sys.argv[1] if len(sys.argv) > 1 else str(root / "build" / "sluice")
doc = root / "docs" / "lab.md"


def run(*args):
    return subprocess.run([binary, *args], check=True, capture_output=True, text=True).stdout


names = [line.split()[0] for line in run("lab", "models").splitlines() if line.strip()]
text = doc.read_text()
head = text[: text.index("## Presets\n")]
out = [
    "## Presets\n\n"
    "Each preset's numbers come from the practitioners' reference classes quoted in issue 34, written in the model\n"
    "format (`sluice lab models NAME` prints the text below; copy it to make a model of your own). The tables are the\n"
    "output of `sluice lab truth NAME` (scripts/lab-presets-doc.py writes this section from the binary).\n"
]
for name in names:
    out.append(f"\n### {name}\n\n```\n{run('lab', 'models', name).rstrip()}\n```\n\n"
               f"```\n$ sluice lab truth {name}\n{run('lab', 'truth', name).rstrip()}\n```\n")
doc.write_text(head + "".join(out))
print(f"{doc}: the presets section rewritten ({len(names)} presets)")
