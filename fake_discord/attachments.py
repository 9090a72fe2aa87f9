"""Files sent with a message, as Discord takes and keeps them.

A request with files is multipart/form-data: the JSON body in the part `payload_json`, each file
in a part `files[n]` with its filename. The body's `attachments` array says which files the
message has afterwards: `{"id": n}` for the upload `files[n]`, an attachment's own id for one
the message keeps; on an edit, files it does not name are dropped, and without the array the
uploads are added to the files the message has (docs: Reference > Uploading Files, Message >
Edit Message). A file over the upload limit is refused with 413/40005.

A component shows a file by `attachment://<filename>` (a media gallery item's `media.url`);
Discord then answers the item with the file's URL, pixel size, type and id (`attachment_id`); the
message's `attachments` lists only the files no component or embed refers to (Message Object,
and discord/discord-api-docs#8277: intended). With IS_COMPONENTS_V2 such a file is not shown at
all ("Attachments won't show by default - they must be exposed through components"); Discord
keeps it on the message all the same, and so does the fake (reading.unshown_files finds them).
"""

from __future__ import annotations

import mimetypes
import re
import struct
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import aiohttp
from aiohttp import hdrs
from aiohttp.multipart import content_disposition_filename, parse_content_disposition

from fake_discord.limits import DiscordError, invalid_form
from fake_discord.payloads import ATTACHMENT_SIZE_LIMIT, Json
from fake_discord.reading import walk

MAX_ATTACHMENTS = 10  # files on one message
CDN = "https://cdn.discordapp.com/attachments"
MEDIA_PROXY = "https://media.discordapp.net/attachments"
REQUEST_TOO_LARGE = 40005  # Discord's code for a file over the upload limit (HTTP 413)
_FILE_FIELD = re.compile(r"files\[(\d+)\]")
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@dataclass(frozen=True, slots=True)
class Upload:
    """One file part of a multipart request."""

    name: str  # the form field: "files[0]", ...
    filename: str
    data: bytes = field(repr=False)


# ---------------------------------------------------------------------------------- multipart


async def read_form(form: aiohttp.FormData) -> tuple[str | None, list[Upload]]:
    """The `payload_json` and the files of a multipart body as aiohttp sends it: each part by
    the name and filename of its Content-Disposition header, and its bytes."""
    payload_json: str | None = None
    uploads: list[Upload] = []
    body = form()
    if not isinstance(body, aiohttp.MultipartWriter):  # a form without files: url-encoded
        raise DiscordError(400, 50035, "Invalid Form Body (only multipart forms are supported)")
    for part, _, _ in body:
        disposition = part.headers.get(hdrs.CONTENT_DISPOSITION, "")
        _, params = parse_content_disposition(disposition)
        name = params.get("name", "")
        filename = content_disposition_filename(params, "filename")
        data = await part.as_bytes()
        if name == "payload_json":
            payload_json = data.decode()
        elif filename is not None:
            uploads.append(Upload(name, filename, data))
    return payload_json, uploads


# ---------------------------------------------------------------------------- a message's files


def files_after(
    body: Json,
    uploads: Sequence[Upload],
    had: Sequence[Json],
    *,
    new_id: Callable[[], int],
    channel_id: int,
) -> tuple[list[Json], dict[int, bytes]]:
    """The files a message has after a create (`had` empty) or an edit of a message that had
    `had`: Discord's attachment objects, and the bytes of the new ones by id.
    DiscordError where Discord refuses."""
    by_index: dict[int, Upload] = {}
    for upload in uploads:
        found = _FILE_FIELD.fullmatch(upload.name)
        if found is None:
            continue  # not a file field Discord reads
        if len(upload.data) > ATTACHMENT_SIZE_LIMIT:
            raise DiscordError(413, REQUEST_TOO_LARGE, "Request entity too large")
        by_index[int(found[1])] = upload
    stored: dict[int, bytes] = {}

    def new(index: int, request: Json) -> Json:
        upload = by_index[index]
        attachment = _attachment(
            new_id(), str(request.get("filename") or upload.filename), upload.data, channel_id
        )
        if request.get("description"):
            attachment["description"] = request["description"]
        stored[int(attachment["id"])] = upload.data
        return attachment

    requested = body.get("attachments")
    if requested is None:  # the uploads are added to what the message has
        files = [*had, *(new(index, {}) for index in sorted(by_index))]
    else:
        if not isinstance(requested, list):
            raise invalid_form("attachments", "BASE_TYPE_LIST", "Must be a list.")
        kept = {str(attachment["id"]): attachment for attachment in had}
        files = []
        for i, entry in enumerate(requested):
            key = str(entry.get("id")) if isinstance(entry, dict) else ""
            if key in kept:
                files.append(_with_description(kept[key], entry))
            elif key.isdigit() and int(key) in by_index:
                files.append(new(int(key), entry))
            else:
                raise invalid_form(
                    f"attachments.{i}", "ATTACHMENT_NOT_FOUND", "Attachment data not found"
                )
    if len(files) > MAX_ATTACHMENTS:
        raise invalid_form(
            "attachments", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ATTACHMENTS} or fewer in length."
        )
    return files, stored


def _with_description(attachment: Json, entry: Json) -> Json:
    """A kept file; an edit may change its description (alt text)."""
    if "description" not in entry:
        return attachment
    changed = {key: value for key, value in attachment.items() if key != "description"}
    if entry["description"]:
        changed["description"] = entry["description"]
    return changed


def _attachment(attachment_id: int, filename: str, data: bytes, channel_id: int) -> Json:
    """A new file as Discord answers it (without the signature Discord adds to its URLs)."""
    path = f"{channel_id}/{attachment_id}/{filename}"
    attachment: Json = {
        "id": str(attachment_id),
        "filename": filename,
        "size": len(data),
        "url": f"{CDN}/{path}",
        "proxy_url": f"{MEDIA_PROXY}/{path}",
    }
    content_type = mimetypes.guess_type(filename)[0]
    if content_type is not None:
        attachment["content_type"] = content_type
    size = png_size(data)
    if size is not None:
        attachment["width"], attachment["height"] = size
    return attachment


def png_size(data: bytes) -> tuple[int, int] | None:
    """A PNG's width and height, from its header; None if `data` is not a PNG."""
    if data[:8] != _PNG_SIGNATURE or data[12:16] != b"IHDR" or len(data) < 24:
        return None
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def referenced_ids(components: Iterable[Json]) -> set[str]:
    """The ids of the files the components show."""
    shown = set()
    for component in walk(list(components)):
        for item in component.get("items") or ():
            attachment_id = (item.get("media") or {}).get("attachment_id")
            if attachment_id is not None:
                shown.add(str(attachment_id))
    return shown


def unreferenced(files: Sequence[Json], components: Iterable[Json]) -> list[Json]:
    """The files no component shows: what a message's `attachments` lists."""
    shown = referenced_ids(components)
    return [attachment for attachment in files if attachment["id"] not in shown]
