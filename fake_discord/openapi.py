"""Discord's own OpenAPI description (github.com/discord/discord-api-spec, MIT), as the fake
Discord's referee: what a bot sends on a route and what the fake answers are checked against the
schemas Discord publishes for that route, and the gateway's channel objects (THREAD_CREATE, the
threads of GUILD_CREATE) against the same schema as the REST answer that returns them.

The repository keeps an extract (openapi.json beside this module): the operations in OPERATIONS
and every schema they reach, no more. Regenerate it from a checkout of discord-api-spec:

    python -m fake_discord.openapi PATH/TO/discord-api-spec/specs/openapi.json [COMMIT]

Discord's README warns the spec is a preview and "follow the docs, not the spec" where they
differ; where the fake follows the docs against the spec, DOCS_OVER_SPEC says so.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs installed
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

Json = dict[str, Any]

EXTRACT = Path(__file__).with_name("openapi.json")
BASE_URI = "urn:discord-openapi"

# (method, path template): the routes the fake serves that the spec describes.
OPERATIONS: tuple[tuple[str, str], ...] = (
    ("post", "/channels/{channel_id}/messages"),
    ("get", "/channels/{channel_id}/messages"),
    ("get", "/channels/{channel_id}/messages/{message_id}"),
    ("patch", "/channels/{channel_id}/messages/{message_id}"),
    ("post", "/channels/{channel_id}/messages/{message_id}/threads"),
    ("get", "/channels/{channel_id}"),
    ("patch", "/channels/{channel_id}"),
    ("delete", "/channels/{channel_id}"),
    ("post", "/interactions/{interaction_id}/{interaction_token}/callback"),
    ("post", "/webhooks/{webhook_id}/{webhook_token}"),
    ("get", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("patch", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("get", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
    ("patch", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
    ("get", "/users/@me"),
    ("get", "/oauth2/applications/@me"),
    ("get", "/applications/{application_id}/commands"),
    ("put", "/applications/{application_id}/commands"),
    ("get", "/applications/{application_id}/guilds/{guild_id}/commands"),
    ("put", "/applications/{application_id}/guilds/{guild_id}/commands"),
    ("get", "/gateway/bot"),
)
# Where Discord's docs (and its answers) differ from the spec, the docs win: a field's error in
# a 400's `errors` has a string code ("BASE_TYPE_REQUIRED"), not the spec's integer.
DOCS_OVER_SPEC: dict[str, Json] = {
    "InnerErrors": {
        "type": "object",
        "properties": {
            "_errors": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
                    "required": ["code", "message"],
                },
            }
        },
        "required": ["_errors"],
        "additionalProperties": False,
    }
}
# Discord takes a snowflake in a request as a number too (discord.py sends some so).
REQUEST_SNOWFLAKE = {"type": ["string", "integer"], "pattern": "^(0|[1-9][0-9]*)$", "minimum": 0}
# Gateway payloads checked against a REST schema: the same object as that answer.
GATEWAY_SCHEMAS = ("ThreadResponse", "MessageResponse")


class Spec:
    """The extract, with a compiled validator per schema (built on first use)."""

    def __init__(self, document: Json) -> None:
        schemas = {**document["components"]["schemas"], **DOCS_OVER_SPEC}
        document = {**document, "components": {**document["components"], "schemas": schemas}}
        self.document = document = _by_type(document, document)
        resource = Resource.from_contents(_absolute(document), default_specification=DRAFT202012)
        self._registry: Registry[Any] = Registry().with_resource(BASE_URI, resource)
        self._templates = sorted(
            ((method, template, _template_pattern(template)) for method, template in OPERATIONS),
            key=lambda entry: entry[1].count("{"),  # "@original" before "{message_id}"
        )

    def operation(self, method: str, path: str) -> tuple[str, Json] | None:
        """The spec's template and operation for a request (path without /api/vN), if any."""
        for known, template, pattern in self._templates:
            if known == method.lower() and pattern.fullmatch(path):
                return template, self.document["paths"][template][known]
        return None

    def request_problems(self, method: str, path: str, body: Any) -> list[str]:
        """How a JSON request body breaks the route's request schema (empty: it does not)."""
        found = self.operation(method, path)
        if found is None:
            return []
        schema = (found[1].get("requestBody") or {}).get("content", {}).get("application/json")
        if schema is None:
            return []
        return self._problems(schema["schema"], body, request=True)

    def response_problems(self, method: str, path: str, status: int, body: Any) -> list[str]:
        """How an answer breaks the route's response schema for its status (empty: it does
        not); an undescribed status of a described route is a problem too."""
        found = self.operation(method, path)
        if found is None:
            return []
        template, operation = found
        responses = operation["responses"]
        answer = responses.get(str(status)) or responses.get(f"{str(status)[0]}XX")
        if answer is None:
            return [f"{method} {template}: status {status} is not one Discord answers"]
        answer = self._resolve(answer)
        content = (answer.get("content") or {}).get("application/json")
        if content is None:
            return [] if body is None else [f"{method} {template}: {status} has no body"]
        return self._problems(content["schema"], body)

    def schema_problems(self, name: str, value: Any) -> list[str]:
        """How `value` breaks components/schemas/`name` (empty: it does not)."""
        return self._problems({"$ref": f"#/components/schemas/{name}"}, value)

    def _resolve(self, node: Json) -> Json:
        while "$ref" in node:
            node = self._registry.resolver().lookup(BASE_URI + node["$ref"]).contents
        return node

    def _problems(self, schema: Json, value: Any, *, request: bool = False) -> list[str]:
        validator = self._validator(json.dumps(schema, sort_keys=True), request)
        found = []
        for error in validator.iter_errors(value):
            # In a union (oneOf, anyOf), the branch that came closest says what is wrong.
            while error.context:
                error = jsonschema.exceptions.best_match(error.context)
            where = ".".join(map(str, error.absolute_path)) or "(body)"
            found.append(f"{where}: {error.message[:300]}")
        return found

    @cache  # noqa: B019  # one Spec per process (spec()), kept for its life
    def _validator(self, schema_text: str, request: bool) -> Any:
        document = self.document
        if request:
            # Discord takes a snowflake as a number too (discord.py sends ids so), and answers
            # with strings only.
            schemas = {**document["components"]["schemas"], "SnowflakeType": REQUEST_SNOWFLAKE}
            document = {**document, "components": {**document["components"], "schemas": schemas}}
        schema = _absolute(_inlined(json.loads(schema_text), document, ()))
        return jsonschema.Draft202012Validator(schema, registry=self._registry)


