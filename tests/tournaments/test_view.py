"""What a tournament's messages show, in English: the sign-up card in each state, the round
cards, the standings (ranks shared, a 64-player table within Discord's limits, larger ones in
pages), the buttons' custom_ids, the one-line answers."""

import dataclasses
import math
import random
import re
from fractions import Fraction

import pytest

from bot.tournaments.codec import TourClick, Verb, parse
from bot.tournaments.core import Format, Pairing, Result, Round, Tournament
from bot.tournaments.pairing import pair_next_round
from bot.tournaments.running import State, StoredTournament, final_ranks
from bot.tournaments.view import (
    render_already_joined,
    render_final_card,
    render_in_another,
    render_joined,
    render_left,
    render_missing_thread_permissions,
    render_not_joined,
    render_not_open,
    render_not_player,
    render_only_organiser,
    render_round_card,
    render_signup_card,
    render_standings,
    render_too_few_players,
    render_withdraw_question,
    score,
)
from bot.view.cards import Card
from bot.view.components import TEXT_DISPLAY, card_components

TID = 123456789
ORGANISER = 42
MAX_TEXT = 4000  # Discord: the text of every text display of a Components V2 message together


def ids(count: int) -> tuple[int, ...]:
    """Discord-sized user ids (19 digits: mentions as long as they get)."""
    return tuple(1_200_000_000_000_000_000 + n for n in range(count))


def stored(
    tournament: Tournament,
    state: State = State.RUNNING,
    rounds: int | None = 5,
    name: str | None = "Friday Cup",
) -> StoredTournament:
    ranks = final_ranks(tournament) if state is State.FINISHED else {}
    return StoredTournament(
        TID, 1, 2, 3, 4, ORGANISER, name, tournament.format, rounds, "classic", state, 0.0,
        tournament, final_ranks=ranks,
    )  # fmt: skip


def played(tournament: Tournament, rounds: int, rng: random.Random) -> Tournament:
    """The tournament with `rounds` more rounds paired by the bot's pairing, random results."""
    for _ in range(rounds):
        round_ = pair_next_round(tournament)
        tournament = tournament.with_round(round_)
        for pairing in round_.pairings:
            index = len(tournament.rounds) - 1
            tournament = tournament.with_result(index, pairing.x, rng.choice(list(Result)))
    return tournament


def shown_text(card: Card) -> str:
    """Every text display of the message as Discord gets it."""
    (container,) = card_components(card)
    return "\n".join(c["content"] for c in container["components"] if c["type"] == TEXT_DISPLAY)


def clicks(card) -> list[TourClick | None]:
    buttons = card.controls if isinstance(card, Card) else card.buttons
    return [parse(button.custom_id) for button in buttons]


def labels(card) -> list[str]:
    buttons = card.controls if isinstance(card, Card) else card.buttons
    return [button.label for button in buttons]


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


# ------------------------------------------------------------------------------ sign-up card


def test_an_open_sign_up_card_says_what_it_is_and_offers_the_four_buttons():
    players = ids(4)
    card = render_signup_card(stored(Tournament(Format.SWISS, players), State.SIGNUP, 4), None)
    text = shown_text(card)
    assert "Friday Cup" in text
    assert "**Format:** Swiss" in text
    assert "**Rounds:** 4" in text
    assert "**Variant:** Classic" in text
    assert f"**Organiser:** {mention(ORGANISER)}" in text
    assert "**Players (4):** " + ", ".join(map(mention, players[:3])) in text
    assert labels(card) == ["Join", "Leave", "Start", "Cancel"]
    verbs = [Verb.JOIN, Verb.LEAVE, Verb.START, Verb.CANCEL]
    assert clicks(card) == [TourClick(verb, TID) for verb in verbs]


def expected_rounds(format_: Format, players: int) -> int:
    """The brief's rule, written out: Swiss ceil(log2(n)) at most n-1; round-robin n-1, or n
    when n is odd (everyone sits out once)."""
    if format_ is Format.SWISS:
        return min(math.ceil(math.log2(players)), players - 1)
    return players if players % 2 else players - 1


