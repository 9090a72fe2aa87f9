import pytest
from bot_helpers import make_bot


@pytest.fixture
def simcord_bot():
    return make_bot()
