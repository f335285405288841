#!/usr/bin/env python3
"""Checks that names private to a source file stay unique within its target (CMake's unity build, SLUICE_UNITY).

A unity build compiles a module's files in batches, so two files' anonymous-namespace helpers meet in one
translation unit. Where both have the same signature the compiler reports a redefinition; where the
signatures differ it silently picks an overload, and one file may call the other's helper. This check
reports every top-level name (function, constant, type, alias, macro, or a using-declaration's name) that two
files of one target define, which covers both: `using testing::job_with;` in one file and a job_with of
another file's own once made a test call the other overload. Exit status 1 with the list, else 0. Identical aliases (`using json = nlohmann::json;`)
are allowed. src/cli's *_command.cpp files are compiled one by one (CMakeLists.txt) and skipped here, as
src/mpi's two World implementations, of which one is compiled.
usage: scripts/check-unity-names.py
"""
import collections
import glob
import os
import re
import sys

DEFINITIONS = [
    re.compile(r'^(?:static\s+|inline\s+)?(?:constexpr\s+)?(?:const\s+)?[\w:<>,\s\*&]+?[\s\*&](\w+)\s*\('),
    re.compile(r'^(?:static\s+)?(?:inline\s+)?constexpr\s+[\w:<>,\s\*]+?\s(\w+)(?:\[\])?\s*='),
    re.compile(r'^(?:static\s+)?const\s+[\w:<>,\s\*]+?\s(\w+)(?:\[\])?\s*='),
    re.compile(r'^(?:struct|class|enum class|enum)\s+(\w+)\s*[{:]'),
    re.compile(r'^#define\s+(\w+)'),
]
ALIAS = re.compile(r'^using\s+(\w+)\s*=\s*(.+);')
USING = re.compile(r'^using\s+((?:\w+::)+(\w+));')  # a using-declaration brings a name into the file's scope
NOT_A_DEFINITION = ('TEST', ' ', '}', '//', 'return', 'namespace', '#include')


def unity_skipped(path):
    name = os.path.basename(path)
    return (path.startswith('src/cli/') and name.endswith('_command.cpp')) or name in ('world_mpi.cpp', 'world_single.cpp')


def targets():
    """Source files by build target: src/<module> (recursive), tests/<module> unit and it_ binaries."""
    groups = collections.defaultdict(list)
    for path in glob.glob('src/*/**/*.cpp', recursive=True):
        groups['sluice_' + path.split('/')[1]].append(path)
    for path in glob.glob('tests/*/*_test.cpp'):
        kind = 'it' if os.path.basename(path).startswith('it_') else 'test'
        groups[f'{kind}_{path.split("/")[1]}'].append(path)
    return groups


def top_level_names(path):
    """name -> set of definitions (an alias's target, else the name itself) at column 0 of `path`."""
    names = collections.defaultdict(set)
    with open(path, encoding='utf-8') as f:
        for line in f:
            if line.startswith(NOT_A_DEFINITION):
                continue
            using = USING.match(line)
            if using:
                names[using.group(2)].add('alias ' + using.group(1))
                continue
            alias = ALIAS.match(line)
            if alias:
                names[alias.group(1)].add('alias ' + alias.group(2).strip())
                continue
            for pattern in DEFINITIONS:
                match = pattern.match(line)
                name = match.group(1) if match else None
                if name and name not in ('main', 'operator') and not declared_in_own_header(path, name):
                    names[name].add(path)
                    break
    return names


def declared_in_own_header(path, name):
    """True when FILE.h next to FILE.cpp declares `name`: a public function, which a using-declaration elsewhere
    names on purpose, not a file-private one."""
    header = os.path.splitext(path)[0] + '.h'
    if not os.path.exists(header):
        return False
    with open(header, encoding='utf-8') as f:
        return re.search(r'\b' + re.escape(name) + r'\s*\(', f.read()) is not None


def main():
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
    clashes = []
    for target, files in sorted(targets().items()):
        where = collections.defaultdict(dict)  # name -> {file: definitions}
        for path in sorted(files):
            if unity_skipped(path):
                continue
            for name, definitions in top_level_names(path).items():
                where[name][path] = definitions
        for name, by_file in sorted(where.items()):
            if len(by_file) < 2:
                continue
            kinds = set().union(*by_file.values())
            if len(kinds) == 1 and next(iter(kinds)).startswith('alias '):
                continue  # the same alias in several files is one declaration
            clashes.append(f'{target}: {name} is defined in {", ".join(sorted(by_file))}')
    if clashes:
        print('check-unity-names: names private to a file must be unique within their target (unity build):',
              file=sys.stderr)
        for clash in clashes:
            print('  ' + clash, file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
