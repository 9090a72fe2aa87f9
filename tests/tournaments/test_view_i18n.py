"""A tournament's messages in other languages: every line of every card and answer is in the
reader's language (no English left over), with the language's plurals."""

import random

import pytest

from bot.tournaments import view
from bot.tournaments.core import Format, Pairing, Result, Round, Tournament
from bot.tournaments.running import State
from tests.tournaments.test_view import ORGANISER, TID, ids, labels, played, shown_text, stored

LOCALES = ("fr", "de", "ru")


def every_message(locale: str) -> list[str]:
    """The text of every card and answer the views write, in `locale`."""
    a, b, c, d, e = ids(5)
    round_ = Round((Pairing(a, b), Pairing(c, d)), byes=(e,))
    running = stored(Tournament(Format.SWISS, ids(5), (round_,)).with_withdrawal(d))
    finished = stored(
        played(Tournament(Format.SWISS, ids(6)), 2, random.Random(2)), State.FINISHED, 2
    )
    closed = stored(finished.tournament, rounds=2)
    signup = stored(Tournament(Format.ROUND_ROBIN, ids(60)), State.SIGNUP, rounds=None)
    cards = [
        view.render_signup_card(signup, locale),
        view.render_signup_card(stored(Tournament(Format.SWISS, ()), State.SIGNUP, 3), locale),
        view.render_signup_card(running, locale, thread_url="https://t"),
        view.render_signup_card(stored(running.tournament, State.CANCELLED), locale),
        view.render_signup_card(finished, locale, thread_url="https://t"),
        view.render_round_card(running, 1, locale),
        view.render_round_card(closed, 2, locale),
        view.render_standings(running, locale),
        view.render_standings(closed, locale),
        view.render_final_card(finished, locale),
        view.render_standings(
            stored(played(Tournament(Format.SWISS, ids(300)), 1, random.Random())), locale
        ),
    ]
    replies = [
        view.render_withdraw_question(TID, locale),
        view.render_withdrawn(locale),
        view.render_not_withdrawn(locale),
        view.render_player_withdrew(a, locale),
        view.render_joined(locale),
        view.render_left(locale),
        view.render_already_joined(locale),
        view.render_not_joined(locale),
        view.render_not_open(locale),
        view.render_tournament_over(locale),
        view.render_only_organiser(ORGANISER, locale),
        view.render_too_few_players(locale),
        view.render_in_another(locale),
        view.render_not_player(locale),
        view.render_missing_thread_permissions(987, locale),
    ]
    texts = [shown_text(card) for card in cards] + [reply.text for reply in replies]
    texts += [" ".join(labels(item)) for item in (*cards, *replies) if labels(item)]
    return texts


def english_words(text: str) -> set[str]:
    """Words of the English messages that no other language spells the same way."""
    words = {
        "the", "tournament", "round", "standings", "players", "player", "join", "leave",
        "withdraw", "withdrawn", "organiser", "rounds", "you", "games", "this", "only",
        "results", "congratulations", "bye", "thread", "sign", "cancel", "keep",
    }  # fmt: skip
    found = {word.strip("*.,:!?()").lower() for word in text.split()}
    return found & words


@pytest.mark.parametrize("locale", LOCALES)
def test_no_english_is_left_in_any_message(locale):
    english = every_message("en-US")
    translated = every_message(locale)
    for source, text in zip(english, translated, strict=True):
        assert text != source
        assert english_words(text) == set(), text


def test_french_sign_up_card():
    card = view.render_signup_card(stored(Tournament(Format.SWISS, ids(4)), State.SIGNUP, 4), "fr")
    text = shown_text(card)
    assert "**Format :** Système suisse" in text
    assert "**Rondes :** 4" in text
    assert labels(card) == ["Rejoindre", "Quitter", "Démarrer", "Annuler"]


def test_german_round_card_and_standings():
    a, b, c = ids(3)
    round_ = Round((Pairing(a, b, Result.DRAW),), byes=(c,))
    tournament = stored(Tournament(Format.ROUND_ROBIN, (a, b, c), (round_,)), rounds=3)
    card = view.render_round_card(tournament, 1, "de")
    assert "**Runde 1 von 3: Ergebnisse**" in shown_text(card)
    standings = shown_text(view.render_standings(tournament, "de"))
    assert "**Tabelle nach Runde 1 von 3**" in standings
    assert "-# Platz · Spieler · Punkte · SB" in standings


@pytest.mark.parametrize(
    ("hidden", "expected"), [(1, "ещё 1 игрок"), (3, "ещё 3 игрока"), (25, "ещё 25 игроков")]
)
def test_russian_plurals(hidden, expected):
    signup = stored(Tournament(Format.SWISS, ids(view.MAX_LISTED_PLAYERS + hidden)), State.SIGNUP)
    assert expected in shown_text(view.render_signup_card(signup, "ru"))