@pytest.mark.parametrize("format_", list(Format))
@pytest.mark.parametrize("count", [3, 4, 5, 8, 9, 16, 17, 64])
def test_rounds_left_to_the_start_show_what_the_players_so_far_would_play(format_, count):
    tournament = stored(Tournament(format_, ids(count)), State.SIGNUP, rounds=None)
    text = shown_text(render_signup_card(tournament, None))
    rounds = expected_rounds(format_, count)
    assert f"**Rounds:** decided at start ({rounds} as things stand)" in text


def test_a_sign_up_card_with_nobody_yet_says_so():
    card = render_signup_card(stored(Tournament(Format.SWISS, ()), State.SIGNUP), None)
    assert "**Players:** none yet" in shown_text(card)


def test_a_long_list_of_players_is_cut_with_how_many_more():
    players = ids(75)
    text = shown_text(
        render_signup_card(stored(Tournament(Format.SWISS, players), State.SIGNUP), None)
    )
    assert "**Players (75):** " in text
    assert mention(players[49]) in text
    assert mention(players[50]) not in text
    assert text.count("<@") == 50 + 1  # the organiser's too
    assert "and 25 other players" in text


def test_a_started_tournament_links_its_thread_and_offers_no_button():
    card = render_signup_card(
        stored(Tournament(Format.ROUND_ROBIN, ids(5))),
        None,
        thread_url="https://discord.com/channels/1/4",
    )
    assert "**Format:** Round-robin" in shown_text(card)
    assert "[follow it in its thread](https://discord.com/channels/1/4)" in shown_text(card)
    assert card.controls == ()


def test_a_cancelled_tournament_says_so():
    card = render_signup_card(stored(Tournament(Format.SWISS, ids(3)), State.CANCELLED), None)
    assert "This tournament was cancelled." in shown_text(card)
    assert card.controls == ()


def test_a_finished_tournament_names_its_winner():
    tournament = played(Tournament(Format.SWISS, ids(8)), 3, random.Random(1))
    finished = stored(tournament, State.FINISHED, 3)
    (winner,) = [p for p, rank in finished.final_ranks.items() if rank == 1]
    card = render_signup_card(finished, None, thread_url="https://t")
    assert f"The tournament is over. Winner: {mention(winner)} 🏆" in shown_text(card)
    assert "[**Final standings**](https://t)" in shown_text(card)
    assert card.controls == ()


def test_winners_sharing_first_place_are_all_named():
    a, b, c, d = ids(4)
    draws = Round((Pairing(a, b, Result.DRAW), Pairing(c, d, Result.DRAW)))
    finished = stored(Tournament(Format.SWISS, (a, b, c, d), (draws,)), State.FINISHED, 1)
    text = shown_text(render_signup_card(finished, None))
    expected = f"{mention(a)}, {mention(b)}, {mention(c)}, and {mention(d)}"
    assert f"The tournament is over. Winners: {expected} 🏆" in text


# ------------------------------------------------------------------------------ round cards


def test_a_round_card_names_x_first_the_bye_and_offers_standings_and_withdraw():
    a, b, c, d, e = ids(5)
    round_ = Round((Pairing(a, b), Pairing(d, c)), byes=(e,))
    earlier = Round((Pairing(a, c, Result.DRAW), Pairing(b, d, Result.X_WON)), byes=(e,))
    card = render_round_card(stored(Tournament(Format.SWISS, ids(5), (earlier, round_))), 2, None)
    lines = shown_text(card).splitlines()
    assert "**Round 2 of 5**" in lines
    assert f"1. {mention(a)} (X) vs {mention(b)} (O)" in lines
    assert f"2. {mention(d)} (X) vs {mention(c)} (O)" in lines
    assert f"**Bye** (1 point): {mention(e)}" in lines
    assert labels(card) == ["Standings", "Withdraw"]
    # Withdraw carries its round: a restart finds the card in the thread by it.
    assert clicks(card) == [TourClick(Verb.STANDINGS, TID), TourClick(Verb.WITHDRAW, TID, 2)]


