"""The people and channels a test or a benchmark makes in the fake Discord: one place for the
in-process harness and the loopback alike (they differ in how the bot hears of them)."""

from __future__ import annotations

from fake_discord.payloads import FakeChannel, FakeGuild, FakeThread, FakeUser, Json, Place
from fake_discord.rest import FakeDiscord

FIRST_USER_ID = 100_000_000_000_000_000


class World:
    def __init__(self, fake: FakeDiscord) -> None:
        self.discord = fake
        self._channels: dict[int, FakeChannel] = {}
        self._user_ids = iter(range(FIRST_USER_ID, 2 * FIRST_USER_ID))

    @property
    def bot_user(self) -> FakeUser:
        return self.discord.bot_user

    def create_user(self, name: str) -> FakeUser:
        user = FakeUser(next(self._user_ids), name)
        self.discord.users[user.id] = user
        return user

    def _new_guild(self, guild_id: int, name: str, channels: int) -> FakeGuild:
        """A server with `channels` text channels, known here (not yet to the bot)."""
        made = tuple(
            FakeChannel(self.discord.snowflake(), guild_id, f"games-{i}", position=i)
            for i in range(channels)
        )
        for channel in made:
            self._add_channel(channel)
        return FakeGuild(guild_id, name, made)

    def _add_channel(self, channel: FakeChannel) -> None:
        self._channels[channel.id] = channel
        self.discord.channels[channel.id] = channel

    def channel_of(self, message: Json) -> Place:
        """The channel, DM or thread `message` is in."""
        channel_id = int(message["channel_id"])
        found = self._channels.get(channel_id)
        return found if found is not None else self.discord.channels[channel_id]

    def thread_of(self, message: Json) -> FakeThread:
        """The thread started from `message` (KeyError if none was)."""
        thread = self.discord.channels[int(message["id"])]
        if not isinstance(thread, FakeThread):
            raise KeyError(f"no thread was started from message {message['id']}")
        return thread

    def messages_in(self, place: Place) -> list[Json]:
        """Every non-ephemeral message of a channel or thread, oldest first."""
        return self.discord.messages_in(place)

    def last_message(self, channel: Place) -> Json:
        """The newest non-ephemeral message in `channel`, as Discord would send it."""
        return self.discord.message(self.discord.last_message_ids[channel.id])

    def deny(self, channel: FakeChannel, permissions: int) -> None:
        """Deny the bot `permissions` in `channel` and its threads (0: give them back)."""
        self.discord.deny(channel, permissions)
