#!/usr/bin/env python3
"""Fills a perkdesk database (already migrated) with the dashboard benchmark's data: 500 assets,
P partners (default 2,000) with 10 campaigns each in 30 categories, E employees (default
200,000; a tenth inactive, a hundredth deleted) and U usage-history rows (default 1,000,000)
spread over 2025 and 2026, most with a 1-5 rating, a hundredth deleted. Plain inserts: the
triggers of migration 7 keep the dashboard's counts as they would for any writer.
Usage: fill_dashboard.py DB USAGE [EMPLOYEES] [PARTNERS]"""
import random
import sqlite3
import sys
import time

FIRST = ["Aysel", "Rəşad", "Günel", "Elvin", "Nigar", "Tural", "Leyla", "Orxan", "Səbinə", "Kamran"]
LAST = ["Məmmədova", "Əliyev", "Hüseynova", "Quliyev", "Həsənova", "İsmayılov", "Abbasova", "Rzayev"]
ASSETS = 500
CATEGORIES = 30
BATCH = 100_000


def main(path, usage, employees, partners):
    rnd = random.Random(14)
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = OFF")
    db.execute("PRAGMA cache_size = -262144")
    started = time.time()
    campaigns = partners * 10
    with db:
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
    print(f"parents written in {time.time() - started:.0f} s", file=sys.stderr)

    def usage_rows(start, end):
        for i in range(start, end):
            e = rnd.randrange(1, employees + 1)
            c = rnd.randrange(1, campaigns + 1)
            p = c % partners + 1
            k = c % CATEGORIES + 1
            year = 2025 + i % 2
            month = 1 + (i // 2) % 12
            yield (e, e % ASSETS + 1, p, c, k, f"emp{e}@bench.perk.az", f"Asset {e % ASSETS + 1}", f"Partner {p}",
                   f"Endirim {c}", f"Kateqoriya {k}", 5 + c % 50, rnd.choice([None, 3, 4, 5, 5]),
                   f"{year}-{month:02d}-{1 + i % 28:02d}T12:00:00.000Z",
                   "2026-06-01T00:00:00.000Z" if i % 100 == 0 else None)

    for start in range(0, usage, BATCH):
        with db:
            db.executemany(
                "INSERT INTO usage_history (employee_id, asset_id, partner_id, campaign_id, category_id, employee_email, "
                "asset_name, partner_name, campaign_name, category_name, discount_percent, rating, created_at, deleted_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                usage_rows(start, min(start + BATCH, usage)),
            )
        done = min(start + BATCH, usage)
        rate = done / max(time.time() - started, 1)
        print(f"\r{done:,} of {usage:,} usage rows ({rate:,.0f}/s)", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    db.execute("ANALYZE")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    print(f"filled {employees} employees, {partners} partners and {usage} usage rows in {time.time() - started:.0f} s",
          file=sys.stderr)


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[0], int(args[1]), int(args[2]) if len(args) > 2 else 200_000, int(args[3]) if len(args) > 3 else 2_000)
