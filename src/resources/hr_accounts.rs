//! HR accounts: HR-portal logins (users of kind `hr`) tied to an asset. The generic list plus
//! create, edit and an administrator's password change; delete and deactivate reach the login.

use crate::crud::{Recorded, Trash};
use crate::db::sql::{Connection, OptionalExtension};
use axum::Json;
use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::routing::{post, put};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::auth::accounts::{self, Reach};
use crate::auth::{CurrentUser, Role, Roles, password};
use crate::core::error::{AppError, AppResult};
use crate::core::patterns;
use crate::core::refusals::Audience;
use crate::core::validation::{self, Validator};
use crate::crud::writes::{self, Check, Columns, Field, Mode, WriteForm};
use crate::crud::{self, Change, Column, Export, Filter, Kind, Resource, Total};
use crate::db::now_iso;
use crate::http::api::Rule::{Message, Note, Pattern, Range, Required};
use crate::http::api::{Api, Doc};
use crate::http::extract::ApiJson;
use crate::http::reply::MessageBody;
use crate::http::state::AppState;

pub static HR_ACCOUNTS: Resource = Resource {
    path: "humanResource",
    row: "HumanResourceRow",
    tag: "Human resources",
    name: "Human resource",
    table: "hr_accounts",
    from: "hr_accounts h JOIN users u ON u.id = h.user_id JOIN assets a ON a.id = h.asset_id",
    scope: "h.deleted_at IS NULL",
    id: "h.id",
    total: Total::Maintained("hr_accounts"),
    columns: &[
        Column::new("id", "h.id", Kind::Int),
        Column::new("assetId", "h.asset_id", Kind::Int).detail_only().never_null(),
        Column::new("assetName", "a.name", Kind::Text).never_null(),
        Column::new("firstName", "u.first_name", Kind::Text).never_null(),
        Column::new("lastName", "u.last_name", Kind::Text).never_null(),
        Column::new("fullName", "u.first_name || ' ' || u.last_name", Kind::Text).never_null(),
        Column::new("email", "u.email", Kind::Text).never_null(),
        Column::new("phone", "u.phone", Kind::Phone).never_null(),
        Column::new("userId", "h.user_id", Kind::Int).never_null(),
        Column::new("isActive", "h.is_active", Kind::Bool).never_null(),
        Column::new("isMfaActive", "h.is_mfa_active", Kind::Bool).never_null(),
        Column::new("isEmployeeSeen", "h.is_employee_seen", Kind::Bool).never_null(),
        Column::new("createdAt", "h.created_at", Kind::DateTime).never_null(),
    ],
    filters: &[
        Filter::contains("AssetName", "a.name"),
        Filter::contains("HumanResourceFullName", "(u.first_name || ' ' || u.last_name)"),
        Filter::from("startDate", "h.created_at"),
        Filter::to("endDate", "h.created_at"),
    ],
    export: Some(Export {
        file_name: "HumanResources.xlsx",
        columns: &[
            ("Asset name", "assetName"),
            ("First name", "firstName"),
            ("Last name", "lastName"),
            ("Email", "email"),
            ("Phone number", "phone"),
            ("Active", "isActive"),
            ("Otp login", "isMfaActive"),
            ("See Employee Id", "isEmployeeSeen"),
            ("Created", "createdAt"),
        ],
    }),
    read: Roles::ANYONE,
    write: Roles::EDITORS,
    toggle: true,
    delete: true,
    on_change: Some(follow_to_login),
    detail_extra: None,
    plural: "HR accounts",
    label: Some("(SELECT u.first_name || ' ' || u.last_name FROM users u WHERE u.id = {row}.user_id)"),
    history: &[
        // An HR portal login is a `users` row recorded as its HR account; the account's own row
        // records its creation, deletion and state.
        Recorded {
            rows: Some("{row}.kind = 'hr'"),
            record: "(SELECT id FROM hr_accounts WHERE user_id = {row}.id)",
            created: None,
            ..Recorded::table("users")
        }
        .quiet(&[
            "kind",
            "totp_last_step",
            "deleted_at",
            "is_active",
            "role_id",
            "totp_pending_secret",
            "must_set_up_authenticator",
        ]),
        Recorded::table("hr_accounts"),
    ],
    trash: Some(Trash {
        label: Some(
            "(SELECT u.first_name || ' ' || u.last_name || ' <' || u.email || '>' FROM users u WHERE u.id = {row}.user_id)",
        ),
        parents: &[("asset_id", "assetId", "assets", "asset")],
        unique: Some((
            "email",
            "SELECT o.id FROM hr_accounts h JOIN users r ON r.id = h.user_id
             JOIN users o ON o.kind = r.kind AND o.email = r.email AND o.id <> r.id
             WHERE h.id = ?1 AND o.deleted_at IS NULL",
        )),
        login: Some("SELECT user_id FROM hr_accounts WHERE id = ?1"),
        ..Trash::PLAIN
    }),
    events: None,
    unrecorded: &[],
};

