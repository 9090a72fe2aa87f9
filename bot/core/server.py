"""What a server's admins can set (/settings), and what a board carries of it: pure values.

A server's settings live in the records database and in memory (bot/guilds); a click reads them
from memory only. A board carries what it needs to be drawn and timed (its `Look`) in its
custom_ids, so that another process, or this one after a restart, draws and expires it the same
and a running game keeps what it started with.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import tictactoe as ttt

MIN_GAMES_PER_CHANNEL = 1
MAX_GAMES_PER_CHANNEL = 10
# Seconds a player may take per turn, as /settings offers them (30 seconds to 14 minutes).
TURN_TIMEOUT_CHOICES = (30, 60, 120, 180, 300, 600, 840)
# Seconds a challenger waits after a challenge was declined or expired; 0 is off.
CHALLENGE_COOLDOWN_CHOICES = (0, 30, 60, 120, 300, 600, 1800, 3600)
DIFFICULTY_CHOICES = ttt.DIFFICULTIES
VARIANT_CHOICES = ("classic", "ultimate")  # the kinds of board (bot/kinds), by name


class SettingError(ValueError):
    """A value no server can have (the message says which, for the log; users get a line)."""


# The name a custom emoji is drawn with: a board carries only its id (Discord finds the emoji
# by id, in a component as in `<:name:id>` text, and shows this name as its alt text), so the
# name it had is not known to a click. Two characters or more, as emoji names are.
PLACEHOLDER_EMOJI_NAME = "mark"


@dataclass(frozen=True, slots=True, eq=False)
class Mark:
    """How a board shows X or O instead of the letter: a custom emoji (by id; the name only
    labels it) or a standard emoji (its text).

    Two custom marks are equal when their id and animation are: the name is not carried by a
    board, so the mark a board decodes to equals the one its server set."""

    text: str  # the standard emoji, or the custom emoji's name
    emoji_id: int | None = None
    animated: bool = False
    # What equality compares, and its hash, worked out once: boards' caches are keyed by looks,
    # so a click hashes and compares marks several times.
    _identity: tuple[str | int, bool] = field(init=False, repr=False)
    _hash: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.text:
            raise SettingError("an emoji needs its text or name")
        if self.emoji_id is not None and not 0 < self.emoji_id < 2**64:
            raise SettingError("a custom emoji id is out of range")
        if self.animated and self.emoji_id is None:
            raise SettingError("only a custom emoji can be animated")
        identity = (self.text if self.emoji_id is None else self.emoji_id), self.animated
        object.__setattr__(self, "_identity", identity)
        object.__setattr__(self, "_hash", hash(identity))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Mark):
            return NotImplemented
        return self._identity == other._identity

    def __hash__(self) -> int:
        return self._hash

    @property
    def markdown(self) -> str:
        """As message text shows it: `<:name:id>` (or `<a:…>`), or the emoji itself."""
        if self.emoji_id is None:
            return self.text
        return f"<{'a' if self.animated else ''}:{self.text}:{self.emoji_id}>"

    @property
    def board_markdown(self) -> str:
        """As a board's text shows it: a custom emoji under the placeholder name (a board
        knows only its id)."""
        if self.emoji_id is None:
            return self.text
        return f"<{'a' if self.animated else ''}:{PLACEHOLDER_EMOJI_NAME}:{self.emoji_id}>"


@dataclass(frozen=True, slots=True, eq=False)
class Look:
    """What a board carries of its server's settings: its turn timeout and its marks' emoji.
    None everywhere: the bot's defaults (GAME_TIMEOUT_SECONDS, the letters)."""

    timeout: int | None = None  # seconds
    x: Mark | None = None
    o: Mark | None = None
    _hash: int = field(init=False, repr=False)  # worked out once, as Mark's

    def __post_init__(self) -> None:
        if self.timeout is not None and self.timeout not in TURN_TIMEOUT_CHOICES:
            raise SettingError(f"turn timeout {self.timeout!r} is not one of the choices")
        object.__setattr__(self, "_hash", hash((self.timeout, self.x, self.o)))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Look):
            return NotImplemented
        return (self.timeout, self.x, self.o) == (other.timeout, other.x, other.o)

    def __hash__(self) -> int:
        return self._hash

    @property
    def is_default(self) -> bool:
        return self.timeout is None and self.x is None and self.o is None

    def mark(self, mark: str) -> Mark | None:
        return self.x if mark == ttt.X else self.o

    def with_emoji_that_exist(self, exists: Callable[[int], bool]) -> Look:
        """This look with every custom emoji for which `exists(emoji_id)` is false (deleted
        from its server, or out of the bot's reach) back to the letter; standard emoji stay.
        The same look (the same object) when nothing vanished."""
        x, o = _kept(self.x, exists), _kept(self.o, exists)
        if x is self.x and o is self.o:
            return self
        if self.timeout is None and x is None and o is None:
            return DEFAULT_LOOK  # the one most boards share (codec.state_key checks for it first)
        return Look(self.timeout, x, o)


def _kept(mark: Mark | None, exists: Callable[[int], bool]) -> Mark | None:
    if mark is None or mark.emoji_id is None or exists(mark.emoji_id):
        return mark
    return None


DEFAULT_LOOK = Look()


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """One server's settings; the defaults are the bot's behaviour where nobody set any (and
    in DMs and group DMs, always)."""

    games_per_channel: int = MIN_GAMES_PER_CHANNEL
    difficulty: str = ttt.IMPOSSIBLE  # /tictactoe's level when the player names none
    turn_timeout: int | None = None  # None: the bot's GAME_TIMEOUT_SECONDS
    x_emoji: Mark | None = None
    o_emoji: Mark | None = None
    challenge_cooldown: int = 0  # seconds; 0 is off
    variant: str = "classic"  # /tictactoe's kind of board when the player names none

    def __post_init__(self) -> None:
        if not MIN_GAMES_PER_CHANNEL <= self.games_per_channel <= MAX_GAMES_PER_CHANNEL:
            raise SettingError(f"games per channel {self.games_per_channel!r} is out of range")
        if self.difficulty not in DIFFICULTY_CHOICES:
            raise SettingError(f"unknown difficulty {self.difficulty!r}")
        if self.variant not in VARIANT_CHOICES:
            raise SettingError(f"unknown variant {self.variant!r}")
        if self.challenge_cooldown not in CHALLENGE_COOLDOWN_CHOICES:
            raise SettingError(f"challenge cooldown {self.challenge_cooldown!r} is not a choice")
        Look(self.turn_timeout)  # checks the timeout
        if self.x_emoji is not None and self.x_emoji == self.o_emoji:
            raise SettingError("X and O cannot show the same emoji")

    @property
    def look(self) -> Look:
        """What a board started under these settings carries (the shared DEFAULT_LOOK when
        nothing of it was set: codec.state_key checks for that one first)."""
        if self.turn_timeout is None and self.x_emoji is None and self.o_emoji is None:
            return DEFAULT_LOOK
        return Look(self.turn_timeout, self.x_emoji, self.o_emoji)


DEFAULT_SETTINGS = ServerSettings()
