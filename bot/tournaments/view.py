"""What a tournament's messages show, as plain values: the sign-up card, the round cards, the
standings, and the cog's one-line answers.

Pure functions of stored values and a language (no I/O, no Discord): the cog turns the Cards
and Replies into messages. Players are shown as mentions; points and tie-breaks in halves and
quarters ("1½", "12¾"), which read the same in every language.
"""

from __future__ import annotations

import gettext
from collections.abc import Sequence
from fractions import Fraction

from bot.i18n import format_list, translations
from bot.tournaments.codec import Verb, custom_id
from bot.tournaments.core import Format, PlayerId, Result, Round
from bot.tournaments.running import MIN_PLAYERS, State, StoredTournament, planned_rounds
from bot.tournaments.standings import StandingsLine, standings
from bot.view.cards import BLURPLE, GREEN, GREY, RED, ButtonSpec, Card, Reply, Style
from bot.view.words import N_, Translate, link, mention

MAX_TEXT = 4000  # Discord's limit on a Components V2 message's text, all displays together
_FRAME_ROOM = 200  # kept free on a long card for its last lines (page, notes) and a margin
MAX_LISTED_PLAYERS = 50  # a sign-up card lists this many, then "and N more"
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
_FRACTION_GLYPHS = {Fraction(0): "", Fraction(1, 4): "¼", Fraction(1, 2): "½", Fraction(3, 4): "¾"}
_RESULT_TEXT = {  # results as chess writes them: the same in every language
    Result.X_WON: "1-0",
    Result.O_WON: "0-1",
    Result.DRAW: "½-½",
    Result.X_WON_BY_FORFEIT: "+-",
    Result.O_WON_BY_FORFEIT: "-+",
    Result.DOUBLE_FORFEIT: "--",
}
_FORMAT_NAMES = {Format.SWISS: N_("Swiss"), Format.ROUND_ROBIN: N_("Round-robin")}
_VARIANT_NAMES = {"classic": N_("Classic"), "ultimate": N_("Ultimate")}
_TIE_BREAK_NAMES = {"BH-C1": "Buchholz Cut-1", "BH": "Buchholz", "SB": "Sonneborn-Berger"}


def player(user_id: PlayerId, _: Translate) -> str:
    """A player as the cards name them: a mention, or "a deleted player" after /forget-me."""
    return mention(user_id, user_id, _)  # a tournament's players are people: never the bot


def score(value: Fraction) -> str:
    """Points or a tie-break: "0", "½", "1½", "12¾" (halves and quarters are all there is)."""
    whole = value.numerator // value.denominator
    part = value - whole
    if part not in _FRACTION_GLYPHS:
        raise ValueError(f"not a number of quarters: {value}")
    glyph = _FRACTION_GLYPHS[part]
    return f"{whole}{glyph}" if whole or not glyph else glyph


def title(tournament: StoredTournament, _: Translate) -> str:
    return tournament.name or _("Tic-Tac-Toe tournament")


def rounds_of(tournament: StoredTournament) -> int:
    """The rounds it plays: stored once started; while signing up, a Swiss's number as asked
    (the start caps it for the players there are), else what the players so far would play."""
    if tournament.rounds is not None and (
        tournament.state is not State.SIGNUP or tournament.format is Format.SWISS
    ):
        return tournament.rounds
    players = max(len(tournament.players), MIN_PLAYERS)
    return planned_rounds(tournament.format, None, players)


# ------------------------------------------------------------------------------ sign-up card


