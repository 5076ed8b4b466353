"""The checks of `tinymemory-conformance list --format json`, read from
stdin, counted or listed for the CI scripts, so none of them reads the
human listing or names a family that a store serving no framework
interface skips.

    BINARY list --profile P --format json | python3 .ci/checks.py count served

`count` prints how many, `ids` one id a line, of the checks that are:
`all`; `served`, those a store serving no framework interface runs
(`needs_interface` false: the family does not need one); `unserved`,
those it skips. `--family NAME` keeps that family's only.
"""

import argparse
import json
import sys

WHICH = {
    "all": lambda c: True,
    "served": lambda c: not c.get("needs_interface", False),
    "unserved": lambda c: bool(c.get("needs_interface", False)),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["count", "ids"])
    parser.add_argument("which", choices=sorted(WHICH))
    parser.add_argument("--family")
    args = parser.parse_args()
    checks = [
        c
        for c in json.load(sys.stdin)["checks"]
        if WHICH[args.which](c) and args.family in (None, c["family"])
    ]
    if args.what == "count":
        print(len(checks))
    else:
        print("\n".join(c["id"] for c in checks))


if __name__ == "__main__":
    main()
