"""The people and channels a test or a benchmark makes in the fake Discord: one place for the
in-process harness and the loopback alike (they differ in how the bot hears of them)."""

from __future__ import annotations

from fake_discord.payloads import FakeChannel, FakeGuild, FakeUser, Json
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
            self._channels[channel.id] = channel
        return FakeGuild(guild_id, name, made)

    def channel_of(self, message: Json) -> FakeChannel:
        return self._channels[int(message["channel_id"])]

    def last_message(self, channel: FakeChannel) -> Json:
        """The newest non-ephemeral message in `channel`, as Discord would send it."""
        return self.discord.message(self.discord.last_message_ids[channel.id])
