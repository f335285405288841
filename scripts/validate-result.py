#!/usr/bin/env python3
"""Validates sluice result documents (--output-format=json) against docs/schema/sluice-result.schema.json.

Every error is printed as "FILE: at PATH: MESSAGE". Exit status: 0 when every document is valid, 1 when one is
not (or is not JSON), 2 on a usage error, 77 when python3's jsonschema module is missing (Debian:
python3-jsonschema; scripts/install-deps.sh --with-peers installs it), so a test can skip.

Usage: validate-result.py [--schema=FILE] DOCUMENT.json...   (the schema defaults to the repository's)"""
import json
import pathlib
import sys

SCHEMA = pathlib.Path(__file__).resolve().parent.parent / "docs/schema/sluice-result.schema.json"


def main(argv):
    schema_path = SCHEMA
    files = []
    for arg in argv:
        if arg.startswith("--schema="):
            schema_path = pathlib.Path(arg.split("=", 1)[1])
        elif arg.startswith("-"):
            print(__doc__, file=sys.stderr)
            return 2
        else:
            files.append(arg)
    if not files:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        import jsonschema
    except ImportError:
        print("validate-result: python3's jsonschema module is not installed (Debian: python3-jsonschema)",
              file=sys.stderr)
        return 77
    schema = json.loads(schema_path.read_text())
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema)
    failed = False
    for name in files:
        try:
            document = json.loads(pathlib.Path(name).read_text())
        except (OSError, ValueError) as e:
            print(f"{name}: not a JSON document: {e}")
            failed = True
            continue
        for error in sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path)):
            where = "/" + "/".join(str(p) for p in error.absolute_path)
            print(f"{name}: at {where}: {error.message}")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
