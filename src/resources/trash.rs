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

use crate::db::sql::{Connection, OptionalExtension, Row};
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
    plural: "deleted records",
    label: None,
    history: &[],
    trash: None,
    events: None,
    unrecorded: &[("trash", "kept by the triggers of the tables whose records it holds")],
};

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
    let names = kinds().map(|kind| kind.name);
    let parents: Vec<&'static str> =
        kinds().flat_map(|kind| rules(kind).parents.iter().map(|(_, _, _, called)| *called)).collect();
    [PARENT_DELETED, VALUE_TAKEN, STILL_REFERRED, KEPT_AS_HISTORY, NO_LONGER_IN_TRASH]
        .into_iter()
        .chain(names)
        .chain(parents)
}

/// Every kind the trash holds: the resources that declare a trash, in their declared order.
fn kinds() -> impl Iterator<Item = &'static Resource> {
    super::all().into_iter().filter(|resource| resource.trash.is_some())
}

fn kind_of(name: &str) -> Option<&'static Resource> {
    kinds().find(|kind| kind.path == name)
}

/// The kinds children first: a kind whose table refers to another's comes before it (read from
/// the schema's foreign keys), so a purge takes a campaign before its partner and a restore
/// brings the partner back first, and the retention empties both in one pass.
fn ranked(tx: &Connection) -> AppResult<Vec<&'static Resource>> {
    let mut left: Vec<&'static Resource> = kinds().collect();
    let mut referring: Vec<(&str, Vec<String>)> = Vec::with_capacity(left.len());
    for kind in &left {
        let children = crate::db::schema::references_to(tx, kind.table)?;
        referring.push((kind.table, children.into_iter().map(|(child, _)| child).collect()));
    }
    let refers_to = |child: &str, parent: &str| {
        child != parent
            && referring.iter().any(|(table, children)| *table == parent && children.iter().any(|c| c == child))
    };
    let mut ranked = Vec::with_capacity(left.len());
    while !left.is_empty() {
        // A kind no other kind left refers to goes next (the first such, to keep the order stable).
        let next =
            left.iter().position(|kind| !left.iter().any(|other| refers_to(other.table, kind.table))).unwrap_or(0);
        ranked.push(left.remove(next));
    }
    Ok(ranked)
}

/// A kind's rules (a declared trash always has them).
fn rules(kind: &Resource) -> crate::crud::Trash {
    kind.trash.unwrap_or(crate::crud::Trash::PLAIN)
}

/// One record in the trash.
struct Entry {
    kind: &'static Resource,
    record: i64,
    label: String,
}

impl Entry {
    /// The entry a `trash` row holds (its `kind`, `record_id` and `label`); `None` for a kind no
    /// resource declares any more.
    fn read(r: &Row<'_>) -> crate::db::sql::Result<Option<Entry>> {
        let name: String = r.get("kind")?;
        let (record, label) = (r.get("record_id")?, r.get("label")?);
        Ok(kind_of(&name).map(|kind| Entry { kind, record, label }))
    }
}

