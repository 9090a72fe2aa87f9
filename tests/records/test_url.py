"""DATABASE_URL as the records read it: what is accepted, what is refused in one line, and
that neither a refusal nor a log line shows the password."""

import pytest

from bot.records.sql.url import UnsupportedDatabaseError, describe, parse_url, safe_url

SECRET = "s3cret-password"


@pytest.mark.parametrize(
    "url",
    [
        "sqlite+aiosqlite:///records.db",
        "sqlite+aiosqlite:////var/lib/tictactoe/records.db",
        f"postgresql+asyncpg://bot:{SECRET}@db:5432/tictactoe",
    ],
)
def test_async_sqlite_and_postgresql_are_accepted(url):
    assert parse_url(url).render_as_string(hide_password=False) == url


@pytest.mark.parametrize(
    ("url", "says"),
    [
        (f"postgresql://bot:{SECRET}@db/t", "start it with postgresql+asyncpg://"),
        (f"postgres://bot:{SECRET}@db/t", "start it with postgresql+asyncpg://"),
        (f"postgresql+psycopg2://bot:{SECRET}@db/t", "needs an async one"),
        ("sqlite:///records.db", "start it with sqlite+aiosqlite://"),
        (f"mysql+aiomysql://bot:{SECRET}@db/t", "names the database 'mysql'"),
        (f"not a url {SECRET}", "is not a database URL"),
    ],
)
def test_others_are_refused_in_one_line_without_the_url(url, says):
    with pytest.raises(UnsupportedDatabaseError) as refused:
        parse_url(url)
    message = str(refused.value)
    assert message.startswith("DATABASE_URL")
    assert says in message
    assert "\n" not in message
    assert SECRET not in message


def test_logs_show_the_url_with_its_password_masked():
    shown = safe_url(f"postgresql+asyncpg://bot:{SECRET}@db:5432/tictactoe")
    assert shown == "postgresql+asyncpg://bot:***@db:5432/tictactoe"
    assert safe_url(f"nonsense {SECRET}") == "<not a URL>"


def test_a_driver_error_is_one_line_naming_the_driver_exception():
    try:
        try:
            raise ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 5)")
        except ConnectionRefusedError as cause:
            raise RuntimeError("wrapped\nINSERT INTO games ...") from cause
    except RuntimeError as error:
        line = describe(error)
    assert line == "ConnectionRefusedError: [Errno 111] Connect call failed ('127.0.0.1', 5)"
