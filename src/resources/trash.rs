//! The trash (Admins only): every soft-deleted record of the kinds an operator deletes, kept in
//! the `trash` table by the tables' own triggers (migration 14), listed newest first with who
//! deleted it (the activity log's newest delete entry of the record), restored or deleted for good.
//!
//! A restore clears `deleted_at`, so the maintained counts, the reports' figures and the search
//! indexes follow through their triggers, and the resource's change hook puts back what the
//! delete took (a position in an order, an HR account's login). It is refused, naming the field,
//! when the record cannot come back as it was: a link to a record that is itself deleted, or a
//! unique value (an e-mail) that a live record has taken meanwhile.
//!
//! Deleting for good removes the row with what belongs only to it (its sessions, city branches,
//! campaign links, images nobody else shows); it is refused while other records still refer to it
//! (a partner's usage history): those go first. The server purges what has been in the trash
//! longer than `--trash-retention-days` the same way, leaving what is still referred to.

use crate::db::sql::{Connection, OptionalExtension};
use axum::Json;
use axum::extract::State;
use axum::http::Method;
use axum::routing::{delete, put};
use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::accounts;
use crate::auth::{CurrentUser, Roles};
use crate::core::error::{AppError, AppResult};
use crate::core::refusals::Audience;
use crate::crud::{self, Change, Column, Deleted, Filter, IdList, Kind, Resource, Total, ValueKind};
use crate::http::api::{Api, Doc, query};
use crate::http::extract::ApiJson;
use crate::http::files;
use crate::http::state::AppState;

use super::{
    assets::ASSETS, campaign_categories::CATEGORIES, campaigns::CAMPAIGNS, employees::EMPLOYEES,
    hr_accounts::HR_ACCOUNTS, merchants::MERCHANTS, notifications::NOTIFICATIONS, partners::PARTNERS,
    promo_codes::PROMO_CODES, usage_history::USAGE_HISTORY, users::USERS,
};

pub static TRASH: Resource = Resource {
    path: "trash",
    row: "TrashRow",
    tag: "Trash",
    name: "Deleted record",
    table: "trash",
    from: "trash t",
    scope: "t.id > 0",
    id: "t.id",
    total: Total::Counted,
    columns: &[
        // Grows with each delete: the default newest-first order is the order of the deletes.
        Column::new("id", "t.id", Kind::Int),
        // The resource as the API spells it (`campaign/category`), as in the activity log.
        Column::new("kind", "t.kind", Kind::Text).unsorted().never_null(),
        Column::new("recordId", "t.record_id", Kind::Int).unsorted().never_null(),
        Column::new("label", "t.label", Kind::Text).unsorted().never_null(),
        Column::new("deletedAt", "t.deleted_at", Kind::DateTime).unsorted().never_null(),
        Column::new(
            "deletedBy",
            "(SELECT a.actor_name FROM activity a WHERE a.resource = t.kind AND a.record_id = t.record_id
                AND a.action = 'delete' ORDER BY a.id DESC LIMIT 1)",
            Kind::Text,
        )
        .unsorted(),
    ],
    filters: &[
        Filter::equals("Kind", "t.kind", ValueKind::Text),
        Filter::contains("Label", "t.label"),
        Filter::from("StartDate", "t.deleted_at"),
        Filter::to("EndDate", "t.deleted_at"),
    ],
    export: None,
    read: Roles::ADMIN,
    write: Roles::ADMIN,
    toggle: false,
    delete: false,
    on_change: None,
    detail_extra: None,
};

/// A kind of record the trash holds: a resource that soft-deletes, and what its restore and its
/// purge must respect beyond the generic steps.
pub struct Trashed {
    pub resource: &'static Resource,
    /// Links that must lead to a live record for a restore: (column, field, parent table, what the
    /// parent is called). A usage record keeps its links whatever they lead to: it is history.
    pub parents: &'static [(&'static str, &'static str, &'static str, &'static str)],
    /// A value a live record may have taken while this one was deleted: (field, query that finds
    /// the taker, `?1` the record's id).
    pub unique: Option<(&'static str, &'static str)>,
    /// The rows that belong to the record only, as (table, the condition that picks them, `?1`
    /// the record's id): the resource's hook removes them (`Change::Purging`) before the record
    /// goes, and a refused purge names what still refers to them (a branch's merchants).
    pub owned: &'static [(&'static str, &'static str)],
    /// The login the record signs in with (`?1` its id), deleted for good after it.
    pub login: Option<&'static str>,
}

