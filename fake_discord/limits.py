"""Discord's rules for a message's body, in one place: what the fake Discord refuses (as Discord
does, with its error codes) and what tests and tools check a payload against."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import discord

from fake_discord.payloads import Json
from fake_discord.reading import walk

Component = discord.ComponentType
LOADING = discord.MessageFlags(loading=True).value
COMPONENTS_V2 = discord.MessageFlags(components_v2=True).value

MAX_CONTENT = 2000
MAX_ACTION_ROWS = 5  # classic layout
MAX_ROW_WIDTH = 5  # buttons in one action row
MAX_COMPONENTS_V2 = 40  # all components, nested ones included
MAX_TEXT_V2 = 4000  # characters over all text displays
MAX_CUSTOM_ID = 100
MAX_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_OPTION_TEXT = 100  # an option's label, value and description
MAX_PLACEHOLDER = 150
MAX_MODAL_TITLE = 45
MAX_MODAL_LABEL = 45
MAX_MODAL_FIELDS = 5
MAX_TEXT_INPUT = 4000
MAX_TEXT_INPUT_PLACEHOLDER = 100
MAX_EMOJI_NAME = 32
CUSTOM_ID_STYLES = frozenset(
    style.value
    for style in (
        discord.ButtonStyle.primary,
        discord.ButtonStyle.secondary,
        discord.ButtonStyle.success,
        discord.ButtonStyle.danger,
    )
)
ATTACHMENT_SCHEME = "attachment://"  # a component's reference to a file of its message
MAX_GALLERY_ITEMS = 10
MAX_MEDIA_DESCRIPTION = 1024  # a media item's alt text
V2_TOP = frozenset(
    {
        Component.action_row,
        Component.text_display,
        Component.separator,
        Component.container,
        Component.media_gallery,
    }
)
V2_IN_CONTAINER = V2_TOP - {Component.container}
# What Discord fills in when it stores a component without them (its answers carry them).
STORED_DEFAULTS: dict[Component, Json] = {
    Component.container: {"accent_color": None, "spoiler": False},
    Component.separator: {"spacing": 1, "divider": True},
    Component.string_select: {"min_values": 1, "max_values": 1},
}


class DiscordError(Exception):
    """An error answer: HTTP status, Discord's JSON error code, and for 50035 the field errors."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: Json | None = None,
        *,
        extra: Json | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors
        self.extra = extra or {}  # more fields of the body (a 429's retry_after, global)
        self.headers = headers or {}

    def payload(self) -> Json:
        body: Json = {"message": self.message, "code": self.code, **self.extra}
        if self.errors:
            body["errors"] = self.errors
        return body


def rate_limited(retry_after: float, headers: dict[str, str]) -> DiscordError:
    """429 for a spent per-route bucket, as Discord answers it (not the global limit)."""
    extra = {"retry_after": round(retry_after, 3), "global": False}
    return DiscordError(429, 0, "You are being rate limited.", extra=extra, headers=headers)


def invalid_form(path: str, code: str, message: str) -> DiscordError:
    """400/50035 with the nested `errors` Discord sends (discord.py reports "In <path>: ...")."""
    errors: Json = {"_errors": [{"code": code, "message": message}]}
    for key in reversed(path.split(".")):
        errors = {key: errors}
    return DiscordError(400, 50035, f"Invalid Form Body: In {path}: {message}", errors)


# ---------------------------------------------------------------------------------- validation


