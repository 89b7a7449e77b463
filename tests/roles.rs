//! Every route that documents roles enforces exactly those: each other role gets 403 with the
//! one message before anything of the request is read (no body is sent here, so a route that
//! read its body first would answer 400 or 415), and each documented role gets past the gate.

use crate::common;

use axum::http::Method;
use common::test_app;
use perkdesk::core::error::FORBIDDEN;

const ROLES: [(i64, &str); 3] = [(0, "Admin"), (1, "User"), (2, "Call Center")];

/// The path with every parameter filled: ids that name nothing, an e-mail nobody has.
fn concrete(path: &str) -> String {
    path.split('/')
        .map(|segment| match segment {
            s if s.starts_with('{') && s.contains("mail") => "nobody@perk.az",
            s if s.starts_with('{') => "987654",
            s => s,
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[tokio::test]
async fn every_route_admits_exactly_the_roles_it_documents() {
    let app = test_app();
    let mut tokens = Vec::new();
    for (role, _) in ROLES {
        tokens.push(app.user_with_role(&format!("role{role}@perk.az"), role).await.token);
    }
    let routes: Vec<_> =
        perkdesk::app::api().access().into_iter().filter_map(|a| Some((a.method, a.path, a.roles?))).collect();
    assert!(routes.len() > 100, "only {} routes document roles", routes.len());
    let mut wrong = Vec::new();
    for (method, path, admitted) in &routes {
        let uri = concrete(path);
        for ((_, name), token) in ROLES.iter().zip(&tokens) {
            let answer = app.call(method.clone(), &uri, Some(token), None).await;
            let status = answer.status.as_u16();
            if admitted.contains(name) {
                if status == 401 || status == 403 {
                    wrong.push(format!("{method} {path}: {name} is documented but got {status} {}", answer.message()));
                }
            } else if status != 403 || answer.message() != FORBIDDEN {
                wrong.push(format!("{method} {path}: {name} is not documented but got {status} {}", answer.message()));
            }
        }
        // Without a session: 401, before the body too.
        let anonymous = app.call(method.clone(), &uri, None, None).await;
        if anonymous.status.as_u16() != 401 {
            wrong.push(format!("{method} {path}: no session got {}", anonymous.status));
        }
    }
    assert!(wrong.is_empty(), "{} answers against the document:\n{}", wrong.len(), wrong.join("\n"));
}

#[tokio::test]
async fn a_call_center_write_to_a_multipart_route_is_403_not_a_complaint_about_its_body() {
    let app = test_app();
    let call_center = app.user_with_role("cc@perk.az", 2).await;
    let answer = app
        .call_with(Method::PUT, "/api/asset", Some(&call_center.token), None, &[("content-type", "text/plain")])
        .await;
    answer.expect_message(403, FORBIDDEN);
}

/// The routes open without a staff session or an API key, each for a reason of the specification.
#[rustfmt::skip]
const PUBLIC: &[&str] = &[
    "GET /api/health",                       // load balancers and monitors
    "GET /api/openapi.json",                 // the contract itself
    "GET /cdn/{file}",                       // uploaded images, named by an unguessable id
    "GET /api/auth/settings",                // the sign-in screen asks whether registration is open
    "POST /api/apply",                       // the merchants' public application form
    "POST /api/auth/admin/token",            // sign-in
    "POST /api/auth/refreshToken",           // the refresh token is the credential
    "POST /api/auth/logout",                 // ends whichever session the tokens name
    "POST /api/auth/register",               // when the operator allows registration
    "POST /api/user/forgotPassword",         // a lost password
    "PUT /api/auth/reset-password",          // the e-mailed reset token is the credential
    "POST /api/auth/reset-password/confirm", // the same
];

#[test]
fn every_route_names_who_may_call_it_or_is_on_the_public_list() {
    let open: Vec<String> = perkdesk::app::api()
        .access()
        .into_iter()
        .filter(|a| a.roles.is_none() && a.api_key.is_none())
        .map(|a| format!("{} {}", a.method, a.path))
        .collect();
    for route in PUBLIC {
        assert!(open.iter().any(|r| r == route), "{route} is on the public list but is not an open route");
    }
    let mut unexpected: Vec<&String> = open.iter().filter(|route| !PUBLIC.contains(&route.as_str())).collect();
    unexpected.sort();
    assert!(unexpected.is_empty(), "open to anyone without being on the public list:\n{unexpected:#?}");
}

/// Every route that documents a kind of API key admits exactly that kind, before anything of the
/// request is read (the body sent is not even JSON: a route that read it first would answer 400 or
/// 415): the other kind gets 403, a staff token and no key 401; and every route that documents
/// roles refuses any key with 401, as the keyed routes refuse staff tokens.
#[tokio::test]
async fn every_route_admits_exactly_the_key_kind_it_documents() {
    use perkdesk::auth::api_keys::{self, ClientKind};
    let app = test_app();
    let staff = app.user_with_role("admin@perk.az", 0).await;
    let keys: Vec<(&str, String)> = {
        let conn = app.state.db.conn().unwrap();
        let partner = conn
            .insert(
                "INSERT INTO partners (name, contact_person_first_name, contact_person_last_name, phone_number, email)
                 VALUES ('Gate', 'G', 'P', '994501234567', 'gate@perk.az')",
                (),
            )
            .unwrap();
        let (_, app_key) = api_keys::insert_client(&conn, "App", ClientKind::EmployeeApp, None, 100_000).unwrap();
        let (_, partner_key) =
            api_keys::insert_client(&conn, "Till", ClientKind::Partner, Some(partner), 100_000).unwrap();
        vec![("employee-app", app_key), ("partner", partner_key)]
    };
    let junk = [("content-type", "text/plain")];
    let mut wrong = Vec::new();
    let access = perkdesk::app::api().access();
    let keyed: Vec<_> = access.iter().filter_map(|a| Some((&a.method, &a.path, a.api_key?))).collect();
    assert!(keyed.len() >= 10, "only {} routes document a key", keyed.len());
    for (method, path, kind) in &keyed {
        let uri = concrete(path);
        for (key_kind, key) in &keys {
            let answer = app.call_with((*method).clone(), &uri, Some(key), None, &junk).await;
            let status = answer.status.as_u16();
            let expected = match *key_kind {
                "employee-app" => api_keys::FOR_PARTNER,
                _ => api_keys::FOR_EMPLOYEE_APP,
            };
            if key_kind == kind {
                if status == 401 || status == 403 {
                    wrong.push(format!(
                        "{method} {path}: a {key_kind} key is documented but got {status} {}",
                        answer.message()
                    ));
                }
            } else if status != 403 || answer.message() != expected {
                wrong.push(format!("{method} {path}: a {key_kind} key got {status} {}", answer.message()));
            }
        }
        let with_staff = app.call_with((*method).clone(), &uri, Some(&staff.token), None, &junk).await;
        if with_staff.status.as_u16() != 401 || with_staff.message() != api_keys::STAFF_TOKEN_REFUSED {
            wrong.push(format!("{method} {path}: a staff token got {} {}", with_staff.status, with_staff.message()));
        }
        let without = app.call_with((*method).clone(), &uri, None, None, &junk).await;
        if without.status.as_u16() != 401 {
            wrong.push(format!("{method} {path}: no key got {}", without.status));
        }
    }
    for access in access.iter().filter(|a| a.roles.is_some()) {
        let uri = concrete(&access.path);
        for (key_kind, key) in &keys {
            let answer = app.call_with(access.method.clone(), &uri, Some(key), None, &junk).await;
            if answer.status.as_u16() != 401 || answer.message() != perkdesk::auth::API_KEY_NOT_HERE {
                wrong.push(format!(
                    "{} {}: a {key_kind} key got {} {}",
                    access.method,
                    access.path,
                    answer.status,
                    answer.message()
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{} answers against the document:\n{}", wrong.len(), wrong.join("\n"));
}
