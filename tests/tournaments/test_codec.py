"""The tournaments' custom_ids: every click comes back as it was written, within Discord's
limit, under a prefix the bot's Routes accept; anything else is not ours."""

import random

import pytest

from bot.tournaments.codec import PREFIX, TourClick, Verb, base62, custom_id, from_base62, parse

DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
BIG = 2**63 - 1  # the largest id a database's BIGINT holds
IDS = [0, 1, 9, 10, 61, 62, 63, 3843, 3844, BIG, *random.Random(33).sample(range(BIG), 200)]


def slow_base62(number: int) -> str:
    """By the definition: the digits of the largest power of 62 first."""
    power = 1
    while power * 62 <= number:
        power *= 62
    digits = ""
    while power:
        digits += DIGITS[number // power]
        number %= power
        power //= 62
    return digits


@pytest.mark.parametrize("number", IDS)
def test_base62_matches_the_definition_and_reads_back(number):
    assert base62(number) == slow_base62(number)
    assert from_base62(base62(number)) == number


@pytest.mark.parametrize("text", ["", "01", "00", "a-b", "é", " 1"])
def test_from_base62_refuses_what_base62_never_writes(text):
    with pytest.raises(ValueError, match="not a base 62 number"):
        from_base62(text)


@pytest.mark.parametrize("verb", list(Verb))
@pytest.mark.parametrize("tournament_id", IDS[:12])
def test_every_click_reads_back_as_written(verb, tournament_id):
    text = custom_id(verb, tournament_id)
    assert parse(text) == TourClick(verb, tournament_id, 0)
    assert len(text) <= 100
    # bot/ui.py routes by what precedes the first colon: the prefix, and nothing after it.
    assert text.startswith(PREFIX)
    assert text.count(":") == 1


@pytest.mark.parametrize("page", [1, 2, 9, 10, 999])
def test_a_standings_page_reads_back(page):
    text = custom_id(Verb.STANDINGS, BIG, page)
    assert parse(text) == TourClick(Verb.STANDINGS, BIG, page)
    assert len(text) <= 100


def test_clicks_are_distinct():
    ids = {custom_id(verb, n) for verb in Verb for n in IDS}
    assert len(ids) == len(Verb) * len(IDS)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "tour1:",
        "tour1:j",
        "tour1:j.",
        "tour1:x.1",  # no such verb
        "tour1:j.01",  # a leading zero: two spellings of one id
        "tour1:t.1.0",  # page 0 is written without a page
        "tour1:t.1.01",
        "tour1:j.1 ",
        "tour2:j.1",
        "ttt2:j.1",
        "rec:pg:r:1",
    ],
)
def test_what_is_not_ours_reads_as_nothing(text):
    assert parse(text) is None
