#!/usr/bin/env python3
"""What each cargo build of a run spent its time on, from cargo's --timings reports.

    python3 tests/timings.py REPORT.html...

For each report (cargo build --timings writes target/cargo-timings/cargo-timing-*.html): the
build's wall time, how many units it compiled, and its five slowest units, so that the next slow
build shows where its time goes. tests/run_all.sh prints this at the end of a run for the reports
its builds wrote and keeps them in tests/out/timings/.
"""

import json
import re
import sys


def summary(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    found = re.search(r"const UNIT_DATA = (\[.*?\]);", text, re.S)
    units = json.loads(found.group(1)) if found else []
    total = re.search(r"Total time:</td>\s*<td>([^<]*)</td>", text)
    targets = re.search(r"Targets:</td>\s*<td>([^<]*)</td>", text)
    profile = re.search(r"Profile:</td>\s*<td>([^<]*)</td>", text)
    wall = total.group(1).strip() if total else "?"
    what = " ".join(g.group(1).strip() for g in (targets, profile) if g)
    slowest = sorted(units, key=lambda u: -u.get("duration", 0))[:5]
    parts = ", ".join(
        f"{u['name']}{' (' + u['target'].strip() + ')' if u.get('target', '').strip() else ''} "
        f"{u['duration']:.0f} s"
        for u in slowest
    )
    name = path.rsplit("/", 1)[-1]
    return f"{name}: {what}; {wall}, {len(units)} units compiled; slowest: {parts or 'none'}"


def main() -> int:
    for path in sys.argv[1:]:
        try:
            print(summary(path))
        except (OSError, ValueError) as error:
            print(f"{path}: unreadable ({error})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
