//! How many round trips to PostgreSQL a write takes, whole request included (issue 43): each is a
//! wait on the network that the writer pays while it holds its transaction's row locks, so the
//! count bounds how many writes one connection and one contended row can carry. The statements
//! nobody reads (BEGIN, the writer's name for the activity log, the stored answer) travel with the
//! next one that is read (`db::sql`, deferred statements). Alone in its test binary: the counter
//! is the process's.

mod common;
mod people;

use axum::http::Method;
use common::*;
use serde_json::json;

/// The fewest round trips one of `runs` requests took, each counted from before it until nothing
/// it left running makes any more (a connection's return to the pool): other work of the process
/// (a pool's new connection, a statement compiled at its first use) only ever adds to a count.
async fn fewest_round_trips<F, Fut>(runs: usize, mut request: F) -> u64
where
    F: FnMut(usize) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let mut fewest = u64::MAX;
    for run in 0..runs {
        let before = settled_round_trips().await;
        request(run).await;
        fewest = fewest.min(settled_round_trips().await - before);
    }
    fewest
}

/// The process's round trips once no exchange has been made for 50 ms (at most 5 s).
async fn settled_round_trips() -> u64 {
    let mut last = perkdesk::db::sql::round_trips();
    for _ in 0..100 {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        let now = perkdesk::db::sql::round_trips();
        if now == last {
            break;
        }
        last = now;
    }
    last
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: ./scripts/test starts one and runs it"]
async fn postgres_writes_take_few_round_trips() {
    let database = postgres::TestDatabase::new();
    let app = test_app_on(perkdesk::app::open_db(std::path::Path::new(&database.url)).unwrap());
    let admin = app.admin().await;
    let world = people::offered_world(&app.state.db.conn().unwrap());
    let key = app.api_key("employee-app", None, 1_000_000);

    // The inbound use, as the employee app sends it: its key checked with its x-requestid claimed
    // and looked up, the employee, the campaign and its limits read, the use written with its
    // counts, history and outbox messages, the answer read back and stored, committed.
    let used = fewest_round_trips(12, |run| {
        let (app, key) = (&app, &key);
        async move {
            let body = json!({"employeeEmail": people::EMPLOYEES[run % people::EMPLOYEES.len()].2, "campaignId": world.campaign, "rating": 5});
            let request_id = format!("use-{run}");
            app.call_with(Method::POST, "/api/app/usage", Some(key), Some(body), &[("x-requestid", &request_id)])
                .await
                .expect(201);
        }
    })
    .await;

    // A declared resource's create and edit by a staff member, with x-requestid.
    let created = fewest_round_trips(5, |run| {
        let (app, token) = (&app, &admin.token);
        async move {
            let (content_type, body) = multipart(
                &[("nameAz", &format!("Kateqoriya {run}")), ("nameEn", "Category"), ("nameRu", "Категория")],
                &[],
            );
            let request = axum::http::Request::builder()
                .method(Method::POST)
                .uri("/api/campaign/category")
                .header("authorization", format!("Bearer {token}"))
                .header("content-type", content_type)
                .header("x-requestid", format!("create-{run}"))
                .body(axum::body::Body::from(body))
                .unwrap();
            app.send(request).await.expect(201);
        }
    })
    .await;

    // A list's first page with its total, as the panel asks for it, by a session checked before:
    // the session's check with the change clock and the page, in one exchange (the total
    // remembered under the clock).
    let listed = fewest_round_trips(5, |_| {
        let (app, token) = (&app, &admin.token);
        async move {
            app.call(Method::GET, "/api/usageHistory?Skip=0&Take=10", Some(token), None).await.expect(200);
        }
    })
    .await;

    eprintln!("round trips: a use {used}, a declared create {created}, a list's page {listed}");
    assert!(listed <= 1, "a list's first page took {listed} round trips");
    // A caller checked before is admitted on what that check found (`auth::callers`), so the
    // claim, the transaction's start, the caller's check and the stored-answer look-up travel
    // with the handler's first exchange. A use: those with the employee's lock, the endpoints
    // listening, the campaign and the employee's recent uses; the insert (its id taken ahead)
    // with the answer's read; the stored answer with the commit. A create of a category: those
    // with the positions read; their updates with the insert (its id taken ahead) and the
    // answer's read; the stored answer with the commit.
    assert!(used <= 3, "an inbound use took {used} round trips");
    assert!(created <= 3, "a declared create took {created} round trips");
}