def test_a_closed_round_shows_each_result_and_no_buttons():
    players = ids(12)
    results = list(Result)
    pairings = tuple(
        Pairing(players[2 * i], players[2 * i + 1], result) for i, result in enumerate(results)
    )
    card = render_round_card(stored(Tournament(Format.SWISS, players, (Round(pairings),))), 1, None)
    lines = shown_text(card).splitlines()
    assert "**Round 1 of 5: results**" in lines
    shown = {"1-0": "1-0", "0-1": "0-1", "1/2": "½-½", "+-": "+-", "-+": "-+", "--": "--"}
    for board, (pairing, result) in enumerate(zip(pairings, results, strict=True), start=1):
        x, o = mention(pairing.x), mention(pairing.o)
        assert f"{board}. {x} (X) {shown[result.value]} {o} (O)" in lines
    assert card.controls == ()


def test_a_round_of_hundreds_of_games_fits_and_counts_the_games_it_leaves_out():
    players = ids(400)
    round_ = pair_next_round(Tournament(Format.SWISS, players))
    card = render_round_card(
        stored(Tournament(Format.SWISS, players, (round_,)), rounds=9), 1, None
    )
    text = shown_text(card)
    assert len(text) <= MAX_TEXT
    listed = len(re.findall(r"^\d+\. ", text, re.MULTILINE))
    assert 0 < listed < 200
    assert f"… and {200 - listed} more games: see the boards below." in text


# ------------------------------------------------------------------------------ standings


def test_players_equal_in_everything_share_a_rank():
    a, b, c, d = ids(4)
    # a beats b, c and d draw: c and d are level on points and every tie-break.
    round_ = Round((Pairing(a, b, Result.X_WON), Pairing(c, d, Result.DRAW)))
    text = shown_text(
        render_standings(stored(Tournament(Format.SWISS, (a, b, c, d), (round_,))), None)
    )
    rows = [line for line in text.splitlines() if line.startswith("`")]
    assert rows == [
        f"`  1` {mention(a)} **1** · 0 · 0 · 0",
        f"` =2` {mention(c)} **½** · 0 · ½ · ¼",
        f"` =2` {mention(d)} **½** · 0 · ½ · ¼",
        f"`  4` {mention(b)} **0** · 0 · 1 · 0",
    ]
    assert "-# Rank · Player · Points · BH-C1 · BH · SB" in text
    assert "**Standings after round 1 of 5**" in text
    assert "count as games against an opponent on the player's own score" in text


def test_a_round_robin_shows_sonneborn_berger_alone():
    a, b, c = ids(3)
    round_ = Round((Pairing(a, b, Result.O_WON),), byes=(c,))
    tournament = stored(Tournament(Format.ROUND_ROBIN, (a, b, c), (round_,)), rounds=3)
    text = shown_text(render_standings(tournament, None))
    assert "-# Rank · Player · Points · SB" in text
    assert "Tie-breaks: SB = Sonneborn-Berger." in text


def test_standings_during_a_round_say_so_and_mark_withdrawn_players():
    a, b, c, d = ids(4)
    round_ = Round((Pairing(a, b), Pairing(c, d, Result.X_WON_BY_FORFEIT)))
    tournament = Tournament(Format.SWISS, (a, b, c, d), (round_,)).with_withdrawal(d)
    text = shown_text(render_standings(stored(tournament), None))
    assert "**Standings during round 1 of 5**" in text
    assert f"{mention(d)} (withdrawn)" in text


def test_a_64_player_swiss_fits_one_message():
    players = ids(64)
    tournament = stored(played(Tournament(Format.SWISS, players), 6, random.Random(64)), rounds=6)
    card = render_standings(tournament, None)
    text = shown_text(card)
    assert len(text) <= MAX_TEXT
    assert all(mention(p) in text for p in players)
    assert card.controls == ()  # one page


def test_a_64_player_final_card_fits_one_message():
    tournament = played(Tournament(Format.SWISS, ids(64)), 6, random.Random(7))
    card = render_final_card(stored(tournament, State.FINISHED, 6), None)
    assert len(shown_text(card)) <= MAX_TEXT
    assert card.controls == ()


