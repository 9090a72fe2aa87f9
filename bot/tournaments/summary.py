"""A player's tournaments as one line of /stats. Pure: no Discord."""

from __future__ import annotations

from bot.i18n import translations
from bot.tournaments.running import TournamentSummary


def render_summary_line(summary: TournamentSummary, locale: str | None) -> str | None:
    """None for a player who finished no tournament (the line would say nothing)."""
    if not summary.played:
        return None
    _ = translations(locale).gettext
    return _("🏆 Tournaments: {played} played, {podiums} on the podium, {wins} won").format(
        played=summary.played, podiums=summary.podiums, wins=summary.wins
    )
