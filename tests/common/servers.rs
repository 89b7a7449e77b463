//! Real app servers for the cluster tests: the binary started on a database, called over
//! HTTP/1.1, the first administrator made at the command line, calls released at once.

use std::io::{BufRead, Read, Write};
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

/// A server process, stopped with SIGTERM when dropped.
pub struct Server {
    pub child: Child,
    pub port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status();
        let _ = self.child.wait();
    }
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

pub fn serve(url: &str) -> Server {
    let port = free_port();
    let mut server = Server {
        child: Command::new(env!("CARGO_BIN_EXE_perkdesk"))
            .args(["serve", "--db", url, "--bind", &format!("127.0.0.1:{port}")])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
        port,
    };
    let mut stderr = std::io::BufReader::new(server.child.stderr.take().unwrap());
    let mut line = String::new();
    let mut seen = String::new();
    while stderr.read_line(&mut line).unwrap() > 0 {
        seen.push_str(&line);
        if line.contains("perkdesk is serving") {
            // The rest of the log is drained, so the server never blocks on a full pipe.
            std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
            return server;
        }
        line.clear();
    }
    panic!("the server ended before serving:\n{seen}");
}

/// One HTTP/1.1 exchange: the status and the JSON answer (null when there is none).
pub fn call(server: &Server, method: &str, path: &str, token: Option<&str>, body: Option<Value>) -> (u16, Value) {
    let body = body.map(|body| body.to_string()).unwrap_or_default();
    exchange(server, method, path, token, &[("Content-Type", "application/json")], body.as_bytes())
}

/// An exchange with any headers and body.
pub fn exchange(
    server: &Server,
    method: &str,
    path: &str,
    token: Option<&str>,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, Value) {
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    let auth = token.map(|token| format!("Authorization: Bearer {token}\r\n")).unwrap_or_default();
    let headers: String = headers.iter().map(|(name, value)| format!("{name}: {value}\r\n")).collect();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{auth}{headers}Content-Length: {}\r\n\r\n",
        body.len()
    )
    .unwrap();
    stream.write_all(body).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer.get(9..12).and_then(|code| code.parse().ok()).unwrap_or(0);
    let json = answer.split_once("\r\n\r\n").and_then(|(_, body)| serde_json::from_str(body).ok());
    (status, json.unwrap_or(Value::Null))
}

pub fn get(server: &Server, path: &str, token: &str) -> Value {
    let (status, body) = call(server, "GET", path, Some(token), None);
    assert_eq!(status, 200, "GET {path}: {body}");
    body
}

/// The first administrator, made at the command line as on SQLite; answers its TOTP secret.
pub fn create_admin(url: &str) -> String {
    let mut create = Command::new(env!("CARGO_BIN_EXE_perkdesk"))
        .args(["create-admin", "--db", url, "--email", "admin@perk.az", "--first-name", "Aysel", "--last-name"])
        .args(["Məmmədova", "--password-stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    create.stdin.take().unwrap().write_all(b"Secret-123!\n").unwrap();
    let created = create.wait_with_output().unwrap();
    let printed = String::from_utf8_lossy(&created.stdout);
    assert!(created.status.success(), "{printed}{}", String::from_utf8_lossy(&created.stderr));
    printed.split("secret=").nth(1).and_then(|rest| rest.split('&').next()).unwrap().to_string()
}

/// The administrator's token, signed in on `server`.
pub fn sign_in(server: &Server, secret: &str) -> String {
    let otp = perkdesk::auth::totp::current_code(secret).unwrap();
    let body = json!({"userName": "admin@perk.az", "password": "Secret-123!", "otp": otp});
    let (status, signed_in) = call(server, "POST", "/api/auth/admin/token", None, Some(body));
    assert_eq!(status, 200, "{signed_in}");
    signed_in["token"].as_str().unwrap().to_string()
}

/// Runs `calls` at once, each on its own thread released together, and answers their results
/// in order.
pub fn at_once<T: Send>(calls: Vec<Box<dyn FnOnce() -> T + Send + '_>>) -> Vec<T> {
    let start = std::sync::Barrier::new(calls.len());
    std::thread::scope(|scope| {
        let running: Vec<_> = calls
            .into_iter()
            .map(|call| {
                let start = &start;
                scope.spawn(move || {
                    start.wait();
                    call()
                })
            })
            .collect();
        running.into_iter().map(|thread| thread.join().unwrap()).collect()
    })
}

/// The answers' statuses, sorted.
pub fn statuses(answers: &[(u16, Value)]) -> Vec<u16> {
    let mut statuses: Vec<u16> = answers.iter().map(|(status, _)| *status).collect();
    statuses.sort_unstable();
    statuses
}
