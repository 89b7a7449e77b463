//! The generic handlers every resource gets from its declaration.

use crate::db::dialect::Isolation;
use crate::db::sql::{Connection, OptionalExtension, params_from_iter};
use axum::extract::{OriginalUri, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodFilter, MethodRouter, delete, get, on};
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as JsonValue};
use utoipa::ToSchema;

use super::query::{PageAhead, RowObject, json_value, select_sql, unreadable};
use super::{Change, FilterKind, Language, ListQuery, Resource, ValueKind, schema};
use crate::auth::CurrentUser;
use crate::auth::callers::CallerToConfirm;
use crate::core::error::{AppError, AppResult};
use crate::core::refusals::Audience;
use crate::db::{CountCache, Reading, now_iso};
use crate::http::api::{Api, Doc, Rule, query};
use crate::http::extract::{ApiJson, PathId, QueryMap};
use crate::http::state::AppState;

/// The list, filter, detail, export, delete and toggle routes of `resource`.
/// The list call of `resource`, for its own paths and the specification's aliases of them
/// (`employee/forAdmin`), so an alias answers exactly as the list does.
pub fn list_call(resource: &'static Resource) -> MethodRouter<AppState> {
    get(move |s, u, c, q, h| list(resource, s, u, c, q, h))
}

/// What the document of every route that [`list_call`] serves says: the answer revalidates (an
/// `ETag`, 304 while the data has not changed), and the handler checks its caller with its first
/// read, which the route's gate may then leave to it. Kept beside the handler that does both, so an
/// alias's document cannot claim the one without the handler.
pub fn list_call_doc(doc: Doc) -> Doc {
    doc.revalidates().checks_caller_with_its_read()
}

/// The export call of `resource`, for its own path and the specification's aliases.
pub fn export_call(resource: &'static Resource) -> MethodRouter<AppState> {
    get(move |s, q, h| super::export::export(resource, s, q, h))
}

/// The active toggle of `rows` (`{id, isActive}`), for its own `PATCH {path}/active` and the
/// specification's other spelling of it (categories: `PUT campaign/category/changeStatus`).
pub fn toggle_call(rows: &'static Resource, method: MethodFilter) -> MethodRouter<AppState> {
    on(method, move |s, u, b| toggle(rows, s, u, b))
}

pub fn routes(resource: &'static Resource) -> Api {
    routes_over(resource, resource)
}

/// As [`routes`], with the single-row calls (detail, delete, toggle) looking rows up in `rows`,
/// a declaration of the same table with a wider scope: the Campaigns list shows confirmed
/// campaigns, but any live campaign opens, toggles and deletes through `campaign`.
pub fn routes_over(resource: &'static Resource, rows: &'static Resource) -> Api {
    let base = format!("/api/{}", resource.path);
    let list_doc = |summary: String| {
        let doc = Doc::new(resource.tag, summary).roles(resource.read);
        list_call_doc(
            list_params(doc, resource)
                .with_component(schema::row(resource))
                .returns_schema(200, schema::list(resource)),
        )
    };
    let mut api = Api::new()
        .refuses(Audience::People, super::REFUSALS.iter().copied().chain([resource.name, rows.name]))
        .refuses(Audience::Machines, super::MACHINE_REFUSALS)
        .add(Method::GET, &base, list_call(resource), list_doc(format!("List {}", resource.tag.to_lowercase())))
        .add(
            Method::GET,
            &format!("{base}/filter"),
            list_call(resource),
            list_doc(format!("List {} narrowed by filters", resource.tag.to_lowercase())),
        )
        .add(
            Method::GET,
            &format!("{base}/{{id}}"),
            get(move |s, id, h| detail(rows, s, id, h)),
            Doc::new(resource.tag, format!("One {}", resource.name.to_lowercase()))
                .roles(resource.read)
                .returns_component(200, schema::row(rows)),
        );
    if let Some(export) = resource.export {
        let mut doc = Doc::new(resource.tag, format!("Download {} (the list's filters apply)", export.file_name))
            .roles(resource.read)
            .returns_file();
        doc = filters_doc(doc, resource);
        api = api.add(Method::GET, &format!("{base}/export"), export_call(resource), doc);
    }
    if resource.delete {
        api = api.add(
            Method::DELETE,
            &base,
            delete(move |s, u, b| soft_delete(rows, s, u, b)),
            Doc::new(resource.tag, format!("Delete {} (by id list)", resource.tag.to_lowercase()))
                .roles(resource.write)
                .body_schema(
                    "application/json",
                    query::id_list("The ids of the records to delete (duplicates count once)"),
                )
                .answers(404, "Some of the ids name no row; nothing was deleted")
                .answers(409, "The delete conflicts with the rows' state (e.g. the caller's own account)")
                .returns::<Deleted>(200),
        );
    }
    if resource.toggle {
        api = api.add(
            Method::PATCH,
            &format!("{base}/active"),
            toggle_call(rows, MethodFilter::PATCH),
            Doc::new(resource.tag, format!("Activate or deactivate a {}", resource.name.to_lowercase()))
                .roles(resource.write)
                .json_body::<ActiveChange>()
                .rules("id", &[Rule::Required])
                .rules("isActive", &[Rule::Note("Default false.")])
                .answers(404, "No such row")
                .answers(409, "The change conflicts with the row's state (e.g. the caller's own account)")
                .returns::<ActiveChange>(200),
        );
    }
    api
}