def _by_type(node: Any, document: Json) -> Any:
    """`node` with each union (oneOf, anyOf) of objects told apart by their `type`
    (components, channels, interaction metadata, ...) made a choice by that type: the branch
    for the value's type alone is checked, as Discord reads it, not every branch (a component
    nested three deep would be tried against hundreds of schemas). The same verdicts at a
    fraction of the cost, and the branch's own errors; a type no branch has is refused."""
    if isinstance(node, list):
        return [_by_type(item, document) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _by_type(value, document) for key, value in node.items()}
    # Discord writes anyOf where it means oneOf too (x-discord-union says so).
    union = "oneOf" if "oneOf" in node else "anyOf"
    branches = node.get(union)
    if isinstance(branches, list) and len(branches) == 2 and {"type": "null"} in branches:
        # "null or this object": the object's own errors, not the union's.
        (other,) = [branch for branch in branches if branch != {"type": "null"}]
        rest = {key: value for key, value in node.items() if key != union}
        return {**rest, "if": {"type": "null"}, "else": other}
    if isinstance(branches, list) and all("$ref" in branch for branch in branches):
        kinds = [_type_values(branch["$ref"], document) for branch in branches]
        flat = [value for values in kinds for value in values]
        if all(kinds) and len(flat) == len(set(flat)):
            rest = {key: value for key, value in node.items() if key != union}
            choices = [
                {
                    "if": {"properties": {"type": {"enum": values}}, "required": ["type"]},
                    "then": branch,
                }
                for branch, values in zip(branches, kinds, strict=True)
            ]
            known = {"required": ["type"], "properties": {"type": {"enum": flat}}}
            return {**rest, "allOf": [*rest.get("allOf", []), known, *choices]}
    return node


