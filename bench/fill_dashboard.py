#!/usr/bin/env python3
"""Fills a perkdesk database (already migrated) with the dashboard benchmark's data: 500 assets,
P partners (default 2,000) with 10 campaigns each in 30 categories, E employees (default
200,000; a tenth inactive, a hundredth deleted) and U usage-history rows (default 1,000,000)
spread evenly over 2025 and 2026, most with a 1-5 rating, a hundredth deleted. Plain inserts into
the real schema: the triggers of migrations 1, 5 and 7 keep the trigram index, the list total and
the dashboard's counts as they would for any writer.
Usage: fill_dashboard.py DB USAGE [EMPLOYEES] [PARTNERS]"""
import random
import sys
import time
import os

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import perkdesk_sqlite  # noqa: E402  (the az collation stand-in)

FIRST = ["Aysel", "Rəşad", "Günel", "Elvin", "Nigar", "Tural", "Leyla", "Orxan", "Səbinə", "Kamran"]
LAST = ["Məmmədova", "Əliyev", "Hüseynova", "Quliyev", "Həsənova", "İsmayılov", "Abbasova", "Rzayev"]
ASSETS = 500
CATEGORIES = 30
# Rows per transaction: large, so the trigram index's pending terms are flushed (and its segments
# merged) rarely, but small enough to print progress every few seconds.
BATCH = 250_000
# 2025-01-01T00:00:00Z and the two years after it, in seconds.
EPOCH_2025 = 1_735_689_600
TWO_YEARS = 730 * 86_400
# A prime above every i * multiplier product's range of interest: (i * m) % P for i < P is a
# permutation, so the employee and campaign of row i look random yet the fill is repeatable.
P = 4_294_967_291

# Rows are generated in SQL rather than passed in from Python (the per-row work then stays in
# SQLite's C code), in created_at order, so the date index and the rowid only ever append. Every
# product stays under 2^63 for i below 10^9.
USAGE_INSERT = f"""
WITH RECURSIVE n(i) AS (SELECT :start UNION ALL SELECT i + 1 FROM n WHERE i + 1 < :end),
r AS (
    SELECT i,
           1 + (i * 2654435761) % {P} % :employees AS e,
           1 + (i * 1597334677 + 7) % {P} % :campaigns AS c,
           (i * 805306457 + 3) % {P} % 5 AS rating_draw
    FROM n
)
INSERT INTO usage_history (employee_id, asset_id, partner_id, campaign_id, category_id, employee_email, asset_name,
    partner_name, campaign_name, category_name, discount_percent, rating, created_at, deleted_at)
SELECT e, e % {ASSETS} + 1, c % :partners + 1, c, c % {CATEGORIES} + 1, 'emp' || e || '@bench.perk.az',
       'Asset ' || (e % {ASSETS} + 1), 'Partner ' || (c % :partners + 1), 'Endirim ' || c,
       'Kateqoriya ' || (c % {CATEGORIES} + 1), 5 + c % 50,
       CASE rating_draw WHEN 0 THEN NULL WHEN 1 THEN 3 WHEN 2 THEN 4 ELSE 5 END,
       strftime('%Y-%m-%dT%H:%M:%fZ', {EPOCH_2025} + i * {TWO_YEARS} / :usage, 'unixepoch'),
       CASE WHEN i % 100 = 0 THEN '2026-06-01T00:00:00.000Z' END
FROM r
"""


