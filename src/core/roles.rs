//! Back-office roles and the sets of them a call allows: below the route registry, which
//! documents them, and the credentials, which enforce them.

use serde::Serialize;
use utoipa::ToSchema;

/// Back-office roles, as stored in `users.role_id`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub enum Role {
    Admin = 0,
    User = 1,
    CallCenter = 2,
}

impl Role {
    pub fn from_id(id: i64) -> Option<Role> {
        match id {
            0 => Some(Role::Admin),
            1 => Some(Role::User),
            2 => Some(Role::CallCenter),
            _ => None,
        }
    }
}

/// A set of roles allowed to make a call.
#[derive(Clone, Copy, Debug)]
pub struct Roles(&'static [Role]);

impl Roles {
    pub const ADMIN: Roles = Roles(&[Role::Admin]);
    /// Admin and User: everyone who may change data outside the Users screen.
    pub const EDITORS: Roles = Roles(&[Role::Admin, Role::User]);
    /// Every signed-in role, Call Center included (read-only screens).
    pub const ANYONE: Roles = Roles(&[Role::Admin, Role::User, Role::CallCenter]);

    pub fn allows(self, role: Role) -> bool {
        self.0.contains(&role)
    }

    pub fn names(self) -> Vec<&'static str> {
        self.0
            .iter()
            .map(|r| match r {
                Role::Admin => "Admin",
                Role::User => "User",
                Role::CallCenter => "Call Center",
            })
            .collect()
    }
}