const fn kind(resource: &'static Resource) -> Trashed {
    Trashed { resource, parents: &[], unique: None, owned: &[], login: None }
}

/// How a restore or a purge is refused (`core::refusals`): `{kind}` is the record's kind and
/// `{parent}` the kind it belongs to, both declared for translation; `{label}` is the record's.
pub const PARENT_DELETED: &str =
    "{kind} «{label}» cannot be restored while its {parent} is deleted: restore the {parent} first.";
pub const VALUE_TAKEN: &str = "{kind} «{label}» cannot be restored: its {field} now belongs to another record.";
pub const STILL_REFERRED: &str = "{kind} «{label}» is still referred to by {referrers}; delete those for good first.";
/// A purge refused by usage records, which are history and stay: nothing to delete first.
pub const KEPT_AS_HISTORY: &str =
    "{kind} «{label}» stays in the trash: {referrers} refer to it, and usage records are history that is kept.";
pub const NO_LONGER_IN_TRASH: &str =
    "{missing} of the {n} selected records are no longer in the trash; nothing was changed.";

/// The refusals above and the names they are filled with (the document lists each text once).
fn refusals() -> impl Iterator<Item = &'static str> {
    let kinds = KINDS.iter().map(|kind| kind.resource.name);
    let parents = KINDS.iter().flat_map(|kind| kind.parents.iter().map(|(_, _, _, called)| *called));
    [PARENT_DELETED, VALUE_TAKEN, STILL_REFERRED, KEPT_AS_HISTORY, NO_LONGER_IN_TRASH]
        .into_iter()
        .chain(kinds)
        .chain(parents)
}

/// Every kind the trash holds, children before the parents they refer to: the retention purges in
/// this order, so a partner whose campaigns left the trash with it goes in the same pass.
pub static KINDS: &[Trashed] = &[
    kind(&USAGE_HISTORY),
    Trashed {
        parents: &[
            ("partner_id", "partnerId", "partners", "partner"),
            ("campaign_id", "campaignId", "campaigns", "campaign"),
        ],
        ..kind(&PROMO_CODES)
    },
    Trashed {
        parents: &[
            ("category_id", "categoryId", "campaign_categories", "category"),
            ("campaign_id", "campaignId", "campaigns", "campaign"),
        ],
        ..kind(&NOTIFICATIONS)
    },
    Trashed { parents: &[("asset_id", "assetId", "assets", "asset")], ..kind(&EMPLOYEES) },
    Trashed {
        parents: &[
            ("partner_id", "partnerId", "partners", "partner"),
            ("partner_city_id", "partnerCityId", "partner_cities", "city branch"),
        ],
        unique: Some((
            "email",
            "SELECT o.id FROM merchants r JOIN merchants o ON o.email = r.email AND o.id <> r.id
             WHERE r.id = ?1 AND o.deleted_at IS NULL",
        )),
        ..kind(&MERCHANTS)
    },
    Trashed {
        parents: &[
            ("partner_id", "partnerId", "partners", "partner"),
            ("campaign_category_id", "campaignCategoryId", "campaign_categories", "category"),
        ],
        owned: &[("campaign_assets", "campaign_id = ?1")],
        ..kind(&CAMPAIGNS)
    },
    Trashed {
        parents: &[("asset_id", "assetId", "assets", "asset")],
        unique: Some((
            "email",
            "SELECT o.id FROM hr_accounts h JOIN users r ON r.id = h.user_id
             JOIN users o ON o.kind = r.kind AND o.email = r.email AND o.id <> r.id
             WHERE h.id = ?1 AND o.deleted_at IS NULL",
        )),
        login: Some("SELECT user_id FROM hr_accounts WHERE id = ?1"),
        ..kind(&HR_ACCOUNTS)
    },
    kind(&CATEGORIES),
    Trashed { owned: &[("partner_cities", "partner_id = ?1")], ..kind(&PARTNERS) },
    Trashed { owned: &[("campaign_assets", "asset_id = ?1")], ..kind(&ASSETS) },
    Trashed {
        unique: Some((
            "email",
            "SELECT o.id FROM users r JOIN users o ON o.kind = r.kind AND o.email = r.email AND o.id <> r.id
             WHERE r.id = ?1 AND o.deleted_at IS NULL",
        )),
        ..kind(&USERS)
    },
];

