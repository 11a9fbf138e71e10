"""The docs site's layout in a real browser: wide tables and listings scroll inside their own
box, the page never scrolls sideways, and code in table cells does not wrap mid-name
(docs/stylesheets/extra.css).

Builds the guides with the project's mkdocs.yml (theme, extensions, stylesheet, hooks; the API
reference's mkdocstrings plugin left out, which takes most of a full build's time), opens pages
in headless Chromium 900 px wide, and reads what a small script injected into each page
measures after the theme's own script has run. Skipped where no Chromium or Chrome binary is on
PATH (Debian: ``apt-get install chromium``) or MkDocs Material is not installed.
"""

import json
import os
import re
import shutil
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WIDTH, HEIGHT = 900, 1200
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
BROWSER = next((path for name in BROWSERS if (path := shutil.which(name))), None)
# performance: an 11-column table wider than the column; the others: code in table cells.
PAGES = ["performance", "numpy", "coming-from", "debugging"]

pytestmark = pytest.mark.skipif(
    BROWSER is None, reason=f"no headless browser on PATH (looked for {', '.join(BROWSERS)})"
)

# Runs after the theme's script (which wraps each table in a scrolling box); writes its
# measurements into the page as JSON, which --dump-dom prints.
MEASURE = """
window.addEventListener("load", () => setTimeout(() => {
  const column = document.querySelector(".md-content__inner") || document.body;
  const report = {width: window.innerWidth, page: document.documentElement.scrollWidth,
                  boxes: [], wrapped: []};
  for (const box of column.querySelectorAll("table, pre")) {
    let scroller = box;  // the element that scrolls it: the box, its code, or a wrapper
    const start = box.tagName === "PRE" && box.firstElementChild ? box.firstElementChild : box;
    for (let e = start; e && e !== column; e = e.parentElement) {
      const o = getComputedStyle(e).overflowX;
      if ((o === "auto" || o === "scroll") && e.scrollWidth > e.clientWidth) {
        scroller = e;
        break;
      }
    }
    report.boxes.push({tag: box.tagName, text: box.textContent.trim().slice(0, 60),
                       right: scroller.getBoundingClientRect().right,
                       scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth,
                       overflowX: getComputedStyle(scroller).overflowX});
  }
  for (const code of column.querySelectorAll("td code, th code")) {
    if (code.getClientRects().length > 1) report.wrapped.push(code.textContent);
  }
  const out = document.createElement("pre");
  out.id = "layout-report";
  out.textContent = JSON.stringify(report);
  document.body.appendChild(out);
}, 200));
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    yaml = pytest.importorskip("yaml")
    pytest.importorskip("mkdocs", reason="mkdocs is not installed (the docs extra)")
    pytest.importorskip("material", reason="mkdocs-material is not installed (the docs extra)")
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    config["docs_dir"] = str(ROOT / config["docs_dir"])
    config["hooks"] = [str(ROOT / hook) for hook in config.get("hooks", [])]
    config["plugins"] = ["search"]
    # The API pages' ``::: name`` lines stay text without mkdocstrings, so links into them
    # have no anchors to find; the full build (mkdocs build --strict) checks those.
    config["validation"] = {"links": {"anchors": "ignore", "unrecognized_links": "warn"}}
    tmp = tmp_path_factory.mktemp("docs")
    (tmp / "mkdocs.yml").write_text(yaml.safe_dump(config))
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
         str(tmp / "mkdocs.yml"), "--site-dir", str(tmp / "site")],
        capture_output=True, text=True, timeout=300, cwd=tmp,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )  # fmt: skip
    assert built.returncode == 0, built.stdout + built.stderr
    return tmp / "site"


def browse(site, page, *flags):
    """Run the browser on ``page`` with the measuring script in it; its stdout."""
    html = (site / page / "index.html").read_text(encoding="utf-8")
    checked = site / page / "checked.html"  # beside the page, so its relative links work
    checked.write_text(html.replace("</body>", f"<script>{MEASURE}</script></body>"))
    run = subprocess.run(
        [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         f"--user-data-dir={site / '.browser'}", f"--window-size={WIDTH},{HEIGHT}",
         "--virtual-time-budget=5000", *flags, checked.as_uri()],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout


def measure(site, page):
    found = re.search(r'<pre id="layout-report">(.*?)</pre>', browse(site, page, "--dump-dom"))
    assert found, f"{page}: the measuring script did not run"
    return json.loads(unescape(found.group(1)))


@pytest.mark.parametrize("page", PAGES)
def test_wide_content_scrolls_in_its_own_box_and_code_in_cells_stays_whole(site, page):
    report = measure(site, page)
    assert report["width"] == WIDTH
    assert report["page"] <= WIDTH, f"{page}: the page scrolls sideways ({report['page']} px)"
    assert report["boxes"], f"{page}: no table or listing found"
    for box in report["boxes"]:
        where = f"{page}: {box['tag'].lower()} {box['text']!r}"
        assert box["right"] <= WIDTH + 0.5, f"{where} sticks out of the page"
        if box["scrollWidth"] > box["clientWidth"]:
            assert box["overflowX"] in ("auto", "scroll"), f"{where} overflows without scrolling"
    assert not report["wrapped"], f"{page}: code wrapped inside table cells: {report['wrapped']}"
    if page == "performance":  # the benchmark table is wider than the column: it scrolls
        assert any(
            b["scrollWidth"] > b["clientWidth"] for b in report["boxes"] if b["tag"] == "TABLE"
        )


def test_a_screenshot_of_the_performance_page(site, tmp_path):
    shot = tmp_path / "performance.png"
    browse(site, "performance", f"--screenshot={shot}")
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (WIDTH, HEIGHT)
