"""How far the leaderboards go: every board (ratings, the bot's, puzzles) pages within its top
MAX_BOARD_ROWS rows."""

from __future__ import annotations

import math

# How deep a board goes. A page is read with OFFSET: PostgreSQL and SQLite step over one index
# entry per row skipped, so without a cap the last page of a million players would read a
# million entries. Keyset paging (a Next button carrying the last row's sort key) would avoid
# that but not let a page be reached by number; past the top thousand a player's place is in
# their /stats (their rank), which is one index range count.
MAX_BOARD_ROWS = 1000


def page_bounds(total: int, page: int, per_page: int) -> tuple[int, int]:
    """The page (clamped) and the number of pages, within the first MAX_BOARD_ROWS rows."""
    if per_page < 1:
        raise ValueError("per_page must be at least 1")
    pages = max(1, math.ceil(min(total, MAX_BOARD_ROWS) / per_page))
    return min(max(page, 0), pages - 1), pages