def validate_message(message: Json, files: Sequence[Json] | None = None) -> list[Json]:
    """Discord's checks on a message as it would be stored (after an edit, merged); returns its
    components with their ids filled in, and each media item that refers to one of `files`
    (`attachment://<filename>`: the message's files after the request, Discord's attachment
    objects) with the file's URL and id, as Discord answers it. A reference to no such file is
    refused; with `files` None (a body checked on its own) references are not looked up.
    DiscordError if Discord would refuse the message."""
    flags = int(message.get("flags") or 0)
    content = message.get("content") or ""
    components = message.get("components") or []
    if not isinstance(components, list):
        raise invalid_form("components", "BASE_TYPE_LIST", "Must be a list.")
    v2 = bool(flags & COMPONENTS_V2)
    if v2:
        for legacy in ("content", "embeds"):
            if message.get(legacy):
                raise invalid_form(
                    legacy,
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    "The 'content' and 'embeds' fields cannot be used with IS_COMPONENTS_V2.",
                )
    elif len(content) > MAX_CONTENT:
        raise invalid_form("content", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CONTENT} or fewer.")
    if (
        not content
        and not components
        and not message.get("embeds")
        and not files
        and not flags & LOADING
    ):
        raise DiscordError(400, 50006, "Cannot send an empty message")
    return _Layout(v2, components, files).check(components)