def render_signup_card(
    tournament: StoredTournament, locale: str | None, *, thread_url: str | None = None
) -> Card:
    """The card in the channel, for each state: signing up (Join, Leave, Start, Cancel),
    running (a link to its thread), cancelled, finished (the winners)."""
    tr = translations(locale)
    _ = tr.gettext
    lines = [
        _("**Format:** {format}").format(format=_(_FORMAT_NAMES[tournament.format])),
        _rounds_line(tournament, _),
        _("**Variant:** {variant}").format(variant=_(_VARIANT_NAMES[tournament.variant])),
        _("**Organiser:** {organiser}").format(organiser=player(tournament.organiser_id, _)),
        _players_line(tournament.players, locale, tr),
    ]
    controls: tuple[ButtonSpec, ...] = ()
    state = tournament.state
    tid = tournament.tournament_id
    if state is State.SIGNUP:
        lines.append(
            tr.ngettext(
                "Sign up with **Join**. The organiser starts with **Start** once "
                "{count} player has joined.",
                "Sign up with **Join**. The organiser starts with **Start** once "
                "{count} players have joined.",
                MIN_PLAYERS,
            ).format(count=MIN_PLAYERS)
        )
        controls = (
            ButtonSpec(custom_id(Verb.JOIN, tid), Style.SUCCESS, _("Join")),
            ButtonSpec(custom_id(Verb.LEAVE, tid), Style.SECONDARY, _("Leave")),
            ButtonSpec(custom_id(Verb.START, tid), Style.PRIMARY, _("Start")),
            ButtonSpec(custom_id(Verb.CANCEL, tid), Style.DANGER, _("Cancel")),
        )
        accent = BLURPLE
    elif state is State.RUNNING:
        lines.append(
            _("The tournament is on: {link}.").format(
                link=link(_("follow it in its thread"), thread_url)
            )
        )
        accent = RED
    elif state is State.CANCELLED:
        lines.append(_("This tournament was cancelled."))
        accent = GREY
    else:
        winners = tournament.winners
        lines.append(
            tr.ngettext(
                "The tournament is over. Winner: {winners} 🏆",
                "The tournament is over. Winners: {winners} 🏆",
                len(winners),
            ).format(winners=format_list([player(w, _) for w in winners], "standard", locale))
        )
        if thread_url:
            lines.append(link(_("**Final standings**"), thread_url))
        accent = GREEN
    return Card(accent, f"## 🏆 {title(tournament, _)}", "\n".join(lines), None, controls)


def _rounds_line(tournament: StoredTournament, _: Translate) -> str:
    rounds = rounds_of(tournament)
    if tournament.state is State.SIGNUP and (
        tournament.format is Format.ROUND_ROBIN or tournament.rounds is None
    ):
        return _("**Rounds:** decided at start ({n} as things stand)").format(n=rounds)
    return _("**Rounds:** {n}").format(n=rounds)


def _players_line(
    players: Sequence[PlayerId], locale: str | None, tr: gettext.NullTranslations
) -> str:
    _ = tr.gettext
    if not players:
        return _("**Players:** none yet")
    shown = [player(p, _) for p in players[:MAX_LISTED_PLAYERS]]
    hidden = len(players) - len(shown)
    if hidden:
        shown.append(tr.ngettext("{n} other player", "{n} other players", hidden).format(n=hidden))
    return _("**Players ({count}):** {players}").format(
        count=len(players), players=format_list(shown, "standard", locale)
    )


# ------------------------------------------------------------------------------ round cards


def render_round_card(tournament: StoredTournament, round_number: int, locale: str | None) -> Card:
    """A round's card in the thread: its pairings (X first), its byes; while it is played,
    Standings and Withdraw; once closed, each game's result."""
    tr = translations(locale)
    _ = tr.gettext
    round_ = tournament.tournament.rounds[round_number - 1]
    closed = round_.finished
    rounds = rounds_of(tournament)
    if closed:
        heading = _("**Round {round} of {rounds}: results**")
    else:
        heading = _("**Round {round} of {rounds}**")
    lines = [heading.format(round=round_number, rounds=rounds)]
    games = _pairing_lines(round_, _)
    shown = _fitting(games, MAX_TEXT - _FRAME_ROOM - len(title(tournament, _)) - 200)
    lines += games[:shown]
    if shown < len(games):  # a field of hundreds: every board still names its players
        hidden = len(games) - shown
        lines.append(
            tr.ngettext(
                "… and {n} more game: see the boards below.",
                "… and {n} more games: see the boards below.",
                hidden,
            ).format(n=hidden)
        )
    if round_.byes:
        byes = format_list([player(p, _) for p in round_.byes], "standard", locale)
        lines.append(_("**Bye** (1 point): {players}").format(players=byes))
    controls: tuple[ButtonSpec, ...] = ()
    if not closed and tournament.state is State.RUNNING:
        lines.append(_("Play your game on its board below. Good luck!"))
        tid = tournament.tournament_id
        controls = (
            ButtonSpec(custom_id(Verb.STANDINGS, tid), Style.SECONDARY, _("Standings"), "📊"),
            ButtonSpec(custom_id(Verb.WITHDRAW, tid, round_number), Style.DANGER, _("Withdraw")),
        )
    accent = GREY if closed else RED
    return Card(accent, f"## 🏆 {title(tournament, _)}", "\n".join(lines), None, controls)


