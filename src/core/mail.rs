//! Outgoing mail for password-reset links: SMTP when the operator configured it, otherwise the
//! link goes to the server log so an operator can pass it on (as the design allows).

use std::sync::{Arc, Mutex};

use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

#[derive(Clone)]
pub enum Mailer {
    /// No SMTP configured: write the message to the log.
    Log,
    Smtp {
        transport: Box<AsyncSmtpTransport<Tokio1Executor>>,
        from: Mailbox,
    },
    /// Keep messages in memory (for tests that follow a reset link).
    Memory(Arc<Mutex<Vec<SentMail>>>),
}

#[derive(Clone, Debug)]
pub struct SentMail {
    pub to: String,
    pub subject: String,
    pub body: String,
}

impl Mailer {
    /// `smtp_url` like `smtps://user:pass@mail.example.az:465` or `smtp://127.0.0.1:2525`.
    pub fn from_settings(smtp_url: Option<&str>, from: &str) -> anyhow::Result<Mailer> {
        let Some(url) = smtp_url.filter(|u| !u.is_empty()) else {
            return Ok(Mailer::Log);
        };
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|e| anyhow::anyhow!("the SMTP address is not valid: {e}"))?
            .build();
        let from = from.parse().map_err(|e| anyhow::anyhow!("the sender address {from} is not valid: {e}"))?;
        Ok(Mailer::Smtp { transport: Box::new(transport), from })
    }

    pub async fn send(&self, to: &str, subject: &str, body: String) -> anyhow::Result<()> {
        match self {
            Mailer::Log => {
                tracing::warn!(to, subject, "no SMTP configured; pass this message on by hand:\n{body}");
                Ok(())
            }
            Mailer::Memory(outbox) => {
                let mail = SentMail { to: to.into(), subject: subject.into(), body };
                outbox.lock().map_err(|_| anyhow::anyhow!("the outbox lock is poisoned"))?.push(mail);
                Ok(())
            }
            Mailer::Smtp { transport, from } => {
                let message = Message::builder().from(from.clone()).to(to.parse()?).subject(subject).body(body)?;
                transport.send(message).await?;
                Ok(())
            }
        }
    }
}