def test_a_larger_field_is_paged_and_every_player_is_on_exactly_one_page():
    players = ids(300)
    tournament = stored(played(Tournament(Format.SWISS, players), 2, random.Random(3)), rounds=9)
    seen: list[int] = []
    page = 0
    while True:
        card = render_standings(tournament, None, page=page)
        text = shown_text(card)
        assert len(text) <= MAX_TEXT
        seen += [int(m) for m in re.findall(r"^`[ =\d]+` <@(\d+)>", text, re.MULTILINE)]
        following = [c for c in clicks(card) if c is not None and c.number == page + 1]
        if not following:
            break
        assert following == [TourClick(Verb.STANDINGS, TID, page + 1)]
        page += 1
    assert page >= 1
    assert f"Page {page + 1} of {page + 1}" in text
    assert sorted(seen) == sorted(players)


def test_the_final_card_congratulates_the_podium_with_medals():
    a, b, c, d = ids(4)
    rounds = (
        Round((Pairing(a, b, Result.X_WON), Pairing(c, d, Result.X_WON))),
        Round((Pairing(a, c, Result.X_WON), Pairing(b, d, Result.X_WON))),
    )
    card = render_final_card(
        stored(Tournament(Format.SWISS, (a, b, c, d), rounds), State.FINISHED, 2), None
    )
    text = shown_text(card)
    assert card.heading == "## 🏆 Friday Cup"
    assert "**Final standings**" in text
    assert card.pings == (a, b, c)
    # b and c both beat d and lost to a: level on everything, they share second place.
    assert f"Congratulations to {mention(a)}, {mention(b)}, and {mention(c)}! 🎉" in text
    rows = [line for line in text.splitlines() if line.startswith("`")]
    assert rows == [
        f"`  1` 🥇 {mention(a)} **2** · 1 · 2 · 2",
        f"` =2` 🥈 {mention(b)} **1** · 2 · 2 · 0",
        f"` =2` 🥈 {mention(c)} **1** · 2 · 2 · 0",
        f"`  4` {mention(d)} **0** · 1 · 2 · 0",
    ]


@pytest.mark.parametrize("quarters", range(0, 90))
def test_scores_are_written_in_halves_and_quarters(quarters):
    whole, part = divmod(quarters, 4)
    glyph = ["", "¼", "½", "¾"][part]
    expected = glyph if whole == 0 and glyph else f"{whole}{glyph}"
    assert score(Fraction(quarters, 4)) == expected


# ------------------------------------------------------------------------------ answers


def test_withdrawing_asks_first_with_withdraw_and_keep_playing():
    reply = render_withdraw_question(TID, None)
    assert "Withdraw from the tournament?" in reply.text
    assert labels(reply) == ["Withdraw", "Keep playing"]
    assert clicks(reply) == [
        TourClick(Verb.WITHDRAW_CONFIRM, TID),
        TourClick(Verb.WITHDRAW_KEEP, TID),
    ]


def test_missing_permissions_name_the_channel_and_what_to_grant():
    text = render_missing_thread_permissions(987, None).text
    assert "**Create Public Threads**" in text
    assert "**Send Messages in Threads**" in text
    assert "<#987>" in text


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (render_only_organiser(ORGANISER, None), f"Only the organiser, {mention(ORGANISER)}, can"),
        (render_too_few_players(None), "at least 3 players"),
        (render_in_another(None), "already in a tournament in this server"),
        (render_not_player(None), "Only this tournament's players"),
        (render_joined(None), "You joined the tournament."),
        (render_left(None), "You left the tournament."),
        (render_already_joined(None), "already joined"),
        (render_not_joined(None), "have not joined"),
        (render_not_open(None), "no longer takes sign-ups"),
    ],
)
def test_one_line_answers(reply, expected):
    assert expected in reply.text
    assert "\n" not in reply.text


def test_a_tournament_without_a_name_gets_one():
    card = render_signup_card(
        stored(Tournament(Format.SWISS, ids(3)), State.SIGNUP, name=None), None
    )
    assert card.heading == "## 🏆 Tic-Tac-Toe tournament"


def test_the_name_is_the_organisers_choice():
    tournament = dataclasses.replace(stored(Tournament(Format.SWISS, ids(3))), name="Café cup")
    assert (
        render_round_card(
            dataclasses.replace(
                tournament, tournament=played(tournament.tournament, 1, random.Random())
            ),
            1,
            None,
        ).heading
        == "## 🏆 Café cup"
    )
