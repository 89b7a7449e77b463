//! Declared writes. A resource declares each form field once (its name as the wire spells it,
//! its column, its kind, whether it is required, with the specification's exact messages), and
//! from that one declaration come the form's validation, the OpenAPI rules, and the plain INSERT
//! and UPDATE with the stored image, in one transaction, a taken unique value answered on its
//! field. What a table needs beyond plain columns (a branch list, a display position, a password
//! hash) is the resource's [`Writer`] hooks, or its own writer built on the same declaration.

use axum::Json;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{Method, StatusCode};
use axum::routing::{post, put};
use rusqlite::types::Value as SqlValue;
use rusqlite::{Connection, ToSql, params_from_iter};
use serde_json::Value;
use utoipa::openapi::schema::Type;

use super::Resource;
use crate::core::error::{AppError, AppResult, on_constraint};
use crate::core::patterns;
use crate::core::validation::{self, Validator};
use crate::db::now_iso;
use crate::http::api::Rule::{self, Pattern, Required};
use crate::http::api::{Api, Doc};
use crate::http::files;
use crate::http::forms::{Form, MULTIPART_LIMIT};
use crate::http::state::AppState;

/// Which write a form is read for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Create,
    Update,
}

/// What a field holds, and so its format rule.
#[derive(Clone, Copy)]
pub enum FieldKind {
    /// One line of text, trimmed.
    Text,
    /// 994 + operator code + 7 digits; empty is allowed unless the field is required.
    Phone,
    /// The specification's e-mail rule: a valid address of 3 to 50 characters.
    Email,
    /// Text with its own format rule.
    Checked(&'static Check),
}

/// A format rule of one field: text that must pass `test` (documented by `pattern`), or be
/// refused with `message`. `example` passes it and `refused` does not (examples and tests).
pub struct Check {
    pub pattern: &'static str,
    pub test: fn(&str) -> bool,
    pub message: &'static str,
    pub example: &'static str,
    pub refused: &'static str,
}

/// How an edit treats a field.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum OnEdit {
    /// Written (and checked) on every edit.
    Written,
    /// Checked and written only when the edit sends it; otherwise the stored value stays.
    KeptUnlessSent,
    /// Set on create only; an edit neither reads nor writes it.
    Ignored,
}

/// One declared form field.
#[derive(Clone, Copy)]
pub struct Field {
    /// The name as the wire spells it (`contactPerson`, `phoneNumber`).
    pub name: &'static str,
    /// The column it is stored in; `None` for a field the resource's writer turns into something
    /// else (a password into its hash).
    pub column: Option<&'static str>,
    pub kind: FieldKind,
    /// The message when it is missing or blank; `None` when it may be left empty.
    pub required: Option<&'static str>,
    pub on_edit: OnEdit,
    /// The message when the value is taken (a unique column); the write answers 409 on the field.
    pub unique: Option<&'static str>,
}

impl Field {
    const fn new(name: &'static str, column: &'static str, kind: FieldKind) -> Field {
        Field { name, column: Some(column), kind, required: None, on_edit: OnEdit::Written, unique: None }
    }

    pub const fn text(name: &'static str, column: &'static str) -> Field {
        Field::new(name, column, FieldKind::Text)
    }

    pub const fn phone(name: &'static str, column: &'static str) -> Field {
        Field::new(name, column, FieldKind::Phone)
    }

    pub const fn email(name: &'static str, column: &'static str) -> Field {
        Field::new(name, column, FieldKind::Email)
    }

    pub const fn checked(name: &'static str, column: &'static str, check: &'static Check) -> Field {
        Field::new(name, column, FieldKind::Checked(check))
    }