def _type_values(ref: str, document: Json) -> list[Any]:
    """The values of `type` an object schema allows (enum or const), or [] if it does not say."""
    if not ref.startswith("#/components/schemas/"):
        return []
    schema = document["components"]["schemas"][ref.rsplit("/", 1)[1]]
    kind = (schema.get("properties") or {}).get("type") or {}
    if "const" in kind:
        return [kind["const"]]
    return list(kind.get("enum") or [])


def _inlined(node: Any, document: Json, within: tuple[str, ...]) -> Any:
    """`node` with each schema it refers to written in place (but a schema within itself):
    jsonschema then validates without looking refs up, several times faster."""
    if isinstance(node, list):
        return [_inlined(item, document, within) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/components/schemas/") and ref not in within:
        target = document["components"]["schemas"][ref.rsplit("/", 1)[1]]
        rest = {key: value for key, value in node.items() if key != "$ref"}
        inlined = _inlined(target, document, (*within, ref))
        if not rest:
            return inlined
        rest = _inlined(rest, document, within)
        return {**rest, "allOf": [inlined, *rest.get("allOf", [])]}
    return {key: _inlined(value, document, within) for key, value in node.items()}


def _absolute(node: Any) -> Any:
    """`node` with its refs ("#/components/...") made absolute (BASE_URI#/components/...), so
    that any part of the document validates on its own against the registry."""
    if isinstance(node, dict):
        return {
            key: (BASE_URI + value if key == "$ref" and value.startswith("#") else _absolute(value))
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [_absolute(item) for item in node]
    return node


@cache
def spec() -> Spec:
    """The extract kept in the repository (loaded once)."""
    return Spec(json.loads(EXTRACT.read_text(encoding="utf-8")))


def _template_pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"(\{[^}]+\})", template)
    return re.compile("".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts))


# ---------------------------------------------------------------------------------- the extract


def extract(full: Json, commit: str = "") -> Json:
    """The part of Discord's full spec the fake is checked against: OPERATIONS and every
    component they reach (transitively), in the spec's own layout."""
    paths: Json = {}
    for method, template in OPERATIONS:
        paths.setdefault(template, {})[method] = full["paths"][template][method]
    wanted: set[tuple[str, str]] = set()
    pending = list(_refs(paths)) + [("schemas", name) for name in GATEWAY_SCHEMAS]
    while pending:
        kind, name = pending.pop()
        if (kind, name) in wanted:
            continue
        wanted.add((kind, name))
        pending.extend(_refs(full["components"][kind][name]))
    components: Json = {}
    for kind, name in sorted(wanted):
        components.setdefault(kind, {})[name] = full["components"][kind][name]
    source = "github.com/discord/discord-api-spec specs/openapi.json"
    info = {**full["info"], "x-extract-of": f"{source} {commit}".strip()}
    return {"openapi": full["openapi"], "info": info, "paths": paths, "components": components}


def _refs(node: Any) -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/"):
            kind, name = ref.removeprefix("#/components/").split("/", 1)
            yield kind, name
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


def main(argv: list[str]) -> None:
    if not 1 <= len(argv) <= 2:
        sys.exit("usage: python -m fake_discord.openapi PATH/TO/openapi.json [COMMIT]")
    full = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    document = extract(full, argv[1] if len(argv) == 2 else "")
    EXTRACT.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