class _Layout:
    """One pass over a message's components: shapes, limits, unique custom_ids and ids."""

    def __init__(self, v2: bool, components: list[Json], files: Sequence[Json] | None) -> None:
        self.v2 = v2
        self.files = None if files is None else {f["filename"]: f for f in files}
        self.count = 0
        self.text = 0
        self.custom_ids: set[str] = set()
        taken: set[int] = set()
        for component in walk([c for c in components if isinstance(c, dict)]):
            given = component.get("id")
            if given is None:
                continue
            if not isinstance(given, int) or given in taken:
                raise invalid_form("components", "COMPONENT_ID_DUPLICATED", f"Bad id {given!r}.")
            taken.add(given)
        self._ids = (i for i in itertools.count(1) if i not in taken)

    def check(self, components: list[Json]) -> list[Json]:
        if self.v2:
            allowed = V2_TOP
        else:
            allowed = frozenset({Component.action_row})
            if len(components) > MAX_ACTION_ROWS:
                raise invalid_form(
                    "components", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ACTION_ROWS} or fewer."
                )
        stored = [self._one(c, f"components.{i}", allowed) for i, c in enumerate(components)]
        if self.v2 and self.count > MAX_COMPONENTS_V2:
            raise invalid_form(
                "components",
                "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
                f"{self.count} components; at most {MAX_COMPONENTS_V2}, nested ones included.",
            )
        if self.text > MAX_TEXT_V2:
            raise invalid_form(
                "components",
                "COMPONENT_MAX_TOTAL_TEXT_LENGTH_EXCEEDED",
                f"{self.text} characters of text displays; at most {MAX_TEXT_V2}.",
            )
        return stored

    def _one(self, component: Any, path: str, allowed: frozenset[Component]) -> Json:
        if not isinstance(component, dict):
            raise invalid_form(path, "MODEL_TYPE_CONVERT", "Must be an object.")
        kind = discord.enums.try_enum(Component, component.get("type"))
        if kind not in allowed:
            raise invalid_form(
                f"{path}.type",
                "UNION_TYPE_CHOICES",
                f"{kind!r} is not allowed here (or not supported by FakeDiscord).",
            )
        self.count += 1
        stored = {**STORED_DEFAULTS.get(kind, {}), **component}
        stored["id"] = component.get("id") or next(self._ids)
        if kind is Component.button:
            self._button(component, path)
        elif kind is Component.string_select:
            self._select(component, path)
        elif kind is Component.action_row:
            children = component.get("components") or []
            kinds = [c.get("type") for c in children if isinstance(c, dict)]
            if Component.string_select.value in kinds:
                # A select fills its row: it is the row's only component.
                if len(children) != 1:
                    raise invalid_form(
                        f"{path}.components",
                        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                        "A select menu must be alone in its action row.",
                    )
                allowed_here = frozenset({Component.string_select})
            elif not 1 <= len(children) <= MAX_ROW_WIDTH:
                raise invalid_form(
                    f"{path}.components",
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    f"An action row holds 1-{MAX_ROW_WIDTH} buttons, not {len(children)}.",
                )
            else:
                allowed_here = frozenset({Component.button})
            stored["components"] = self._children(children, path, allowed_here)
        elif kind is Component.container:
            children = component.get("components") or []
            if not children:
                raise invalid_form(f"{path}.components", "BASE_TYPE_REQUIRED", "Required.")
            accent = component.get("accent_color")
            if accent is not None and not (isinstance(accent, int) and 0 <= accent <= 0xFFFFFF):
                raise invalid_form(f"{path}.accent_color", "NUMBER_TYPE_MAX", "Not a colour.")
            stored["components"] = self._children(children, path, V2_IN_CONTAINER)
        elif kind is Component.text_display:
            content = component.get("content")
            if not isinstance(content, str) or not content:
                raise invalid_form(f"{path}.content", "BASE_TYPE_REQUIRED", "Required.")
            self.text += len(content)
        elif kind is Component.separator and component.get("spacing", 1) not in (1, 2):
            raise invalid_form(f"{path}.spacing", "BASE_TYPE_CHOICES", "Must be 1 or 2.")
        elif kind is Component.media_gallery:
            stored["items"] = self._gallery(component, path)
        return stored

    def _gallery(self, gallery: Json, path: str) -> list[Json]:
        """A media gallery's 1-10 items, each stored as Discord answers it: the media it
        refers to resolved (`attachment://<filename>`: a file of the message), its alt text
        (at most 1,024 characters, or null) and spoiler."""
        items = gallery.get("items")
        if not isinstance(items, list) or not 1 <= len(items) <= MAX_GALLERY_ITEMS:
            raise invalid_form(
                f"{path}.items", "BASE_TYPE_BAD_LENGTH", f"Must be 1-{MAX_GALLERY_ITEMS} long."
            )
        stored = []
        for i, item in enumerate(items):
            where = f"{path}.items.{i}"
            if not isinstance(item, dict):
                raise invalid_form(where, "MODEL_TYPE_CONVERT", "Must be an object.")
            description = item.get("description")
            if description is not None and not (
                isinstance(description, str) and 1 <= len(description) <= MAX_MEDIA_DESCRIPTION
            ):
                raise invalid_form(
                    f"{where}.description",
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be 1-{MAX_MEDIA_DESCRIPTION} long.",
                )
            media = self._media(item.get("media"), f"{where}.media")
            stored.append(
                {"media": media, "description": description, "spoiler": bool(item.get("spoiler"))}
            )
        return stored

    def _media(self, media: Any, path: str) -> Json:
        url = media.get("url") if isinstance(media, dict) else None
        if not isinstance(url, str) or not url:
            raise invalid_form(f"{path}.url", "BASE_TYPE_REQUIRED", "This field is required")
        if media.get("attachment_id") is not None:
            return dict(media)  # as Discord stored it: an edit that leaves the components be
        if not url.startswith(ATTACHMENT_SCHEME):
            raise invalid_form(
                f"{path}.url",
                "UNFURLED_MEDIA_ITEM_URL_INVALID",
                "Only attachment://<filename> media (not supported by FakeDiscord: other URLs).",
            )
        if self.files is None:
            return {"url": url}
        attachment = self.files.get(url.removeprefix(ATTACHMENT_SCHEME))
        if attachment is None:
            # Discord's exact code for this is not in its docs; its answer is a 400 that names
            # the item's media (discord/discord-api-docs#7529: "attachment is not found").
            raise invalid_form(f"{path}.url", "ATTACHMENT_NOT_FOUND", "Attachment data not found")
        return _media_of(attachment)

    def _children(
        self, children: list[Json], path: str, allowed: frozenset[Component]
    ) -> list[Json]:
        return [self._one(c, f"{path}.components.{i}", allowed) for i, c in enumerate(children)]

    def _select(self, select: Json, path: str) -> None:
        """A string select: its custom_id, 1-25 options with distinct values, the defaults."""
        _new_custom_id(select, path, self.custom_ids)
        options = select.get("options") or []
        if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
            raise invalid_form(
                f"{path}.options", "BASE_TYPE_BAD_LENGTH", f"Must be 1-{MAX_SELECT_OPTIONS} long."
            )
        low, high = select.get("min_values", 1), select.get("max_values", 1)
        if not 0 <= low <= high <= min(len(options), MAX_SELECT_OPTIONS) or high < 1:
            raise invalid_form(path, "SELECT_COMPONENT_VALUES_INVALID", "Bad min/max_values.")
        for i, option in enumerate(options):
            for key in ("label", "value"):
                _text(option.get(key), f"{path}.options.{i}.{key}", MAX_OPTION_TEXT)
            if len(option.get("description") or "") > MAX_OPTION_TEXT:
                raise invalid_form(
                    f"{path}.options.{i}.description",
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_OPTION_TEXT} or fewer.",
                )
        if len({option["value"] for option in options}) != len(options):
            raise invalid_form(
                f"{path}.options", "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "Duplicate value."
            )
        if sum(bool(option.get("default")) for option in options) > high:
            raise invalid_form(
                f"{path}.options", "SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES", "Too many defaults."
            )
        if len(select.get("placeholder") or "") > MAX_PLACEHOLDER:
            raise invalid_form(
                f"{path}.placeholder",
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_PLACEHOLDER} or fewer.",
            )

    def _button(self, button: Json, path: str) -> None:
        if button.get("style") not in CUSTOM_ID_STYLES:
            raise invalid_form(f"{path}.style", "BASE_TYPE_CHOICES", "Not a custom_id style.")
        _new_custom_id(button, path, self.custom_ids)
        label = button.get("label") or ""
        if button.get("emoji") is not None:
            _emoji(button["emoji"], f"{path}.emoji")
        if not label and not button.get("emoji"):
            raise invalid_form(path, "BUTTON_COMPONENT_EMPTY", "A button needs a label or emoji.")
        if len(label) > MAX_LABEL:
            raise invalid_form(
                f"{path}.label", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_LABEL} or fewer."
            )


