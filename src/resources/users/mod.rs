//! Back-office users (the Users screen): the generic list plus create, edit, password changes
//! and the authenticator QR code.

use crate::crud::{Recorded, Trash};
use crate::db::activity::action;
use crate::db::sql::{Connection, OptionalExtension};
use axum::Json;
use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::routing::{get, post, put};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa::openapi::schema::{ObjectBuilder, Type};

use crate::auth::accounts::{self, Reach};
use crate::auth::{CurrentUser, Role, Roles, password, recovery, sessions, totp};
use crate::core::error::{AppError, AppResult};
use crate::core::patterns;
use crate::core::refusals::Audience;
use crate::core::validation::{self, Validator};
use crate::crud::writes::{self, Check, Field, Mode, WriteForm};
use crate::crud::{self, Change, Column, Export, Filter, Kind, Resource, Search, Total, ValueKind};
use crate::http::api::Rule::{Message, Note, Pattern, Range, Required};
use crate::http::api::{Api, Doc};
use crate::http::extract::{ApiJson, QueryMap};
use crate::http::reply::MessageBody;
use crate::http::state::AppState;

const fn search(columns: &'static str) -> Search {
    Search { key: "u.id", of: "users", columns, scoped: true }
}

pub static USERS: Resource = Resource {
    path: "user",
    row: "UserRow",
    tag: "Users",
    name: "User",
    table: "users",
    from: "users u",
    scope: "u.kind = 'staff' AND u.deleted_at IS NULL",
    id: "u.id",
    total: Total::Maintained("users:staff"),
    columns: &[
        Column::new("id", "u.id", Kind::Int),
        Column::new("firstName", "u.first_name", Kind::Text).never_null(),
        Column::new("lastName", "u.last_name", Kind::Text).never_null(),
        Column::new("email", "u.email", Kind::Text).never_null(),
        Column::new("phone", "u.phone", Kind::Phone).never_null(),
        Column::new("roleId", "u.role_id", Kind::Int).never_null(),
        Column::new(
            "roleName",
            "CASE u.role_id WHEN 0 THEN 'Admin' WHEN 1 THEN 'User' ELSE 'Call Center' END",
            Kind::Text,
        )
        .unsorted()
        .never_null(),
        Column::new("isActive", "u.is_active", Kind::Bool).never_null(),
        Column::new("createdAt", "u.created_at", Kind::DateTime).detail_only().never_null(),
    ],
    filters: &[
        Filter::searched("FirstName", "u.first_name", search("first_name")),
        Filter::searched("LastName", "u.last_name", search("last_name")),
        Filter::searched("Email", "u.email", search("email")),
        Filter::equals("RoleId", "u.role_id", ValueKind::Int),
    ],
    export: Some(Export {
        file_name: "Users.xlsx",
        columns: &[
            ("First name", "firstName"),
            ("Last name", "lastName"),
            ("Email", "email"),
            ("Phone number", "phone"),
            ("Role", "roleName"),
            ("Active", "isActive"),
        ],
    }),
    read: Roles::ADMIN,
    write: Roles::ADMIN,
    toggle: true,
    delete: true,
    on_change: Some(guard_and_revoke),
    detail_extra: None,
    plural: "users",
    label: Some(super::PERSON_NAME),
    history: &[
        Recorded { rows: Some("{row}.kind = 'staff'"), ..Recorded::table("users") }.quiet(&[
            "kind",
            "totp_last_step",
            "totp_pending_secret",
        ]),
        // A sign-in is an event of its user's: a session made, or an attempt that failed (named by
        // the e-mail typed).
        Recorded {
            record: "{row}.user_id",
            created: Some(action::SIGN_IN),
            events_only: true,
            ..Recorded::table("sessions")
        },
        Recorded {
            record: "(SELECT id FROM users WHERE kind = 'staff' AND email = {row}.email AND deleted_at IS NULL)",
            created: Some(action::SIGN_IN_FAILED),
            events_only: true,
            ..Recorded::table("sign_in_failures")
        },
    ],
    trash: Some(Trash {
        label: Some(super::PERSON_LABEL),
        rows: Some("{row}.kind = 'staff'"),
        unique: Some((
            "email",
            "SELECT o.id FROM users r JOIN users o ON o.kind = r.kind AND o.email = r.email AND o.id <> r.id
             WHERE r.id = ?1 AND o.deleted_at IS NULL",
        )),
        ..Trash::PLAIN
    }),
    events: None,
    unrecorded: &[],
};

