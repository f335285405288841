#!/usr/bin/env python3
"""Prints the tests a ctest run skipped, grouped by the reason each gave (GTEST_SKIP's message), so that no
skip is silent, then one closing line 'tests: N passed, N failed, N skipped' over all the files. Reads the
JUnit files of `ctest --output-junit FILE`.

Usage: list-skips.py JUNIT.xml [JUNIT.xml...]   (exit 0; a missing file is said and ignored)"""
import collections
import re
import sys
import xml.etree.ElementTree as ET

SKIPPED_AT = re.compile(r":\d+: Skipped$")


def skip_reason(output):
    """The message of GTEST_SKIP() in a test's output: the lines after 'file:line: Skipped'."""
    lines = output.splitlines()
    for i, line in enumerate(lines):
        if SKIPPED_AT.search(line.strip()):
            reason = []
            for following in lines[i + 1:]:
                if following.startswith("[  SKIPPED ]") or following.startswith("[       OK ]"):
                    break
                if following.strip():
                    reason.append(following.strip())
            text = " ".join(reason) or "(no reason given)"
            return text if len(text) <= 200 else text[:199] + "…"
    return "(no reason given)"


def main(paths):
    by_reason = collections.defaultdict(list)
    passed = failed = 0
    for path in paths:
        try:
            root = ET.parse(path).getroot()
        except (OSError, ET.ParseError) as e:
            print(f"list-skips: cannot read {path}: {e}")
            continue
        for case in root.iter("testcase"):
            if case.find("failure") is not None or case.find("error") is not None or case.get("status") == "fail":
                failed += 1
                continue
            if case.get("status") != "skipped" and case.find("skipped") is None:
                passed += 1
                continue
            out = case.find("system-out")
            by_reason[skip_reason(out.text if out is not None and out.text else "")].append(case.get("name"))
    total = sum(len(names) for names in by_reason.values())
    print(f"=== {total} tests skipped, by reason ===")
    for reason, names in sorted(by_reason.items(), key=lambda item: (-len(item[1]), item[0])):
        print(f"- {reason} ({len(names)}):")
        for name in sorted(names):
            print(f"    {name}")
    print(f"tests: {passed} passed, {failed} failed, {total} skipped")


if __name__ == "__main__":
    main(sys.argv[1:])
