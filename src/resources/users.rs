//! Back-office users (the Users screen): the generic list plus create, edit, password changes
//! and the authenticator QR code.

use axum::Json;
use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::routing::{get, post, put};
use rusqlite::{Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa::openapi::schema::{ObjectBuilder, Type};

use crate::auth::{CurrentUser, Role, Roles, password, sessions, totp};
use crate::core::error::{AppError, AppResult, on_constraint};
use crate::core::patterns;
use crate::core::validation::{self, Validator};
use crate::crud::{self, Change, Column, Export, Filter, Kind, Resource, Search, ValueKind};
use crate::db::now_iso;
use crate::http::api::Rule::{Note, Pattern, Range, Required};
use crate::http::api::{Api, Doc};
use crate::http::extract::{ApiJson, QueryMap};
use crate::http::reply::MessageBody;
use crate::http::state::AppState;

const fn search(columns: &'static str) -> Search {
    Search { key: "u.id", table: "users_search", columns, scoped: true }
}

pub static USERS: Resource = Resource {
    path: "user",
    tag: "Users",
    name: "User",
    table: "users",
    from: "users u",
    scope: "u.kind = 'staff' AND u.deleted_at IS NULL",
    id: "u.id",
    total_key: Some("users:staff"),
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
        .unsorted(),
        Column::new("isActive", "u.is_active", Kind::Bool).never_null(),
        Column::new("createdAt", "u.created_at", Kind::DateTime).detail_only(),
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
};

/// Nobody may delete or deactivate their own account (so an Admin always remains), and a
/// deleted or deactivated user's sessions end at once.
fn guard_and_revoke(tx: &Connection, user: &CurrentUser, change: &Change) -> AppResult<()> {
    match change {
        Change::Deleted(ids) if ids.contains(&user.id) => {
            Err(AppError::Conflict("You cannot delete your own account.".into()))
        }
        Change::Toggled { id, active: false } if *id == user.id => {
            Err(AppError::Conflict("You cannot deactivate your own account.".into()))
        }
        Change::Deleted(ids) => sessions::revoke_user_sessions(tx, ids, "user deleted", None),
        Change::Toggled { id, active: false } => sessions::revoke_user_sessions(tx, &[*id], "user deactivated", None),
        Change::Toggled { .. } => Ok(()),
    }
}

pub fn routes() -> Api {
    const TAG: &str = "Users";
    crud::routes(&USERS)
        .add(
            Method::POST,
            "/api/user/register",
            post(create),
            Doc::new(TAG, "Create a user")
                .roles(Roles::ADMIN)
                .json_body::<NewUser>()
                .rules("firstName", &[Required, Pattern(patterns::NOT_BLANK)])
                .rules("lastName", &[Required, Pattern(patterns::NOT_BLANK)])
                .rules("email", &[Required, Pattern(patterns::EMAIL)])
                .rules("phone", &[Pattern(patterns::OPTIONAL_PHONE)])
                .rules("roleId", &[Range(0, 2)])
                .rules("password", &[Required, Pattern(patterns::STRONG_PASSWORD)])
                .rules(
                    "confirmPassword",
                    &[Pattern(patterns::STRONG_PASSWORD), Note("When sent, the same as password.")],
                )
                .answers(409, "A user with this e-mail already exists")
                .returns::<UserRow>(201),
        )
        .add(
            Method::PUT,
            "/api/user",
            put(update),
            Doc::new(TAG, "Edit a user")
                .roles(Roles::ADMIN)
                .json_body::<UserEdit>()
                .rules("id", &[Required])
                .rules("firstName", &[Required, Pattern(patterns::NOT_BLANK)])
                .rules("lastName", &[Required, Pattern(patterns::NOT_BLANK)])
                .rules("email", &[Required, Pattern(patterns::EMAIL)])
                .rules("phone", &[Required, Pattern(patterns::PHONE)])
                .rules("roleId", &[Range(0, 2)])
                .answers(404, "No such user")
                .answers(409, "The e-mail is taken, or the caller tried to change their own role")
                .returns::<UserRow>(200),
        )
        .add(
            Method::PUT,
            "/api/user/changePassword",
            put(change_password),
            Doc::new(TAG, "Change the own password, or (Admin, with id) another user's")
                .roles(Roles::ANYONE)
                .json_body::<PasswordChange>()
                // The own-change rules, which are the stricter: an Admin setting another user's
                // password needs only a digit in it.
                .rules("oldPassword", &[Required, Pattern(patterns::NOT_BLANK)])
                .rules("newPassword", &[Required, Pattern(patterns::LETTER_AND_NUMBER_PASSWORD)])
                .rules(
                    "newPasswordConfirm",
                    &[Required, Pattern(patterns::LETTER_AND_NUMBER_PASSWORD), Note("The same as newPassword.")],
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
                .returns::<QrCode>(200),
        )
}

/// A user as lists and forms see it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserRow {
    id: i64,
    first_name: String,
    last_name: String,
    email: String,
    phone: String,
    role_id: i64,
    is_active: bool,
}

fn load_row(tx: &Connection, id: i64) -> AppResult<UserRow> {
    Ok(tx.query_row(
        "SELECT id, first_name, last_name, email, phone, role_id, is_active FROM users WHERE id = ?1",
        [id],
        |r| {
            Ok(UserRow {
                id: r.get(0)?,
                first_name: r.get(1)?,
                last_name: r.get(2)?,
                email: r.get(3)?,
                phone: r.get(4)?,
                role_id: r.get(5)?,
                is_active: r.get(6)?,
            })
        },
    )?)
}

#[derive(Deserialize, ToSchema, Default)]
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
    v.check("roleId", Role::from_id(role_id).is_some(), "Role must be Admin, User or Call Center");
    role_id
}

