//! Declared writes. A resource declares each form field once (its name as the wire spells it,
//! its column, its kind, whether it is required, with the specification's exact messages), the
//! columns its writer computes (a password's hash, a position, the partner a key acts for) and
//! the child rows written with it (a campaign's assets), and from that one declaration come the
//! form's validation, the OpenAPI rules, and the INSERT and UPDATE by column name with the stored
//! image and the child rows, in one transaction, a taken unique value answered on its field
//! ([`Write`], in `write.rs`). What a table needs beyond that (checks against other rows, a
//! display position, a partner's branches added, edited and removed by id through their
//! declaration) is the resource's [`Writer`] hooks, or its own writer built on the same
//! declaration.

mod write;

pub use write::{Children, Write};

use crate::db::sql::Connection;
use axum::Json;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{Method, StatusCode};
use axum::routing::{post, put};
use serde_json::Value;
use utoipa::openapi::schema::Type;

use super::Resource;
use crate::core::error::AppResult;
use crate::core::validation::Validator;
use crate::http::api::Rule::{self, Required};
use crate::http::api::{Api, Doc};
use crate::http::files;
pub use crate::http::form_fields::{
    Check, Columns, Field, FieldKind, Mode, OnEdit, Sent, Source, Values, document_fields, json_object, read_fields,
};
use crate::http::forms::{Form, MULTIPART_LIMIT};
use crate::http::state::AppState;

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

/// A resource's form: its declared fields, its image, the parts its writer reads itself, the
/// columns the writer computes and the child tables written with its rows.
pub struct WriteForm {
    pub resource: &'static Resource,
    /// The table the declared columns are in: the resource's own, or the one it extends (an HR
    /// account's person is a `users` row).
    pub table: &'static str,
    pub fields: &'static [Field],
    pub image: Option<ImageField>,
    pub extra_parts: &'static [ExtraPart],
    /// The columns the writer computes and sets beside the fields and the image (a password's
    /// hash, the partner a key acts for, a position), by name: a write that sets another column
    /// is refused as a mistake of the code.
    pub computed: &'static [&'static str],
    /// The tables whose rows belong to the written row and are written with it, by name.
    pub children: &'static [&'static Children],
}

impl WriteForm {
    /// Reads and checks the declared fields in their declared order, recording failures in `v`
    /// (the caller adds its own checks after, then finishes).
    pub fn read(&'static self, source: &dyn Source, mode: Mode, v: &mut Validator) -> Values {
        read_fields(self.fields, source, mode, v)
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

    /// The multipart body's parts for `mode`, as the document lists them.
    fn parts(&self, mode: Mode) -> Vec<(&'static str, Type)> {
        let id = (mode == Mode::Update).then_some(("id", Type::Integer));
        let fields = self.fields.iter().filter(|f| f.read_on(mode)).map(|f| (f.name, f.wire_type()));
        let image = self.image.iter().map(|image| (image.names[0], Type::String));
        let extra =
            self.extra_parts.iter().filter(|p| p.on_create || mode == Mode::Update).map(|p| (p.name, p.kind.clone()));
        id.into_iter().chain(fields).chain(image).chain(extra).collect()
    }

    /// Adds the declared fields' rules (and, on an edit, the required id) to `doc`.
    pub fn document(&self, doc: Doc, mode: Mode) -> Doc {
        let doc = if mode == Mode::Update { doc.rules("id", &[Required]) } else { doc };
        let doc = document_fields(self.fields, doc, mode);
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

    /// Columns the writer computes beside the declared fields, each named in the form's
    /// `computed`.
    fn columns(_input: &Self::Input) -> Columns {
        Columns::new()
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
        doc(Mode::Create, W::SUMMARIES[0]).returns_component(201, super::row_schema(resource)),
    )
    .add(
        Method::PUT,
        &path,
        put(update::<W>).layer(DefaultBodyLimit::max(MULTIPART_LIMIT)),
        doc(Mode::Update, W::SUMMARIES[1])
            .answers(404, "No such row")
            .returns_component(200, super::row_schema(resource)),
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
        let id = W::FORM.write(&values).image(file_id).computed(W::columns(&input)).insert(tx)?;
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
        W::FORM.write(&values).image(file_id).computed(W::columns(&input)).update(tx, id)?;
        W::saved(tx, id, Mode::Update, &input)?;
        Ok(id)
    })
    .await
    .map(Json)
}
