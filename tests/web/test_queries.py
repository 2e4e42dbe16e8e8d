"""Pages keep a fixed number of SQL queries whatever the tour's size (2 or 21 stages)."""

from __future__ import annotations

import pytest

from tests.web.builders import build_tour
from tournament.clubs.models import Club

# Anonymous reader, no session: tour + club, stages, teams, riders, snapshots (ONE query).
TOUR_PAGE_QUERIES = 5
# The tour page's forecast section adds one: the tour's stored forecasts (tournament/forecasts).
FORECAST_QUERIES = 1
# A finished tour's page reads its stages' results once more for the Tour awards (#19), the
# first time this process draws them from those results (tournament/tours/awards.py keeps them).
AWARDS_QUERIES = 1
# Tour (+ club, stages, teams, riders), the stage, its snapshot, its versions.
STAGE_PAGE_QUERIES = 7
# Tour (+ club, stages, teams, riders), the snapshots.
TEAM_PAGE_QUERIES = 5


@pytest.fixture
def small_and_large(users):
    club = Club.objects.get(slug="velo-lisboa")
    small = build_tour(club=club, by=users["organiser"], stages=2, teams=2, resolved=2)
    large = build_tour(
        club=club, by=users["organiser"], stages=21, teams=6, resolved=21, name="Large"
    )
    assert (small.standings_through, large.standings_through) == (2, 21)
    return small, large


def test_page_queries_do_not_grow_with_the_tour(client, small_and_large, django_assert_num_queries):
    for tour in small_and_large:
        team = tour.teams.first()
        assert tour.standings_through == tour.stages.count()  # both are finished: awards shown
        with django_assert_num_queries(TOUR_PAGE_QUERIES + FORECAST_QUERIES + AWARDS_QUERIES):
            assert client.get(f"/tours/{tour.pk}/").status_code == 200
        with django_assert_num_queries(TOUR_PAGE_QUERIES + FORECAST_QUERIES):
            assert client.get(f"/tours/{tour.pk}/", {"after_stage": 1}).status_code == 200
        with django_assert_num_queries(STAGE_PAGE_QUERIES):
            assert client.get(f"/tours/{tour.pk}/stages/2/").status_code == 200
        with django_assert_num_queries(TEAM_PAGE_QUERIES):
            assert client.get(f"/tours/{tour.pk}/teams/{team.pk}/").status_code == 200
        with django_assert_num_queries(TOUR_PAGE_QUERIES):
            assert client.get(f"/embed/tours/{tour.pk}/").status_code == 200


def test_large_tour_page_draws_every_stage(client, small_and_large):
    _, large = small_and_large
    html = client.get(f"/tours/{large.pk}/").content.decode()
    assert "Standings after stage 21 of 21" in html
    assert html.count('<g class="series') == 24  # one GC line per rider in each of two layouts
    assert html.count("<polyline points") == 24  # and its line (not counting the label leaders)


def test_home_queries_do_not_grow_with_competitions(
    client, small_and_large, django_assert_num_queries
):
    # One query per game with pages (each annotated with its event counts), and the clubs.
    from tournament.web.pages import all_pages

    # + 1 for the rally championships (KindPages.more_cards), + 1 for the clubs.
    more = sum(1 for pages in all_pages() if pages.more_cards is not None)
    with django_assert_num_queries(len(all_pages()) + more + 1):
        assert client.get("/").status_code == 200
