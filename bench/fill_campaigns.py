#!/usr/bin/env python3
"""Fills a perkdesk database (already migrated) with the campaign benchmark's data: 200 partners,
50 assets, 20 categories and N campaigns (default 10,000) spread evenly over them, each holding
its position 1..n within its category, with two assets each."""
import sys
import time
import os

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import perkdesk_sqlite  # noqa: E402  (the az collation stand-in)


def main(path, campaigns):
    db = perkdesk_sqlite.connect(path)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = OFF")
    started = time.time()
    with db:
        db.executemany(
            "INSERT INTO assets (id, name, contact_person, contact_person_phone_number, contact_person_email, barcode_prefix) "
            "VALUES (?, ?, 'Kontakt Şəxs', '994501234567', ?, 'AB1')",
            ((a, f"Asset {a}", f"asset{a}@bench.perk.az") for a in range(1, 51)),
        )
        db.executemany(
            "INSERT INTO partners (id, name, contact_person_first_name, contact_person_last_name, phone_number, email) "
            "VALUES (?, ?, 'Elvin', 'Quliyev', '994501234567', ?)",
            ((p, f"Partner {p}", f"partner{p}@bench.perk.az") for p in range(1, 201)),
        )
        db.executemany(
            "INSERT INTO campaign_categories (id, name_az, name_en, name_ru, order_no) VALUES (?, ?, ?, ?, ?)",
            ((c, f"Kateqoriya {c}", f"Category {c}", f"Категория {c}", c) for c in range(1, 21)),
        )
        # Campaign c is in category c % 20 + 1 at position (c - 1) // 20 + 1: every category 1..n.
        db.executemany(
            "INSERT INTO campaigns (id, partner_id, campaign_category_id, discount_percent, start_date, expire_date, "
            "name_az, name_en, name_ru, description_az, description_en, description_ru, order_no, is_premium, special_offer) "
            "VALUES (?, ?, ?, ?, '2026-01-01T00:00:00.000Z', ?, ?, ?, ?, 'Təsvir', 'Description', 'Описание', ?, ?, ?)",
            (
                (c, c % 200 + 1, c % 20 + 1, 5 + c % 50, f"2027-{1 + c % 12:02d}-{1 + c % 28:02d}T12:00:00.000Z",
                 f"Endirim {c}", f"Discount {c}", f"Скидка {c}", (c - 1) // 20 + 1, c % 7 == 0, c % 5 == 0)
                for c in range(1, campaigns + 1)
            ),
        )
        db.executemany(
            "INSERT INTO campaign_assets (campaign_id, asset_id) VALUES (?, ?)",
            ((c, a) for c in range(1, campaigns + 1) for a in {c % 50 + 1, (c * 7) % 50 + 1}),
        )
    perkdesk_sqlite.mark_sort_indexes_stale(db)
    db.execute("ANALYZE")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    print(f"filled {campaigns} campaigns in {time.time() - started:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