async fn create(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<NewUser>,
) -> AppResult<(StatusCode, Json<UserRow>)> {
    let mut v = Validator::new();
    v.required("firstName", &body.first_name, "Firstname is required")
        .required("lastName", &body.last_name, "Lastname is required")
        .email("email", &body.email, "Email is required")
        .phone("phone", body.phone.trim())
        .required("password", &body.password, "Password is required")
        .check("password", validation::is_strong_password(&body.password), validation::STRONG_PASSWORD);
    if let Some(confirm) = &body.confirm_password {
        v.required("confirmPassword", confirm, "Confirm Password is required")
            .check("confirmPassword", validation::is_strong_password(confirm), validation::STRONG_PASSWORD)
            .check("confirmPassword", *confirm == body.password, "Both password need to be the same");
    }
    let role_id = role_or_default(body.role_id, &mut v);
    v.finish()?;
    let password_hash = password::hash_off_thread(body.password.clone()).await?;
    let row = state
        .db
        .write(move |tx| {
            tx.execute(
                "INSERT INTO users (kind, first_name, last_name, email, phone, role_id, password_hash, totp_secret)
                 VALUES ('staff', ?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                (
                    body.first_name.trim(),
                    body.last_name.trim(),
                    body.email.trim(),
                    body.phone.trim(),
                    role_id,
                    &password_hash,
                    totp::new_secret(),
                ),
            )
            .map_err(on_constraint("email", validation::DUPLICATE_EMAIL))?;
            load_row(tx, tx.last_insert_rowid())
        })
        .await?;
    Ok((StatusCode::CREATED, Json(row)))
}

#[derive(Deserialize, ToSchema, Default)]
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
) -> AppResult<Json<UserRow>> {
    let mut v = Validator::new();
    v.required("firstName", &body.first_name, "Firstname is required")
        .required("lastName", &body.last_name, "Lastname is required")
        .email("email", &body.email, "Email is required")
        .required("phone", &body.phone, "Phone number is required")
        .phone("phone", body.phone.trim());
    let role_id = body.role_id.map(|id| role_or_default(Some(id), &mut v));
    v.finish()?;
    state
        .db
        .write(move |tx| {
            let current_role: i64 = tx
                .query_row(
                    "SELECT role_id FROM users WHERE id = ?1 AND kind = 'staff' AND deleted_at IS NULL",
                    [body.id],
                    |r| r.get(0),
                )
                .optional()?
                .ok_or_else(|| USERS.not_found())?;
            let role_id = role_id.unwrap_or(current_role);
            if body.id == user.id && role_id != current_role {
                return Err(AppError::Conflict("You cannot change your own role.".into()));
            }
            tx.execute(
                "UPDATE users SET first_name = ?2, last_name = ?3, email = ?4, phone = ?5, role_id = ?6, updated_at = ?7
                 WHERE id = ?1",
                (
                    body.id,
                    body.first_name.trim(),
                    body.last_name.trim(),
                    body.email.trim(),
                    body.phone.trim(),
                    role_id,
                    now_iso(),
                ),
            )
            .map_err(on_constraint("email", validation::DUPLICATE_EMAIL))?;
            load_row(tx, body.id)
        })
        .await
        .map(Json)
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct PasswordChange {
    /// Another user's id (Admin only); absent or the caller's own id changes the own password.
    id: Option<i64>,
    /// The caller's current password (for an Admin changing another user's: the Admin's own).
    old_password: String,
    new_password: String,
    new_password_confirm: String,
}

async fn change_password(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(body): ApiJson<PasswordChange>,
) -> AppResult<Json<MessageBody>> {
    let target = body.id.filter(|id| *id != user.id);
    let mut v = Validator::new();
    match target {
        None => {
            v.required("oldPassword", &body.old_password, "Old password is required");
            v.new_password(&body.new_password, &body.new_password_confirm);
        }
        Some(_) => {
            user.require(Roles::ADMIN)?;
            v.required("oldPassword", &body.old_password, "Password is required")
                .required("newPassword", &body.new_password, "Password is required")
                .check("newPassword", validation::has_number(&body.new_password), validation::NUMBER_PASSWORD)
                .required("newPasswordConfirm", &body.new_password_confirm, "Confirm Password is required")
                .check(
                    "newPasswordConfirm",
                    validation::has_number(&body.new_password_confirm),
                    validation::NUMBER_PASSWORD,
                )
                .check(
                    "newPasswordConfirm",
                    body.new_password_confirm == body.new_password,
                    "Both password need to be the same",
                );
        }
    }
    v.finish()?;
    let user_id = user.id;
    let own_hash: String = state
        .db
        .run(move |conn| Ok(conn.query_row("SELECT password_hash FROM users WHERE id = ?1", [user_id], |r| r.get(0))?))
        .await?;
    if !password::verify_off_thread(own_hash, body.old_password.clone()).await {
        let message = if target.is_some() { "Your password is incorrect." } else { "Old password is incorrect." };
        // A well-formed request whose re-authentication failed: refused (403), naming the field.
        return Err(AppError::FieldRefused {
            status: StatusCode::FORBIDDEN,
            field: "oldPassword",
            message: message.into(),
        });
    }
    let new_hash = password::hash_off_thread(body.new_password.clone()).await?;
    state
        .db
        .write(move |tx| {
            let changed_id = target.unwrap_or(user.id);
            let updated = tx.execute(
                "UPDATE users SET password_hash = ?2, updated_at = ?3
                 WHERE id = ?1 AND kind = 'staff' AND deleted_at IS NULL",
                (changed_id, &new_hash, now_iso()),
            )?;
            if updated == 0 {
                return Err(USERS.not_found());
            }
            // Other sessions of the changed account end; the caller's own current one stays.
            let keep = (changed_id == user.id).then_some(user.session_id.as_str());
            sessions::revoke_user_sessions(tx, &[changed_id], "password changed", keep)?;
            Ok(())
        })
        .await?;
    Ok(MessageBody::json("The password has been changed."))
}

#[derive(Serialize, ToSchema)]
pub struct QrCode {
    /// `data:image/png;base64,...`
    data: String,
}

async fn qr_code(State(state): State<AppState>, user: CurrentUser, query: QueryMap) -> AppResult<Json<QrCode>> {
    let id = query.int("id")?.ok_or_else(|| AppError::field("id", "id is required"))?;
    let (kind, email, secret) = state
        .db
        .run(move |conn| {
            conn.query_row(
                "SELECT kind, email, totp_secret FROM users WHERE id = ?1 AND deleted_at IS NULL",
                [id],
                |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?)),
            )
            .optional()?
            .ok_or_else(|| USERS.not_found())
        })
        .await?;
    // Staff accounts are the Users screen's (Admin only); HR accounts' codes are for editors.
    if kind == "staff" {
        user.require(Roles::ADMIN)?;
    }
    let uri = totp::otpauth_uri(&secret, &email)?;
    Ok(Json(QrCode { data: crate::core::qr::png_data_url(&uri)? }))
}