/// Nobody may delete or deactivate their own account (so an Admin always remains), and a
/// deleted or deactivated user's sessions end at once.
fn guard_and_revoke(tx: &Connection, user: Option<&CurrentUser>, change: &Change) -> AppResult<()> {
    let own = |id: &i64| user.is_some_and(|user| user.id == *id);
    match change {
        Change::Deleted(ids) if ids.iter().any(own) => Err(AppError::Conflict(OWN_DELETE.into())),
        Change::Toggled { id, active: false } if own(id) => Err(AppError::Conflict(OWN_DEACTIVATE.into())),
        Change::Deleted(ids) => sessions::revoke_user_sessions(tx, ids, "user deleted", None),
        Change::Toggled { id, active: false } => sessions::revoke_user_sessions(tx, &[*id], "user deactivated", None),
        Change::Toggled { .. } => Ok(()),
        // Its sessions ended at the delete; the user signs in again.
        Change::Restored(_) => Ok(()),
        Change::Purging(ids) => ids.iter().try_for_each(|&id| accounts::purge_login_parts(tx, id)),
    }
}

const FIRST_NAME: Field = Field::text("firstName", "first_name").required("Firstname is required");
const LAST_NAME: Field = Field::text("lastName", "last_name").required("Lastname is required");
const EMAIL: Field = Field::email("email", "email").required("Email is required").unique(validation::DUPLICATE_EMAIL);

const STRONG_PASSWORD: Check = Check {
    pattern: patterns::STRONG_PASSWORD,
    test: validation::is_strong_password,
    message: validation::STRONG_PASSWORD,
    example: "Secret-123!",
    refused: "password",
};

/// A new user: the password is stored as its hash, by `create`.
pub static NEW_USER_FORM: WriteForm = WriteForm {
    resource: &USERS,
    table: "users",
    fields: &[
        FIRST_NAME,
        LAST_NAME,
        EMAIL,
        Field::phone("phone", "phone"),
        Field::checked("password", "password_hash", &STRONG_PASSWORD).required("Password is required").unstored(),
    ],
    image: None,
    extra_parts: &[],
    computed: accounts::LOGIN_COLUMNS,
    children: &[],
};

/// An edit: the phone is required here (the spec's edit form), the password is changed elsewhere.
pub static USER_EDIT_FORM: WriteForm = WriteForm {
    resource: &USERS,
    table: "users",
    fields: &[FIRST_NAME, LAST_NAME, EMAIL, Field::phone("phone", "phone").required("Phone number is required")],
    image: None,
    extra_parts: &[],
    // The role, when the edit sends one (the user's own role cannot change).
    computed: &["role_id"],
    children: &[],
};

mod credentials;
pub use credentials::RESET_OWN;
use credentials::{LoginId, NewAuthenticator, PasswordChange, QrCode, change_password, qr_code, reset_authenticator};

pub const OWN_DELETE: &str = "You cannot delete your own account.";
pub const OWN_DEACTIVATE: &str = "You cannot deactivate your own account.";
pub const OWN_ROLE: &str = "You cannot change your own role.";
pub const ROLE_INVALID: &str = "Role must be Admin, User or Call Center";

/// The texts this module's routes refuse with (`core::refusals`).
const REFUSALS: &[&str] = &[
    OWN_DELETE,
    OWN_DEACTIVATE,
    OWN_ROLE,
    credentials::RESET_OWN,
    credentials::OLD_PASSWORD_REQUIRED,
    credentials::YOUR_PASSWORD_WRONG,
    credentials::OLD_PASSWORD_WRONG,
    ROLE_INVALID,
];

