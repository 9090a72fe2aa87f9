"""A fake Discord for tests and benchmarks: the real discord.py bot, fed gateway events in one
process, answered by an in-process stub of Discord's REST API.

    harness.py   Harness (the bot logged in to the fake; feeds INTERACTION_CREATE), Sent
                 (one interaction and its requests), answer_raw (answer with a JSON body)
    rest.py     FakeDiscord (routes, stored messages, validation, faults), Fault, Request,
                 DiscordError
    limits.py    Discord's rules for a message body, in one place: validate_message (as Discord
                 refuses), problems (the same, as a list), message_payload (a received message
                 as JSON)
    payloads.py  FakeUser / FakeChannel / FakeGuild and the JSON payloads Discord sends
    reading.py   a message as a user sees it: text, buttons, board, is_over, ...
"""

from fake_discord.harness import Harness, Sent, answer_raw
from fake_discord.limits import DiscordError, message_payload, problems, validate_message
from fake_discord.payloads import FakeChannel, FakeGuild, FakeUser, Json
from fake_discord.reading import (
    board,
    buttons,
    cell_buttons,
    find_button,
    first_empty,
    is_over,
    is_v2,
    mark,
    marks,
    text,
    walk,
)
from fake_discord.rest import FakeDiscord, Fault, Request

__all__ = [
    "DiscordError",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeUser",
    "Fault",
    "Harness",
    "Json",
    "Request",
    "Sent",
    "answer_raw",
    "board",
    "buttons",
    "cell_buttons",
    "find_button",
    "first_empty",
    "is_over",
    "is_v2",
    "mark",
    "marks",
    "message_payload",
    "problems",
    "text",
    "validate_message",
    "walk",
]
