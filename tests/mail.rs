//! Password-reset mail goes out over SMTP when it is configured.

use std::sync::{Arc, Mutex};

use perkdesk::core::mail::Mailer;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// A minimal SMTP peer that accepts one message and records the conversation.
async fn fake_smtp() -> (u16, Arc<Mutex<String>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let transcript = Arc::new(Mutex::new(String::new()));
    let record = transcript.clone();
    tokio::spawn(async move {
        let (socket, _) = listener.accept().await.unwrap();
        let (read, mut write) = socket.into_split();
        let mut lines = BufReader::new(read).lines();
        write.write_all(b"220 fake.smtp ready\r\n").await.unwrap();
        let mut in_data = false;
        while let Ok(Some(line)) = lines.next_line().await {
            record.lock().unwrap().push_str(&format!("{line}\n"));
            let reply: &[u8] = if in_data {
                if line == "." {
                    in_data = false;
                    b"250 queued\r\n"
                } else {
                    continue;
                }
            } else if line.starts_with("EHLO") {
                b"250 fake.smtp\r\n"
            } else if line == "DATA" {
                in_data = true;
                b"354 go ahead\r\n"
            } else if line == "QUIT" {
                write.write_all(b"221 bye\r\n").await.unwrap();
                break;
            } else {
                b"250 ok\r\n"
            };
            write.write_all(reply).await.unwrap();
        }
    });
    (port, transcript)
}

#[tokio::test]
async fn reset_mail_is_sent_over_smtp() {
    let (port, transcript) = fake_smtp().await;
    let mailer =
        Mailer::from_settings(Some(&format!("smtp://127.0.0.1:{port}")), "perkdesk <no-reply@perk.az>").unwrap();
    mailer
        .send("aysel@perk.az", "Reset your perkdesk password", "Open http://x/auth/reset-password?token=abc".into())
        .await
        .unwrap();
    let transcript = transcript.lock().unwrap().clone();
    assert!(transcript.contains("MAIL FROM:<no-reply@perk.az>"), "{transcript}");
    assert!(transcript.contains("RCPT TO:<aysel@perk.az>"), "{transcript}");
    assert!(transcript.contains("Subject: Reset your perkdesk password"), "{transcript}");
    assert!(transcript.contains("reset-password?token=abc"), "{transcript}");
}

#[test]
fn a_bad_smtp_address_is_refused_at_start() {
    assert!(Mailer::from_settings(Some("not a url"), "perkdesk <no-reply@perk.az>").is_err());
    assert!(matches!(Mailer::from_settings(None, "x").unwrap(), Mailer::Log));
}