fn entries(tx: &Connection, ids: &[i64]) -> AppResult<Vec<Entry>> {
    let mut stmt = tx.prepare_cached("SELECT kind, record_id, label FROM trash WHERE id = ?1")?;
    let mut found = Vec::with_capacity(ids.len());
    let mut missing = 0;
    for id in ids {
        match stmt.query_row([id], Entry::read).optional()?.flatten() {
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
    /// The record's kind's place among `ranked`: children before the parents they refer to.
    fn rank(&self, ranked: &[&'static Resource]) -> usize {
        ranked.iter().position(|k| std::ptr::eq(*k, self.kind)).unwrap_or(ranked.len())
    }

    /// `template` about this record: its `{kind}` and `{label}` filled in, then `more`.
    fn refusal(&self, template: &str, more: &[(&str, &str)]) -> String {
        let text = template.replace("{kind}", self.kind.name);
        let text = more.iter().fold(text, |text, (name, value)| text.replace(name, value));
        // The label last: it is the record's own text, which may hold a `{...}` of its own.
        text.replace("{label}", &self.label)
    }

    fn restore(&self, tx: &Connection) -> AppResult<()> {
        let table = self.kind.table;
        for (column, field, parent, called) in rules(self.kind).parents {
            let deleted: Option<bool> = tx
                .query_row(
                    &format!(
                        "SELECT p.deleted_at IS NOT NULL AS parent_deleted
                         FROM {table} r JOIN {parent} p ON p.id = r.{column} WHERE r.id = ?1"
                    ),
                    [self.record],
                    |r| r.get("parent_deleted"),
                )
                .optional()?;
            if deleted == Some(true) {
                return Err(AppError::conflict_on(field, self.refusal(PARENT_DELETED, &[("{parent}", called)])));
            }
        }
        if let Some((field, taker)) = rules(self.kind).unique
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
        let table = self.kind.table;
        let files = file_ids(tx, table, self.record)?;
        let login: Option<i64> = match rules(self.kind).login {
            // The declaration's query answers the login's id as its one column, whatever it names it.
            Some(sql) => tx.query_row(sql, [self.record], |r| r.get(0)).optional()?,
            None => None,
        };
        // In a savepoint: after a refusal the transaction must still answer what refers to the
        // record (PostgreSQL aborts a transaction on a failed statement).
        let removed = tx.savepoint(|tx| -> AppResult<()> {
            if let Some(hook) = self.kind.on_change {
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
        let owned: Vec<&str> = rules(self.kind).owned.iter().map(|(table, _, _)| *table).collect();
        let mut ways = references(tx, self.kind.table, "id = ?1", &owned)?;
        for (owned, rows, _) in rules(self.kind).owned {
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
                &format!("SELECT COUNT(*) AS n FROM \"{child}\" WHERE {}", any.join(" OR ")),
                [self.record],
                |r| r.get("n"),
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

/// How the records of `table` are called in a refusal: as the resource of that table declares
/// them, or as the rows a trashed resource owns are declared ("city branches").
fn called(table: &str) -> String {
    let resources = super::all();
    let of_resource = resources.iter().find(|resource| resource.table == table).map(|resource| resource.plural);
    let owned = || {
        resources
            .iter()
            .filter_map(|resource| resource.trash)
            .find_map(|trash| trash.owned.iter().find(|(owned, _, _)| *owned == table).map(|(_, _, called)| *called))
    };
    of_resource.or_else(owned).unwrap_or(table).to_string()
}

/// The images the record refers to, by the table's keys into `files`.
fn file_ids(tx: &Connection, table: &str, record: i64) -> AppResult<Vec<i64>> {
    let columns = crate::db::schema::references_from(tx, table, "files")?;
    let mut files = Vec::new();
    for column in columns {
        let sql = format!("SELECT \"{column}\" AS file_id FROM {table} WHERE id = ?1");
        let file: Option<i64> = tx.query_row(&sql, [record], |r| r.get("file_id"))?;
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
            let ranked = ranked(tx)?;
            // Parents before their children, so a selection holding both comes back in one call.
            entries.sort_by_key(|e| std::cmp::Reverse(e.rank(&ranked)));
            for entry in &entries {
                entry.restore(tx)?;
            }
            // Each resource puts back what its delete took, for its records together.
            for kind in ranked {
                let records: Vec<i64> =
                    entries.iter().filter(|e| std::ptr::eq(e.kind, kind)).map(|e| e.record).collect();
                if let (false, Some(hook)) = (records.is_empty(), kind.on_change) {
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
            let ranked = ranked(tx)?;
            // Children before their parents, so a selection holding both goes in one call.
            entries.sort_by_key(|e| e.rank(&ranked));
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
    let expired: Vec<(i64, Option<Entry>)> = tx
        .prepare_cached(
            "SELECT id, kind, record_id, label FROM trash WHERE deleted_at < ?1 AND id > ?2 ORDER BY id LIMIT ?3",
        )?
        .query_map((cutoff, after, limit), |r| Ok((r.get("id")?, Entry::read(r)?)))?
        .collect::<Result<_, _>>()?;
    let mut step = PurgeStep { last: expired.last().map(|e| e.0), deleted: 0, kept: 0 };
    let mut entries: Vec<Entry> = expired.into_iter().filter_map(|(_, entry)| entry).collect();
    let ranked = ranked(tx)?;
    entries.sort_by_key(|e| e.rank(&ranked));
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
