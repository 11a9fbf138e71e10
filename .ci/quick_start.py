"""Print the README's quick-start commands, one a line, for .ci/run to run as written.

They are the lines of the shell block right under the ``<!-- quick-start`` marker, so the
README and CI cannot drift apart; tests/test_quick_start.py checks the block's shape.

    python3 .ci/quick_start.py [README.md]
"""

from __future__ import annotations

import sys
from pathlib import Path

MARKER = "<!-- quick-start"


def commands(readme: str) -> list[str]:
    """The lines of the fenced ``sh`` block that follows the marker line."""
    lines = readme.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith(MARKER)]
    if len(starts) != 1:
        raise ValueError(f"the README needs exactly one {MARKER!r} line, found {len(starts)}")
    opening = starts[0] + 1
    if opening >= len(lines) or lines[opening] != "```sh":
        raise ValueError(f"the line after {MARKER!r} must open a ```sh block")
    try:
        closing = lines.index("```", opening + 1)
    except ValueError:
        raise ValueError("the quick-start block is never closed") from None
    return lines[opening + 1 : closing]


if __name__ == "__main__":
    readme = Path(sys.argv[1] if len(sys.argv) > 1 else "README.md")
    print("\n".join(commands(readme.read_text(encoding="utf-8"))))