    /// A value that passes the field's rules (for examples and tests).
    pub fn example(&self) -> &'static str {
        match self.kind {
            FieldKind::Text => "Example",
            FieldKind::Phone => "994501234567",
            FieldKind::Email => "example@perk.az",
            FieldKind::Checked(check) => check.example,
        }
    }

    /// A value its format rule refuses, with the refusal; `None` for free text.
    pub fn refused_example(&self) -> Option<(&'static str, &'static str)> {
        match self.kind {
            FieldKind::Text => None,
            FieldKind::Phone => Some(("12345", validation::PHONE_FORMAT)),
            FieldKind::Email => Some(("not-an-address", validation::EMAIL_FORMAT)),
            FieldKind::Checked(check) => Some((check.refused, check.message)),
        }
    }

    pub const fn required(mut self, message: &'static str) -> Field {
        self.required = Some(message);
        self
    }

    pub const fn kept_unless_sent(mut self) -> Field {
        self.on_edit = OnEdit::KeptUnlessSent;
        self
    }

    pub const fn create_only(mut self) -> Field {
        self.on_edit = OnEdit::Ignored;
        self
    }

    pub const fn unique(mut self, message: &'static str) -> Field {
        self.unique = Some(message);
        self
    }

    /// Read and checked, but stored by the resource's writer (it is not a column as sent).
    pub const fn unstored(mut self) -> Field {
        self.column = None;
        self
    }

    /// Whether a write of `mode` reads this field at all.
    pub fn read_on(&self, mode: Mode) -> bool {
        mode == Mode::Create || self.on_edit != OnEdit::Ignored
    }

    /// The message a write of `mode` answers when the field is missing, if it must be sent.
    pub fn required_on(&self, mode: Mode) -> Option<&'static str> {
        self.required.filter(|_| mode == Mode::Create || self.on_edit == OnEdit::Written)
    }

    /// The OpenAPI rules this field's declaration implies for `mode`.
    pub fn rules(&self, mode: Mode) -> Vec<Rule> {
        let mut rules = if self.required_on(mode).is_some() { vec![Required] } else { vec![] };
        let pattern = match self.kind {
            FieldKind::Text if self.required.is_some() => Some(patterns::NOT_BLANK),
            FieldKind::Text => None,
            FieldKind::Phone if self.required.is_some() => Some(patterns::PHONE),
            FieldKind::Phone => Some(patterns::OPTIONAL_PHONE),
            FieldKind::Email => Some(patterns::EMAIL),
            FieldKind::Checked(check) => Some(check.pattern),
        };
        rules.extend(pattern.map(Pattern));
        if self.on_edit == OnEdit::KeptUnlessSent && mode == Mode::Update {
            rules.push(Rule::Note("Unchanged when not sent."));
        }
        // The messages the checks answer, for the client's form.
        rules.extend(self.required.map(|message| Rule::Message("required", message)));
        match self.kind {
            FieldKind::Text => {}
            FieldKind::Phone => rules.push(Rule::Message("format", validation::PHONE_FORMAT)),
            FieldKind::Email => rules.extend([
                Rule::Message("format", validation::EMAIL_FORMAT),
                Rule::Message("minLength", validation::MIN_3),
                Rule::Message("maxLength", validation::MAX_50),
            ]),
            FieldKind::Checked(check) => rules.push(Rule::Message("format", check.message)),
        }
        rules.extend(self.unique.map(|message| Rule::Message("taken", message)));
        rules
    }

    /// Checks `value` (trimmed) with the field's rules, first failure first.
    fn check(&self, v: &mut Validator, value: &str) {
        match self.kind {
            // The e-mail rule names its own required message.
            FieldKind::Email => {
                if let Some(message) = self.required {
                    v.email(self.name, value, message);
                } else if !value.is_empty() {
                    v.check(self.name, validation::is_email(value), validation::EMAIL_FORMAT)
                        .length(self.name, value, 3, 50);
                }
                return;
            }
            _ => {
                if let Some(message) = self.required {
                    v.required(self.name, value, message);
                }
            }
        }
        match self.kind {
            FieldKind::Phone => {
                v.phone(self.name, value);
            }
            FieldKind::Checked(check) if !value.is_empty() => {
                v.check(self.name, (check.test)(value), check.message);
            }
            _ => {}
        }
    }
}

/// What a form sent for one field.
pub enum Sent {
    /// Not sent (or JSON `null`).
    Missing,
    /// Text (trimmed, except a password, which is checked as typed).
    Text(String),
    /// A JSON value that is not text (a number, a list): refused as "{field} must be text".
    NotText,
}

/// Where a form's values come from: a multipart form, or a JSON body read as an object.
pub trait Source {
    fn value(&self, name: &str) -> Sent;
}

impl Source for Form {
    fn value(&self, name: &str) -> Sent {
        if self.has(name) { Sent::Text(self.text(name)) } else { Sent::Missing }
    }
}

impl Source for serde_json::Map<String, Value> {
    fn value(&self, name: &str) -> Sent {
        match self.get(name) {
            None | Some(Value::Null) => Sent::Missing,
            Some(Value::String(text)) if validation::is_password(name) => Sent::Text(text.clone()),
            Some(Value::String(text)) => Sent::Text(text.trim().to_string()),
            Some(_) => Sent::NotText,
        }
    }
}

