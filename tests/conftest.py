import uuid
from dataclasses import dataclass
from typing import Any

import pytest
import simcord.interactions
from bot_helpers import check_modals, make_bot, payload_problems, sent_messages
from simcord import Env

from testdb.postgres import start_or_skip


@pytest.fixture
def simcord_bot():
    return make_bot()


@dataclass(frozen=True)
class World:
    """A server with a #games channel and three members: two players and an onlooker."""

    env: Any
    guild: Any
    channel: Any
    alice: Any
    bob: Any
    carol: Any


@pytest.fixture
def world(simcord_env, monkeypatch) -> World:
    quick_settle(monkeypatch)
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    alice, bob, carol = (
        guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "carol")
    )
    return World(simcord_env, guild, channel, alice, bob, carol)


def quick_settle(monkeypatch) -> None:
    """SimCord waits up to 50 ms of real time for the bot to go quiet after every action
    (Env.settle's `idle`); a shorter poll keeps the simulated clock and the results the same
    and makes these tests about five times faster."""
    defaults = getattr(getattr(Env, "_settle_internal", None), "__kwdefaults__", None)
    if defaults is not None and "idle" in defaults:
        monkeypatch.setitem(defaults, "idle", 0.001)


@pytest.fixture
def discord_rules(world):
    """After the test: every interaction was answered (no "interaction failed") and every
    message the bot sent or edited stayed within Discord's limits."""
    yield world
    env = world.env
    unanswered = [i for i in env.backend.interactions.values() if not i.responded]
    assert not unanswered, f"{len(unanswered)} interaction(s) never answered"
    for body in sent_messages(env):
        assert not payload_problems(body), (payload_problems(body), body)
    check_modals(env)


@pytest.fixture
def payload_fields(monkeypatch):
    """user id -> fields to set on that user's interactions.

    SimCord always sends `locale: en-US` and no install context, so this wraps its
    INTERACTION_CREATE builder (`simcord.interactions.base_payload`) and overlays the fields
    Discord would send for a given user: their `locale`, `authorizing_integration_owners` (who
    installed the app) and their permissions in the channel (`_allow`, `_deny`)."""
    overlays: dict[int, dict] = {}
    build = simcord.interactions.base_payload

    def with_overlay(*args, **kwargs):
        record, payload = build(*args, **kwargs)
        payload.update(overlays.get(kwargs["user_id"], {}))
        member = payload.get("member")
        overlay = overlays.get(kwargs["user_id"], {})
        if member is not None:
            permissions = int(member["permissions"]) | overlay.get("_allow", 0)
            member["permissions"] = str(permissions & ~overlay.get("_deny", 0))
        payload.pop("_deny", None)
        payload.pop("_allow", None)
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", with_overlay)
    return overlays


# Records storage: the same tests on a real SQLite file and a real PostgreSQL server.


@pytest.fixture(scope="session")
def postgres_server():
    """One PostgreSQL server for the whole run (each test gets its own database in it)."""
    server = start_or_skip()
    yield server
    server.destroy()


@pytest.fixture
def postgres_url(postgres_server):
    with postgres_server.database(f"test_{uuid.uuid4().hex[:16]}") as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    """A fresh, empty records database on each backend."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'records.db'}"
    return request.getfixturevalue("postgres_url")
