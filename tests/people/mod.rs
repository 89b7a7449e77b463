//! Rows the people-and-activity tests start from: an asset with employees, a partner with two
//! branches and a campaign, usage records, complaints and applications, written directly.
#![allow(dead_code)]

use perkdesk::db::sql::Connection;

pub struct World {
    pub asset: i64,
    pub employees: Vec<i64>,
    /// A partner handing out promo codes, with branches `branches`.
    pub partner: i64,
    pub branches: [i64; 2],
    /// A partner without promo codes, with branch `other_branch`.
    pub other_partner: i64,
    pub other_branch: i64,
    pub category: i64,
    pub campaign: i64,
    pub other_campaign: i64,
}

pub const EMPLOYEES: [(&str, &str, &str); 6] = [
    ("İlkin", "Məmmədov", "ilkin.mammadov@azercell.az"),
    ("İsmayıl", "Həsənov", "ismayil.hasanov@azercell.az"),
    ("Şahin", "Quliyev", "sahin.quliyev@azercell.az"),
    ("Gülnar", "Əliyeva", "gulnar.aliyeva@azercell.az"),
    ("Cavid", "Rzayev", "cavid.rzayev@azercell.az"),
    ("Çingiz", "Abbasov", "cingiz.abbasov@azercell.az"),
];

pub fn world(conn: &Connection) -> World {
    let asset = conn.insert(
        "INSERT INTO assets (name, contact_person, contact_person_phone_number, contact_person_email, barcode_prefix)
         VALUES ('Azercell', 'Aysel Məmmədova', '994501234567', 'hr@azercell.az', 'AZC')",
        [],
    )
    .unwrap();
    let mut employees = vec![];
    for (i, (first, last, email)) in EMPLOYEES.iter().enumerate() {
        employees.push(
            conn.insert(
                "INSERT INTO employees (asset_id, first_name, last_name, email, phone) VALUES (?1, ?2, ?3, ?4, ?5)",
                (asset, first, last, email, format!("99450{:07}", 1000000 + i)),
            )
            .unwrap(),
        );
    }
    let partner = partner_row(conn, "Bravo", true);
    let branches = [branch(conn, partner, 1, "Nizami küç. 10"), branch(conn, partner, 2, "Cavadxan küç. 21")];
    let other_partner = partner_row(conn, "Araz Market", false);
    let other_branch = branch(conn, other_partner, 3, "Sülh küç. 4");
    let category = conn
        .insert("INSERT INTO campaign_categories (name_az, name_en, name_ru) VALUES ('Market', 'Market', 'Маркет')", [])
        .unwrap();
    let first_campaign = campaign(conn, partner, category, "Həftəsonu endirimi");
    let other_campaign = campaign(conn, other_partner, category, "Araz endirimi");
    World {
        asset,
        employees,
        partner,
        branches,
        other_partner,
        other_branch,
        category,
        campaign: first_campaign,
        other_campaign,
    }
}

/// [`world`] with its first campaign running (started in the past, expiring in the future whatever
/// today is) and offered to the asset; the other campaign is not offered.
pub fn offered_world(conn: &Connection) -> World {
    let world = world(conn);
    conn.execute("INSERT INTO campaign_assets (campaign_id, asset_id) VALUES (?1, ?2)", (world.campaign, world.asset))
        .unwrap();
    conn.execute(
        "UPDATE campaigns SET start_date = '2020-01-01T00:00:00.000Z', expire_date = '2999-01-01T00:00:00.000Z'",
        [],
    )
    .unwrap();
    world
}

fn partner_row(conn: &Connection, name: &str, promo: bool) -> i64 {
    conn.insert(
        "INSERT INTO partners (name, contact_person_first_name, contact_person_last_name, phone_number, email,
                               is_promo_code_using, promo_code_version)
         VALUES (?1, 'Elvin', 'Quliyev', '994551234567', 'info@partner.az', ?2, ?3)",
        (name, promo, promo.then_some(2)),
    )
    .unwrap()
}

fn branch(conn: &Connection, partner: i64, city: i64, address: &str) -> i64 {
    conn.insert(
        "INSERT INTO partner_cities (partner_id, city_id, address, latitude, longitude) VALUES (?1, ?2, ?3, 40.4, 49.8)",
        (partner, city, address),
    )
    .unwrap()
}

pub fn campaign(conn: &Connection, partner: i64, category: i64, name: &str) -> i64 {
    conn.insert(
        "INSERT INTO campaigns (partner_id, campaign_category_id, discount_percent, start_date, expire_date,
                                name_az, name_en, name_ru, description_az, description_en, description_ru, order_no)
         VALUES (?1, ?2, 15, '2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z', ?3, ?3, ?3, 'T', 'D', 'O',
                 (SELECT COUNT(*) + 1 FROM campaigns WHERE campaign_category_id = ?2))",
        (partner, category, name),
    )
    .unwrap()
}

/// A use of `campaign` by `employee` at `at`, names copied as the app would.
pub fn usage(conn: &Connection, employee: i64, campaign: i64, at: &str) -> i64 {
    conn.insert(
        "INSERT INTO usage_history (employee_id, asset_id, partner_id, campaign_id, category_id, employee_email,
                                    asset_name, partner_name, campaign_name, category_name, discount_percent,
                                    rating, created_at)
         SELECT e.id, e.asset_id, c.partner_id, c.id, c.campaign_category_id, e.email, a.name, p.name, c.name_az,
                cc.name_az, c.discount_percent, 5, ?3
         FROM employees e JOIN assets a ON a.id = e.asset_id, campaigns c JOIN partners p ON p.id = c.partner_id
              JOIN campaign_categories cc ON cc.id = c.campaign_category_id
         WHERE e.id = ?1 AND c.id = ?2",
        (employee, campaign, at),
    )
    .unwrap()
}

pub fn complaint(conn: &Connection, reason: i64, description: &str, read: bool) -> i64 {
    conn.insert(
        "INSERT INTO complaints (full_name, email, phone, reason_id, description, is_read)
         VALUES ('Gülnar Əliyeva', 'gulnar.aliyeva@azercell.az', '994501000003', ?1, ?2, ?3)",
        (reason, description, read),
    )
    .unwrap()
}

pub fn wish(conn: &Connection, employee: i64, text: &str) -> i64 {
    conn.insert("INSERT INTO wish_list_requests (employee_id, text) VALUES (?1, ?2)", (employee, text)).unwrap()
}