/// What the records of a table that refer to another are called in a refusal.
const REFERRERS: &[(&str, &str)] = &[
    ("usage_history", "usage records"),
    ("promo_codes", "promo codes"),
    ("notifications", "notifications"),
    ("employees", "employees"),
    ("merchants", "merchants"),
    ("campaigns", "campaigns"),
    ("hr_accounts", "HR accounts"),
    ("wish_list_requests", "wish list requests"),
    ("complaints", "complaints"),
    ("api_clients", "API clients"),
    ("partner_cities", "city branches"),
    ("campaign_assets", "campaign links"),
];

fn kind_of(name: &str) -> Option<&'static Trashed> {
    KINDS.iter().find(|k| k.resource.path == name)
}

/// One record in the trash.
struct Entry {
    kind: &'static Trashed,
    record: i64,
    label: String,
}

fn entries(tx: &Connection, ids: &[i64]) -> AppResult<Vec<Entry>> {
    let mut stmt = tx.prepare_cached("SELECT kind, record_id, label FROM trash WHERE id = ?1")?;
    let mut found = Vec::with_capacity(ids.len());
    let mut missing = 0;
    for id in ids {
        let row: Option<(String, i64, String)> =
            stmt.query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).optional()?;
        match row.and_then(|(name, record, label)| Some(Entry { kind: kind_of(&name)?, record, label })) {
            Some(entry) => found.push(entry),
            None => missing += 1,
        }
    }
    match (missing, ids.len()) {
        (0, _) => Ok(found),
        (_, 1) => Err(TRASH.not_found()),
        (missing, n) => Err(AppError::NotFound(
            NO_LONGER_IN_TRASH.replace("{missing}", &missing.to_string()).replace("{n}", &n.to_string()),
        )),
    }
}

impl Entry {
    /// The record's kind's place in `KINDS`: children before the parents they refer to.
    fn rank(&self) -> usize {
        KINDS.iter().position(|k| std::ptr::eq(k, self.kind)).unwrap_or(KINDS.len())
    }

    /// `template` about this record: its `{kind}` and `{label}` filled in, then `more`.
    fn refusal(&self, template: &str, more: &[(&str, &str)]) -> String {
        let text = template.replace("{kind}", self.kind.resource.name);
        let text = more.iter().fold(text, |text, (name, value)| text.replace(name, value));
        // The label last: it is the record's own text, which may hold a `{...}` of its own.
        text.replace("{label}", &self.label)
    }

    fn restore(&self, tx: &Connection) -> AppResult<()> {
        let table = self.kind.resource.table;
        for (column, field, parent, called) in self.kind.parents {
            let deleted: Option<bool> = tx
                .query_row(
                    &format!(
                        "SELECT p.deleted_at IS NOT NULL FROM {table} r JOIN {parent} p ON p.id = r.{column} WHERE r.id = ?1"
                    ),
                    [self.record],
                    |r| r.get(0),
                )
                .optional()?;
            if deleted == Some(true) {
                return Err(AppError::conflict_on(field, self.refusal(PARENT_DELETED, &[("{parent}", called)])));
            }
        }
        if let Some((field, taker)) = self.kind.unique
            && tx.query_row(taker, [self.record], |_| Ok(())).optional()?.is_some()
        {
            return Err(AppError::conflict_on(field, self.refusal(VALUE_TAKEN, &[("{field}", field)])));
        }
        tx.execute(
            &format!("UPDATE {table} SET deleted_at = NULL WHERE id = ?1 AND deleted_at IS NOT NULL"),
            [self.record],
        )?;
        Ok(())
    }