def main(path, usage, employees, partners):
    rnd = random.Random(14)
    db = perkdesk_sqlite.connect(path, isolation_level=None)
    # Only for the fill, which writes a file that is renamed into place when it is complete (a
    # crash leaves a .new file to delete, not a database to trust): no rollback journal, no
    # fsync, and a page cache that holds the whole database, so the usage table's 13 indexes and
    # its trigram index are updated in memory instead of re-read from disk on every insert.
    db.execute("PRAGMA journal_mode = OFF")
    db.execute("PRAGMA synchronous = OFF")
    db.execute("PRAGMA locking_mode = EXCLUSIVE")
    db.execute("PRAGMA temp_store = MEMORY")
    db.execute("PRAGMA cache_size = -8388608")  # 8 GiB (the machine has 24); only what is used is allocated.
    started = time.time()
    campaigns = partners * 10
    db.execute("BEGIN")
    db.executemany(
        "INSERT INTO assets (id, name, contact_person, contact_person_phone_number, contact_person_email, barcode_prefix) "
        "VALUES (?, ?, 'Kontakt Şəxs', '994501234567', ?, 'AB1')",
        ((a, f"Asset {a}", f"asset{a}@bench.perk.az") for a in range(1, ASSETS + 1)),
    )
    db.executemany(
        "INSERT INTO partners (id, name, contact_person_first_name, contact_person_last_name, phone_number, email) "
        "VALUES (?, ?, 'Elvin', 'Quliyev', '994501234567', ?)",
        ((p, f"Partner {p}", f"partner{p}@bench.perk.az") for p in range(1, partners + 1)),
    )
    db.executemany(
        "INSERT INTO campaign_categories (id, name_az, name_en, name_ru, order_no) VALUES (?, ?, ?, ?, ?)",
        ((c, f"Kateqoriya {c}", f"Category {c}", f"Категория {c}", c) for c in range(1, CATEGORIES + 1)),
    )
    db.executemany(
        "INSERT INTO campaigns (id, partner_id, campaign_category_id, discount_percent, start_date, expire_date, "
        "name_az, name_en, name_ru, description_az, description_en, description_ru, order_no) "
        "VALUES (?, ?, ?, ?, '2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z', ?, ?, ?, 'T', 'D', 'O', ?)",
        ((c, c % partners + 1, c % CATEGORIES + 1, 5 + c % 50, f"Endirim {c}", f"Discount {c}", f"Скидка {c}",
          (c - 1) // CATEGORIES + 1) for c in range(1, campaigns + 1)),
    )
    db.executemany(
        "INSERT INTO employees (id, asset_id, first_name, last_name, email, phone, is_active, deleted_at) "
        "VALUES (?, ?, ?, ?, ?, '994501234567', ?, ?)",
        ((e, e % ASSETS + 1, rnd.choice(FIRST), rnd.choice(LAST), f"emp{e}@bench.perk.az", e % 10 != 0,
          "2026-01-01T00:00:00.000Z" if e % 100 == 0 else None) for e in range(1, employees + 1)),
    )
    db.execute("COMMIT")
    print(f"parents written in {time.time() - started:.0f} s", file=sys.stderr)

    usage_started = time.time()
    for start in range(0, usage, BATCH):
        end = min(start + BATCH, usage)
        db.execute("BEGIN")
        db.execute(USAGE_INSERT, {"start": start, "end": end, "employees": employees, "campaigns": campaigns,
                                  "partners": partners, "usage": usage})
        db.execute("COMMIT")
        elapsed = time.time() - usage_started
        print(f"{end:,} of {usage:,} usage rows in {elapsed:.0f} s ({end / max(elapsed, 0.001):,.0f}/s)",
              file=sys.stderr, flush=True)
    usage_seconds = time.time() - usage_started
    # Sampled statistics: a full ANALYZE reads every index of the 10,000,000-row table again.
    perkdesk_sqlite.mark_sort_indexes_stale(db)
    db.execute("PRAGMA analysis_limit = 2000")
    db.execute("ANALYZE")
    # The server opens the file in WAL mode, as create-admin left it.
    db.execute("PRAGMA locking_mode = NORMAL")
    db.execute("PRAGMA journal_mode = WAL")
    db.close()
    print(f"filled {employees} employees, {partners} partners and {usage} usage rows in {time.time() - started:.0f} s "
          f"(usage rows: {usage_seconds:.0f} s, {usage / max(usage_seconds, 0.001):,.0f}/s)", file=sys.stderr)


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[0], int(args[1]), int(args[2]) if len(args) > 2 else 200_000, int(args[3]) if len(args) > 3 else 2_000)