def _media_of(attachment: Json) -> Json:
    """A media item showing `attachment`, as Discord answers it."""
    return {
        "id": attachment["id"],
        "url": attachment["url"],
        "proxy_url": attachment["proxy_url"],
        "width": attachment.get("width"),
        "height": attachment.get("height"),
        "content_type": attachment.get("content_type"),
        "attachment_id": attachment["id"],
    }


def validate_modal(modal: Json) -> None:
    """Discord's checks on a modal (an interaction answer of type MODAL's `data`): a title, and
    1-5 labels each holding one text input. DiscordError if Discord would refuse it."""
    _text(modal.get("custom_id"), "custom_id", MAX_CUSTOM_ID)
    _text(modal.get("title"), "title", MAX_MODAL_TITLE)
    components = modal.get("components") or []
    if not 1 <= len(components) <= MAX_MODAL_FIELDS:
        raise invalid_form(
            "components", "BASE_TYPE_BAD_LENGTH", f"Must be 1-{MAX_MODAL_FIELDS} long."
        )
    seen: set[str] = set()
    for i, label in enumerate(components):
        path = f"components.{i}"
        if label.get("type") != Component.label.value:
            raise invalid_form(f"{path}.type", "UNION_TYPE_CHOICES", "Only labels are supported.")
        _text(label.get("label"), f"{path}.label", MAX_MODAL_LABEL)
        field = label.get("component") or {}
        path = f"{path}.component"
        if field.get("type") != Component.text_input.value:
            raise invalid_form(f"{path}.type", "UNION_TYPE_CHOICES", "Only text inputs here.")
        _new_custom_id(field, path, seen)
        if field.get("style") not in (1, 2):
            raise invalid_form(f"{path}.style", "BASE_TYPE_CHOICES", "Must be 1 or 2.")
        high = field.get("max_length", MAX_TEXT_INPUT)
        if not 1 <= high <= MAX_TEXT_INPUT or not 0 <= field.get("min_length", 0) <= high:
            raise invalid_form(f"{path}.max_length", "BASE_TYPE_BAD_LENGTH", "Bad lengths.")
        if len(field.get("value") or "") > high:
            raise invalid_form(f"{path}.value", "BASE_TYPE_MAX_LENGTH", "Longer than max_length.")
        if len(field.get("placeholder") or "") > MAX_TEXT_INPUT_PLACEHOLDER:
            raise invalid_form(
                f"{path}.placeholder",
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_TEXT_INPUT_PLACEHOLDER} or fewer.",
            )