pub fn routes() -> Api {
    const TAG: &str = "Users";
    crud::routes(&USERS)
        .refuses(Audience::People, REFUSALS)
        .add(
            Method::POST,
            "/api/user/register",
            post(create),
            NEW_USER_FORM
                .document(Doc::new(TAG, "Create a user").roles(Roles::ADMIN).json_body::<NewUser>(), Mode::Create)
                .rules("roleId", &[Range(0, 2)])
                .rules(
                    "confirmPassword",
                    &[
                        Pattern(patterns::STRONG_PASSWORD),
                        Note("When sent, the same as password."),
                        Message("required", validation::CONFIRM_PASSWORD_REQUIRED),
                        Message("format", validation::STRONG_PASSWORD),
                        Message("same", validation::PASSWORDS_DIFFER),
                    ],
                )
                .answers(409, "A user with this e-mail already exists")
                .returns::<CreatedUser>(201),
        )
        .add(
            Method::PUT,
            "/api/user",
            put(update),
            USER_EDIT_FORM
                .document(Doc::new(TAG, "Edit a user").roles(Roles::ADMIN).json_body::<UserEdit>(), Mode::Update)
                .rules("roleId", &[Range(0, 2)])
                .answers(404, "No such user")
                .answers(409, "The e-mail is taken, or the caller tried to change their own role")
                .returns::<SavedUser>(200),
        )
        .add(
            Method::PUT,
            "/api/user/changePassword",
            put(change_password),
            Doc::new(TAG, "Change the own password, or (Admin, with id) another user's")
                .roles(Roles::ANYONE)
                .json_body::<PasswordChange>()
                // The own-change rules, which are the stricter: an Admin setting another user's
                // password needs only a digit in it. The messages of that form are the `...OfAnother` ones.
                .rules(
                    "oldPassword",
                    &[
                        Required,
                        Pattern(patterns::NOT_BLANK),
                        Message("required", credentials::OLD_PASSWORD_REQUIRED),
                        Message("requiredOfAnother", validation::PASSWORD_REQUIRED),
                    ],
                )
                .rules("newPassword", crate::auth::routes::NEW_PASSWORD_RULES)
                .rules(
                    "newPassword",
                    &[
                        Message("requiredOfAnother", validation::PASSWORD_REQUIRED),
                        Message("formatOfAnother", validation::NUMBER_PASSWORD),
                    ],
                )
                .rules("newPasswordConfirm", crate::auth::routes::NEW_PASSWORD_CONFIRM_RULES)
                .rules(
                    "newPasswordConfirm",
                    &[
                        Message("requiredOfAnother", validation::CONFIRM_PASSWORD_REQUIRED),
                        Message("sameOfAnother", validation::PASSWORDS_DIFFER),
                    ],
                )
                .answers(403, "The current password is wrong, or the caller may not change that user's")
                .answers(404, "No such user")
                .returns::<MessageBody>(200),
        )
        .add(
            Method::GET,
            "/api/user/get-qr",
            get(qr_code),
            Doc::new(TAG, "The user's authenticator QR code as a PNG data URL (HR accounts too)")
                .roles(Roles::EDITORS)
                .required_query(
                    "id",
                    "The user id",
                    ObjectBuilder::new()
                        .schema_type(Type::Integer)
                        .minimum(Some(utoipa::Number::Int(1)))
                        .maximum(Some(utoipa::Number::Int(i64::MAX as isize))),
                )
                .answers(404, "No such user")
                .returns::<QrCode>(200)
                .carries_secret(),
        )
        .add(
            Method::PUT,
            "/api/user/resetAuthenticator",
            put(reset_authenticator),
            Doc::new(
                TAG,
                "A new authenticator for another user or HR account (signed out everywhere); its QR code and recovery codes",
            )
            .roles(Roles::ADMIN)
            .json_body::<LoginId>()
            .answers(403, "The caller's own account")
            .answers(404, "No such user")
            .returns::<NewAuthenticator>(200),
        )
}

/// A user as lists and forms see it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SavedUser {
    id: i64,
    first_name: String,
    last_name: String,
    email: String,
    phone: String,
    role_id: i64,
    is_active: bool,
}

