#!/usr/bin/env python3
"""Gives every test its CTest properties (labels, resource locks, timeout, RUN_SERIAL). ctest runs it when it
starts (CMakeLists.txt adds a script to TEST_INCLUDE_FILES, after GoogleTest's discovery, that writes the
discovered test names to a file, runs this, and includes the set_tests_properties calls it writes).

Where the properties come from:
- the base label: "unit" for tests/<mod>/*_test.cpp, "integration" for tests/<mod>/it_*_test.cpp;
- the machine features a test names (SLUICE_REQUIRE(kX) or Feature::kX, and the support classes that
  probe one: LoopDevice, FaultFsMount, NginxServer): "peer" when it needs a peer tool, "root" when it needs
  root, and a RESOURCE_LOCK for machine-wide resources (loop devices, network namespaces, cgroups). A
  feature named outside any TEST body (a fixture's SetUp, a helper) counts for every test of the file;
- tests/test-resources.txt: hand-kept rules by test name for what the source cannot tell (a test that times
  something runs serially; one that changes a kernel knob takes its lock; slow tests; longer timeouts; a
  soak or scale check in a unit test file whose base label is replaced, so `ctest -L unit` leaves it out).

Usage: test-properties.py NAMES OUTPUT.cmake TIMEOUT_SCALE
         NAMES: one test a line, "<test list variable>\t<test name>" (it_* lists are integration tests);
         TIMEOUT_SCALE multiplies every timeout (5 in the sanitizer builds)
       test-properties.py --probe-table   (prints, as markdown rows, the test suites that name each feature)"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PEERS = {"kFio", "kFioExamples", "kSysbench", "kPostmark", "kBonnie", "kWrk", "kAb", "kNginx", "kPostal",
         "kAiosmtpd", "kStrace", "kMpirun", "kChromium", "kStressNg", "kNbdkit"}
ROOT_FEATURES = {"kRoot", "kLoopDevices", "kNetNamespaces", "kCgroupV1Blkio", "kCgroupV2Io"}
LOCKS = {"kLoopDevices": "loop_devices", "kNetNamespaces": "network_namespaces", "kCgroupV1Blkio": "cgroups",
         "kCgroupV2Io": "cgroups"}
# Support classes and calls that stand for a feature probe.
IMPLIED = [
    (re.compile(r"\bLoopDevice\b|\blosetup\b"), "kLoopDevices"),
    (re.compile(r"\bFaultFsMount\b"), "kFuse"),
    (re.compile(r"\bNginxServer\b"), "kNginx"),
    (re.compile(r"\bis_root\(\)|geteuid\(\)"), "kRoot"),
]
FEATURE = re.compile(r"SLUICE_REQUIRE\((k\w+)\)|Feature::(k\w+)")
# The probes' own tests name features to test the probes, not because they need them.
NOT_USERS = {"machine_features_test.cpp"}
TEST_START = re.compile(r"^(TEST|TEST_F|TEST_P|TYPED_TEST)\((\w+),\s*(\w+)\)", re.M)
DEFAULT_TIMEOUT = {"unit": 60, "integration": 300}


def features_in(text):
    found = {a or b for a, b in FEATURE.findall(text)}
    found |= {feature for pattern, feature in IMPLIED if pattern.search(text)}
    return found


def name_regex(macro, suite, name):
    if macro == "TEST_P":
        return rf"^([^/]+/)?{suite}\.{name}/"
    if macro == "TYPED_TEST":
        return rf"^{suite}/[^.]+\.{name}$"
    return rf"^{suite}\.{name}$"


def source_rules():
    """(regex, labels, locks) for every test whose source names a feature."""
    rules = []
    for path in sorted((ROOT / "tests").glob("*/*_test.cpp")):
        if path.name in NOT_USERS:
            continue
        text = path.read_text()
        starts = list(TEST_START.finditer(text))
        if not starts:
            continue
        file_wide = features_in(text[:starts[0].start()])
        for i, m in enumerate(starts):
            body = text[m.start():starts[i + 1].start() if i + 1 < len(starts) else len(text)]
            features = file_wide | features_in(body)
            labels = set()
            if features & PEERS:
                labels.add("peer")
            if features & ROOT_FEATURES:
                labels.add("root")
            locks = {LOCKS[f] for f in features if f in LOCKS}
            if labels or locks:
                rules.append((name_regex(*m.groups()), sorted(labels), sorted(locks), None, False, None))
    return rules


def table_rules():
    """The hand-kept rules of tests/test-resources.txt."""
    rules = []
    for number, line in enumerate((ROOT / "tests/test-resources.txt").read_text().splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        regex, *props = line.split()
        labels, locks, timeout, serial, base = [], [], None, False, None
        for prop in props:
            key, _, value = prop.partition("=")
            if key == "serial" and not value:
                serial = True  # and the label "timing": scripts/test.sh runs these when nothing else runs
                labels.append("timing")
            elif key == "lock" and value:
                locks.append(value)
            elif key == "label" and value:
                labels.append(value)
            elif key == "timeout" and value.isdigit():
                timeout = int(value)
            elif key == "base" and value:
                base = value
            else:
                sys.exit(f"tests/test-resources.txt:{number}: unknown property '{prop}' "
                         "(serial, lock=NAME, label=NAME, timeout=SECONDS, base=NAME)")
        try:
            re.compile(regex)
        except re.error as e:
            sys.exit(f"tests/test-resources.txt:{number}: bad regex '{regex}': {e}")
        rules.append((regex, labels, locks, timeout, serial, base))
    return rules


def probe_table():
    """feature -> the test suites (Suite, or file for a file-wide probe) that name it."""
    needs = {}
    for path in sorted((ROOT / "tests").glob("*/*_test.cpp")):
        if path.name in NOT_USERS:
            continue
        text = path.read_text()
        starts = list(TEST_START.finditer(text))
        if not starts:
            continue
        for feature in features_in(text[:starts[0].start()]):
            needs.setdefault(feature, set()).add(f"{path.parent.name}/{path.name} (all)")
        for i, m in enumerate(starts):
            body = text[m.start():starts[i + 1].start() if i + 1 < len(starts) else len(text)]
            for feature in features_in(body):
                needs.setdefault(feature, set()).add(m.group(2))
    for feature in sorted(needs):
        print(f"| `{feature}` | {', '.join(sorted(needs[feature]))} |")


def properties_of(name, base, rules, scale):
    """(labels, locks, timeout, serial) of one test: its base label, then every rule that matches its name (a
    rule's base=NAME replaces the base label; the default timeout stays the file's kind's)."""
    labels, locks, timeout, serial = [base], [], DEFAULT_TIMEOUT[base] * scale, False
    for regex, more_labels, more_locks, rule_timeout, rule_serial, rule_base in rules:
        if not regex.search(name):
            continue
        if rule_base:
            labels = [rule_base] + [label for label in labels[1:] if label != rule_base]
        labels += [label for label in more_labels if label not in labels]
        locks += [lock for lock in more_locks if lock not in locks]
        timeout = rule_timeout * scale if rule_timeout else timeout
        serial = serial or rule_serial
    return tuple(labels), tuple(sorted(locks)), timeout, serial


def main():
    if sys.argv[1:] == ["--probe-table"]:
        probe_table()
        return
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    names_file, output, scale = sys.argv[1], sys.argv[2], int(sys.argv[3])
    all_rules = source_rules() + table_rules()
    rules = [(re.compile(regex), *rest) for regex, *rest in all_rules]
    # Most tests match no rule: one search of every rule at once finds them (ctest waits for this script).
    any_rule = re.compile("|".join(f"(?:{regex})" for regex, *_ in all_rules)) if all_rules else None
    groups = {}
    for line in pathlib.Path(names_file).read_text().splitlines():
        test_list, _, name = line.partition("\t")
        if not name:
            continue
        base = "integration" if test_list.startswith("it_") else "unit"
        matching = rules if any_rule is not None and any_rule.search(name) else []
        groups.setdefault(properties_of(name, base, matching, scale), []).append(name)
    out = ["# Generated by scripts/test-properties.py when ctest starts: do not edit (tests/test-resources.txt)."]
    for (labels, locks, timeout, serial), names in sorted(groups.items()):
        properties = f'LABELS "{";".join(labels)}" TIMEOUT {timeout} RUN_SERIAL {"TRUE" if serial else "FALSE"}'
        if locks:
            properties += f' RESOURCE_LOCK "{";".join(locks)}"'
        for i in range(0, len(names), 200):
            quoted = " ".join(f"[==[{n}]==]" for n in names[i:i + 200])
            out.append(f"set_tests_properties({quoted} PROPERTIES {properties})")
    pathlib.Path(output).write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