def modal_problems(modal: Json) -> list[str]:
    """How a modal breaks Discord's rules (empty: it does not), in one line."""
    try:
        validate_modal(modal)
    except DiscordError as error:
        return [error.message]
    return []


def _text(value: Any, path: str, most: int) -> str:
    """A string of 1 to `most` characters, or Discord's error for one that is not."""
    if not isinstance(value, str) or not 1 <= len(value) <= most:
        raise invalid_form(path, "BASE_TYPE_BAD_LENGTH", f"Must be 1-{most} long.")
    return value


def _new_custom_id(component: Json, path: str, seen: set[str]) -> None:
    """A component's custom_id: 1-100 characters, and none the payload has `seen` already."""
    custom_id = _text(component.get("custom_id"), f"{path}.custom_id", MAX_CUSTOM_ID)
    if custom_id in seen:
        raise invalid_form(
            f"{path}.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED", "Duplicate custom_id."
        )
    seen.add(custom_id)


def _emoji(emoji: Any, path: str) -> None:
    """A component's partial emoji: a name (any, for a custom emoji), an id for a custom one (a
    snowflake, as a string or, as discord.py writes it, a number), `animated` a boolean."""
    if not isinstance(emoji, dict):
        raise invalid_form(path, "MODEL_TYPE_CONVERT", "Must be an object.")
    name = emoji.get("name")
    if not isinstance(name, str) or not name:
        raise invalid_form(f"{path}.name", "BASE_TYPE_REQUIRED", "This field is required")
    if len(name) > MAX_EMOJI_NAME:
        raise invalid_form(
            f"{path}.name", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMOJI_NAME} or fewer in length."
        )
    emoji_id = emoji.get("id")
    if emoji_id is not None and not (
        (isinstance(emoji_id, int) and not isinstance(emoji_id, bool) and 0 < emoji_id < 2**64)
        or (isinstance(emoji_id, str) and emoji_id.isascii() and emoji_id.isdigit())
    ):
        raise invalid_form(
            f"{path}.id", "NUMBER_TYPE_COERCE", f"Value {emoji_id!r} is not snowflake."
        )
    if not isinstance(emoji.get("animated", False), bool):
        raise invalid_form(f"{path}.animated", "BASE_TYPE_BAD_TYPE", "Must be a boolean.")


def problems(payload: Json) -> list[str]:
    """How a message body breaks Discord's rules (empty: it does not): Discord's own refusal,
    in one line. A body without flags whose components are not action rows is taken as
    Components V2, as the bot sends its boards."""
    components = payload.get("components") or []
    flags = payload.get("flags")
    if flags is None and any(c.get("type") != Component.action_row.value for c in components):
        payload = {**payload, "flags": COMPONENTS_V2}
    try:
        validate_message(payload)
    except DiscordError as error:
        return [error.message]
    return []


def message_payload(message: discord.Message) -> Json:
    """A received discord.py message as the JSON body it came from (its components and flags)."""
    body: Json = {
        "flags": message.flags.value,
        "components": [_without_ids(component.to_dict()) for component in message.components],
    }
    if message.content:
        body["content"] = message.content
    return body


def as_json(message: discord.Message) -> Json:
    """A received discord.py message as the JSON reading.py reads: the body it came from
    (content, flags, components) and its id."""
    return {"id": message.id, **message_payload(message)}


def _without_ids(component: Any) -> Any:
    """The component as a bot sends it: the numeric ids are Discord's (discord.py writes 0
    where the message had none). A custom emoji keeps its id: it names the emoji."""
    if isinstance(component, dict):
        is_component = "type" in component
        return {
            key: _without_ids(value)
            for key, value in component.items()
            if not (is_component and key == "id")
        }
    if isinstance(component, list):
        return [_without_ids(item) for item in component]
    return component


__all__ = [
    "DiscordError",
    "invalid_form",
    "message_payload",
    "modal_problems",
    "problems",
    "rate_limited",
    "validate_message",
    "validate_modal",
]