/// A JSON body (already read into its typed struct, so its types are checked) as the object
/// its declared fields are read from.
pub fn json_object(body: &impl serde::Serialize) -> AppResult<serde_json::Map<String, Value>> {
    match serde_json::to_value(body).map_err(|e| AppError::Internal(e.into()))? {
        Value::Object(object) => Ok(object),
        _ => Err(AppError::Internal(anyhow::anyhow!("a form body is not a JSON object"))),
    }
}

/// The image a form may carry, stored in `files` and referenced by `column`.
pub struct ImageField {
    /// The part names it may arrive under, the first one documented (`file`, then `photo`).
    pub names: &'static [&'static str],
    pub column: &'static str,
    /// The message when a create comes without it; `None` when it is optional.
    pub required_on_create: Option<&'static str>,
}

/// A multipart part the resource's own writer reads, documented on the modes it is read on.
pub struct ExtraPart {
    pub name: &'static str,
    pub kind: Type,
    pub on_create: bool,
}

impl ExtraPart {
    pub const fn both(name: &'static str, kind: Type) -> ExtraPart {
        ExtraPart { name, kind, on_create: true }
    }

    pub const fn update_only(name: &'static str, kind: Type) -> ExtraPart {
        ExtraPart { name, kind, on_create: false }
    }
}

/// A resource's form: its declared fields, its image, and the parts its writer reads itself.
pub struct WriteForm {
    pub resource: &'static Resource,
    /// The table the declared columns are in: the resource's own, or the one it extends (an HR
    /// account's person is a `users` row).
    pub table: &'static str,
    pub fields: &'static [Field],
    pub image: Option<ImageField>,
    pub extra_parts: &'static [ExtraPart],
}

/// The declared fields' values as read: per field, `None` for a kept field an edit did not send.
pub struct Values {
    values: Vec<(&'static Field, Option<String>)>,
}

impl Values {
    /// The value of the field sent as `name` (empty when it was not sent).
    pub fn get(&self, name: &str) -> &str {
        self.values.iter().find(|(field, _)| field.name == name).and_then(|(_, value)| value.as_deref()).unwrap_or("")
    }

    fn stored(&self) -> impl Iterator<Item = (&'static str, &Option<String>)> {
        self.values.iter().filter_map(|(field, value)| field.column.map(|column| (column, value)))
    }

    /// Turns a taken unique value into the 409 of the first unique field (tables here hold one
    /// unique column at most).
    fn on_constraint(&self) -> impl Fn(rusqlite::Error) -> AppError {
        let unique = self.values.iter().find_map(|(field, _)| field.unique.map(|message| (field.name, message)));
        move |error| match unique {
            Some((field, message)) => on_constraint(field, message)(error),
            None => error.into(),
        }
    }
}

impl WriteForm {
    /// Reads and checks the declared fields in their declared order, recording failures in `v`
    /// (the caller adds its own checks after, then finishes).
    pub fn read(&'static self, source: &dyn Source, mode: Mode, v: &mut Validator) -> Values {
        let mut values = Vec::with_capacity(self.fields.len());
        for field in self.fields.iter().filter(|field| field.read_on(mode)) {
            let value = match source.value(field.name) {
                Sent::Missing if mode == Mode::Update && field.on_edit == OnEdit::KeptUnlessSent => {
                    values.push((field, None));
                    continue;
                }
                Sent::Missing => String::new(),
                Sent::Text(text) => text,
                Sent::NotText => {
                    v.check(field.name, false, &format!("{} must be text", field.name));
                    String::new()
                }
            };
            field.check(v, &value);
            values.push((field, Some(value)));
        }
        Values { values }
    }

    /// The image check of a create without one, recorded after the fields.
    fn check_image(&self, form: &Form, mode: Mode, v: &mut Validator) {
        if let (Mode::Create, Some(image)) = (mode, &self.image)
            && let Some(message) = image.required_on_create
        {
            v.check(image.names[0], self.upload(form).is_some(), message);
        }
    }