def _pairing_lines(round_: Round, _: Translate) -> list[str]:
    lines = []
    for board, pairing in enumerate(round_.pairings, start=1):
        x, o = player(pairing.x, _), player(pairing.o, _)
        if pairing.result is None:
            shown = _("{x} (X) vs {o} (O)").format(x=x, o=o)
        else:  # a result reads the same in every language
            shown = f"{x} (X) {_RESULT_TEXT[pairing.result]} {o} (O)"
        lines.append(f"{board}. {shown}")
    return lines


# ------------------------------------------------------------------------------ standings


def render_standings(tournament: StoredTournament, locale: str | None, *, page: int = 0) -> Card:
    """The standings as they are (send it privately for the Standings button): a page of them
    when the whole table would not fit a message, with Previous / Next."""
    tr = translations(locale)
    _ = tr.gettext
    number = tournament.current_round
    if tournament.state is State.FINISHED:
        heading = _("**Final standings**")
    elif number and tournament.tournament.rounds[number - 1].finished:
        heading = _("**Standings after round {round} of {rounds}**")
    elif number:
        heading = _("**Standings during round {round} of {rounds}**")
    else:
        heading = f"**{_('Standings')}**"
    heading = heading.format(round=number, rounds=rounds_of(tournament))
    final = tournament.state is State.FINISHED
    return _standings_card(tournament, locale, [heading], [], page, GREY, medals=final)


def render_final_card(tournament: StoredTournament, locale: str | None) -> Card:
    """The thread's last card: the final standings and congratulations to the podium (pinged)."""
    tr = translations(locale)
    _ = tr.gettext
    table = standings(tournament.tournament)
    podium = tuple(line.player for line in table.lines if line.rank in MEDALS)
    after = []
    if podium:
        after.append(
            _("Congratulations to {players}! 🎉").format(
                players=format_list([player(p, _) for p in podium], "standard", locale)
            )
        )
    before = [_("**Final standings**")]
    card = _standings_card(tournament, locale, before, after, 0, GREEN, medals=True)
    return card._replace(heading=f"## 🏆 {title(tournament, _)}", pings=podium)


def _standings_card(
    tournament: StoredTournament,
    locale: str | None,
    before: list[str],
    after: list[str],
    page: int,
    accent: int,
    *,
    medals: bool,
) -> Card:
    _ = translations(locale).gettext
    table = standings(tournament.tournament)
    withdrawn = tournament.tournament.withdrawn
    columns = " · ".join([_("Rank"), _("Player"), _("Points"), *table.tie_breaks])
    legend = ", ".join(f"{tb} = {_TIE_BREAK_NAMES[tb]}" for tb in table.tie_breaks)
    notes = [
        _("Tie-breaks: {tie_breaks}.").format(tie_breaks=legend),
        _(
            "Unplayed games (byes, forfeits, rounds after a withdrawal) count as games "
            "against an opponent on the player's own score."
        ),
    ]
    rows = [_standings_row(line, line.player in withdrawn, medals, _) for line in table.lines]
    heading = f"## 📊 {title(tournament, _)}"
    frame = len(heading) + sum(len(t) + 1 for t in (*before, f"-# {columns}", *notes, *after))
    pages = _pages(rows, MAX_TEXT - frame - _FRAME_ROOM)
    page = min(max(page, 0), len(pages) - 1)
    body = [*before, f"-# {columns}", *pages[page], *(f"-# {note}" for note in notes), *after]
    controls: tuple[ButtonSpec, ...] = ()
    if len(pages) > 1:
        body.append(_("-# Page {page} of {pages}").format(page=page + 1, pages=len(pages)))
        tid, grey = tournament.tournament_id, Style.SECONDARY
        buttons = []
        if page > 0:
            previous = custom_id(Verb.STANDINGS, tid, page - 1)
            buttons.append(ButtonSpec(previous, grey, _("Previous"), "◀️"))
        if page + 1 < len(pages):
            following = custom_id(Verb.STANDINGS, tid, page + 1)
            buttons.append(ButtonSpec(following, grey, _("Next"), "▶️"))
        controls = tuple(buttons)
    return Card(accent, heading, "\n".join(body), None, controls)


