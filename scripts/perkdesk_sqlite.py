"""Python's sqlite3 on a perkdesk database.

perkdesk sorts text in its `az` collation (ICU4X's Azerbaijani order), which only perkdesk has, and
its sort indexes are built on that collation's sort key, `az_key(column)` (migration 17). Here `az`
and `az_key` are stand-ins in code-point order: SQLite uses those indexes only for the expression
they are built on, which plain SQL never names, so reads are exact; and after a bulk fill,
`mark_sort_indexes_stale` makes the next perkdesk start rebuild those indexes in the real order
(`perkdesk sql --db FILE "SELECT 1"` does it at once). A check of the whole file (`PRAGMA integrity_check`) goes through `perkdesk sql`.

The activity log's triggers (in the file) call `activity_actor`, `activity_changes` and
`activity_action`: a connection without them cannot write a recorded table. Here they record every
write as the command line's (`cli`), with the changed fields as perkdesk records them.
"""

import json
import sqlite3


def connect(path, **kwargs):
    db = sqlite3.connect(path, **kwargs)
    db.create_collation("az", lambda a, b: (a > b) - (a < b))
    db.create_function("az_key", 1, stand_in_key, deterministic=True)
    # perkdesk's group commit queues search index entries for its COMMIT (migration 18); any
    # other writer, this one too, writes them at once.
    db.create_function("search_deferred", 1, lambda index: 0)
    db.create_function("activity_actor", 1, lambda part: "cli" if part == 0 else (None if part == 1 else "cli"))
    db.create_function("activity_changes", -1, activity_changes, deterministic=True)
    db.create_function("activity_action", 1, activity_action, deterministic=True)
    return db


def activity_changes(*triples):
    """The changed fields as JSON (`{"field": [old, new]}`, a secret's as "changed"), else None."""
    changed = {}
    for i in range(0, len(triples) - 2, 3):
        name, old, new = triples[i], triples[i + 1], triples[i + 2]
        if old == new:
            continue
        if name.startswith("*"):
            changed[name[1:]] = "changed"
        else:
            changed[name] = ["changed" if isinstance(v, bytes) else v for v in (old, new)]
    return json.dumps(changed, ensure_ascii=False, separators=(",", ":")) if changed else None


def activity_action(changes):
    """What an update was, as perkdesk names it (a subset: enough for a script's writes)."""
    changed = json.loads(changes or "{}")
    deleted = changed.get("deletedAt")
    if isinstance(deleted, list):
        return "delete" if deleted[0] is None else "restore"
    states = {"isActive", "status", "notificationStatus", "isRead"}
    return "statusChange" if changed and set(changed) <= states else "update"


def stand_in_key(text):
    return None if text is None else str(text).encode()


def mark_sort_indexes_stale(db):
    """The rows written here sit in the sort indexes in the stand-in's order: perkdesk rebuilds them."""
    db.execute("DELETE FROM collations")
    db.commit()