    /// Deletes the record for good with what is only its own; a refusal names what still refers
    /// to it. The caller runs it inside a savepoint or a transaction it rolls back on refusal.
    fn purge(&self, tx: &Connection, user: Option<&CurrentUser>) -> AppResult<()> {
        let table = self.kind.resource.table;
        let files = file_ids(tx, table, self.record)?;
        let login: Option<i64> = match self.kind.login {
            Some(sql) => tx.query_row(sql, [self.record], |r| r.get(0)).optional()?,
            None => None,
        };
        // In a savepoint: after a refusal the transaction must still answer what refers to the
        // record (PostgreSQL aborts a transaction on a failed statement).
        let removed = tx.savepoint(|tx| -> AppResult<()> {
            if let Some(hook) = self.kind.resource.on_change {
                hook(tx, user, &Change::Purging(&[self.record]))?;
            }
            tx.execute(&format!("DELETE FROM {table} WHERE id = ?1 AND deleted_at IS NOT NULL"), [self.record])?;
            if let Some(login) = login {
                accounts::purge_login(tx, login)?;
            }
            Ok(())
        });
        match removed {
            Err(error) if crate::db::sql::is_foreign_key(&error) => return Err(self.still_referred(tx)?),
            other => other?,
        }
        for file in files {
            files::remove_if_unused(tx, file)?;
        }
        Ok(())
    }

    /// The refusal of a purge: what still refers to the record, or to the rows it owns, each
    /// kind of record counted once (a merchant refers to its partner and to the partner's branch).
    /// Usage records are history: a record they refer to stays, and the refusal says so.
    fn still_referred(&self, tx: &Connection) -> AppResult<AppError> {
        // The record's own rows go with it: what refers to them is named through them, never
        // they themselves.
        let owned: Vec<&str> = self.kind.owned.iter().map(|(table, _)| *table).collect();
        let mut ways = references(tx, self.kind.resource.table, "id = ?1", &owned)?;
        for (owned, rows) in self.kind.owned {
            ways.extend(references(tx, owned, rows, &[])?);
        }
        let mut found = Vec::new();
        let mut history = false;
        let mut children: Vec<&str> = ways.iter().map(|(child, _)| child.as_str()).collect();
        children.sort_unstable();
        children.dedup();
        for child in children {
            let any: Vec<&str> = ways.iter().filter(|(c, _)| c == child).map(|(_, test)| test.as_str()).collect();
            let n: i64 = tx.query_row(
                &format!("SELECT COUNT(*) FROM \"{child}\" WHERE {}", any.join(" OR ")),
                [self.record],
                |r| r.get(0),
            )?;
            if n > 0 {
                history |= child == "usage_history";
                found.push(format!("{} ({n})", called(child)));
            }
        }
        let referrers = if found.is_empty() { "other records".to_string() } else { found.join(", ") };
        let template = if history { KEPT_AS_HISTORY } else { STILL_REFERRED };
        Ok(AppError::Conflict(self.refusal(template, &[("{referrers}", &referrers)])))
    }
}

/// Each (table, test) by which a table's rows refer to the rows of `table` meeting `rows` (`?1`
/// the record's id), in the order of the tables, the tables in `skipped` left out.
fn references(tx: &Connection, table: &str, rows: &str, skipped: &[&str]) -> AppResult<Vec<(String, String)>> {
    let mut links = crate::db::schema::references_to(tx, table)?;
    links.sort();
    Ok(links
        .into_iter()
        .filter(|(child, _)| !skipped.contains(&child.as_str()))
        .map(|(child, column)| (child, format!("\"{column}\" IN (SELECT id FROM {table} WHERE {rows})")))
        .collect())
}

fn called(table: &str) -> &str {
    REFERRERS.iter().find(|(t, _)| *t == table).map_or(table, |(_, called)| called)
}

/// The images the record refers to, by the table's keys into `files`.
fn file_ids(tx: &Connection, table: &str, record: i64) -> AppResult<Vec<i64>> {
    let columns = crate::db::schema::references_from(tx, table, "files")?;
    let mut files = Vec::new();
    for column in columns {
        let file: Option<i64> =
            tx.query_row(&format!("SELECT \"{column}\" FROM {table} WHERE id = ?1"), [record], |r| r.get(0))?;
        files.extend(file);
    }
    Ok(files)
}

#[derive(Serialize, ToSchema)]
pub struct Restored {
    pub restored: usize,
}

