"""The fake Discord sends a subcommand as Discord does (options nested under the subcommand,
and under its group for three words): discord.py's own command tree finds the callback and
its arguments in it, and a name or an option the command does not declare is refused."""

import discord
import pytest
from discord import app_commands

from fake_discord import Harness


class ClubBot(discord.Client):
    """/club join level, /club admin kick member, /ping: each call kept as it arrived."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents(guilds=True))
        self.tree = app_commands.CommandTree(self)
        self.calls: list[tuple] = []
        club = app_commands.Group(name="club", description="The club")
        admin = app_commands.Group(name="admin", description="Its admins", parent=club)

        @club.command(name="join", description="Join")
        async def join(interaction: discord.Interaction, level: int, note: str = "-") -> None:
            self.calls.append(("join", level, note))
            await interaction.response.send_message("joined", ephemeral=True)

        @admin.command(name="kick", description="Kick")
        async def kick(interaction: discord.Interaction, member: discord.User) -> None:
            self.calls.append(("kick", member.id))
            await interaction.response.send_message("kicked", ephemeral=True)

        @app_commands.command(name="ping", description="Ping")
        async def ping(interaction: discord.Interaction) -> None:
            self.calls.append(("ping",))
            await interaction.response.send_message("pong", ephemeral=True)

        self.tree.add_command(club)
        self.tree.add_command(ping)

    async def setup_hook(self) -> None:
        await self.tree.sync()


@pytest.fixture
async def club():
    bot = ClubBot()
    harness = await Harness.start(bot=bot)
    try:
        guild = harness.create_guild("club")
        yield harness, bot, guild.channels[0]
    finally:
        await harness.close()


async def test_a_subcommand_reaches_its_callback_with_its_options(club):
    harness, bot, channel = club
    alice = harness.create_user("alice")
    answer = await harness.slash(alice, channel, "club join", level=3, note="hi")
    assert answer.response.content == "joined"
    answer = await harness.slash(alice, channel, "club join", level=5)
    bob = harness.create_user("bob")
    answer = await harness.slash(alice, channel, "club admin kick", member=bob)
    assert answer.response.content == "kicked"
    await harness.slash(alice, channel, "ping")
    assert bot.calls == [("join", 3, "hi"), ("join", 5, "-"), ("kick", bob.id), ("ping",)]
    assert harness.discord.spec_problems == []


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("club leave", {}),  # no such subcommand
        ("club", {}),  # a group is not run itself
        ("club admin", {}),
        ("club join", {"lvl": 3}),  # no such option
        ("ping extra", {}),
    ],
)
async def test_what_the_command_does_not_declare_is_refused(club, name, options):
    harness, bot, channel = club
    with pytest.raises(ValueError, match="/"):
        harness.dispatch_slash(harness.create_user("carol"), channel, name, **options)
    assert bot.calls == []