    fn upload<'f>(&self, form: &'f Form) -> Option<&'f files::Upload> {
        self.image.as_ref().and_then(|image| image.names.iter().find_map(|name| form.file(name)))
    }

    /// INSERTs the row: the declared columns, the stored image and the writer's `extra` columns.
    pub fn insert(
        &self,
        tx: &Connection,
        values: &Values,
        image: Option<i64>,
        extra: &[(&'static str, SqlValue)],
    ) -> AppResult<i64> {
        let mut columns: Vec<&str> = Vec::new();
        let mut params: Vec<&dyn ToSql> = Vec::new();
        for (column, value) in values.stored() {
            columns.push(column);
            params.push(value);
        }
        if let Some(field) = &self.image {
            columns.push(field.column);
            params.push(&image);
        }
        for (column, value) in extra {
            columns.push(column);
            params.push(value);
        }
        let sql = format!(
            "INSERT INTO {} ({}) VALUES ({})",
            self.table,
            columns.join(", "),
            vec!["?"; columns.len()].join(", ")
        );
        tx.execute(&sql, params_from_iter(params)).map_err(values.on_constraint())?;
        Ok(tx.last_insert_rowid())
    }

    /// UPDATEs a live row: the declared columns (a kept field only when sent), the image only when
    /// one came, the writer's `extra` columns and `updated_at`; 404 when there is no such row.
    pub fn update(
        &self,
        tx: &Connection,
        id: i64,
        values: &Values,
        image: Option<i64>,
        extra: &[(&'static str, SqlValue)],
    ) -> AppResult<i64> {
        let now = now_iso();
        let mut params: Vec<&dyn ToSql> = vec![&id];
        let mut sets: Vec<String> = Vec::new();
        for (column, value) in values.stored() {
            params.push(value);
            // A kept field the edit did not send is NULL here: the stored value stays.
            sets.push(match value {
                Some(_) => format!("{column} = ?{}", params.len()),
                None => format!("{column} = COALESCE(?{}, {column})", params.len()),
            });
        }
        if let Some(field) = &self.image {
            params.push(&image);
            sets.push(format!("{0} = COALESCE(?{1}, {0})", field.column, params.len()));
        }
        for (column, value) in extra {
            params.push(value);
            sets.push(format!("{column} = ?{}", params.len()));
        }
        params.push(&now);
        sets.push(format!("updated_at = ?{}", params.len()));
        let sql = format!("UPDATE {} SET {} WHERE id = ?1 AND deleted_at IS NULL", self.table, sets.join(", "));
        let changed = tx.execute(&sql, params_from_iter(params)).map_err(values.on_constraint())?;
        self.resource.updated(changed, id)
    }

    /// The multipart body's parts for `mode`, as the document lists them.
    fn parts(&self, mode: Mode) -> Vec<(&'static str, Type)> {
        let id = (mode == Mode::Update).then_some(("id", Type::Integer));
        let fields = self.fields.iter().filter(|f| f.read_on(mode)).map(|f| (f.name, Type::String));
        let image = self.image.iter().map(|image| (image.names[0], Type::String));
        let extra =
            self.extra_parts.iter().filter(|p| p.on_create || mode == Mode::Update).map(|p| (p.name, p.kind.clone()));
        id.into_iter().chain(fields).chain(image).chain(extra).collect()
    }

    /// Adds the declared fields' rules (and, on an edit, the required id) to `doc`.
    pub fn document(&self, doc: Doc, mode: Mode) -> Doc {
        let doc = if mode == Mode::Update { doc.rules("id", &[Required]) } else { doc };
        let doc = self.fields.iter().filter(|f| f.read_on(mode)).fold(doc, |doc, f| doc.rules(f.name, &f.rules(mode)));
        match (&self.image, mode) {
            (Some(ImageField { names, required_on_create: Some(message), .. }), Mode::Create) => {
                doc.rules(names[0], &[Required, Rule::Message("required", message)])
            }
            _ => doc,
        }
    }
}

/// A declared write as the router serves it, for the table-driven tests over every one.
pub struct DeclaredWrite {
    pub form: &'static WriteForm,
    pub mode: Mode,
    pub method: Method,
    pub path: String,
    pub multipart: bool,
}

impl DeclaredWrite {
    /// The generic multipart create and edit of a [`Writer`]'s form.
    pub fn multipart(form: &'static WriteForm) -> [DeclaredWrite; 2] {
        let path = format!("/api/{}", form.resource.path);
        [
            DeclaredWrite { form, mode: Mode::Create, method: Method::POST, path: path.clone(), multipart: true },
            DeclaredWrite { form, mode: Mode::Update, method: Method::PUT, path, multipart: true },
        ]
    }

    pub fn json(form: &'static WriteForm, mode: Mode, method: Method, path: &str) -> DeclaredWrite {
        DeclaredWrite { form, mode, method, path: path.to_string(), multipart: false }
    }
}

/// A multipart resource whose create and edit are the generic ones, with its hooks.
pub trait Writer: Send + Sync + 'static {
    const FORM: &'static WriteForm;
    /// What the hooks read beyond the declared fields.
    type Input: Send + 'static;
    /// The summaries of the create and the edit in the document.
    const SUMMARIES: [&'static str; 2];

    /// Adjusts the form before it is read (a field that may arrive under another shape).
    fn prepare(_form: &mut Form) {}

    /// Reads and checks the parts the declaration does not cover, after the declared fields.
    fn read(form: &Form, mode: Mode, v: &mut Validator) -> Self::Input;

    /// Runs in the write's transaction before the row is written (the rows the form points to
    /// exist): an error there is the answer, and nothing is written.
    fn check(_tx: &Connection, _input: &Self::Input) -> AppResult<()> {
        Ok(())
    }

    /// Columns the writer sets beside the declared ones.
    fn columns(_input: &Self::Input) -> Vec<(&'static str, SqlValue)> {
        Vec::new()
    }

    /// Runs in the write's transaction after the row is written (child rows, positions).
    fn saved(_tx: &Connection, _id: i64, _mode: Mode, _input: &Self::Input) -> AppResult<()> {
        Ok(())
    }

    /// Adds the document's rules for the parts the writer reads, and any other answers.
    fn document(doc: Doc, _mode: Mode) -> Doc {
        doc
    }
}

/// `POST /api/{path}` and `PUT /api/{path}` for a [`Writer`], with their documents.
pub fn write_routes<W: Writer>(api: Api) -> Api {
    let form = W::FORM;
    let resource = form.resource;
    let path = format!("/api/{}", resource.path);
    let doc = |mode: Mode, summary: &str| {
        let doc = Doc::new(resource.tag, summary).roles(resource.write).multipart(&form.parts(mode));
        W::document(form.document(doc, mode), mode)
    };
    api.add(
        Method::POST,
        &path,
        post(create::<W>).layer(DefaultBodyLimit::max(MULTIPART_LIMIT)),
        doc(Mode::Create, W::SUMMARIES[0]).returns_schema(201, super::row_schema(resource)),
    )
    .add(
        Method::PUT,
        &path,
        put(update::<W>).layer(DefaultBodyLimit::max(MULTIPART_LIMIT)),
        doc(Mode::Update, W::SUMMARIES[1]).answers(404, "No such row").returns_schema(200, super::row_schema(resource)),
    )
}

/// Reads and checks the whole form: declared fields, the image's presence, the writer's parts.
fn read_form<W: Writer>(form: &Form, mode: Mode) -> AppResult<(Values, W::Input)> {
    let mut v = Validator::new();
    let values = W::FORM.read(form, mode, &mut v);
    W::FORM.check_image(form, mode, &mut v);
    let input = W::read(form, mode, &mut v);
    v.finish()?;
    Ok((values, input))
}

async fn create<W: Writer>(State(state): State<AppState>, mut form: Form) -> AppResult<(StatusCode, Json<Value>)> {
    W::prepare(&mut form);
    let (values, input) = read_form::<W>(&form, Mode::Create)?;
    let image = files::checked_upload(W::FORM.upload(&form)).await?;
    let row = super::save_then_fetch(&state, W::FORM.resource, move |tx| {
        W::check(tx, &input)?;
        let file_id = files::store_upload(tx, image)?;
        let id = W::FORM.insert(tx, &values, file_id, &W::columns(&input))?;
        W::saved(tx, id, Mode::Create, &input)?;
        Ok(id)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(row)))
}

async fn update<W: Writer>(State(state): State<AppState>, mut form: Form) -> AppResult<Json<Value>> {
    let id = form.id()?;
    W::prepare(&mut form);
    let (values, input) = read_form::<W>(&form, Mode::Update)?;
    let image = files::checked_upload(W::FORM.upload(&form)).await?;
    super::save_then_fetch(&state, W::FORM.resource, move |tx| {
        W::check(tx, &input)?;
        let file_id = files::store_upload(tx, image)?;
        W::FORM.update(tx, id, &values, file_id, &W::columns(&input))?;
        W::saved(tx, id, Mode::Update, &input)?;
        Ok(id)
    })
    .await
    .map(Json)
}
