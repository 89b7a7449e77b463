//! Demo data: a realistic Azerbaijani back office to click through, dated from the day it is made,
//! and a known demo admin.

use crate::db::sql::{Connection, OptionalExtension};
use anyhow::Context;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::auth::{password, totp};
use crate::core::validation::OPERATOR_CODES;
use crate::db::Db;

pub const ADMIN_EMAIL: &str = "admin@perkdesk.az";
pub const ADMIN_PASSWORD: &str = "Demo-Admin-2026";

/// The demo admin's name.
const ADMIN_NAME: (&str, &str) = ("Aysel", "Məmmədova");

pub struct DemoAdmin {
    pub email: String,
    pub password: String,
    pub totp_secret: String,
    /// A new set made at this start: only their hashes are stored, so a later start cannot show
    /// the codes an earlier one made, and makes a new set instead.
    pub recovery_codes: Vec<String>,
    /// Whether the admin was already there (a reused demo database): the new codes replace any
    /// printed at an earlier start, which stop working.
    pub codes_replaced: bool,
}

/// The demo's first names by the gender they are given to in Azerbaijan.
const WOMEN: [&str; 40] = [
    "Aysel",
    "Günel",
    "Nigar",
    "Leyla",
    "Səbinə",
    "Aygün",
    "Nərmin",
    "Lalə",
    "Könül",
    "Sevinc",
    "Zəhra",
    "Fidan",
    "Gülnar",
    "Təranə",
    "Gülnarə",
    "Aynur",
    "Ülviyyə",
    "Şəbnəm",
    "Xədicə",
    "Gülşən",
    "Samirə",
    "Vüsalə",
    "Rəna",
    "Aytən",
    "Nailə",
    "Kəmalə",
    "Mehriban",
    "Sevda",
    "Türkan",
    "Nuranə",
    "Əsmər",
    "Fatimə",
    "Məleykə",
    "Ləman",
    "Röya",
    "Elmira",
    "Tamilla",
    "Sona",
    "Mədinə",
    "Nərgiz",
];
const MEN: [&str; 40] = [
    "Rəşad",
    "Elvin",
    "Tural",
    "Orxan",
    "Kamran",
    "Fərid",
    "Ramil",
    "Vüqar",
    "Emin",
    "Murad",
    "Anar",
    "Elnur",
    "İlkin",
    "İsmayıl",
    "Şahin",
    "Cavid",
    "Çingiz",
    "Vüsal",
    "Elçin",
    "Rauf",
    "Kənan",
    "Nicat",
    "Toğrul",
    "Rüfət",
    "Zaur",
    "Samir",
    "Fuad",
    "Namiq",
    "Cavad",
    "Nihad",
    "Pərviz",
    "Azər",
    "Teymur",
    "Mahir",
    "Elşən",
    "Ceyhun",
    "Yusif",
    "Babək",
    "Rövşən",
    "Hikmət",
];
/// Surnames in a man's form (-ov, -yev, -ev); a woman's adds -a (Məmmədova, Əliyeva). The demo
/// names nobody by a patronymic.
const SURNAMES: [&str; 36] = [
    "Məmmədov",
    "Əliyev",
    "Hüseynov",
    "Quliyev",
    "Həsənov",
    "İsmayılov",
    "Abbasov",
    "Rzayev",
    "Kərimov",
    "Nəsirov",
    "Babayev",
    "Cəfərov",
    "Mustafayev",
    "Səfərov",
    "Orucov",
    "Bağırov",
    "Vəliyev",
    "Sadıqov",
    "Qasımov",
    "Zeynalov",
    "Əhmədov",
    "Mirzəyev",
    "İbrahimov",
    "Novruzov",
    "Nəbiyev",
    "Paşayev",
    "Şükürov",
    "Rəhimov",
    "Hacıyev",
    "Süleymanov",
    "Rüstəmov",
    "Əsgərov",
    "Kazımov",
    "Allahverdiyev",
    "Qurbanov",
    "Məlikov",
];

/// The full names given out in one demo, each to one person: a name seen twice (two employees,
/// an employee who is also a merchant) would leave the reader unable to tell them apart.
#[derive(Default)]
struct Names {
    given: std::collections::HashSet<String>,
}

impl Names {
    /// Takes a name the demo writes as it is (the admin's, the names the search must find, the
    /// contacts); one taken twice is a slip in the demo's own lists.
    fn claim(&mut self, first: &str, last: &str) -> anyhow::Result<()> {
        anyhow::ensure!(self.given.insert(format!("{first} {last}")), "the demo names two people {first} {last}");
        Ok(())
    }

    /// A name nobody in the demo has yet: a first name and the surname in that person's form.
    fn draw(&mut self, rng: &mut StdRng) -> anyhow::Result<(&'static str, String)> {
        // 2,880 names to draw from for a few hundred people: a clash is rare, running out a slip.
        for _ in 0..1_000 {
            let surname = SURNAMES[rng.random_range(0..SURNAMES.len())];
            let (first, last) = if rng.random_bool(0.5) {
                (WOMEN[rng.random_range(0..WOMEN.len())], format!("{surname}a"))
            } else {
                (MEN[rng.random_range(0..MEN.len())], surname.to_string())
            };
            if self.given.insert(format!("{first} {last}")) {
                return Ok((first, last));
            }
        }
        anyhow::bail!("the demo ran out of names")
    }
}

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

fn ascii(name: &str) -> String {
    LATIN.iter().fold(name.to_string(), |text, (from, to)| text.replace(from, to)).to_lowercase()
}

pub fn phone(rng: &mut StdRng) -> String {
    format!(
        "994{}{:07}",
        OPERATOR_CODES[rng.random_range(0..OPERATOR_CODES.len())],
        rng.random_range(1_000_000..9_999_999)
    )
}

