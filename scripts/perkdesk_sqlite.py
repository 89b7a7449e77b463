"""Python's sqlite3 on a perkdesk database.

perkdesk sorts text in its `az` collation (ICU4X's Azerbaijani order), which only perkdesk has, and
its sort indexes are built on that collation's sort key, `az_key(column)` (migration 17). Here `az`
and `az_key` are stand-ins in code-point order: SQLite uses those indexes only for the expression
they are built on, which plain SQL never names, so reads are exact; and after a bulk fill,
`mark_sort_indexes_stale` makes the next perkdesk start rebuild those indexes in the real order
(`perkdesk sql --db FILE "SELECT 1"` does it at once). A check of the whole file (`PRAGMA integrity_check`) goes through `perkdesk sql`.
"""

import sqlite3


def connect(path, **kwargs):
    db = sqlite3.connect(path, **kwargs)
    db.create_collation("az", lambda a, b: (a > b) - (a < b))
    db.create_function("az_key", 1, stand_in_key, deterministic=True)
    # perkdesk's group commit queues search index entries for its COMMIT (migration 18); any
    # other writer, this one too, writes them at once.
    db.create_function("search_deferred", 1, lambda index: 0)
    return db


def stand_in_key(text):
    return None if text is None else str(text).encode()


def mark_sort_indexes_stale(db):
    """The rows written here sit in the sort indexes in the stand-in's order: perkdesk rebuilds them."""
    db.execute("DELETE FROM collations")
    db.commit()
