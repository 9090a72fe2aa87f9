"""A fake Discord for tests, benchmarks and tools: one stub of Discord's REST API, reached in
process (the real discord.py bot fed gateway events, no socket) or over loopback (a real bot
process, HTTP and a gateway websocket).

    harness.py       Harness (the bot logged in to the fake in process; feeds
                     INTERACTION_CREATE), Sent (one interaction and its requests), answer_raw
    loopback.py      Loopback (the same fake served on 127.0.0.1 for a bot process), Exchange,
                     launch_command (the command line running a bot against it)
    launch.py        a stand-alone script: run `python -m bot` (or any script) against a URL
    rest.py          FakeDiscord (routes, stored messages, threads, permissions the bot is
                     denied, faults), Fault, Request
    ratelimits.py    Bucket: a per-route rate limit as Discord answers it (5 messages per 5 s
                     in each channel or thread), its 429s counted
    openapi.py       Discord's OpenAPI spec (an extract, openapi.json): bodies and answers of
                     the routes it describes, and gateway channel objects, checked against it
    limits.py        Discord's rules for a message body, in one place: validate_message (as
                     Discord refuses, DiscordError), problems (the same, as a list),
                     message_payload (a received message as JSON)
    interactions.py  a slash command or a click as Discord opens it: payload and token record
    world.py         World: the people, channels and threads a test makes (both transports
                     share it), messages_in a channel or thread
    payloads.py      FakeUser / FakeChannel / FakeThread / FakeGuild and the JSON payloads
                     Discord sends
    reading.py       a message as a user sees it, from its JSON: text, buttons, board, colour,
                     is_over, its picture, ... (SimCord tests read a discord.py message
                     through it too)
    attachments.py   files sent with a message: multipart requests, the `attachments` array
                     of a create or an edit, the upload limit
"""

from .harness import Harness, Sent, answer_raw
from .limits import DiscordError, as_json, message_payload, problems, validate_message
from .payloads import FakeChannel, FakeGuild, FakeThread, FakeUser, Json, Place
from .reading import (
    ShownPicture,
    accent,
    all_cells_enabled,
    board,
    buttons,
    cell_buttons,
    cell_styles,
    control_labels,
    emoji_text,
    find_button,
    first_empty,
    gallery_items,
    green_cells,
    heading,
    is_over,
    is_v2,
    mark,
    marks,
    picture,
    snapshot,
    status,
    text,
    texts,
    unshown_files,
    walk,
)
from .rest import FakeDiscord, Fault, Request

__all__ = [
    "DiscordError",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeThread",
    "FakeUser",
    "Fault",
    "Harness",
    "Json",
    "Place",
    "Request",
    "Sent",
    "ShownPicture",
    "accent",
    "all_cells_enabled",
    "answer_raw",
    "as_json",
    "board",
    "buttons",
    "cell_buttons",
    "cell_styles",
    "control_labels",
    "emoji_text",
    "find_button",
    "first_empty",
    "gallery_items",
    "green_cells",
    "heading",
    "is_over",
    "is_v2",
    "mark",
    "marks",
    "message_payload",
    "picture",
    "problems",
    "snapshot",
    "status",
    "text",
    "texts",
    "unshown_files",
    "validate_message",
    "walk",
]