/// The paging, sorting and filter parameters of a list of `resource`, with the schemas of what
/// `ListQuery::parse` accepts.
pub fn list_params(doc: Doc, resource: &Resource) -> Doc {
    let doc = paging_params(doc)
        .query_schema("SortField", "A sortable field of the row, any case (default id)", sort_fields(resource))
        .query_schema("OrderBy", "true = ascending (default false)", query::bool());
    filters_doc(doc, resource)
}

/// `Skip` and `Take`, as every paged call reads them.
fn paging_params(doc: Doc) -> Doc {
    doc.query_schema("Skip", "Rows to skip (default 0)", query::int(0, i64::MAX)).query_schema(
        "Take",
        "Page size, 1 to 100 (without Skip and Take: up to 1000 rows; with Skip alone: 10)",
        query::int(1, super::MAX_PAGE),
    )
}

/// The query schema of each filter: what its parser accepts.
fn filters_doc(mut doc: Doc, resource: &Resource) -> Doc {
    for filter in resource.filters {
        let schema = match filter.kind {
            FilterKind::Contains { .. } | FilterKind::Equals { value: ValueKind::Text, .. } => query::text(),
            FilterKind::Equals { value: ValueKind::Int, .. } => query::int(i64::MIN, i64::MAX),
            FilterKind::Equals { value: ValueKind::Bool, .. } => query::bool(),
            FilterKind::OnDate(_) | FilterKind::From(_) | FilterKind::To(_) => query::date(),
        };
        doc = doc.query_schema(filter.param, "Filter (blank = not applied)", schema);
    }
    doc
}

/// `SortField`: the sortable fields and `id`, in any case.
fn sort_fields(resource: &Resource) -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
    let mut fields: Vec<&str> = resource.columns.iter().filter(|c| c.sortable).map(|c| c.field).collect();
    if !fields.iter().any(|f| f.eq_ignore_ascii_case("id")) {
        fields.push("id");
    }
    query::one_of(&fields)
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListPage {
    pub data: Vec<JsonValue>,
    pub total_count: i64,
}

