import random

import pytest

from bot.client import TicTacToeBot
from bot.settings import Settings

GAME_TIMEOUT = 600


def make_bot(seed: int = 0, guild_id: int | None = None) -> TicTacToeBot:
    settings = Settings(
        token="not-a-real-token", guild_id=guild_id, game_timeout_seconds=GAME_TIMEOUT
    )
    return TicTacToeBot(settings, rng=random.Random(seed))


@pytest.fixture
def simcord_bot():
    return make_bot()
