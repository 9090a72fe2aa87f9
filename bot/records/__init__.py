"""Remembering games: records, stats, leaderboards and ratings.

The game cog announces finished games (bot.core.finished); this package listens, queues them,
and writes them in the background. Nothing here runs on a click's path.
"""