/// The HR account's login follows it: deleted with it, (de)activated with it, its sessions ended.
fn follow_to_login(tx: &Connection, _: Option<&CurrentUser>, change: &Change) -> AppResult<()> {
    match change {
        Change::Deleted(ids) => accounts::delete_logins(tx, &login_ids(tx, ids)?, "HR account deleted"),
        Change::Restored(ids) => accounts::restore_logins(tx, &login_ids(tx, ids)?),
        // The login goes after the account, which refers to it (the trash's `login`).
        Change::Purging(_) => Ok(()),
        Change::Toggled { id, active } => {
            for login in login_ids(tx, &[*id])? {
                accounts::set_login_active(tx, login, *active, "HR account deactivated")?;
            }
            Ok(())
        }
    }
}

fn login_ids(tx: &Connection, hr_ids: &[i64]) -> AppResult<Vec<i64>> {
    let mut stmt = tx.prepare_cached("SELECT user_id FROM hr_accounts WHERE id = ?1")?;
    hr_ids.iter().map(|id| Ok(stmt.query_row([id], |r| r.get("user_id"))?)).collect()
}

pub const ASSET_REQUIRED: &str = "Asset Id is required";
pub const NO_ASSET: &str = "The chosen asset does not exist.";

const LETTER_AND_NUMBER_PASSWORD: Check = Check {
    pattern: patterns::LETTER_AND_NUMBER_PASSWORD,
    test: validation::has_letter_and_number,
    message: validation::LETTER_AND_NUMBER_PASSWORD,
    example: "secret123",
    refused: "password",
};

/// The HR account's person, a `users` row of kind `hr` (its login); the password is stored as
/// its hash, by `create`.
pub static HR_PERSON_FORM: WriteForm = WriteForm {
    resource: &HR_ACCOUNTS,
    table: "users",
    fields: &[
        Field::text("firstName", "first_name").required("First name is required"),
        Field::text("lastName", "last_name").required("Last name is required"),
        Field::email("email", "email").required("Email is required").unique(validation::DUPLICATE_EMAIL),
        Field::phone("phone", "phone").required("Phone is required"),
        Field::checked("password", "password_hash", &LETTER_AND_NUMBER_PASSWORD)
            .required("Password is required")
            .unstored()
            .create_only(),
    ],
    image: None,
    extra_parts: &[],
    computed: accounts::LOGIN_COLUMNS,
    children: &[],
};

/// The texts this module's routes refuse with (`core::refusals`).
const REFUSALS: &[&str] = &[ASSET_REQUIRED, NO_ASSET];

pub fn routes() -> Api {
    const TAG: &str = "Human resources";
    crud::routes(&HR_ACCOUNTS)
        .refuses(Audience::People, REFUSALS)
        .add(
            Method::POST,
            "/api/humanResource",
            post(create),
            HR_PERSON_FORM
                .document(
                    Doc::new(TAG, "Create an HR account").roles(Roles::EDITORS).json_body::<NewHrAccount>(),
                    Mode::Create,
                )
                .rules(
                    "confirmPassword",
                    &[
                        Pattern(patterns::LETTER_AND_NUMBER_PASSWORD),
                        Note("When sent, the same as password."),
                        Message("required", validation::CONFIRM_PASSWORD_REQUIRED),
                        Message("format", validation::LETTER_AND_NUMBER_PASSWORD),
                        Message("same", validation::PASSWORDS_DIFFER),
                    ],
                )
                .rules("assetId", &[Required, Range(1, i64::MAX), Message("required", ASSET_REQUIRED)])
                .answers(404, "The chosen asset does not exist")
                .answers(409, "A user with this e-mail already exists")
                .returns_component(201, crud::row_schema(&HR_ACCOUNTS)),
        )
        .add(
            Method::PUT,
            "/api/humanResource",
            put(update),
            HR_PERSON_FORM
                .document(
                    Doc::new(TAG, "Edit an HR account").roles(Roles::EDITORS).json_body::<HrAccountEdit>(),
                    Mode::Update,
                )
                .rules("assetId", &[Required, Range(1, i64::MAX), Message("required", ASSET_REQUIRED)])
                .answers(404, "No such HR account, or the chosen asset does not exist")
                .answers(409, "A user with this e-mail already exists")
                .returns_component(200, crud::row_schema(&HR_ACCOUNTS)),
        )
        .add(
            Method::PUT,
            "/api/humanResource/changePasswordByAdmin",
            put(change_password),
            Doc::new(TAG, "Set an HR account's password")
                .roles(Roles::EDITORS)
                .json_body::<HrPassword>()
                .rules("id", &[Required])
                .rules(
                    "password",
                    &[
                        Required,
                        Pattern(patterns::NUMBER_PASSWORD),
                        Message("required", validation::PASSWORD_REQUIRED),
                        Message("format", validation::NUMBER_PASSWORD),
                    ],
                )
                .answers(404, "No such HR account")
                .returns::<MessageBody>(200),
        )
}