/// Fills a fresh database and makes sure the demo admin can sign in with the printed password
/// and with each of the printed recovery codes.
pub fn prepare(db: &Db, fresh: bool) -> anyhow::Result<DemoAdmin> {
    let mut conn = db.conn()?;
    let tx = conn.transaction()?;
    let hash = password::hash(ADMIN_PASSWORD)?;
    let (recovery_codes, recovery_hashes) = crate::auth::recovery::new_set()?;
    let existing: Option<(i64, String)> = tx
        .query_row("SELECT id, totp_secret FROM users WHERE email = ?1 AND deleted_at IS NULL", [ADMIN_EMAIL], |r| {
            Ok((r.get("id")?, r.get("totp_secret")?))
        })
        .optional()?;
    let codes_replaced = existing.is_some();
    let (admin_id, totp_secret) = match existing {
        Some((id, secret)) => {
            tx.execute(
                "UPDATE users SET password_hash = ?2, is_active = 1, role_id = 0, must_set_up_authenticator = 0
                 WHERE email = ?1",
                (ADMIN_EMAIL, &hash),
            )?;
            crate::auth::sessions::clear_failures(&tx, ADMIN_EMAIL, None)?;
            (id, secret)
        }
        None => {
            let secret = totp::new_secret();
            let (first, last) = ADMIN_NAME;
            let id = tx.insert(
                "INSERT INTO users (kind, first_name, last_name, email, phone, role_id, password_hash, totp_secret)
                 VALUES ('staff', ?1, ?2, ?3, '994501234567', 0, ?4, ?5)",
                (first, last, ADMIN_EMAIL, &hash, &secret),
            )?;
            (id, secret)
        }
    };
    crate::auth::recovery::replace(&tx, admin_id, &recovery_hashes).map_err(|error| anyhow::anyhow!("{error}"))?;
    if fresh {
        fill(&tx).context("cannot write the demo data")?;
    }
    tx.commit()?;
    Ok(DemoAdmin {
        email: ADMIN_EMAIL.into(),
        password: ADMIN_PASSWORD.into(),
        totp_secret,
        recovery_codes,
        codes_replaced,
    })
}

/// The names the demo writes as they are, taken before any is drawn so no drawn name repeats them.
fn fixed_names() -> impl Iterator<Item = (&'static str, &'static str)> {
    let split = |name: &'static str| name.split_once(' ').unwrap_or((name, ""));
    [ADMIN_NAME, RETIRED_ASSET_CONTACT, RETIRED_PARTNER_CONTACT]
        .into_iter()
        .chain(SEARCHED_NAMES)
        .chain(LEAVERS)
        .chain(ASSETS.iter().map(move |(_, contact, _)| split(contact)))
        .chain(PARTNERS.iter().map(move |(_, contact, ..)| split(contact)))
        .chain(APPLICATIONS.iter().map(move |(_, applicant, ..)| split(applicant)))
}

fn fill(tx: &Connection) -> anyhow::Result<()> {
    let mut rng = StdRng::seed_from_u64(2026);
    let mut names = Names::default();
    for (first, last) in fixed_names() {
        names.claim(first, last)?;
    }
    let staff_hash = password::hash("Perkdesk-Staff-1")?;
    for index in 1..24 {
        let (first, last) = names.draw(&mut rng)?;
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
                &last,
                format!("{}.{}@perkdesk.az", ascii(first), ascii(&last)),
                phone(&mut rng),
                role,
                &staff_hash,
                totp::new_secret(),
                index % 9 != 0,
            ),
        )?;
    }
    fill_assets_and_hr(tx, &mut rng, &mut names)?;
    fill_partners(tx, &mut rng)?;
    fill_campaigns(tx, &mut rng)?;
    fill_people(tx, &mut rng, &mut names)?;
    fill_retired(tx)?;
    Ok(())
}

/// A moment `days` days before now, as stored: what the demo dates is dated from the day it is
/// made, so it looks the same whenever that is.
fn days_before_now(days: i64) -> String {
    crate::db::format_iso(time::OffsetDateTime::now_utc() - time::Duration::days(days))
}

/// The employees who left, one per asset while the list lasts.
const LEAVERS: [(&str, &str); 8] = [
    ("Vüsal", "Nəbiyev"),
    ("Sevda", "Orucova"),
    ("Elçin", "Paşayev"),
    ("Təranə", "Qasımova"),
    ("Ramil", "Şükürov"),
    ("Gülnarə", "Səfərova"),
    ("Orxan", "Zeynalov"),
    ("Lalə", "Bağırova"),
];

/// The contacts of the asset and the partner no longer served.
const RETIRED_ASSET_CONTACT: (&str, &str) = ("Rauf", "Əhmədov");
const RETIRED_PARTNER_CONTACT: (&str, &str) = ("Lalə", "Rəhimova");

/// Rows deleted before the demo begins (an employee per asset who left, an asset and a partner
/// no longer served, a campaign withdrawn), so the reports have deleted names to count and list
/// and the trash has records to restore. Each was deleted within the last three weeks: inside the
/// trash's default 30 days (`--trash-retention-days`), which the server's retention applies as it
/// starts, so a new demo opens with all of them still there.
fn fill_retired(tx: &Connection) -> anyhow::Result<()> {
    let assets: Vec<i64> =
        tx.prepare("SELECT id FROM assets ORDER BY id")?.query_map([], |r| r.get("id"))?.collect::<Result<_, _>>()?;
    for (index, (asset_id, (first, last))) in (0_i64..).zip(assets.iter().zip(LEAVERS)) {
        tx.execute(
            "INSERT INTO employees (asset_id, first_name, last_name, email, phone, is_active, created_at, deleted_at)
             VALUES (?1, ?2, ?3, ?4, '994501112233', 0, ?5, ?6)",
            (
                asset_id,
                first,
                last,
                format!("{}.{}{index}@kohne.az", ascii(first), ascii(last)),
                days_before_now(400 + 30 * index),
                days_before_now(2 + 3 * index),
            ),
        )?;
    }
    let (first, last) = RETIRED_ASSET_CONTACT;
    tx.execute(
        "INSERT INTO assets (name, contact_person, contact_person_phone_number, contact_person_email, barcode_prefix,
                             is_active, deleted_at)
         VALUES ('Köhnə Logistika', ?1, '994551234567', 'rauf@kohne-logistika.az', 'K9', 0, ?2)",
        (format!("{first} {last}"), days_before_now(20)),
    )?;
    let (first, last) = RETIRED_PARTNER_CONTACT;
    tx.execute(
        "INSERT INTO partners (name, contact_person_first_name, contact_person_last_name, phone_number, email,
                               is_active, deleted_at)
         VALUES ('Bağlanmış Kafe', ?1, ?2, '994701234567', 'lale@baglanmis-kafe.az', 0, ?3)",
        (first, last, days_before_now(12)),
    )?;
    let Some((partner_id, category_id)): Option<(i64, i64)> = tx
        .query_row(
            "SELECT partner_id, campaign_category_id FROM campaigns WHERE deleted_at IS NULL ORDER BY id LIMIT 1",
            [],
            |r| Ok((r.get("partner_id")?, r.get("campaign_category_id")?)),
        )
        .optional()?
    else {
        return Ok(());
    };
    let (start, end) = last_summer(time::OffsetDateTime::now_utc().date())?;
    // Withdrawn after it ended, even when the summer ended only days ago.
    let withdrawn = std::cmp::max(days_before_now(6), end.clone());
    tx.execute(
        "INSERT INTO campaigns (partner_id, campaign_category_id, discount_percent, start_date, expire_date, name_az,
                                name_en, name_ru, description_az, description_en, description_ru, is_active, deleted_at)
         VALUES (?1, ?2, 15, ?3, ?4, 'Keçən yay endirimi',
                 'Last summer sale', 'Прошлолетняя скидка', 'Bitib.', 'Ended.', 'Завершена.', 0, ?5)",
        (partner_id, category_id, start, end, withdrawn),
    )?;
    Ok(())
}

