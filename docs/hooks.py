"""MkDocs hook: the guides may link files outside docs/, as GitHub shows them.

A page in docs/ links a repository file such as the benchmark chart or an example script
by its path from the page (``../benchmarks/results/latest.png``, ``../examples/fit_ode.py``),
so the link works on GitHub. The site copies each such file in, under the same path from
the repository root, and points the link at the copy.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

LINK = re.compile(r"\]\(((?:\.\./)+)([^)#\s]+)")


_copied: set[str] = set()  # repository paths copied into the site by the current build


def on_files(files: Files, config: Any) -> Files:
    root = Path(config.docs_dir).resolve().parent  # the repository: docs/ is in it
    docs = Path(config.docs_dir).resolve()
    _copied.clear()
    for page in docs.glob("**/*.md"):
        for up, path in LINK.findall(page.read_text(encoding="utf-8")):
            target = (page.parent / up / path).resolve()
            if target.is_file() and not target.is_relative_to(docs) and target.is_relative_to(root):
                name = target.relative_to(root).as_posix()
                if name not in _copied:
                    _copied.add(name)
                    files.append(File.generated(config, name, abs_src_path=str(target)))
    return files


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    depth = page.file.src_uri.count("/")  # folders between docs/ and the page

    def relink(match: re.Match[str]) -> str:
        up, path = match.groups()
        if up == "../" * (depth + 1) and path in _copied:  # a path from the repository root
            return f"]({'../' * depth}{path}"
        return match.group(0)

    return LINK.sub(relink, markdown)
