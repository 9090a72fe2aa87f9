"""The bot's English words that tests check, written out here rather than taken from the bot."""

# Cell indexes 0-8, row by row.
CELL_NAMES = (
    "top left",
    "top middle",
    "top right",
    "middle left",
    "centre",
    "middle right",
    "bottom left",
    "bottom middle",
    "bottom right",
)