def _standings_row(line: StandingsLine, withdrawn: bool, medals: bool, _: Translate) -> str:
    who = player(line.player, _)
    if withdrawn:
        who = _("{player} (withdrawn)").format(player=who)
    medal = f"{MEDALS[line.rank]} " if medals and line.rank in MEDALS else ""
    numbers = " · ".join(score(value) for value in line.tie_breaks)
    return f"`{line.rank_label:>3}` {medal}{who} **{score(line.points)}** · {numbers}"


def _fitting(rows: list[str], budget: int) -> int:
    """How many of the rows, from the first, fit in `budget` characters (a newline after each)."""
    used = 0
    for count, row in enumerate(rows):
        used += len(row) + 1
        if used > budget:
            return count
    return len(rows)


def _pages(rows: list[str], budget: int) -> list[list[str]]:
    """The rows cut into pages of at most `budget` characters each (a newline after each)."""
    pages: list[list[str]] = [[]]
    used = 0
    for row in rows:
        if pages[-1] and used + len(row) + 1 > budget:
            pages.append([])
            used = 0
        pages[-1].append(row)
        used += len(row) + 1
    return pages


# ------------------------------------------------------------------------------ withdrawing


def render_withdraw_question(tournament_id: int, locale: str | None) -> Reply:
    """The private question after Withdraw, as the game's Resign asks."""
    _ = translations(locale).gettext
    confirm = ButtonSpec(
        custom_id(Verb.WITHDRAW_CONFIRM, tournament_id), Style.DANGER, _("Withdraw"), "🏳️"
    )
    keep = ButtonSpec(
        custom_id(Verb.WITHDRAW_KEEP, tournament_id), Style.SECONDARY, _("Keep playing")
    )
    return Reply(
        _(
            "Withdraw from the tournament? A game you are playing is lost, and you are not "
            "paired again."
        ),
        (confirm, keep),
    )


def render_withdrawn(locale: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(_("You withdrew from the tournament. Thanks for playing!"))


def render_not_withdrawn(locale: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(_("You did not withdraw: you are still in the tournament."))


def render_player_withdrew(player_id: PlayerId, locale: str | None) -> Reply:
    """The thread's notice that a player withdrew (public)."""
    _ = translations(locale).gettext
    return Reply(_("{player} withdrew from the tournament.").format(player=player(player_id, _)))


# ------------------------------------------------------------------------------ one-liners


def render_joined(locale: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(_("You joined the tournament. Good luck!"))


def render_left(locale: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(_("You left the tournament."))


def render_already_joined(locale: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(_("You have already joined this tournament."))


def render_not_joined(locale: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(_("You have not joined this tournament."))


def render_not_open(locale: str | None) -> Reply:
    """Join, Leave or Start once the sign-up is over."""
    _ = translations(locale).gettext
    return Reply(_("This tournament no longer takes sign-ups."))


def render_tournament_over(locale: str | None) -> Reply:
    """Withdraw (or any thread button) once the tournament is finished or cancelled."""
    _ = translations(locale).gettext
    return Reply(_("This tournament is over."))


def render_not_in_a_thread(locale: str | None) -> Reply:
    """/tournament standings anywhere but a tournament's thread."""
    _ = translations(locale).gettext
    return Reply(_("Use this command in a tournament's thread."))


def render_only_organiser(organiser_id: PlayerId, locale: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(
        _("Only the organiser, {organiser}, can start or cancel this tournament.").format(
            organiser=player(organiser_id, _)
        )
    )


def render_too_few_players(locale: str | None) -> Reply:
    tr = translations(locale)
    return Reply(
        tr.ngettext(
            "A tournament needs at least {count} player to start.",
            "A tournament needs at least {count} players to start.",
            MIN_PLAYERS,
        ).format(count=MIN_PLAYERS)
    )


def render_in_another(locale: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(
        _("You are already in a tournament in this server: one at a time. Leave it first.")
    )


def render_not_player(locale: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(_("Only this tournament's players can withdraw from it."))


def render_missing_thread_permissions(channel_id: int, locale: str | None) -> Reply:
    """What the organiser must grant before Start can open the tournament's thread."""
    _ = translations(locale).gettext
    return Reply(
        _(
            "I can't start the tournament yet: grant me **Create Public Threads** and "
            "**Send Messages in Threads** in {channel}."
        ).format(channel=f"<#{channel_id}>")
    )
