"""Private answers: refusals, races, the apology, the resign question."""

from __future__ import annotations

from bot.core.game import Challenge, Game, State
from bot.core.policy import Refusal
from bot.core.ultimate_game import UltimateGame
from bot.i18n import translations
from bot.view.cards import ButtonSpec, Reply, Style
from bot.view.words import link, mention


def render_refusal(
    reason: Refusal,
    state: State | None,
    locale: str | None,
    *,
    bot_id: int,
    command: str,
    live_url: str | None = None,
    limit: int = 1,
    until: int | None = None,
) -> Reply:
    """One short sentence for a click or command that cannot be carried out. `limit` is the
    channel's games_per_channel; `until` (unix seconds) when a cooldown ends."""
    tr = translations(locale)
    _ = tr.gettext
    if reason is Refusal.NOT_ACTIVE:
        return Reply(
            _("This board is no longer active: here is {link}.").format(
                link=link(_("the current game"), live_url)
            )
        )
    if reason is Refusal.BUSY and limit == 1:
        return Reply(
            _("This channel already has a game on: {link}. One game per channel at a time.").format(
                link=link(_("see it here"), live_url)
            )
        )
    if reason is Refusal.BUSY:
        return Reply(
            tr.ngettext(
                "This channel is full: it has {count} game on, as many as this server allows. "
                "{link}.",
                "This channel is full: it has {count} games on, as many as this server allows. "
                "{link}.",
                limit,
            ).format(count=limit, link=link(_("See one"), live_url))
        )
    if reason is Refusal.PLAYING_HERE:
        return Reply(
            _("You already have a game on in this channel: {link}. Finish it first.").format(
                link=link(_("see it here"), live_url)
            )
        )
    if reason is Refusal.OPPONENT_PLAYING:
        return Reply(
            _("They already have a game on in this channel: {link}. Challenge them later.").format(
                link=link(_("see it here"), live_url)
            )
        )
    if reason is Refusal.CHALLENGE_PENDING:
        return Reply(
            _("Your challenge is still waiting for an answer: {link}. One at a time.").format(
                link=link(_("see it here"), live_url)
            )
        )
    if reason is Refusal.COOLDOWN:
        return Reply(_("You can challenge someone again <t:{until}:R>.").format(until=until or 0))
    if reason is Refusal.NOT_PLAYER and isinstance(state, Game | UltimateGame):
        x_name, o_name = mention(state.x_player, bot_id, _), mention(state.o_player, bot_id, _)
        if state.is_over:
            return Reply(
                _("This game was between {x} and {o}. Start your own with {command}.").format(
                    x=x_name, o=o_name, command=command
                )
            )
        return Reply(
            _(
                "This game is between {x} and {o}. Start your own with {command} once it ends."
            ).format(x=x_name, o=o_name, command=command)
        )
    if reason is Refusal.NOT_YOUR_TURN and isinstance(state, Game | UltimateGame):
        return Reply(
            _("It's {player}'s turn.").format(player=mention(state.player_to_move, bot_id, _))
        )
    if reason is Refusal.ONLY_OPPONENT and isinstance(state, Challenge):
        return Reply(
            _("Only {opponent} can answer this challenge.").format(opponent=f"<@{state.opponent}>")
        )
    texts = {
        Refusal.INVALID: _("This button is not valid. Start a game with {command}."),
        Refusal.GAME_OVER: _("This game is over. Start a new one with {command}."),
        Refusal.CHALLENGE_CLOSED: _("This challenge is closed."),
        Refusal.STALE: _("The board changed before your click landed. Look again."),
        Refusal.NOT_PLAYER: _("Only the players can use this board."),
        Refusal.NOT_YOUR_TURN: _("It's not your turn."),
        Refusal.CELL_TAKEN: _("That cell is taken. Pick an empty one."),
        Refusal.ONLY_OPPONENT: _("Only the challenged player can answer."),
        Refusal.SELF_CHALLENGE: _("You can't challenge yourself. Leave out `opponent` to play me."),
        Refusal.BOT_OPPONENT: _("Bots can't play. Leave out `opponent` to play me instead."),
        Refusal.HINT_VS_BOT_ONLY: _("Hints are for games against me."),
    }
    return Reply(texts[reason].format(command=command))


def render_raced(locale: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(_("Someone else's click got there first. Look again."))


def render_apology(locale: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(_("Sorry, something went wrong on my side. Please try again."))


def render_resign_question(confirm_id: str, keep_id: str, locale: str | None) -> Reply:
    """The private question after Resign; the ids are the board's kind's (its state in them)."""
    _ = translations(locale).gettext
    confirm = ButtonSpec(confirm_id, Style.DANGER, _("Yes, resign"), "🏳️")
    keep = ButtonSpec(keep_id, Style.SECONDARY, _("Cancel"))
    return Reply(_("Resign this game? Your opponent wins."), (confirm, keep))


def render_not_resigned(locale: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(_("You did not resign: the game goes on."))


def render_resigned(locale: str | None, board_url: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(_("You resigned. {link}").format(link=link(_("See the board"), board_url)))
