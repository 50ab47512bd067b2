"""Every link and image in README.md and docs/ resolves (issue 31, item 5: the README showed seven
broken pictures): a relative path names a file of the repository, and an anchor names a heading
of the page it points into. Links to other sites are not fetched (the tests run offline)."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
# [text](target) and ![alt](target), the target up to a space (a title) or the closing bracket
MARKDOWN = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML = re.compile(r"<(?:img|a|source)\b[^>]*?\b(?:src|href)=\"([^\"]+)\"", re.I)
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)
FENCE = re.compile(r"^```.*?^```", re.M | re.S)


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, markup and punctuation dropped, spaces
    as hyphens."""
    text = re.sub(r"`|\*\*|__|\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    kept = "".join(ch for ch in text if ch in " -_" or unicodedata.category(ch)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for heading in HEADING.findall(FENCE.sub("", page.read_text())):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def targets(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text())
    text = re.sub(r"`[^`\n]*`", "", text)  # code spans are examples, not links
    return MARKDOWN.findall(text) + HTML.findall(text)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_and_image_of_the_page_resolves(page: Path) -> None:
    broken = []
    for target in targets(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:: another site's
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            shown = dest.relative_to(ROOT) if dest.is_relative_to(ROOT) else dest
            broken.append(f"{target}: no file {shown}")
            continue
        if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target}: no heading #{anchor} in {dest.relative_to(ROOT)}")
    assert not broken, "\n".join(broken)


def test_the_pages_are_found_and_have_links() -> None:
    assert ROOT / "README.md" in PAGES and len(PAGES) > 5
    assert sum(len(targets(p)) for p in PAGES) > 30  # the patterns do find links


def test_a_broken_picture_and_a_broken_anchor_are_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text('# Top\n![a](missing.png) [b](#top) [c](#nowhere) <img src="gone.png">\n')
    assert targets(page) == ["missing.png", "#top", "#nowhere", "gone.png"]
    assert "top" in anchors(page) and "nowhere" not in anchors(page)