/// The first of June and the first of September of the last summer that has ended by `today`,
/// as stored: the withdrawn "last summer sale" ran then.
fn last_summer(today: time::Date) -> anyhow::Result<(String, String)> {
    let year = if u8::from(today.month()) >= 9 { today.year() } else { today.year() - 1 };
    let day = |month| -> anyhow::Result<String> {
        let date = time::Date::from_calendar_date(year, month, 1)?;
        Ok(crate::db::format_iso(date.midnight().assume_utc()))
    };
    Ok((day(time::Month::June)?, day(time::Month::September)?))
}

/// (name, contact person, logo)
const ASSETS: [(&str, &str, &[u8]); 6] = [
    ("Xəzər Telekom", "Nigar Həsənova", include_bytes!("../../assets/demo/asset-xezer-telekom.png")),
    ("Qafqaz Bank", "Kamran Nəsirov", include_bytes!("../../assets/demo/asset-qafqaz-bank.png")),
    ("Abşeron Enerji", "Səbinə Kərimova", include_bytes!("../../assets/demo/asset-abseron-enerji.png")),
    ("Naftalan Holdinq", "Orxan Rzayev", include_bytes!("../../assets/demo/asset-naftalan-holdinq.png")),
    ("Gəncə Qızıl", "Aygün Babayeva", include_bytes!("../../assets/demo/asset-gence-qizil.png")),
    ("Bakı Mobil", "Fərid Cəfərov", include_bytes!("../../assets/demo/asset-baki-mobil.png")),
];

