"""The tournaments' store on a fresh database of each backend (tests/conftest.py's
`database_url`: SQLite and PostgreSQL)."""

import pytest

from tests.tournaments.store_support import open_store


@pytest.fixture
async def store(database_url):
    storage, store = await open_store(database_url)
    yield store
    await storage.close()