async fn list(
    resource: &'static Resource,
    State(state): State<AppState>,
    OriginalUri(uri): OriginalUri,
    caller: Option<Extension<CallerToConfirm>>,
    query: QueryMap,
    headers: HeaderMap,
) -> AppResult<Response> {
    // A caller its gate admitted on memory is confirmed before any answer (`auth::callers`).
    let caller = caller.map(|Extension(caller)| caller);
    let query = match ListQuery::parse(resource, &query, Language::from_headers(&headers)) {
        Ok(query) => query,
        Err(refusal) => {
            if let Some(caller) = caller {
                caller.confirm_alone(&state.db).await?;
            }
            return Err(refusal);
        }
    };
    let counts = state.db.counts();
    // What tells this request's answers apart: the path and query, and the language of its names.
    let language = headers.get(header::ACCEPT_LANGUAGE).and_then(|value| value.to_str().ok()).unwrap_or("");
    let request = format!("{}\n{language}", uri.path_and_query().map_or(uri.path(), |whole| whole.as_str()));
    let asked = headers.get(header::IF_NONE_MATCH).and_then(|value| value.to_str().ok()).map(str::to_owned);
    let (etag, page) = state
        .db
        .read_briefly(move |conn| {
            let mut query = query;
            // The caller's check when its gate left it here, the clock, then the page (unless the
            // tag asked for may spare it): one round trip on PostgreSQL, the data no older than
            // the tag, and nothing answered before the check confirms the caller.
            let confirming = caller.as_ref().map(|caller| caller.check_ahead(conn)).transpose()?;
            let clock = counts.clock_ahead(conn)?;
            let page = match asked {
                None => query.page_ahead(conn, resource)?,
                Some(_) => None,
            };
            let now = clock.reading()?;
            if let Some(confirming) = confirming {
                confirming.confirm()?;
            }
            let etag = now.etag(&request);
            if asked.as_deref().is_some_and(|asked| names_etag(asked, &etag)) {
                return Ok((etag, None));
            }
            page_body(conn, &now, resource, query, page).map(|page| (etag, Some(page)))
        })
        .await?;
    let mut answer = match page {
        Some(page) => ([(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))], page).into_response(),
        None => StatusCode::NOT_MODIFIED.into_response(),
    };
    if let Ok(value) = HeaderValue::from_str(&etag) {
        answer.headers_mut().insert(header::ETAG, value);
    }
    Ok(answer)
}

/// Whether an `If-None-Match` value names `etag`: one of its tags, compared weakly (a `W/`
/// prefix aside), or `*`.
fn names_etag(if_none_match: &str, etag: &str) -> bool {
    let weak = |tag: &str| tag.trim().trim_start_matches("W/").to_string();
    let wanted = weak(etag);
    if_none_match.split(',').any(|tag| tag.trim() == "*" || weak(tag) == wanted)
}

/// One page of the list as the list call answers it.
pub fn fetch_page(
    conn: &Connection,
    counts: &CountCache,
    resource: &Resource,
    query: ListQuery,
) -> AppResult<ListPage> {
    let (data, total_count) = read_page(conn, &counts.reading_on(conn)?, resource, query, None, |object| {
        serde_json::to_value(object).map_err(|error| unreadable("row".into(), error))
    })?;
    Ok(ListPage { data, total_count })
}

/// The list call's answer, `ListPage` as JSON, written row by row as the page is read.
fn page_body(
    conn: &Connection,
    counts: &Reading<'_>,
    resource: &Resource,
    query: ListQuery,
    ahead: Option<PageAhead<'_>>,
) -> AppResult<Vec<u8>> {
    let mut body = b"{\"data\":[".to_vec();
    let mut first = true;
    let (_, total_count) = read_page(conn, counts, resource, query, ahead, |object| {
        if !std::mem::take(&mut first) {
            body.push(b',');
        }
        serde_json::to_writer(&mut body, &object).map_err(|error| unreadable("row".into(), error))
    })?;
    body.extend_from_slice(b"],\"totalCount\":");
    body.extend_from_slice(itoa::Buffer::new().format(total_count).as_bytes());
    body.push(b'}');
    Ok(body)
}

