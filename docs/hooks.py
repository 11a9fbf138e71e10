"""MkDocs hook: the benchmark charts live in benchmarks/results/, outside docs/.

The guides link them as GitHub shows them (``../benchmarks/results/latest.png`` from a
page in docs/); the site copies each chart in and points those links at the copy.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

OUTSIDE = ["benchmarks/results/latest.png", "benchmarks/results/cpu_vs_gpu.png"]


def on_files(files: Files, config: Any) -> Files:
    root = Path(config.config_file_path).parent
    for path in OUTSIDE:
        files.append(File.generated(config, path, abs_src_path=str(root / path)))
    return files


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    up = "../" * (page.file.src_uri.count("/") + 1)  # from the page's folder to the repo
    for path in OUTSIDE:
        markdown = markdown.replace(f"]({up}{path})", f"]({up[3:]}{path})")
    return markdown