fn fill_assets_and_hr(tx: &Connection, rng: &mut StdRng, names: &mut Names) -> anyhow::Result<()> {
    let hr_hash = password::hash("Perkdesk-Hr-1")?;
    for (index, (name, contact, logo)) in ASSETS.iter().enumerate() {
        let file_id = crate::http::files::store_image(tx, logo)?;
        let domain = format!("{}.az", ascii(name).replace(' ', ""));
        let (first, _) = contact.split_once(' ').unwrap_or((contact, ""));
        let asset_id = tx.insert(
            "INSERT INTO assets (name, contact_person, contact_person_phone_number, contact_person_email, barcode_prefix, file_id, is_active)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            (name, contact, phone(rng), format!("{}@{domain}", ascii(first)), format!("{}{}", ascii(name).chars().next().unwrap_or('A').to_ascii_uppercase(), index + 1), file_id, index != 5),
        )?;
        for offset in 0..2 {
            let (hr_first, hr_last) = names.draw(rng)?;
            let user_id = tx.insert(
                "INSERT INTO users (kind, first_name, last_name, email, phone, role_id, password_hash, totp_secret)
                 VALUES ('hr', ?1, ?2, ?3, ?4, 1, ?5, ?6)",
                (
                    hr_first,
                    &hr_last,
                    format!("hr.{}.{}@{domain}", ascii(hr_first), ascii(&hr_last)),
                    phone(rng),
                    &hr_hash,
                    totp::new_secret(),
                ),
            )?;
            tx.execute(
                "INSERT INTO hr_accounts (user_id, asset_id, is_mfa_active, is_employee_seen, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                (user_id, asset_id, offset == 0, index % 2 == 0, days_ago(rng, 330)),
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
        include_bytes!("../../assets/demo/partner-dadli-market.png"),
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
        include_bytes!("../../assets/demo/partner-araz-texnika.png"),
        &[(1, "28 May küç. 3", 40.3794, 49.8488), (2, "Cavadxan küç. 21", 40.6828, 46.3606)],
    ),
    (
        "Nar Elektronika",
        "Tural İsmayılov",
        Some(1),
        include_bytes!("../../assets/demo/partner-nar-elektronika.png"),
        &[(1, "Koroğlu Rəhimov küç. 9", 40.4093, 49.8671), (4, "Heydər Əliyev pr. 30", 40.7703, 47.0496)],
    ),
    (
        "Kəpəz Ev",
        "Günel Hüseynova",
        None,
        include_bytes!("../../assets/demo/partner-kepez-ev.png"),
        &[(2, "Atatürk pr. 120", 40.6937, 46.3622), (6, "M.F. Axundzadə küç. 17", 41.1975, 47.1706)],
    ),
    (
        "Şəhər Kino",
        "Murad Zeynalov",
        Some(2),
        include_bytes!("../../assets/demo/partner-seher-kino.png"),
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
        include_bytes!("../../assets/demo/partner-qala-restoran.png"),
        &[(1, "Kiçik Qala küç. 7, İçərişəhər", 40.3661, 49.8353), (10, "Qəbələ yolu 4", 40.9814, 47.8458)],
    ),
    (
        "Bulvar Kafe",
        "Emin Sadıqov",
        Some(1),
        include_bytes!("../../assets/demo/partner-bulvar-kafe.png"),
        &[(1, "Dənizkənarı Milli Park", 40.3676, 49.8419), (5, "Dəniz sahili küç. 2", 38.7529, 48.8475)],
    ),
    (
        "İçərişəhər Optika",
        "Zəhra Əhmədova",
        None,
        include_bytes!("../../assets/demo/partner-icerisher-optika.png"),
        &[(1, "Asəf Zeynallı küç. 11", 40.3690, 49.8370), (7, "Atatürk küç. 5", 39.2089, 45.4122)],
    ),
];

fn fill_partners(tx: &Connection, rng: &mut StdRng) -> anyhow::Result<()> {
    for (index, (name, contact, promo_version, logo, branches)) in PARTNERS.iter().enumerate() {
        let file_id = crate::http::files::store_image(tx, logo)?;
        let (first, last) = contact.split_once(' ').unwrap_or((contact, ""));
        let partner_id = tx.insert(
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
        for (city_id, address, latitude, longitude) in branches.iter() {
            tx.execute(
                "INSERT INTO partner_cities (partner_id, city_id, address, latitude, longitude) VALUES (?1, ?2, ?3, ?4, ?5)",
                (partner_id, city_id, address, latitude, longitude),
            )?;
        }
    }
    Ok(())
}

/// (photo, background shared by its campaigns, names Az/En/Ru)
type DemoCategory = (&'static [u8], &'static [u8], [&'static str; 3]);

const CATEGORIES: [DemoCategory; 6] = [
    (
        include_bytes!("../../assets/demo/category-erzaq.png"),
        include_bytes!("../../assets/demo/background-erzaq.jpg"),
        ["Ərzaq", "Groceries", "Продукты"],
    ),
    (
        include_bytes!("../../assets/demo/category-elektronika.png"),
        include_bytes!("../../assets/demo/background-elektronika.jpg"),
        ["Elektronika", "Electronics", "Электроника"],
    ),
    (
        include_bytes!("../../assets/demo/category-ev.png"),
        include_bytes!("../../assets/demo/background-ev.jpg"),
        ["Ev və məişət", "Home", "Дом и быт"],
    ),
    (
        include_bytes!("../../assets/demo/category-kino.png"),
        include_bytes!("../../assets/demo/background-kino.jpg"),
        ["Kino və əyləncə", "Cinema and fun", "Кино и развлечения"],
    ),
    (
        include_bytes!("../../assets/demo/category-restoran.png"),
        include_bytes!("../../assets/demo/background-restoran.jpg"),
        ["Restoran və kafe", "Restaurants and cafés", "Рестораны и кафе"],
    ),
    (
        include_bytes!("../../assets/demo/category-saglamliq.png"),
        include_bytes!("../../assets/demo/background-saglamliq.jpg"),
        ["Sağlamlıq və optika", "Health and optics", "Здоровье и оптика"],
    ),
];

/// What a demo campaign is.
struct DemoCampaign {
    partner: &'static str,
    category: usize,
    discount: i64,
    names: [&'static str; 3],
    descriptions: [&'static str; 3],
    image: &'static [u8],
    /// Sent by a partner and waiting on Expected Campaigns, to start soon.
    expected: bool,
    /// Its validity ended a few weeks ago.
    ended: bool,
    /// The text of the notification already sent about it.
    notified: Option<&'static str>,
    special_offer: bool,
    premium: bool,
}

const fn campaign(
    partner: &'static str,
    category: usize,
    discount: i64,
    names: [&'static str; 3],
    descriptions: [&'static str; 3],
    image: &'static [u8],
) -> DemoCampaign {
    DemoCampaign {
        partner,
        category,
        discount,
        names,
        descriptions,
        image,
        expected: false,
        ended: false,
        notified: None,
        special_offer: false,
        premium: false,
    }
}

const CAMPAIGNS: [DemoCampaign; 14] = [
    DemoCampaign {
        notified: Some("Bu həftəsonu bütün ərzaq məhsullarına 10% endirim!"),
        special_offer: true,
        ..campaign(
            "Dadlı Market",
            0,
            10,
            ["Həftəsonu ərzaq endirimi", "Weekend grocery discount", "Скидка на продукты в выходные"],
            [
                "Şənbə və bazar günləri bütün ərzaq məhsullarına 10% endirim.",
                "10% off all groceries on Saturdays and Sundays.",
                "Скидка 10% на все продукты по субботам и воскресеньям.",
            ],
            include_bytes!("../../assets/demo/campaign-heftesonu-erzaq.png"),
        )
    },
    campaign(
        "Dadlı Market",
        0,
        15,
        ["Təzə meyvə-tərəvəz", "Fresh fruit and vegetables", "Свежие фрукты и овощи"],
        [
            "Yerli fermerlərdən gələn meyvə və tərəvəzlərə 15% endirim.",
            "15% off fruit and vegetables from local farmers.",
            "Скидка 15% на фрукты и овощи от местных фермеров.",
        ],
        include_bytes!("../../assets/demo/campaign-teze-meyve.png"),
    ),
    DemoCampaign {
        ended: true,
        ..campaign(
            "Araz Texnika",
            1,
            12,
            ["Məişət texnikası kampaniyası", "Home appliance campaign", "Акция на бытовую технику"],
            [
                "Paltaryuyan, soyuducu və tozsoranlara 12% endirim.",
                "12% off washing machines, fridges and vacuum cleaners.",
                "Скидка 12% на стиральные машины, холодильники и пылесосы.",
            ],
            include_bytes!("../../assets/demo/campaign-meiset-texnikasi.png"),
        )
    },
    DemoCampaign {
        notified: Some("Nar Elektronikada smartfonlara 20% endirim başladı."),
        premium: true,
        ..campaign(
            "Nar Elektronika",
            1,
            20,
            ["Smartfonlara 20% endirim", "20% off smartphones", "Скидка 20% на смартфоны"],
            [
                "Bütün smartfon modellərinə 20% endirim, zəmanət 2 il.",
                "20% off every smartphone model, with a 2-year warranty.",
                "Скидка 20% на все модели смартфонов, гарантия 2 года.",
            ],
            include_bytes!("../../assets/demo/campaign-smartfonlar.png"),
        )
    },
    DemoCampaign {
        expected: true,
        ..campaign(
            "Nar Elektronika",
            1,
            8,
            ["Qulaqlıqlar və aksesuarlar", "Headphones and accessories", "Наушники и аксессуары"],
            [
                "Qulaqlıq, adapter və qoruyucu örtüklərə 8% endirim.",
                "8% off headphones, chargers and cases.",
                "Скидка 8% на наушники, зарядки и чехлы.",
            ],
            include_bytes!("../../assets/demo/campaign-qulaqliqlar.png"),
        )
    },
    DemoCampaign {
        special_offer: true,
        ..campaign(
            "Kəpəz Ev",
            2,
            25,
            ["Yataq dəstləri", "Bedding sets", "Постельные комплекты"],
            [
                "Pambıq yataq dəstlərinə 25% endirim.",
                "25% off cotton bedding sets.",
                "Скидка 25% на хлопковые постельные комплекты.",
            ],
            include_bytes!("../../assets/demo/campaign-yataq-destleri.png"),
        )
    },
    DemoCampaign {
        expected: true,
        ..campaign(
            "Kəpəz Ev",
            2,
            18,
            ["Mətbəx qabları", "Kitchenware", "Кухонная посуда"],
            [
                "Qazan, tava və bıçaq dəstlərinə 18% endirim.",
                "18% off pots, pans and knife sets.",
                "Скидка 18% на кастрюли, сковороды и наборы ножей.",
            ],
            include_bytes!("../../assets/demo/campaign-metbex-qablari.png"),
        )
    },
    DemoCampaign {
        notified: Some("Hər çərşənbə Şəhər Kinoda biletlər 30% ucuzdur."),
        premium: true,
        special_offer: true,
        ..campaign(
            "Şəhər Kino",
            3,
            30,
            ["Çərşənbə kino günü", "Wednesday movie day", "Киносреда"],
            [
                "Hər çərşənbə bütün seanslara 30% endirim.",
                "30% off every screening on Wednesdays.",
                "Скидка 30% на все сеансы по средам.",
            ],
            include_bytes!("../../assets/demo/campaign-kino-gunu.png"),
        )
    },
    campaign(
        "Şəhər Kino",
        3,
        15,
        ["Ailə paketi", "Family pack", "Семейный пакет"],
        [
            "Dörd bilet, popkorn və içki ailə paketində 15% ucuz.",
            "Four tickets, popcorn and drinks: 15% off as a family pack.",
            "Четыре билета, попкорн и напитки: семейный пакет на 15% дешевле.",
        ],
        include_bytes!("../../assets/demo/campaign-aile-paketi.png"),
    ),
    campaign(
        "Qala Restoran",
        4,
        20,
        ["Nahar menyusu", "Lunch menu", "Бизнес-ланч"],
        [
            "İş günləri 12:00-15:00 arası nahar menyusuna 20% endirim.",
            "20% off the lunch menu on weekdays from 12:00 to 15:00.",
            "Скидка 20% на бизнес-ланч по будням с 12:00 до 15:00.",
        ],
        include_bytes!("../../assets/demo/campaign-nahar-menyusu.png"),
    ),
    campaign(
        "Bulvar Kafe",
        4,
        10,
        ["Səhər qəhvəsi", "Morning coffee", "Утренний кофе"],
        [
            "Saat 10:00-dək bütün qəhvələrə 10% endirim.",
            "10% off every coffee before 10:00.",
            "Скидка 10% на весь кофе до 10:00.",
        ],
        include_bytes!("../../assets/demo/campaign-seher-qehvesi.png"),
    ),
    DemoCampaign {
        expected: true,
        ..campaign(
            "Bulvar Kafe",
            4,
            25,
            ["Şirniyyat həftəsi", "Dessert week", "Неделя десертов"],
            [
                "Bir həftə ərzində bütün desertlərə 25% endirim.",
                "25% off every dessert for a week.",
                "Скидка 25% на все десерты в течение недели.",
            ],
            include_bytes!("../../assets/demo/campaign-sirniyyat-hefte.png"),
        )
    },
    DemoCampaign {
        premium: true,
        ended: true,
        ..campaign(
            "İçərişəhər Optika",
            5,
            35,
            ["Günəş eynəkləri", "Sunglasses", "Солнцезащитные очки"],
            [
                "Yay kolleksiyasından günəş eynəklərinə 35% endirim.",
                "35% off sunglasses from the summer collection.",
                "Скидка 35% на солнцезащитные очки летней коллекции.",
            ],
            include_bytes!("../../assets/demo/campaign-gunes-eynekleri.png"),
        )
    },
    campaign(
        "İçərişəhər Optika",
        5,
        15,
        ["Pulsuz görmə testi ilə çərçivələr", "Frames with a free eye test", "Оправы с бесплатной проверкой зрения"],
        [
            "Çərçivələrə 15% endirim və pulsuz görmə testi.",
            "15% off frames and a free eye test.",
            "Скидка 15% на оправы и бесплатная проверка зрения.",
        ],
        include_bytes!("../../assets/demo/campaign-cerciveler.png"),
    ),
];

/// (header, text, category index) of notifications about a whole category.
const CATEGORY_NOTIFICATIONS: [(&str, &str, usize); 3] = [
    ("Yeni kinolar", "Bu ay Kino və əyləncə bölməsində yeni endirimlər var.", 3),
    ("Elektronika həftəsi", "Elektronika mağazalarında endirimlər davam edir.", 1),
    ("Nahar vaxtı", "Restoran və kafelərdə nahar endirimlərini qaçırmayın.", 4),
];

/// When the `index`th demo campaign runs, from `now`: a partner's new one starts in a few days;
/// the others started one after another over the last 13 months (the year of uses always finds
/// one running), and run for months more or ended a few weeks ago.
fn validity(
    index: usize,
    demo: &DemoCampaign,
    now: time::OffsetDateTime,
    rng: &mut StdRng,
) -> (time::OffsetDateTime, time::OffsetDateTime) {
    let days = time::Duration::days;
    if demo.expected {
        let start = now + days(rng.random_range(3..15));
        return (start, start + days(rng.random_range(30..90)));
    }
    let started_days_ago = 400 - 20 * index as i64 + rng.random_range(0..10);
    let start = now - days(started_days_ago.max(30));
    let expire = if demo.ended { now - days(rng.random_range(10..40)) } else { now + days(rng.random_range(20..120)) };
    (start, expire)
}

/// Categories with photos, campaigns (most running, a few ended, some waiting for approval, some
/// already announced) with both images, their assets and positions, and notifications about
/// categories and campaigns.
fn fill_campaigns(tx: &Connection, rng: &mut StdRng) -> anyhow::Result<()> {
    let mut categories = Vec::with_capacity(CATEGORIES.len());
    let mut backgrounds = Vec::with_capacity(CATEGORIES.len());
    for (index, (photo, background, [az, en, ru])) in CATEGORIES.iter().enumerate() {
        let photo_id = crate::http::files::store_image(tx, photo)?;
        let category_id = tx.insert(
            "INSERT INTO campaign_categories (name_az, name_en, name_ru, photo_file_id, order_no) VALUES (?1, ?2, ?3, ?4, ?5)",
            (az, en, ru, photo_id, index as i64 + 1),
        )?;
        categories.push((category_id, photo_id));
        backgrounds.push(crate::http::files::store_image(tx, background)?);
    }
    let assets: Vec<i64> = tx
        .prepare("SELECT id FROM assets WHERE deleted_at IS NULL ORDER BY id")?
        .query_map([], |r| r.get("id"))?
        .collect::<Result<_, _>>()?;
    let now = time::OffsetDateTime::now_utc();
    let mut positions = vec![0i64; CATEGORIES.len()];
    for (index, demo) in CAMPAIGNS.iter().enumerate() {
        let partner_id: i64 = tx
            .query_row("SELECT id FROM partners WHERE name = ?1", [demo.partner], |r| r.get("id"))
            .with_context(|| format!("the demo partner {} is missing", demo.partner))?;
        let image_id = crate::http::files::store_image(tx, demo.image)?;
        positions[demo.category] += 1;
        let (start, expire) = validity(index, demo, now, rng);
        let campaign_id = tx.insert(
            "INSERT INTO campaigns (partner_id, campaign_category_id, discount_percent, start_date, expire_date, file_id,
                                    background_file_id, name_az, name_en, name_ru, description_az, description_en,
                                    description_ru, special_offer, is_premium, is_trend, is_active, is_confirmed,
                                    order_no, notification_status)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)",
            crate::db::sql::params![
                partner_id,
                categories[demo.category].0,
                demo.discount,
                crate::db::format_iso(start),
                crate::db::format_iso(expire),
                image_id,
                backgrounds[demo.category],
                demo.names[0],
                demo.names[1],
                demo.names[2],
                demo.descriptions[0],
                demo.descriptions[1],
                demo.descriptions[2],
                demo.special_offer,
                demo.premium,
                index % 4 == 0,
                index != 9,
                !demo.expected,
                positions[demo.category],
                demo.notified.is_some(),
            ],
        )?;
        for offset in 0..(1 + index % 3) {
            if let Some(asset) = assets.get((index + offset * 2) % assets.len().max(1)) {
                tx.execute(
                    "INSERT INTO campaign_assets (campaign_id, asset_id) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
                    (campaign_id, asset),
                )?;
            }
        }
        if let Some(text) = demo.notified {
            tx.execute(
                "INSERT INTO notifications (header, text, file_id, type, campaign_id) VALUES (?1, ?2, ?3, 2, ?4)",
                (demo.names[0], text, image_id, campaign_id),
            )?;
        }
    }
    for (header, text, category) in CATEGORY_NOTIFICATIONS {
        let (category_id, photo_id) = categories[category];
        tx.execute(
            "INSERT INTO notifications (header, text, file_id, type, category_id) VALUES (?1, ?2, ?3, 1, ?4)",
            (header, text, photo_id, category_id),
        )?;
    }
    Ok(())
}

/// Names everyone in the office knows how to spell only with Azerbaijani letters: the search
/// must find them typed without (`ilkin`, `sahin`, `gulnar`, `cingiz`).
const SEARCHED_NAMES: [(&str, &str); 6] = [
    ("İlkin", "Məmmədov"),
    ("İsmayıl", "Həsənov"),
    ("Şahin", "Quliyev"),
    ("Gülnar", "Əliyeva"),
    ("Cavid", "Rzayev"),
    ("Çingiz", "Abbasov"),
];

const WISHES: [&str; 12] = [
    "Bravo marketlərində də endirim olsaydı yaxşı olardı.",
    "İdman zalları ilə müqavilə bağlamağınızı xahiş edirəm.",
    "Uşaq geyimləri mağazalarında kampaniya istəyirik.",
    "Gəncədə daha çox restoran əlavə edin, zəhmət olmasa.",
    "Aptek şəbəkələrində endirim olsun.",
    "Kinoteatrlarda həftə içi endirimi davam etdirin.",
    "Avtoyuma xidmətləri üçün təklif olsa əla olar.",
    "Kitab mağazaları ilə əməkdaşlıq edin.",
    "Stomatoloji klinikalarda endirim istəyirik.",
    "Sumqayıtda da tərəfdaş mağazalar olsun.",
    "Səyahət agentlikləri ilə yay kampaniyası təşkil edin.",
    "Kafe-qəhvəxanalarda səhər qəhvəsinə endirim olsun.",
];

/// (reason id, description): every reason appears.
const COMPLAINTS: [(i64, &str); 10] = [
    (1, "Kassada endirim tətbiq olunmadı, kassir kampaniyanın bitdiyini dedi, amma tətbiqdə hələ aktivdir."),
    (1, "Restoranda QR kodu oxutdum, lakin hesabda endirim görünmədi."),
    (2, "Tətbiqdə 20% yazılıb, mağazada isə cəmi 10% endirim etdilər."),
    (2, "Endirim yalnız bir məhsula tətbiq olundu, kampaniyada isə bütün çeklə deyilir."),
    (3, "Satıcı endirim kartını görəndə kobud davrandı və xidmət etmək istəmədi."),
    (3, "Kafedə işçi bizə endirimli müştəri kimi gec xidmət göstərdi."),
    (4, "Tətbiq kampaniya səhifəsini açanda donur, telefonu yenidən başlatmalı oluram."),
    (4, "Giriş zamanı OTP kodu gəlmir, bir neçə dəfə yoxladım."),
    (5, "Filialın ünvanı xəritədə səhv göstərilib, yarım saat axtardım."),
    (5, "Kampaniyanın şərtləri aydın yazılmayıb, hansı günlər keçərli olduğunu bilmədim."),
];

/// (business, applicant, cities, file sent with the application)
const APPLICATIONS: [(&str, &str, &[i64], &[u8]); 8] = [
    (
        "Şirin Dünya Şirniyyat",
        "Nərmin Bağırova",
        &[1, 3],
        include_bytes!("../../assets/demo/campaign-sirniyyat-hefte.png"),
    ),
    ("Göy Göl Turizm", "Elnur Səfərov", &[2], include_bytes!("../../assets/demo/background-ev.jpg")),
    ("Lənkəran Çay Evi", "Sevinc Orucova", &[5, 1], include_bytes!("../../assets/demo/campaign-seher-qehvesi.png")),
    ("Şəki Halva", "Rövşən Əsgərov", &[6], include_bytes!("../../assets/demo/campaign-aile-paketi.png")),
    ("Qəbələ Fitness", "Zəhra Mirzəyeva", &[10, 1], include_bytes!("../../assets/demo/background-saglamliq.jpg")),
    ("Xəzər Optika", "Anar Novruzov", &[1], include_bytes!("../../assets/demo/campaign-gunes-eynekleri.png")),
    ("Quba Meyvə", "Fidan Qasımova", &[9, 12], include_bytes!("../../assets/demo/campaign-teze-meyve.png")),
    ("Bakı Kitab Evi", "Könül Vəliyeva", &[1, 3, 2], include_bytes!("../../assets/demo/background-kino.jpg")),
];

/// A moment within the last `days` days, as stored.
fn days_ago(rng: &mut StdRng, days: i64) -> String {
    let at = time::OffsetDateTime::now_utc()
        - time::Duration::days(rng.random_range(0..days.max(1)))
        - time::Duration::minutes(rng.random_range(0..600));
    crate::db::format_iso(at)
}

/// Employees of every asset, their wishes and complaints, merchant applications with their
/// files, merchants at the partners' branches, promo codes, and a year of usage history.
fn fill_people(tx: &Connection, rng: &mut StdRng, names: &mut Names) -> anyhow::Result<()> {
    use std::collections::HashSet;

    let assets: Vec<(i64, String)> = tx
        .prepare("SELECT id, name FROM assets WHERE deleted_at IS NULL ORDER BY id")?
        .query_map([], |r| Ok((r.get("id")?, r.get("name")?)))?
        .collect::<Result<_, _>>()?;
    let mut emails = HashSet::new();
    let mut employees: Vec<(i64, i64, String, String)> = vec![];
    for (asset_index, (asset_id, asset_name)) in assets.iter().enumerate() {
        let domain = format!("{}.az", ascii(asset_name).replace(' ', ""));
        for index in 0..24 {
            // The names the search must find typed without marks, dealt out over the assets in turn.
            let searched = SEARCHED_NAMES.get(asset_index + index * assets.len());
            let (first, last) = match searched {
                Some((first, last)) => (*first, last.to_string()),
                None => names.draw(rng)?,
            };
            let mut email = format!("{}.{}@{domain}", ascii(first), ascii(&last));
            let mut n = 2;
            while !emails.insert(email.clone()) {
                email = format!("{}.{}{n}@{domain}", ascii(first), ascii(&last));
                n += 1;
            }
            let employee_id = tx.insert(
                "INSERT INTO employees (asset_id, first_name, last_name, email, phone, is_active, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                (asset_id, first, &last, &email, phone(rng), rng.random_range(0..10) != 0, days_ago(rng, 700)),
            )?;
            employees.push((employee_id, *asset_id, format!("{first} {last}"), email));
        }
    }
    if employees.is_empty() {
        return Ok(());
    }

    for (index, text) in WISHES.iter().cycle().take(36).enumerate() {
        let employee = &employees[rng.random_range(0..employees.len())];
        let status = if index < 20 { 0 } else { 1 + (index % 2) as i64 };
        tx.execute(
            "INSERT INTO wish_list_requests (employee_id, text, status, request_date) VALUES (?1, ?2, ?3, ?4)",
            (employee.0, text, status, days_ago(rng, 120)),
        )?;
    }

    for (index, (reason, description)) in COMPLAINTS.iter().cycle().take(28).enumerate() {
        let (id, _, name, email) = &employees[rng.random_range(0..employees.len())];
        let phone: String = tx.query_row("SELECT phone FROM employees WHERE id = ?1", [id], |r| r.get("phone"))?;
        tx.execute(
            "INSERT INTO complaints (employee_id, full_name, email, phone, reason_id, description, is_read, record_date)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            (id, name, email, phone, reason, description, index >= 9, days_ago(rng, 60)),
        )?;
    }

    for (business, applicant, cities, file) in APPLICATIONS {
        let file_id = crate::http::files::store_image(tx, file)?;
        let (first, last) = applicant.split_once(' ').unwrap_or((applicant, ""));
        let application = tx.insert(
            "INSERT INTO merchant_applications (partner_name, full_name, email, phone, file_id, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            (
                business,
                applicant,
                format!("{}.{}@{}.az", ascii(first), ascii(last), ascii(business).replace(' ', "")),
                phone(rng),
                file_id,
                days_ago(rng, 45),
            ),
        )?;
        for city in cities {
            tx.execute(
                "INSERT INTO merchant_application_cities (application_id, city_id) VALUES (?1, ?2)",
                (application, city),
            )?;
        }
    }

    let branches: Vec<(i64, i64, String)> = tx
        .prepare(
            "SELECT pc.partner_id, pc.id, p.name FROM partner_cities pc JOIN partners p ON p.id = pc.partner_id
             WHERE pc.deleted_at IS NULL AND p.deleted_at IS NULL ORDER BY pc.id",
        )?
        .query_map([], |r| Ok((r.get("partner_id")?, r.get("id")?, r.get("name")?)))?
        .collect::<Result<_, _>>()?;
    let mut merchant_emails = HashSet::new();
    for (partner_id, branch_id, partner_name) in &branches {
        for _ in 0..2 {
            let (first, last) = names.draw(rng)?;
            let email = format!("{}.{}@{}.az", ascii(first), ascii(&last), ascii(partner_name).replace(' ', ""));
            if !merchant_emails.insert(email.clone()) {
                continue;
            }
            tx.execute(
                "INSERT INTO merchants (partner_id, partner_city_id, first_name, last_name, email, phone)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                (partner_id, branch_id, first, last, &email, phone(rng)),
            )?;
        }
    }

    let promo_campaigns: Vec<(i64, i64)> = tx
        .prepare(
            "SELECT c.partner_id, c.id FROM campaigns c JOIN partners p ON p.id = c.partner_id
             WHERE c.deleted_at IS NULL AND c.is_confirmed = 1 AND p.is_promo_code_using = 1 ORDER BY c.id",
        )?
        .query_map([], |r| Ok((r.get("partner_id")?, r.get("id")?)))?
        .collect::<Result<_, _>>()?;
    for (partner_id, campaign_id) in promo_campaigns {
        let mut written = 0;
        while written < 30 {
            let code = crate::resources::promo_codes::new_code(rng);
            let used = written % 4 == 0;
            written += tx.execute(
                "INSERT INTO promo_codes (partner_id, campaign_id, code, is_used, used_date) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (code) DO NOTHING",
                (partner_id, campaign_id, code, used, used.then(|| days_ago(rng, 90))),
            )?;
        }
    }

    fill_usage_history(tx, rng, &employees)
}

/// A confirmed campaign as a use copies it, with when it runs.
struct UsedCampaign {
    id: i64,
    partner_id: i64,
    category_id: i64,
    name: String,
    partner_name: String,
    category_name: String,
    discount: i64,
    start: String,
    expire: String,
}

/// About 3,000 uses over the last year, busier towards the weekend of each month and in summer,
/// each of a campaign running on its day, names copied as they were at the time of use; a quarter
/// verified at a branch.
fn fill_usage_history(
    tx: &Connection,
    rng: &mut StdRng,
    employees: &[(i64, i64, String, String)],
) -> anyhow::Result<()> {
    let campaigns: Vec<UsedCampaign> = tx
        .prepare(
            "SELECT c.id, c.partner_id, c.campaign_category_id, c.name_az, p.name AS partner_name,
                    cc.name_az AS category_name, c.discount_percent, c.start_date, c.expire_date
             FROM campaigns c JOIN partners p ON p.id = c.partner_id
             JOIN campaign_categories cc ON cc.id = c.campaign_category_id
             WHERE c.deleted_at IS NULL AND c.is_confirmed = 1 ORDER BY c.id",
        )?
        .query_map([], |r| {
            Ok(UsedCampaign {
                id: r.get("id")?,
                partner_id: r.get("partner_id")?,
                category_id: r.get("campaign_category_id")?,
                name: r.get("name_az")?,
                partner_name: r.get("partner_name")?,
                category_name: r.get("category_name")?,
                discount: r.get("discount_percent")?,
                start: r.get("start_date")?,
                expire: r.get("expire_date")?,
            })
        })?
        .collect::<Result<_, _>>()?;
    let asset_names: std::collections::HashMap<i64, String> = tx
        .prepare("SELECT id, name FROM assets")?
        .query_map([], |r| Ok((r.get("id")?, r.get("name")?)))?
        .collect::<Result<_, _>>()?;
    let mut insert = tx.prepare(
        "INSERT INTO usage_history (employee_id, asset_id, partner_id, campaign_id, category_id, employee_email,
                                    asset_name, partner_name, campaign_name, category_name, discount_percent,
                                    status, rating, created_at, verified, partner_city_id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
    )?;
    // Each partner's first branch, where its verified uses were confirmed.
    let first_branches: std::collections::HashMap<i64, i64> = tx
        .prepare("SELECT partner_id, MIN(id) AS id FROM partner_cities WHERE deleted_at IS NULL GROUP BY partner_id")?
        .query_map([], |r| Ok((r.get("partner_id")?, r.get("id")?)))?
        .collect::<Result<_, _>>()?;
    // The days below are drawn until 3,000 find a campaign running: one must run within the year.
    let (now, year_ago) = (crate::db::now_iso(), days_before_now(365));
    if !campaigns.iter().any(|c| c.start < now && c.expire > year_ago) {
        return Ok(());
    }
    let mut rows = Vec::with_capacity(3000);
    while rows.len() < 3000 {
        let at = time::OffsetDateTime::now_utc()
            - time::Duration::days(rng.random_range(0..365))
            - time::Duration::minutes(rng.random_range(0..720));
        // Summer months and the weekends are busier: keep fewer of the quiet days' uses.
        let busy = matches!(at.month(), time::Month::June | time::Month::July | time::Month::August)
            || matches!(at.weekday(), time::Weekday::Friday | time::Weekday::Saturday);
        if !busy && rng.random_range(0..10) < 3 {
            continue;
        }
        let at = crate::db::format_iso(at);
        let running: Vec<&UsedCampaign> = campaigns.iter().filter(|c| c.start <= at && at < c.expire).collect();
        // A few campaigns are favourites, as in any marketplace.
        let pick = match running.len() {
            0 => continue,
            n if rng.random_range(0..3) == 0 => rng.random_range(0..n.min(4)),
            n => rng.random_range(0..n),
        };
        rows.push((at, running[pick]));
    }
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    for (index, (at, campaign)) in rows.into_iter().enumerate() {
        let (employee_id, asset_id, _, email) = &employees[rng.random_range(0..employees.len())];
        // Every fourth use was confirmed at the partner's till with a redemption code, at its first
        // branch (not drawn: the other values stay as they were).
        let verified = index % 4 == 0;
        let branch = if verified { first_branches.get(&campaign.partner_id).copied() } else { None };
        let rating = (rng.random_range(0..3) > 0).then(|| rng.random_range(3..=5_i64));
        insert.execute(crate::db::sql::params![
            employee_id,
            asset_id,
            campaign.partner_id,
            campaign.id,
            campaign.category_id,
            email,
            asset_names.get(asset_id).map(String::as_str).unwrap_or(""),
            campaign.partner_name,
            campaign.name,
            campaign.category_name,
            campaign.discount,
            (rng.random_range(0..20) == 0) as i64,
            rating,
            at,
            i64::from(verified),
            branch,
        ])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    #[test]
    fn last_summer_is_the_last_one_that_has_ended() {
        let summer = |year| (format!("{year}-06-01T00:00:00.000Z"), format!("{year}-09-01T00:00:00.000Z"));
        assert_eq!(last_summer(date!(2026 - 11 - 28)).unwrap(), summer(2026));
        assert_eq!(last_summer(date!(2026 - 09 - 01)).unwrap(), summer(2026));
        assert_eq!(last_summer(date!(2026 - 08 - 31)).unwrap(), summer(2025));
        assert_eq!(last_summer(date!(2027 - 01 - 02)).unwrap(), summer(2026));
    }
}