/// Plans one page of `resource`'s list and hands each of its rows to `each` as the list columns'
/// JSON object (read from the page sent `ahead`, when it is the page planned); answers what
/// `each` made of them and the list's total.
fn read_page<T>(
    conn: &Connection,
    counts: &Reading<'_>,
    resource: &Resource,
    query: ListQuery,
    ahead: Option<PageAhead<'_>>,
    mut each: impl FnMut(RowObject<'_>) -> crate::db::sql::Result<T>,
) -> AppResult<(Vec<T>, i64)> {
    let plan = query.plan_page(conn, counts, resource)?;
    let Some(page) = plan.page else {
        return Ok((vec![], plan.total_count));
    };
    let columns: Vec<_> = resource.list_columns().collect();
    let each = |row: &crate::db::sql::Row<'_>| each(RowObject { row, columns: &columns });
    let made = match ahead {
        Some(ahead) => ahead.rows(&page, conn, each)?,
        None => page.rows(conn, each)?,
    };
    Ok((made, plan.total_count))
}

async fn detail(
    resource: &'static Resource,
    State(state): State<AppState>,
    PathId(id): PathId,
    headers: HeaderMap,
) -> AppResult<Json<JsonValue>> {
    let language = Language::from_headers(&headers);
    state
        .db
        .run(move |conn| fetch_detail(conn, resource, id, language)?.ok_or_else(|| resource.not_found()))
        .await
        .map(Json)
}

/// `GET {path}/{id}/history`: the activity entries of one record, newest first, paged as a list
/// (`activity` is the activity log's declaration, whose `Resource` and `RecordId` filters narrow
/// it to the record). Who may read the record may read its history; a record that is gone (a
/// purged row) still has one.
pub fn history_route(resource: &'static Resource, activity: &'static Resource) -> Api {
    let doc = Doc::new(resource.tag, format!("The history of one {}, newest first", resource.name.to_lowercase()))
        .roles(resource.read);
    let doc = paging_params(doc).with_component(schema::row(activity)).returns_schema(200, schema::list(activity));
    Api::new().add(
        Method::GET,
        &format!("/api/{}/{{id}}/history", resource.path),
        get(move |s: State<AppState>, id: PathId, q: QueryMap, h: HeaderMap| history(resource, activity, s, id, q, h)),
        doc,
    )
}

async fn history(
    resource: &'static Resource,
    activity: &'static Resource,
    State(state): State<AppState>,
    PathId(id): PathId,
    query: QueryMap,
    headers: HeaderMap,
) -> AppResult<Json<ListPage>> {
    let mut paging = QueryMap::default();
    for name in ["Skip", "Take"] {
        if let Some(value) = query.get(name) {
            paging = paging.with(name, value.to_string());
        }
    }
    let query = paging.with("Resource", resource.path.to_string()).with("RecordId", id.to_string());
    let query = ListQuery::parse(activity, &query, Language::from_headers(&headers))?;
    let counts = state.db.counts();
    state.db.run(move |conn| fetch_page(conn, &counts, activity, query)).await.map(Json)
}

/// Every column of one row as a JSON object, or `None` when it is not in the resource.
pub fn fetch_detail(
    conn: &Connection,
    resource: &Resource,
    id: i64,
    language: Language,
) -> AppResult<Option<JsonValue>> {
    let sql = format!(
        "SELECT {} FROM {} WHERE {} AND {} = ?1",
        select_sql(resource.columns.iter(), language),
        resource.from,
        resource.scope,
        resource.id
    );
    let found = conn
        .prepare_cached(&sql)?
        .query_row([id], |row| {
            let mut object = Map::with_capacity(resource.columns.len());
            for (index, column) in resource.columns.iter().enumerate() {
                object.insert(column.field.to_string(), json_value(row, index, column.kind)?);
            }
            Ok(object)
        })
        .optional()?;
    let Some(mut object) = found else { return Ok(None) };
    if let Some(extra) = resource.detail_extra.map(|extra| extra.load) {
        object.extend(extra(conn, id, language)?.into_iter().map(|(field, value)| (field.to_string(), value)));
    }
    Ok(Some(JsonValue::Object(object)))
}

/// Runs `work` in one transaction and answers with the detail of the row id it returns, as the
/// resource's create and edit calls do: one record, so a point write (`Db::write_point`).
pub async fn save_then_fetch<F>(state: &AppState, resource: &'static Resource, work: F) -> AppResult<JsonValue>
where
    F: FnOnce(&crate::db::sql::Connection) -> AppResult<i64> + Send + 'static,
{
    save_then_fetch_with(state, resource, Isolation::Serializable, work).await
}

/// [`save_then_fetch`] in a transaction of the given isolation (see [`Isolation`]).
pub async fn save_then_fetch_with<F>(
    state: &AppState,
    resource: &'static Resource,
    isolation: Isolation,
    work: F,
) -> AppResult<JsonValue>
where
    F: FnOnce(&crate::db::sql::Connection) -> AppResult<i64> + Send + 'static,
{
    state
        .db
        .write_point_with(isolation, move |tx| {
            // The record its event rendered, if one did, is the answer as it is.
            let (id, rendered) = super::events::keeping_rendered(|| work(tx));
            let id = id?;
            match rendered.and_then(|rendered| rendered.of(resource, id)) {
                Some(record) => Ok(record),
                None => fetch_detail(tx, resource, id, Language::Az)?.ok_or_else(|| resource.not_found()),
            }
        })
        .await
}

/// `{"id": [1, 2]}`, `{"ids": [...]}` or a bare `[1, 2]`.
#[derive(Deserialize, ToSchema)]
#[serde(untagged)]
pub enum IdList {
    Object {
        #[serde(alias = "ids")]
        #[schema(inline)]
        id: Vec<RowId>,
    },
    Bare(#[schema(inline)] Vec<RowId>),
}

/// A row id as JSON reads a whole number: `3`, and also `3.0`, which JSON Schema's `integer`
/// (and so the OpenAPI document) calls the same number.
pub struct RowId(i64);

impl utoipa::PartialSchema for RowId {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        i64::schema()
    }
}

impl ToSchema for RowId {}

impl<'de> Deserialize<'de> for RowId {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct WholeNumber;
        impl serde::de::Visitor<'_> for WholeNumber {
            type Value = RowId;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a whole number")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<RowId, E> {
                Ok(RowId(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<RowId, E> {
                i64::try_from(v).map(RowId).map_err(|_| E::custom("the id is out of range"))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<RowId, E> {
                // serde_json's fast float parsing may land one unit in the last place beside a
                // whole number written with `.0` (4006078019634494.0 is read as ...494.5), so a
                // float that close to a whole number counts as it. Beyond ±2^63 there is no i64.
                let whole = v.round();
                let close = (v - whole).abs() <= v.abs() * f64::EPSILON;
                if close && (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&whole) {
                    Ok(RowId(whole as i64))
                } else {
                    Err(E::custom("an id must be a whole number"))
                }
            }
        }
        deserializer.deserialize_any(WholeNumber)
    }
}

impl IdList {
    pub fn into_ids(self) -> AppResult<Vec<i64>> {
        self.into_ids_for("delete")
    }

    /// The distinct ids, 1 to 1000 of them, refused in words of what the call does (`restore`).
    pub fn into_ids_for(self, verb: &str) -> AppResult<Vec<i64>> {
        let mut ids: Vec<i64> = match self {
            IdList::Object { id } | IdList::Bare(id) => id.into_iter().map(|RowId(id)| id).collect(),
        };
        ids.sort_unstable();
        ids.dedup();
        match ids.len() {
            0 => Err(AppError::BadRequest(format!("Select at least one record to {verb}."))),
            n if n > 1000 => {
                Err(AppError::BadRequest(format!("{} at most 1000 records at a time.", capitalized(verb))))
            }
            _ => Ok(ids),
        }
    }
}

fn capitalized(word: &str) -> String {
    let mut letters = word.chars();
    letters.next().map(|first| first.to_uppercase().chain(letters).collect()).unwrap_or_default()
}

#[derive(Serialize, ToSchema)]
pub struct Deleted {
    pub deleted: usize,
}

async fn soft_delete(
    resource: &'static Resource,
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(body): ApiJson<IdList>,
) -> AppResult<Json<Deleted>> {
    let ids = body.into_ids()?;
    state
        .db
        .write(move |tx| {
            let placeholders = vec!["?"; ids.len()].join(", ");
            let found: i64 = tx.query_row(
                &format!(
                    "SELECT COUNT(*) AS n FROM {} WHERE {} AND {} IN ({placeholders})",
                    resource.from, resource.scope, resource.id
                ),
                params_from_iter(ids.iter()),
                |r| r.get("n"),
            )?;
            if found as usize != ids.len() {
                return Err(AppError::NotFound(match ids.len() {
                    1 => format!("{} not found.", resource.name),
                    n => format!(
                        "{} of the {n} selected records were not found; nothing was deleted.",
                        n - found as usize
                    ),
                }));
            }
            delete_rows(tx, resource, &ids, Some(&user))?;
            Ok(Deleted { deleted: ids.len() })
        })
        .await
        .map(Json)
}

/// Soft-deletes the live rows `ids` of `resource`'s table in the caller's transaction and runs its
/// change hook, as `DELETE {path}` does; answers how many rows it deleted. The one statement that
/// sets `deleted_at` for a declared resource, so a module that removes a record from the lists
/// (the review queue's void of a use) does it as a delete does, without writing the table itself.
pub fn delete_rows(
    tx: &Connection,
    resource: &'static Resource,
    ids: &[i64],
    user: Option<&CurrentUser>,
) -> AppResult<usize> {
    let now = now_iso();
    let mut stmt = tx.prepare_cached(&format!(
        "UPDATE {} SET deleted_at = ?2 WHERE id = ?1 AND deleted_at IS NULL",
        resource.table
    ))?;
    let mut deleted = 0;
    for id in ids {
        // The event tells of the record as it was: raised before it leaves the lists.
        super::events::raise(tx, resource, super::events::On::Deleted, *id)?;
        deleted += stmt.execute((id, &now))?;
    }
    if let Some(hook) = resource.on_change {
        hook(tx, user, &Change::Deleted(ids))?;
    }
    Ok(deleted)
}

#[derive(Deserialize, Serialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct ActiveChange {
    pub id: i64,
    pub is_active: bool,
}

async fn toggle(
    resource: &'static Resource,
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(body): ApiJson<ActiveChange>,
) -> AppResult<Json<ActiveChange>> {
    state
        .db
        .write(move |tx| {
            let exists = tx
                .query_row(
                    &format!("SELECT 1 FROM {} WHERE {} AND {} = ?1", resource.from, resource.scope, resource.id),
                    [body.id],
                    |_| Ok(()),
                )
                .optional()?;
            exists.ok_or_else(|| resource.not_found())?;
            tx.execute(
                &format!("UPDATE {} SET is_active = ?2, updated_at = ?3 WHERE id = ?1", resource.table),
                (body.id, body.is_active, now_iso()),
            )?;
            if let Some(hook) = resource.on_change {
                hook(tx, Some(&user), &Change::Toggled { id: body.id, active: body.is_active })?;
            }
            super::events::raise(tx, resource, super::events::On::Updated, body.id)?;
            Ok(body)
        })
        .await
        .map(Json)
}

#[cfg(test)]
mod id_list_tests {
    use super::IdList;

    #[test]
    fn whole_floats_are_ids_even_where_json_parsing_lands_beside_them() {
        // serde_json's fast float parsing reads 4006078019634494.0 as 4006078019634494.5.
        for (body, first) in [
            (r#"{"ids": [4006078019634494.0, 2]}"#, None),
            (r#"{"ids": [-152785.0]}"#, Some(-152785)),
            (r#"[1.0, 2]"#, Some(1)),
            (r#"{"id": [7.0]}"#, Some(7)),
        ] {
            let ids = serde_json::from_str::<IdList>(body).map(|list| list.into_ids());
            let ids = match ids {
                Ok(Ok(ids)) => ids,
                other => panic!("{body}: {:?}", other.err()),
            };
            if let Some(first) = first {
                assert!(ids.contains(&first), "{body}: {ids:?}");
            }
        }
        for body in [r#"[2.5]"#, r#"[1e300]"#, r#"[-0.5]"#] {
            assert!(serde_json::from_str::<IdList>(body).is_err(), "{body}");
        }
    }
}
