"""The sheet's parsed HTML made printable before WeasyPrint lays it out.

The print templates include the pages' own components, which carry what only a screen uses: the
folded copy of hidden columns for narrow screens, screen-reader labels, CSV links, and links to
other pages (which in a PDF would point at files beside the server's code). ``print.css`` hides
them, but WeasyPrint still computes the style of every hidden element and lays out every link:
on a 21-stage tour that markup was over half of the document's 7,000 elements and most of the
style computation. Removing it from the tree changes nothing on paper and saves about a fifth
of the sheet's CPU time (``docs/printouts.md``, "Figures").

WeasyPrint also draws each inline SVG as a document of its own, so a ``<use href="#i-jersey">``
pointing at the page's sprite drew nothing: the jersey columns of the sheet had no heading. Each
jersey icon gets the sprite's path and its colours as attributes.
"""

from __future__ import annotations

import copy
from typing import Final
from xml.etree.ElementTree import Element

SVG: Final = "{http://www.w3.org/2000/svg}"

#: Classes of the components that print.css hides (its ``display:none`` rule): dropped.
SCREEN_ONLY: Final = frozenset({"sr-only", "folded", "download", "skip", "layout-narrow"})
#: Elements dropped whatever their class.
SCREEN_ONLY_TAGS: Final = frozenset({"figcaption"})

#: The jerseys' paint (print.css's colours; stroke of the outline).
JERSEY_PAINT: Final = {
    "jersey--yellow": {"fill": "#f2c500", "stroke": "#333", "stroke-width": "1"},
    "jersey--green": {"fill": "#2e9d48", "stroke": "#333", "stroke-width": "1"},
    "jersey--polka_dot": {
        "fill": "#fff",
        "stroke": "#d42c2c",
        "stroke-width": "2.5",
        "stroke-dasharray": "2 2",
    },
}


def _classes(element: Element) -> set[str]:
    return set((element.get("class") or "").split())


def _hidden(parent: Element, child: Element) -> bool:
    if not isinstance(child.tag, str):  # a comment or processing instruction
        return False
    if child.tag in SCREEN_ONLY_TAGS or _classes(child) & SCREEN_ONLY:
        return True
    # The tie-break note is the summary's tooltip on screens (print.css hides it too).
    return child.get("role") == "note" and "tie-break" in _classes(parent)


def _append_text(parent: Element, index: int, text: str | None) -> None:
    """Add ``text`` after the child before ``index`` (or to the parent's own text)."""
    if not text:
        return
    if index == 0:
        parent.text = (parent.text or "") + text
    else:
        previous = parent[index - 1]
        previous.tail = (previous.tail or "") + text


def _drop(parent: Element, index: int) -> None:
    child = parent[index]
    tail = child.tail
    del parent[index]
    _append_text(parent, index, tail)


def _unwrap(parent: Element, index: int) -> int:
    """Put the children of ``parent[index]`` in its place; how many took its place."""
    child = parent[index]
    inner = list(child)
    tail = child.tail
    del parent[index]
    _append_text(parent, index, child.text)
    for offset, grandchild in enumerate(inner):
        parent.insert(index + offset, grandchild)
    _append_text(parent, index + len(inner), tail)
    return len(inner)


def _prune(element: Element) -> None:
    index = 0
    while index < len(element):
        child = element[index]
        if _hidden(element, child):
            _drop(element, index)
            continue
        _prune(child)
        if child.tag == "a":
            index += _unwrap(element, index)
            continue
        index += 1


def _symbols(root: Element) -> dict[str, Element]:
    return {
        symbol.get("id", ""): symbol for symbol in root.iter(f"{SVG}symbol") if symbol.get("id")
    }


def _inline_uses(root: Element) -> None:
    """Each jersey icon draws the sprite's path itself, in its colours."""
    symbols = _symbols(root)
    for svg in root.iter(f"{SVG}svg"):
        uses = [u for u in svg if u.tag == f"{SVG}use"]
        if not uses:
            continue
        paint = next((JERSEY_PAINT[c] for c in _classes(svg) if c in JERSEY_PAINT), {})
        for use in uses:
            symbol = symbols.get((use.get("href") or "").removeprefix("#"))
            if symbol is None:
                continue
            if symbol.get("viewBox") and not svg.get("viewBox"):
                svg.set("viewBox", symbol.get("viewBox", ""))
            position = list(svg).index(use)
            svg.remove(use)
            for offset, shape in enumerate(symbol):
                drawn = copy.deepcopy(shape)
                for name, value in paint.items():
                    drawn.set(name, value)
                svg.insert(position + offset, drawn)


def make_printable(root: Element) -> None:
    """Prepare the parsed sheet (``HTML(...).etree_element``) in place, before layout."""
    body = next((child for child in root if child.tag == "body"), root)
    _inline_uses(root)
    _prune(body)