#[derive(Deserialize, Serialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct NewHrAccount {
    first_name: String,
    last_name: String,
    email: String,
    phone: String,
    password: String,
    confirm_password: Option<String>,
    asset_id: Option<i64>,
    /// 'Otp login'
    is_mfa_active: bool,
    /// 'See Employee Id'
    is_employee_seen: bool,
}

#[derive(Deserialize, Serialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct HrAccountEdit {
    id: i64,
    asset_id: Option<i64>,
    first_name: String,
    last_name: String,
    email: String,
    phone: String,
    is_mfa_active: bool,
    is_employee_seen: bool,
}

/// The chosen asset must exist and be live.
fn check_asset(tx: &Connection, asset_id: i64) -> AppResult<()> {
    let exists =
        tx.query_row("SELECT 1 FROM assets WHERE id = ?1 AND deleted_at IS NULL", [asset_id], |_| Ok(())).optional()?;
    // A 404 naming the field: the request is well formed, the asset it points to is missing.
    exists.ok_or_else(|| AppError::FieldRefused {
        status: StatusCode::NOT_FOUND,
        field: "assetId",
        message: NO_ASSET.into(),
    })
}

async fn create(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<NewHrAccount>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let mut v = Validator::new();
    let person = HR_PERSON_FORM.read(&writes::json_object(&body)?, Mode::Create, &mut v);
    if let Some(confirm) = &body.confirm_password {
        v.required("confirmPassword", confirm, validation::CONFIRM_PASSWORD_REQUIRED)
            .check(
                "confirmPassword",
                validation::has_letter_and_number(confirm),
                validation::LETTER_AND_NUMBER_PASSWORD,
            )
            .check("confirmPassword", *confirm == body.password, validation::PASSWORDS_DIFFER);
    }
    v.check("assetId", body.asset_id.is_some_and(|id| id > 0), ASSET_REQUIRED);
    v.finish()?;
    let password_hash = password::hash_off_thread(body.password.clone()).await?;
    let row = crud::save_then_fetch(&state, &HR_ACCOUNTS, move |tx| {
        let asset_id = body.asset_id.unwrap_or_default();
        check_asset(tx, asset_id)?;
        let user_id = HR_PERSON_FORM
            .write(&person)
            // HR accounts sign in to the HR portal, where the role is User's.
            .computed(accounts::login_columns("hr", Role::User as i64, password_hash))
            .insert(tx)?;
        let id = Columns::new()
            .set("user_id", user_id)
            .set("asset_id", asset_id)
            .set("is_mfa_active", body.is_mfa_active)
            .set("is_employee_seen", body.is_employee_seen)
            .insert(tx, "hr_accounts")?;
        Ok(id)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(row)))
}

async fn update(State(state): State<AppState>, ApiJson(body): ApiJson<HrAccountEdit>) -> AppResult<Json<Value>> {
    let mut v = Validator::new();
    v.check("assetId", body.asset_id.is_some_and(|id| id > 0), ASSET_REQUIRED);
    let person = HR_PERSON_FORM.read(&writes::json_object(&body)?, Mode::Update, &mut v);
    v.finish()?;
    crud::save_then_fetch(&state, &HR_ACCOUNTS, move |tx| {
        let user_id: i64 = tx
            .query_row("SELECT user_id FROM hr_accounts WHERE id = ?1 AND deleted_at IS NULL", [body.id], |r| {
                r.get("user_id")
            })
            .optional()?
            .ok_or_else(|| HR_ACCOUNTS.not_found())?;
        let asset_id = body.asset_id.unwrap_or_default();
        check_asset(tx, asset_id)?;
        let now = now_iso();
        HR_PERSON_FORM.write(&person).update(tx, user_id)?;
        Columns::new()
            .set("asset_id", asset_id)
            .set("is_mfa_active", body.is_mfa_active)
            .set("is_employee_seen", body.is_employee_seen)
            .set("updated_at", now)
            .update(tx, "hr_accounts", body.id)?;
        Ok(body.id)
    })
    .await
    .map(Json)
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct HrPassword {
    id: i64,
    password: String,
}

async fn change_password(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<HrPassword>,
) -> AppResult<Json<MessageBody>> {
    let mut v = Validator::new();
    v.required("password", &body.password, validation::PASSWORD_REQUIRED).check(
        "password",
        validation::has_number(&body.password),
        validation::NUMBER_PASSWORD,
    );
    // The spec's payload is {id, password}: the confirmation is checked by the form.
    v.finish()?;
    let password_hash = password::hash_off_thread(body.password.clone()).await?;
    state
        .db
        .write(move |tx| {
            let user_id: i64 = tx
                .query_row("SELECT user_id FROM hr_accounts WHERE id = ?1 AND deleted_at IS NULL", [body.id], |r| {
                    r.get("user_id")
                })
                .optional()?
                .ok_or_else(|| HR_ACCOUNTS.not_found())?;
            accounts::set_password(tx, user_id, Reach::Any, &password_hash, "password changed", None)?;
            Ok(())
        })
        .await?;
    Ok(MessageBody::json("The password has been changed."))
}