fn load_row(tx: &Connection, id: i64) -> AppResult<SavedUser> {
    Ok(tx.query_row(
        "SELECT id, first_name, last_name, email, phone, role_id, is_active FROM users WHERE id = ?1",
        [id],
        |r| {
            Ok(SavedUser {
                id: r.get("id")?,
                first_name: r.get("first_name")?,
                last_name: r.get("last_name")?,
                email: r.get("email")?,
                phone: r.get("phone")?,
                role_id: r.get("role_id")?,
                is_active: r.get("is_active")?,
            })
        },
    )?)
}

#[derive(Deserialize, Serialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct NewUser {
    first_name: String,
    last_name: String,
    email: String,
    /// 994 + operator code + 7 digits, or empty.
    phone: String,
    /// 0 Admin, 1 User (default), 2 Call Center.
    role_id: Option<i64>,
    password: String,
    confirm_password: Option<String>,
}

fn role_or_default(role_id: Option<i64>, v: &mut Validator) -> i64 {
    let role_id = role_id.unwrap_or(Role::User as i64);
    v.check("roleId", Role::from_id(role_id).is_some(), ROLE_INVALID);
    role_id
}

async fn create(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<NewUser>,
) -> AppResult<(StatusCode, Json<CreatedUser>)> {
    let mut v = Validator::new();
    let values = NEW_USER_FORM.read(&writes::json_object(&body)?, Mode::Create, &mut v);
    if let Some(confirm) = &body.confirm_password {
        v.required("confirmPassword", confirm, validation::CONFIRM_PASSWORD_REQUIRED)
            .check("confirmPassword", validation::is_strong_password(confirm), validation::STRONG_PASSWORD)
            .check("confirmPassword", *confirm == body.password, validation::PASSWORDS_DIFFER);
    }
    let role_id = role_or_default(body.role_id, &mut v);
    v.finish()?;
    let password_hash = password::hash_off_thread(body.password.clone()).await?;
    let (recovery_codes, hashes) = recovery::new_set_off_thread().await?;
    let user = state
        .db
        .write(move |tx| {
            let id = NEW_USER_FORM
                .write(&values)
                .computed(accounts::login_columns("staff", role_id, password_hash))
                .insert(tx)?;
            recovery::replace(tx, id, &hashes)?;
            load_row(tx, id)
        })
        .await?;
    Ok((StatusCode::CREATED, Json(CreatedUser { user, recovery_codes })))
}

/// A new user, with the recovery codes of the authenticator it was given, shown this once.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedUser {
    #[serde(flatten)]
    user: SavedUser,
    /// Ten one-time codes that sign in in place of the six-digit code, for the new user to keep.
    recovery_codes: Vec<String>,
}

#[derive(Deserialize, Serialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct UserEdit {
    id: i64,
    first_name: String,
    last_name: String,
    email: String,
    phone: String,
    role_id: Option<i64>,
}

async fn update(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(body): ApiJson<UserEdit>,
) -> AppResult<Json<SavedUser>> {
    let mut v = Validator::new();
    let values = USER_EDIT_FORM.read(&writes::json_object(&body)?, Mode::Update, &mut v);
    let role_id = body.role_id.map(|id| role_or_default(Some(id), &mut v));
    v.finish()?;
    state
        .db
        .write(move |tx| {
            let current_role: i64 = tx
                .query_row(
                    "SELECT role_id FROM users WHERE id = ?1 AND kind = 'staff' AND deleted_at IS NULL",
                    [body.id],
                    |r| r.get("role_id"),
                )
                .optional()?
                .ok_or_else(|| USERS.not_found())?;
            let role_id = role_id.unwrap_or(current_role);
            if body.id == user.id && role_id != current_role {
                return Err(AppError::Conflict(OWN_ROLE.into()));
            }
            USER_EDIT_FORM.write(&values).set("role_id", role_id).update(tx, body.id)?;
            load_row(tx, body.id)
        })
        .await
        .map(Json)
}
