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
    fill_assets_and_hr(tx, &mut rng)?;
    fill_partners(tx, &mut rng)?;
    Ok(())
}

/// (name, contact person, logo)
const ASSETS: [(&str, &str, &[u8]); 6] = [
    ("Xəzər Telekom", "Nigar Həsənova", include_bytes!("../assets/demo/asset-xezer-telekom.png")),
    ("Qafqaz Bank", "Kamran Nəsirov", include_bytes!("../assets/demo/asset-qafqaz-bank.png")),
    ("Abşeron Enerji", "Səbinə Kərimova", include_bytes!("../assets/demo/asset-abseron-enerji.png")),
    ("Naftalan Holdinq", "Orxan Rzayev", include_bytes!("../assets/demo/asset-naftalan-holdinq.png")),
    ("Gəncə Qızıl", "Aygün Babayeva", include_bytes!("../assets/demo/asset-gence-qizil.png")),
    ("Bakı Mobil", "Fərid Cəfərov", include_bytes!("../assets/demo/asset-baki-mobil.png")),
];

fn fill_assets_and_hr(tx: &Transaction, rng: &mut StdRng) -> anyhow::Result<()> {
    let hr_hash = password::hash("Perkdesk-Hr-1")?;
    for (index, (name, contact, logo)) in ASSETS.iter().enumerate() {
        let file_id = crate::files::store_image(tx, logo)?;
        let domain = format!("{}.az", ascii(name).replace(' ', ""));
        let (first, _) = contact.split_once(' ').unwrap_or((contact, ""));
        tx.execute(
            "INSERT INTO assets (name, contact_person, contact_person_phone_number, contact_person_email, barcode_prefix, file_id, is_active)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            (name, contact, phone(rng), format!("{}@{domain}", ascii(first)), format!("{}{}", ascii(name).chars().next().unwrap_or('A').to_ascii_uppercase(), index + 1), file_id, index != 5),
        )?;
        let asset_id = tx.last_insert_rowid();
        for (offset, hr_first) in
            [FIRST_NAMES[(index * 2 + 5) % 24], FIRST_NAMES[(index * 2 + 11) % 24]].into_iter().enumerate()
        {
            let hr_last = LAST_NAMES[(index * 3 + offset * 5 + 2) % 24];
            tx.execute(
                "INSERT INTO users (kind, first_name, last_name, email, phone, role_id, password_hash, totp_secret)
                 VALUES ('hr', ?1, ?2, ?3, ?4, 1, ?5, ?6)",
                (
                    hr_first,
                    hr_last,
                    format!("hr.{}.{}@{domain}", ascii(hr_first), ascii(hr_last)),
                    phone(rng),
                    &hr_hash,
                    totp::new_secret(),
                ),
            )?;
            tx.execute(
                "INSERT INTO hr_accounts (user_id, asset_id, is_mfa_active, is_employee_seen, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                (
                    tx.last_insert_rowid(),
                    asset_id,
                    offset == 0,
                    index % 2 == 0,
                    format!("2026-{:02}-{:02}T09:30:00.000Z", 1 + (index * 2 + offset) % 11, 3 + index * 4),
                ),
            )?;
        }
    }
    Ok(())
}

/// (name, contact person, promo-code version, logo, branches as (city id, address, latitude, longitude))
type DemoPartner = (&'static str, &'static str, Option<i64>, &'static [u8], &'static [(i64, &'static str, f64, f64)]);

const PARTNERS: [DemoPartner; 8] = [
    (
        "Dadlı Market",
        "Elvin Quliyev",
        Some(2),
        include_bytes!("../assets/demo/partner-dadli-market.png"),
        &[
            (1, "Nizami küç. 52, Səbail", 40.3725, 49.8433),
            (1, "Ataturk pr. 88, Nərimanov", 40.4043, 49.8682),
            (3, "Sülh küç. 14", 40.5897, 49.6686),
        ],
    ),
    (
        "Araz Texnika",
        "Leyla Abbasova",
        None,
        include_bytes!("../assets/demo/partner-araz-texnika.png"),
        &[(1, "28 May küç. 3", 40.3794, 49.8488), (2, "Cavadxan küç. 21", 40.6828, 46.3606)],
    ),
    (
        "Nar Elektronika",
        "Tural İsmayılov",
        Some(1),
        include_bytes!("../assets/demo/partner-nar-elektronika.png"),
        &[(1, "Koroğlu Rəhimov küç. 9", 40.4093, 49.8671), (4, "Heydər Əliyev pr. 30", 40.7703, 47.0496)],
    ),
    (
        "Kəpəz Ev",
        "Günel Hüseynova",
        None,
        include_bytes!("../assets/demo/partner-kepez-ev.png"),
        &[(2, "Atatürk pr. 120", 40.6937, 46.3622), (6, "M.F. Axundzadə küç. 17", 41.1975, 47.1706)],
    ),
    (
        "Şəhər Kino",
        "Murad Zeynalov",
        Some(2),
        include_bytes!("../assets/demo/partner-seher-kino.png"),
        &[
            (1, "Neftçilər pr. 153, Dəniz Mall", 40.3563, 49.8297),
            (1, "Babək pr. 1129, Gənclik Mall", 40.4009, 49.8517),
            (3, "Heydər Əliyev pr. 72", 40.5867, 49.6341),
        ],
    ),
    (
        "Qala Restoran",
        "Sevinc Qasımova",
        None,
        include_bytes!("../assets/demo/partner-qala-restoran.png"),
        &[(1, "Kiçik Qala küç. 7, İçərişəhər", 40.3661, 49.8353), (10, "Qəbələ yolu 4", 40.9814, 47.8458)],
    ),
    (
        "Bulvar Kafe",
        "Emin Sadıqov",
        Some(1),
        include_bytes!("../assets/demo/partner-bulvar-kafe.png"),
        &[(1, "Dənizkənarı Milli Park", 40.3676, 49.8419), (5, "Dəniz sahili küç. 2", 38.7529, 48.8475)],
    ),
    (
        "İçərişəhər Optika",
        "Zəhra Əhmədova",
        None,
        include_bytes!("../assets/demo/partner-icerisher-optika.png"),
        &[(1, "Asəf Zeynallı küç. 11", 40.3690, 49.8370), (7, "Atatürk küç. 5", 39.2089, 45.4122)],
    ),
];

fn fill_partners(tx: &Transaction, rng: &mut StdRng) -> anyhow::Result<()> {
    for (index, (name, contact, promo_version, logo, branches)) in PARTNERS.iter().enumerate() {
        let file_id = crate::files::store_image(tx, logo)?;
        let (first, last) = contact.split_once(' ').unwrap_or((contact, ""));
        tx.execute(
            "INSERT INTO partners (name, contact_person_first_name, contact_person_last_name, phone_number, email, file_id,
                                   is_promo_code_using, promo_code_version, is_active)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            (
                name,
                first,
                last,
                phone(rng),
                format!("info@{}.az", ascii(name).replace(' ', "")),
                file_id,
                promo_version.is_some(),
                promo_version,
                index != 3,
            ),
        )?;
        let partner_id = tx.last_insert_rowid();
        for (city_id, address, latitude, longitude) in branches.iter() {
            tx.execute(
                "INSERT INTO partner_cities (partner_id, city_id, address, latitude, longitude) VALUES (?1, ?2, ?3, ?4, ?5)",
                (partner_id, city_id, address, latitude, longitude),
            )?;
        }
    }
    Ok(())
}
