"""What /stats, the leaderboards and the delete-my-data question show (bot/records/view.py),
as values, in English and in a language that writes numbers its own way."""

from bot.records.api import Page, PlayerStats, Rating, RatingRow, Tally
from bot.records.buttons import parse
from bot.records.view import (
    RATINGS,
    number,
    render_forget_question,
    render_rating_board,
    render_stats,
)
from tests.support.records import ALICE, BOB, X_WINS, record

SETTLED = Rating(1623.4, 60.0, 0.06, 30)
NEW = Rating(1500.0, 300.0, 0.06, 1)


def test_numbers_are_written_the_languages_way():
    assert number(1623.4, "en-US") == "1,623"
    assert number(1623.4, "de") == "1.623"


def test_stats_name_tallies_rating_rank_and_reviewable_games():
    stats = PlayerStats(
        ALICE,
        vs_people=Tally(3, 1, 2),
        current_streak=1,
        best_streak=2,
        rating=SETTLED,
        rank=4,
        recent=(record(1, ALICE, BOB, X_WINS),),
    )
    card = render_stats(stats, "en-US", in_server=True, with_games=True)
    assert "**Against people:** 3 wins · 1 draw · 2 losses" in card.text
    assert "**Rating:** 1,623, #4 in this server" in card.text
    assert "**Win streak:** 1 now, 2 at best." in card.text
    assert f"1. 🏆 beat <@{BOB}> · <t:1800000001:R>" in card.text
    review = [button for button in card.controls if parse(button.custom_id)]
    assert len(review) == 1
    others = render_stats(stats, "en-US", in_server=True, with_games=False)
    assert f"<@{BOB}>" not in others.text  # someone else's stats never say whom they played
    assert not others.controls


def test_a_provisional_rating_is_marked_on_the_board():
    page = Page((RatingRow(1, ALICE, SETTLED), RatingRow(2, BOB, NEW)), page=0, pages=1, total=2)
    card = render_rating_board(page, "en-US", in_server=True, command="`/tictactoe`")
    assert f"<@{ALICE}> · 1,623\n" in card.text
    assert f"<@{BOB}> · 1,500 (provisional)\n" in card.text
    assert "?" not in card.text  # a provisional rating is not a question
    assert "-# Provisional: too few games to be sure yet." in card.text
    german = render_rating_board(page, "de", in_server=True, command="`/tictactoe`")
    assert f"<@{BOB}> · 1.500 (vorläufig)\n" in german.text
    clicks = [parse(button.custom_id) for button in card.controls]
    # One page: no Previous or Next, only the ways to the other tables.
    assert [(click.verb, click.args[0]) for click in clicks if click] == [
        ("pg", "u"),
        ("pg", "b"),
        ("pg", "p"),
    ]
    assert RATINGS == "r"


def test_a_provisional_rating_is_said_once_on_the_stats():
    stats = PlayerStats(
        ALICE,
        vs_people=Tally(1, 0, 0),
        current_streak=1,
        best_streak=1,
        rating=NEW,
        rank=1,
        recent=(),
    )
    card = render_stats(stats, "en-US", in_server=True, with_games=False)
    assert (
        "**Rating:** 1,500 (provisional: a few more games settle it), #1 in this server"
        in card.text
    )
    assert "?" not in card.text


def test_the_forget_question_can_be_cancelled():
    reply = render_forget_question(ALICE, "en-US")
    assert [button.label for button in reply.buttons] == ["Delete my data", "Cancel"]
