"""Developer tools that are not part of the bot (run them with `python -m tools.<name>`)."""
