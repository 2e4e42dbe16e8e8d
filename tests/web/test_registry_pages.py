"""Every game's pages come from its declaration and the GameKind registry (issue #12).

No shared module names a game: the addresses, the cards of the home page and the ``after_*``
handling of each registered game are derived from its ``PAGES`` and its kind.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import BadRequest
from django.test import RequestFactory
from django.urls import resolve, reverse

from tournament.competitions.kinds import all_kinds, get_kind
from tournament.web import pages

DECLARED = [p.kind for p in pages.all_pages()]


def test_the_three_games_declare_their_pages():
    assert {"tour", "championship", "rally"} <= set(DECLARED)
    assert [k.label for k in all_kinds() if pages.pages_of(k.label) is not None] == DECLARED


@pytest.mark.parametrize("label", DECLARED)
def test_shared_addresses_come_from_the_kind(label):
    declared = pages.pages_of(label)
    assert declared is not None
    kind = get_kind(label)
    url = declared.competition_url(7)
    assert url == f"/{kind.collection}/7/"
    assert resolve(url).func is declared.competition
    assert reverse(f"{kind.collection}:{label}", args=[7]) == url
    if declared.results is not None:
        results = declared.results_url(7, 2)
        assert results == f"/{kind.collection}/7/{kind.event_word}/2/results/"
        assert resolve(results).func is declared.results
    if declared.event is not None:
        assert declared.event_url(7, 2) == f"/{kind.collection}/7/{kind.event_word}/2/"


@pytest.mark.parametrize("label", DECLARED)
def test_unknown_competitions_are_404_on_every_shared_page(client, db, label):
    declared = pages.pages_of(label)
    assert declared is not None
    assert client.get(declared.competition_url(999999)).status_code == 404
    if declared.event is not None:
        assert client.get(declared.event_url(999999, 1)).status_code == 404


@pytest.mark.parametrize("label", DECLARED)
def test_after_param_is_the_kinds_and_a_whole_number(label):
    kind = get_kind(label)
    factory = RequestFactory()
    assert pages.after_param(factory.get("/"), kind) is None
    assert pages.after_param(factory.get("/", {kind.after_param: "3"}), kind) == 3
    with pytest.raises(BadRequest):
        pages.after_param(factory.get("/", {kind.after_param: "x"}), kind)
    assert pages.after_param(factory.get("/", {"after_other": "x"}), kind) is None


def test_status_labels_are_translated_words():
    assert str(pages.status_label("resolved")) == "resolved"
    assert pages.status_label("unknown") == "unknown"
