"""Alembic migrations of the records database, run by `bot.records.sql.storage` at start-up.

A new revision, after changing bot/records/sql/schema.py (from the repository's root):
`python -m bot.records.sql.migrations revision "what changed"` autogenerates it against a
scratch SQLite database migrated to the current head; review it before committing.
"""
