#!/usr/bin/env python3
"""Loads the rows of PocketBase's load.py --csv into a fresh perkdesk database (made by
`perkdesk create-admin`), so both servers answer over the same usage history.

perkdesk references each record's parents by id and keeps their names on the record, so the
parents are derived from the CSV's names: one partner per distinct partner_name, one asset per
asset_name, one campaign per campaign_name (in one of ten categories), one employee per e-mail.
The CSV pairs these at random, so a campaign's own partner and an employee's own asset are
placeholders (the first partner by index, the asset of the employee's first row); the record
keeps the CSV's partner and asset. Usage rows go in with plain INSERTs in the CSV's order (as
PocketBase got them), so the triggers keep the counts and the trigram index as they do in
production; perkdesk's discount is a whole percent, so the CSV's 23.4 is stored as 23.

Usage: load_csv.py DB CSV
"""
import csv
import sys
import time
import os

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import perkdesk_sqlite  # noqa: E402  (the az collation stand-in)


def main(path, csv_path):
    started = time.time()
    with open(csv_path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        assert header == ["id", "employee_email", "asset_name", "partner_name", "campaign_name",
                          "discount_percent", "created_date"], header
        rows = list(reader)

    partners = {n: i for i, n in enumerate(sorted({r[3] for r in rows}), 1)}
    assets = {n: i for i, n in enumerate(sorted({r[2] for r in rows}), 1)}
    campaigns = {n: i for i, n in enumerate(sorted({r[4] for r in rows}), 1)}
    employees = {}
    for r in rows:
        if r[1] not in employees:
            employees[r[1]] = (len(employees) + 1, assets[r[2]])
    categories = 10

    db = perkdesk_sqlite.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = OFF")
    # Thirteen indexes, the trigram table and the count tables all change on every insert: a
    # cache that holds them keeps the load from re-reading pages it has just written.
    db.execute("PRAGMA cache_size = -1500000")
    db.execute("BEGIN")
    db.executemany(
        "INSERT INTO partners (id, name, contact_person_first_name, contact_person_last_name, phone_number, email) "
        "VALUES (?, ?, 'Elvin', 'Quliyev', '994501234567', ?)",
        ((i, n, f"{n}@bench.perk.az") for n, i in partners.items()),
    )
    db.executemany(
        "INSERT INTO assets (id, name, contact_person, contact_person_phone_number, contact_person_email, barcode_prefix) "
        "VALUES (?, ?, 'Kontakt Şəxs', '994501234567', ?, 'AB1')",
        ((i, n, f"{n}@bench.perk.az") for n, i in assets.items()),
    )
    db.executemany(
        "INSERT INTO campaign_categories (id, name_az, name_en, name_ru) VALUES (?, ?, ?, ?)",
        ((c, f"category_{c}", f"category_{c}", f"category_{c}") for c in range(1, categories + 1)),
    )
    db.executemany(
        "INSERT INTO campaigns (id, partner_id, campaign_category_id, discount_percent, start_date, expire_date, "
        "name_az, name_en, name_ru, description_az, description_en, description_ru) "
        "VALUES (?, ?, ?, 25, '2023-01-01T00:00:00.000Z', '2026-12-31T00:00:00.000Z', ?, ?, ?, 'T', 'D', 'O')",
        ((i, (i - 1) % len(partners) + 1, (i - 1) % categories + 1, n, n, n) for n, i in campaigns.items()),
    )
    db.executemany(
        "INSERT INTO employees (id, asset_id, first_name, last_name, email, phone) VALUES (?, ?, 'Bench', 'Employee', ?, '994501234567')",
        ((i, a, e) for e, (i, a) in employees.items()),
    )

    def usage_rows():
        for _, email, asset, partner, campaign, discount, created in rows:
            c = campaigns[campaign]
            category = (c - 1) % categories + 1
            yield (employees[email][0], assets[asset], partners[partner], c, category, email, asset, partner,
                   campaign, f"category_{category}", int(float(discount) + 0.5), created.replace(" ", "T"))

    db.executemany(
        "INSERT INTO usage_history (employee_id, asset_id, partner_id, campaign_id, category_id, employee_email, "
        "asset_name, partner_name, campaign_name, category_name, discount_percent, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        usage_rows(),
    )
    db.execute("COMMIT")
    loaded = time.time()
    # As bench/fill.py does, so these figures compare with the earlier ones on generated rows.
    perkdesk_sqlite.mark_sort_indexes_stale(db)
    db.execute("ANALYZE")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    n = db.execute("SELECT COUNT(*) FROM usage_history WHERE deleted_at IS NULL").fetchone()[0]
    counted = db.execute("SELECT n FROM row_counts WHERE name = 'usage_history'").fetchone()
    db.close()
    if n != len(rows):
        sys.exit(f"perkdesk holds {n} usage rows, the CSV {len(rows)}")
    print(f"perkdesk: {n} usage rows (row_counts {counted[0] if counted else '?'}), {len(partners)} partners, "
          f"{len(assets)} assets, {len(campaigns)} campaigns, {len(employees)} employees; inserted in "
          f"{loaded - started:.0f} s, ANALYZE and checkpoint {time.time() - loaded:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
