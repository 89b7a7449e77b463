"""Python's sqlite3 on a perkdesk database.

perkdesk sorts text in its `az` collation (ICU4X's Azerbaijani order), which only perkdesk has, and
its sort indexes are built in it (migration 16). Here `az` is a stand-in in code-point order: SQLite
seeks in an index only for comparisons in the index's own collation, which plain SQL never asks
for, so reads are exact; and after a bulk fill, `mark_sort_indexes_stale` makes the next perkdesk
start rebuild those indexes in the real order (`perkdesk sql --db FILE "SELECT 1"` does it at
once). A check of the whole file (`PRAGMA integrity_check`) goes through `perkdesk sql`.
"""

import sqlite3


def connect(path, **kwargs):
    db = sqlite3.connect(path, **kwargs)
    db.create_collation("az", lambda a, b: (a > b) - (a < b))
    return db


def mark_sort_indexes_stale(db):
    """The rows written here sit in the sort indexes in the stand-in's order: perkdesk rebuilds them."""
    db.execute("DELETE FROM collations")
    db.commit()