async fn restore(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(body): ApiJson<IdList>,
) -> AppResult<Json<Restored>> {
    let ids = body.into_ids_for("restore")?;
    state
        .db
        .write(move |tx| {
            let mut entries = entries(tx, &ids)?;
            // Parents before their children, so a selection holding both comes back in one call.
            entries.sort_by_key(|e| std::cmp::Reverse(e.rank()));
            for entry in &entries {
                entry.restore(tx)?;
            }
            // Each resource puts back what its delete took, for its records together.
            for kind in KINDS {
                let records: Vec<i64> =
                    entries.iter().filter(|e| std::ptr::eq(e.kind, kind)).map(|e| e.record).collect();
                if let (false, Some(hook)) = (records.is_empty(), kind.resource.on_change) {
                    hook(tx, Some(&user), &Change::Restored(&records))?;
                }
            }
            Ok(Restored { restored: entries.len() })
        })
        .await
        .map(Json)
}

async fn purge(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(body): ApiJson<IdList>,
) -> AppResult<Json<Deleted>> {
    let ids = body.into_ids_for("delete for good")?;
    state
        .db
        .write(move |tx| {
            let mut entries = entries(tx, &ids)?;
            // Children before their parents, so a selection holding both goes in one call.
            entries.sort_by_key(Entry::rank);
            for entry in &entries {
                entry.purge(tx, Some(&user))?;
            }
            Ok(Deleted { deleted: entries.len() })
        })
        .await
        .map(Json)
}

/// Deletes for good up to `limit` records that have been in the trash since before `cutoff`
/// (an ISO time), oldest first, skipping those still referred to; returns (deleted, kept).
pub fn purge_expired(tx: &Connection, cutoff: &str, after: i64, limit: u32) -> AppResult<PurgeStep> {
    let expired: Vec<(i64, String, i64, String)> = tx
        .prepare_cached(
            "SELECT id, kind, record_id, label FROM trash WHERE deleted_at < ?1 AND id > ?2 ORDER BY id LIMIT ?3",
        )?
        .query_map((cutoff, after, limit), |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<Result<_, _>>()?;
    let mut step = PurgeStep { last: expired.last().map(|e| e.0), deleted: 0, kept: 0 };
    let mut entries: Vec<Entry> = expired
        .into_iter()
        .filter_map(|(_, name, record, label)| Some(Entry { kind: kind_of(&name)?, record, label }))
        .collect();
    entries.sort_by_key(Entry::rank);
    for entry in &entries {
        match tx.savepoint(|tx| entry.purge(tx, None)) {
            Ok(()) => step.deleted += 1,
            Err(AppError::Conflict(_)) => step.kept += 1,
            Err(error) => return Err(error),
        }
    }
    Ok(step)
}

/// One step of the trash's retention.
#[derive(Debug, Default)]
pub struct PurgeStep {
    /// The last trash id looked at; the next step starts after it. `None`: nothing was left.
    pub last: Option<i64>,
    pub deleted: usize,
    pub kept: usize,
}

pub fn routes() -> Api {
    crud::routes(&TRASH)
        .refuses(Audience::People, refusals())
        .add(
            Method::PUT,
            "/api/trash/restore",
            put(restore),
            Doc::new(TRASH.tag, "Restore deleted records (by trash id list), all or none")
                .roles(Roles::ADMIN)
                .body_schema(
                    "application/json",
                    query::id_list("The ids of the trash's entries to restore (duplicates count once)"),
                )
                .answers(404, "Some of the ids are not in the trash; nothing was restored")
                .answers(
                    409,
                    "A record cannot come back as it was (a deleted parent, a taken e-mail); the field is named",
                )
                .returns::<Restored>(200),
        )
        .add(
            Method::DELETE,
            "/api/trash",
            delete(purge),
            Doc::new(TRASH.tag, "Delete records for good (by trash id list), all or none")
                .roles(Roles::ADMIN)
                .body_schema(
                    "application/json",
                    query::id_list("The ids of the trash's entries to delete for good (duplicates count once)"),
                )
                .answers(404, "Some of the ids are not in the trash; nothing was deleted")
                .answers(409, "Other records still refer to one of them; they are named")
                .returns::<Deleted>(200),
        )
}
