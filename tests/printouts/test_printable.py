"""The sheet's tree made printable: screen-only parts gone with nothing else, links unwrapped
keeping their text, jersey icons drawn from the sprite (pure: no database)."""

from __future__ import annotations

from xml.etree.ElementTree import Element

import tinyhtml5

from tournament.printouts.printable import SVG, make_printable

SPRITE = (
    '<svg class="sprite"><symbol id="i-jersey" viewBox="0 0 24 24"><path d="M8 2z"/></symbol></svg>'
)


def printable(body: str) -> tuple[str, Element]:
    root = tinyhtml5.parse(f"<body>{SPRITE}{body}</body>", namespace_html_elements=False)
    make_printable(root)
    main = root.find("body/main")
    assert main is not None
    return "".join(main.itertext()), main


def test_screen_only_parts_go_and_their_neighbours_stay() -> None:
    text, _ = printable(
        '<main><table><caption class="sr-only">Results</caption><tr><td>Leo R<span class="folded">'
        '<span class="fi">Team <a href="/t/1/">Team Leo</a></span></span> (c)</td>'
        '<td><a href="/t/1/">Team <b>Leo</b></a>!</td></tr></table>'
        '<details class="tie-break"><summary>=</summary><span role="note">GT-5.5</span></details>'
        '<a class="download" href="/x.csv">CSV</a> end<figure><figcaption>Cap</figcaption></figure>'
        "</main>"
    )
    assert text == "Leo R (c)Team Leo!= end"


def test_links_are_unwrapped_and_jerseys_drawn() -> None:
    _, main = printable(
        '<main><p><a href="/a/">one <i>two</i></a> three</p><svg class="jersey jersey--green">'
        '<use href="#i-jersey"></use></svg></main>'
    )
    assert not list(main.iter("a"))
    [icon] = [e for e in main.iter(f"{SVG}svg")]
    assert icon.get("viewBox") == "0 0 24 24"
    [path] = list(icon)
    assert (path.tag, path.get("d"), path.get("fill")) == (f"{SVG}path", "M8 2z", "#2e9d48")
