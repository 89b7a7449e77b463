//! A statement's parameters in the forms callers write them: `[id]`, `(a, b)`, `params![…]`,
//! `params_from_iter(values)`, `[]`. Each form hands its values, in order, to a [`Binder`] of the
//! engine the statement runs on.

use super::error::Result;
use super::value::{ToSql, ValueRef};

/// Takes a statement's values one by one, in order.
pub trait Binder {
    fn bind(&mut self, value: ValueRef<'_>) -> Result<()>;
}

/// What a statement can be given as its parameters.
pub trait Params {
    fn bind_to(self, binder: &mut impl Binder) -> Result<()>;
}

impl Params for () {
    fn bind_to(self, _: &mut impl Binder) -> Result<()> {
        Ok(())
    }
}

/// `[]`: no parameters (the element type an empty array literal infers to).
impl Params for [&dyn ToSql; 0] {
    fn bind_to(self, _: &mut impl Binder) -> Result<()> {
        Ok(())
    }
}

impl Params for &[&dyn ToSql] {
    fn bind_to(self, binder: &mut impl Binder) -> Result<()> {
        self.iter().try_for_each(|value| binder.bind(value.to_sql()?))
    }
}

impl Params for Vec<&dyn ToSql> {
    fn bind_to(self, binder: &mut impl Binder) -> Result<()> {
        self.as_slice().bind_to(binder)
    }
}

macro_rules! array_params {
    ($($n:literal)*) => {$(
        impl<T: ToSql> Params for [T; $n] {
            fn bind_to(self, binder: &mut impl Binder) -> Result<()> {
                self.iter().try_for_each(|value| binder.bind(value.to_sql()?))
            }
        }
        impl<T: ToSql + ?Sized> Params for &[&T; $n] {
            fn bind_to(self, binder: &mut impl Binder) -> Result<()> {
                self.iter().try_for_each(|value| binder.bind(value.to_sql()?))
            }
        }
    )*};
}
array_params!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24);

macro_rules! tuple_params {
    ($(($($name:ident $index:tt),+))*) => {$(
        impl<$($name: ToSql),+> Params for ($($name,)+) {
            fn bind_to(self, binder: &mut impl Binder) -> Result<()> {
                $(binder.bind(self.$index.to_sql()?)?;)+
                Ok(())
            }
        }
    )*};
}
tuple_params! {
    (A 0)
    (A 0, B 1)
    (A 0, B 1, C 2)
    (A 0, B 1, C 2, D 3)
    (A 0, B 1, C 2, D 3, E 4)
    (A 0, B 1, C 2, D 3, E 4, F 5)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11, M 12)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11, M 12, N 13)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11, M 12, N 13, O 14)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11, M 12, N 13, O 14, P 15)
}

/// The values of an iterator as a statement's parameters, in order.
pub struct ParamsFromIter<I>(I);

pub fn params_from_iter<I>(values: I) -> ParamsFromIter<I>
where
    I: IntoIterator,
    I::Item: ToSql,
{
    ParamsFromIter(values)
}

impl<I> Params for ParamsFromIter<I>
where
    I: IntoIterator,
    I::Item: ToSql,
{
    fn bind_to(self, binder: &mut impl Binder) -> Result<()> {
        self.0.into_iter().try_for_each(|value| binder.bind(value.to_sql()?))
    }
}

/// Parameters of mixed types, in order: `params![id, name, now]` (more than a tuple holds).
macro_rules! params {
    () => { [] as [&dyn $crate::db::sql::ToSql; 0] };
    ($($value:expr),+ $(,)?) => { &[$(&$value as &dyn $crate::db::sql::ToSql),+] as &[&dyn $crate::db::sql::ToSql] };
}
pub(crate) use params;
