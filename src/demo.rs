//! Demo data: a realistic Azerbaijani back office to click through, and a known demo admin.

use anyhow::Context;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rusqlite::{OptionalExtension, Transaction};

use crate::auth::{password, totp};
use crate::db::Db;

pub const ADMIN_EMAIL: &str = "admin@perkdesk.az";
pub const ADMIN_PASSWORD: &str = "Demo-Admin-2026";

pub struct DemoAdmin {
    pub email: String,
    pub password: String,
    pub totp_secret: String,
}

const FIRST_NAMES: [&str; 24] = [
    "Aysel", "Rəşad", "Günel", "Elvin", "Nigar", "Tural", "Leyla", "Orxan", "Səbinə", "Kamran", "Aygün", "Fərid",
    "Nərmin", "Ramil", "Lalə", "Vüqar", "Könül", "Emin", "Sevinc", "Murad", "Zəhra", "Anar", "Fidan", "Elnur",
];
const LAST_NAMES: [&str; 24] = [
    "Məmmədova",
    "Əliyev",
    "Hüseynova",
    "Quliyev",
    "Həsənova",
    "İsmayılov",
    "Abbasova",
    "Rzayev",
    "Kərimova",
    "Nəsirov",
    "Babayeva",
    "Cəfərov",
    "Mustafayeva",
    "Səfərov",
    "Orucova",
    "Bağırov",
    "Vəliyeva",
    "Sadıqov",
    "Qasımova",
    "Zeynalov",
    "Əhmədova",
    "Mirzəyev",
    "İbrahimova",
    "Novruzov",
];
const LATIN: [(&str, &str); 12] = [
    ("ə", "e"),
    ("Ə", "E"),
    ("ş", "sh"),
    ("Ş", "Sh"),
    ("ç", "ch"),
    ("Ç", "Ch"),
    ("ğ", "g"),
    ("ı", "i"),
    ("İ", "I"),
    ("ö", "o"),
    ("ü", "u"),
    ("Ü", "U"),
];
const OPERATORS: [&str; 7] = ["50", "51", "55", "70", "77", "99", "10"];

fn ascii(name: &str) -> String {
    LATIN.iter().fold(name.to_string(), |text, (from, to)| text.replace(from, to)).to_lowercase()
}

pub fn phone(rng: &mut StdRng) -> String {
    format!("994{}{:07}", OPERATORS[rng.random_range(0..OPERATORS.len())], rng.random_range(1_000_000..9_999_999))
}

/// Fills a fresh database and makes sure the demo admin can sign in with the printed password.
pub fn prepare(db: &Db, fresh: bool) -> anyhow::Result<DemoAdmin> {
    let mut conn = db.conn()?;
    let tx = conn.transaction()?;
    let hash = password::hash(ADMIN_PASSWORD)?;
    let existing: Option<String> = tx
        .query_row("SELECT totp_secret FROM users WHERE email = ?1 AND deleted_at IS NULL", [ADMIN_EMAIL], |r| r.get(0))
        .optional()?;
    let totp_secret = match existing {
        Some(secret) => {
            tx.execute(
                "UPDATE users SET password_hash = ?2, is_active = 1, role_id = 0, locked_until = NULL WHERE email = ?1",
                (ADMIN_EMAIL, &hash),
            )?;
            secret
        }
        None => {
            let secret = totp::new_secret();
            tx.execute(
                "INSERT INTO users (kind, first_name, last_name, email, phone, role_id, password_hash, totp_secret)
                 VALUES ('staff', 'Aysel', 'Məmmədova', ?1, '994501234567', 0, ?2, ?3)",
                (ADMIN_EMAIL, &hash, &secret),
            )?;
            secret
        }
    };
    if fresh {
        fill(&tx).context("cannot write the demo data")?;
    }
    tx.commit()?;
    Ok(DemoAdmin { email: ADMIN_EMAIL.into(), password: ADMIN_PASSWORD.into(), totp_secret })
}

fn fill(tx: &Transaction) -> anyhow::Result<()> {
    let mut rng = StdRng::seed_from_u64(2026);
    let staff_hash = password::hash("Perkdesk-Staff-1")?;
    for index in 1..FIRST_NAMES.len() {
        let first = FIRST_NAMES[index];
        let last = LAST_NAMES[(index * 7) % LAST_NAMES.len()];
        let role = match index % 6 {
            0 => 0,
            1 | 2 => 2,
            _ => 1,
        };
        tx.execute(
            "INSERT INTO users (kind, first_name, last_name, email, phone, role_id, password_hash, totp_secret, is_active)
             VALUES ('staff', ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            (
                first,
                last,
                format!("{}.{}@perkdesk.az", ascii(first), ascii(last)),
                phone(&mut rng),
                role,
                &staff_hash,
                totp::new_secret(),
                index % 9 != 0,
            ),
        )?;
    }
    Ok(())
}
