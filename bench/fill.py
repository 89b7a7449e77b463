#!/usr/bin/env python3
"""Fills a perkdesk database (already migrated) with benchmark data:
100,000 staff users and 1,000,000 usage-history rows with their parents."""
import random
import sys
import time
import os

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import perkdesk_sqlite  # noqa: E402  (the az collation stand-in)

FIRST = ["Aysel", "Rəşad", "Günel", "Elvin", "Nigar", "Tural", "Leyla", "Orxan", "Səbinə", "Kamran", "Aygün", "Fərid"]
LAST = ["Məmmədova", "Əliyev", "Hüseynova", "Quliyev", "Həsənova", "İsmayılov", "Abbasova", "Rzayev", "Kərimova"]
OPS = ["50", "51", "55", "70", "77", "99", "10"]


def main(path, users, usage):
    rnd = random.Random(2026)
    db = perkdesk_sqlite.connect(path)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = OFF")
    started = time.time()
    with db:
        db.executemany(
            "INSERT INTO users (kind, first_name, last_name, email, phone, role_id, password_hash, totp_secret, is_active) "
            "VALUES ('staff', ?, ?, ?, ?, ?, 'x', 'JBSWY3DPEHPK3PXP', ?)",
            (
                (rnd.choice(FIRST), rnd.choice(LAST), f"user{i}@bench.perk.az",
                 f"994{rnd.choice(OPS)}{rnd.randrange(1000000, 9999999)}", i % 3, i % 10 != 0)
                for i in range(users)
            ),
        )
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
            "INSERT INTO campaign_categories (id, name_az, name_en, name_ru) VALUES (?, ?, ?, ?)",
            ((c, f"Kateqoriya {c}", f"Category {c}", f"Категория {c}") for c in range(1, 21)),
        )
        db.executemany(
            "INSERT INTO campaigns (id, partner_id, campaign_category_id, discount_percent, start_date, expire_date, "
            "name_az, name_en, name_ru, description_az, description_en, description_ru) "
            "VALUES (?, ?, ?, ?, '2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z', ?, ?, ?, 'T', 'D', 'O')",
            ((c, c % 200 + 1, c % 20 + 1, 5 + c % 50, f"Endirim {c}", f"Discount {c}", f"Скидка {c}") for c in range(1, 2001)),
        )
        db.executemany(
            "INSERT INTO employees (id, asset_id, first_name, last_name, email, phone) VALUES (?, ?, ?, ?, ?, '994501234567')",
            ((e, e % 50 + 1, rnd.choice(FIRST), rnd.choice(LAST), f"emp{e}@bench.perk.az") for e in range(1, 20001)),
        )

        def usage_rows():
            for i in range(usage):
                e = rnd.randrange(1, 20001)
                c = rnd.randrange(1, 2001)
                month = 1 + i % 12
                yield (e, e % 50 + 1, c % 200 + 1, c, c % 20 + 1, f"emp{e}@bench.perk.az", f"Asset {e % 50 + 1}",
                       f"Partner {c % 200 + 1}", f"Endirim {c}", f"Kateqoriya {c % 20 + 1}", 5 + c % 50,
                       rnd.choice([None, 3, 4, 5]), f"2026-{month:02d}-{1 + i % 28:02d}T12:00:00.000Z")

        db.executemany(
            "INSERT INTO usage_history (employee_id, asset_id, partner_id, campaign_id, category_id, employee_email, "
            "asset_name, partner_name, campaign_name, category_name, discount_percent, rating, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            usage_rows(),
        )
    perkdesk_sqlite.mark_sort_indexes_stale(db)
    db.execute("ANALYZE")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    print(f"filled {users} users and {usage} usage rows in {time.time() - started:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
