"""Opening an interaction the way Discord does: what a user's slash command or button click
becomes (INTERACTION_CREATE's payload) and what Discord remembers of it (its token's record).

Shared by the in-process Harness and the Loopback, which differ only in how the payload reaches
the bot (parsed in process, or sent on a gateway websocket).
"""

from __future__ import annotations

import time
from typing import Any

import discord

from .payloads import FakeUser, Json, Place, interaction_payload, member_payload
from .reading import find_button
from .rest import FakeDiscord, InteractionRecord

USER_OPTION = discord.AppCommandOptionType.user.value
_SUBCOMMANDS = (
    discord.AppCommandOptionType.subcommand.value,
    discord.AppCommandOptionType.subcommand_group.value,
)


def slash_data(fake: FakeDiscord, name: str, guild_id: int | None, options: dict[str, Any]) -> Json:
    """The `data` of a /`name` command with `options` as a user fills them in (a user option
    takes a FakeUser or an id). `name` as the user types it: "tictactoe", or a subcommand
    ("tournament create", and a subcommand group's "a b c"), sent nested as Discord nests
    it. ValueError for a subcommand or an option the command does not declare."""
    top, *path = name.split()
    command = fake.command(top, guild_id)
    declared_options = command.get("options", [])
    nested: list[Json] = []  # where the options go: the innermost subcommand's list
    data: Json = {"id": command["id"], "name": top, "type": command["type"]}
    place = data
    for word in path:
        sub = next(
            (o for o in declared_options if o["name"] == word and o["type"] in _SUBCOMMANDS),
            None,
        )
        if sub is None:
            raise ValueError(f"/{name}: /{top} has no subcommand {word!r} there")
        nested = []
        place["options"] = [{"name": word, "type": sub["type"], "options": nested}]
        place = place["options"][0]
        declared_options = sub.get("options", [])
    if any(o["type"] in _SUBCOMMANDS for o in declared_options):
        raise ValueError(f"/{name} is a group: name one of its subcommands")
    declared = {option["name"]: option for option in declared_options}
    resolved: Json = {}
    sent_options = []
    for key, value in options.items():
        if key not in declared:
            raise ValueError(f"/{name} has no option {key!r}")
        kind = declared[key]["type"]
        if kind == USER_OPTION:
            target = value if isinstance(value, FakeUser) else fake.users[int(value)]
            resolved.setdefault("users", {})[str(target.id)] = target.payload()
            if not target.bot:
                resolved.setdefault("members", {})[str(target.id)] = member_payload(
                    target, fake.joined_at, with_user=False
                )
            value = str(target.id)
        sent_options.append({"name": key, "type": kind, "value": value})
    if path:
        nested.extend(sent_options)
    elif sent_options:
        data["options"] = sent_options
    if resolved:
        data["resolved"] = resolved
    if "guild_id" in command:
        data["guild_id"] = command["guild_id"]
    return data


def click_data(
    message: Json,
    *,
    custom_id: str | None = None,
    cell: tuple[int, int] | None = None,
    label: str | None = None,
) -> Json:
    """The `data` of a click on a button of `message` (found as reading.find_button finds it);
    ValueError for a disabled button, which Discord would not let a user click."""
    button = find_button(message, custom_id=custom_id, cell=cell, label=label)
    if button.get("disabled"):
        raise ValueError(f"button {button['custom_id']!r} is disabled; Discord won't send it")
    return {
        "custom_id": button["custom_id"],
        "component_type": discord.ComponentType.button.value,
        "id": button.get("id"),
    }


def open_interaction(
    fake: FakeDiscord,
    kind: discord.InteractionType,
    user: FakeUser,
    channel: Place,
    data: Json,
    *,
    message: Json | None = None,
    command: str | None = None,
) -> tuple[Json, InteractionRecord]:
    """A new interaction: INTERACTION_CREATE's payload, and Discord's record of its token
    (registered with `fake`, so that the bot's answers to it are accepted for 3 seconds)."""
    interaction_id = fake.snowflake()
    token = f"tok{interaction_id}"
    payload = interaction_payload(
        interaction_id=interaction_id,
        token=token,
        application_id=fake.application_id,
        kind=kind,
        data=data,
        user=user,
        channel=channel,
        joined_at=fake.joined_at,
        message=message,
        app_permissions=fake.bot_permissions(channel),
    )
    record = InteractionRecord(
        interaction_id,
        kind,
        channel.id,
        channel.guild_id,
        user.id,
        time.perf_counter(),
        command=command,
        message_id=None if message is None else int(message["id"]),
    )
    fake.interactions[token] = record
    return payload, record
