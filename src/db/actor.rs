//! Who writes: an [`Actor`], named by a request's caller (the staff session or API key
//! extractors, [`Actor::identify`]), carried by `Db::write` to the writer's thread
//! ([`Actor::enter`]), and read there by the activity log's triggers; a process without a request
//! (the CLI) writes as its default actor.

use std::cell::RefCell;
use std::future::Future;
use std::sync::{Arc, Mutex, OnceLock};

use super::lock;

/// Who makes a change, by kind, id and name as they were when it was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Actor {
    pub kind: ActorKind,
    pub id: Option<i64>,
    pub name: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActorKind {
    /// A signed-in staff member (the id is the user's).
    User,
    /// An inbound API client (the id is the client's).
    Client,
    /// An operator at the command line.
    Cli,
    /// The server's own work (retention, the demo's set-up).
    System,
    /// A caller who is not signed in: a registration, a reset link, a merchant's application, a
    /// failed sign-in (named by the e-mail typed).
    Public,
}

impl ActorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ActorKind::User => "user",
            ActorKind::Client => "client",
            ActorKind::Cli => "cli",
            ActorKind::System => "system",
            ActorKind::Public => "public",
        }
    }
}

tokio::task_local! {
    /// The caller of the request running on this task, once an extractor has named it.
    static REQUEST: Arc<Mutex<Option<Actor>>>;
}

thread_local! {
    /// The actor of the write running on this thread, read by the triggers' functions.
    static WRITING_AS: RefCell<Option<Actor>> = const { RefCell::new(None) };
}

/// Who writes outside any request: `cli` for the command line, `system` for the server.
static PROCESS: OnceLock<Actor> = OnceLock::new();

impl Actor {
    pub fn user(id: i64, name: impl Into<String>) -> Actor {
        Actor { kind: ActorKind::User, id: Some(id), name: name.into() }
    }

    pub fn client(id: i64, name: impl Into<String>) -> Actor {
        Actor { kind: ActorKind::Client, id: Some(id), name: name.into() }
    }

    pub fn cli() -> Actor {
        Actor { kind: ActorKind::Cli, id: None, name: "cli".into() }
    }

    pub fn system() -> Actor {
        Actor { kind: ActorKind::System, id: None, name: "system".into() }
    }

    pub fn public(name: impl Into<String>) -> Actor {
        Actor { kind: ActorKind::Public, id: None, name: name.into() }
    }

    /// Sets who writes outside requests in this process (once; later calls are ignored).
    pub fn set_process_default(actor: Actor) {
        let _ = PROCESS.set(actor);
    }

    /// Runs a request with a caller yet to be named: until an extractor names one, it is public.
    pub async fn scope<F: Future>(request: F) -> F::Output {
        REQUEST.scope(Arc::new(Mutex::new(None)), request).await
    }

    /// Names the caller of the request running on this task (nothing outside a request).
    pub fn identify(actor: Actor) {
        let _ = REQUEST.try_with(|caller| *lock(caller) = Some(actor));
    }

    /// Who the work started now is done for: the request's caller, else the thread's writer, else
    /// the process's default.
    pub fn current() -> Actor {
        match REQUEST.try_with(|caller| lock(caller).clone()) {
            Ok(caller) => caller.unwrap_or_else(|| Actor::public("")),
            Err(_) => WRITING_AS.with(|writing| writing.borrow().clone()).unwrap_or_else(Actor::process),
        }
    }

    /// Who the statement running on this thread writes for: the write's actor on a writer's
    /// thread, the request's caller in a request's own task, else the process's default.
    pub(crate) fn writing() -> Actor {
        WRITING_AS.with(|writing| writing.borrow().clone()).unwrap_or_else(Actor::current)
    }

    fn process() -> Actor {
        PROCESS.get().cloned().unwrap_or_else(Actor::system)
    }

    /// Runs `work` (on a blocking thread) as this actor: what it writes is recorded as theirs.
    pub fn enter<T>(self, work: impl FnOnce() -> T) -> T {
        let _entered = Entered(WRITING_AS.with(|writing| writing.replace(Some(self))));
        work()
    }
}

/// Puts the thread's previous writer back however the work ends (a panic included), so a pooled
/// thread never writes as the last request's caller.
struct Entered(Option<Actor>);

impl Drop for Entered {
    fn drop(&mut self) {
        let before = self.0.take();
        WRITING_AS.with(|writing| *writing.borrow_mut() = before);
    }
}
