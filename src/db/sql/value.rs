//! Values crossing the seam: what a statement is given ([`ToSql`]) and what a row holds
//! ([`FromSql`]), in the five storage classes both engines share (null, integer, real, text,
//! bytes). Each engine turns its own column types into these, so a module reads a row the same way
//! on either.

use super::error::{Error, Result};

/// An owned value, as a list's dynamic filters and anchors carry them.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Integer(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

impl From<i64> for Value {
    fn from(n: i64) -> Value {
        Value::Integer(n)
    }
}

impl From<i32> for Value {
    fn from(n: i32) -> Value {
        Value::Integer(n.into())
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Integer(b.into())
    }
}

impl From<f64> for Value {
    fn from(x: f64) -> Value {
        Value::Real(x)
    }
}

impl From<String> for Value {
    fn from(text: String) -> Value {
        Value::Text(text)
    }
}

impl From<&str> for Value {
    fn from(text: &str) -> Value {
        Value::Text(text.to_string())
    }
}

impl From<Vec<u8>> for Value {
    fn from(bytes: Vec<u8>) -> Value {
        Value::Blob(bytes)
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(value: Option<T>) -> Value {
        value.map_or(Value::Null, Into::into)
    }
}

/// A borrowed value: a parameter on its way in, or a column of the current row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ValueRef<'a> {
    Null,
    Integer(i64),
    Real(f64),
    /// Text as stored; [`ValueRef::as_str`] checks that it is UTF-8.
    Text(&'a [u8]),
    Blob(&'a [u8]),
}

impl<'a> ValueRef<'a> {
    /// The text, when this is text in UTF-8.
    pub fn as_str(self) -> std::result::Result<&'a str, FromSqlError> {
        match self {
            ValueRef::Text(bytes) => std::str::from_utf8(bytes).map_err(|error| FromSqlError::Other(error.to_string())),
            _ => Err(FromSqlError::InvalidType),
        }
    }

    /// The text, or `None` for null.
    pub fn as_str_or_null(self) -> std::result::Result<Option<&'a str>, FromSqlError> {
        match self {
            ValueRef::Null => Ok(None),
            value => value.as_str().map(Some),
        }
    }

    pub fn to_owned(self) -> Value {
        match self {
            ValueRef::Null => Value::Null,
            ValueRef::Integer(n) => Value::Integer(n),
            ValueRef::Real(x) => Value::Real(x),
            ValueRef::Text(bytes) => Value::Text(String::from_utf8_lossy(bytes).into_owned()),
            ValueRef::Blob(bytes) => Value::Blob(bytes.to_vec()),
        }
    }
}

impl<'a> From<&'a Value> for ValueRef<'a> {
    fn from(value: &'a Value) -> ValueRef<'a> {
        match value {
            Value::Null => ValueRef::Null,
            Value::Integer(n) => ValueRef::Integer(*n),
            Value::Real(x) => ValueRef::Real(*x),
            Value::Text(text) => ValueRef::Text(text.as_bytes()),
            Value::Blob(bytes) => ValueRef::Blob(bytes),
        }
    }
}

/// Why a column could not be read as the type asked for.
#[derive(Debug, Clone, PartialEq)]
pub enum FromSqlError {
    InvalidType,
    OutOfRange(i64),
    Other(String),
}

/// A value a statement can be given.
pub trait ToSql {
    fn to_sql(&self) -> Result<ValueRef<'_>>;
}

/// A value a column can be read as.
pub trait FromSql: Sized {
    fn from_sql(value: ValueRef<'_>) -> std::result::Result<Self, FromSqlError>;
}

impl<T: ToSql + ?Sized> ToSql for &T {
    fn to_sql(&self) -> Result<ValueRef<'_>> {
        (**self).to_sql()
    }
}

impl<T: ToSql + ?Sized> ToSql for Box<T> {
    fn to_sql(&self) -> Result<ValueRef<'_>> {
        (**self).to_sql()
    }
}

impl<T: ToSql> ToSql for Option<T> {
    fn to_sql(&self) -> Result<ValueRef<'_>> {
        match self {
            None => Ok(ValueRef::Null),
            Some(value) => value.to_sql(),
        }
    }
}

impl ToSql for Value {
    fn to_sql(&self) -> Result<ValueRef<'_>> {
        Ok(ValueRef::from(self))
    }
}

impl ToSql for ValueRef<'_> {
    fn to_sql(&self) -> Result<ValueRef<'_>> {
        Ok(*self)
    }
}

impl ToSql for str {
    fn to_sql(&self) -> Result<ValueRef<'_>> {
        Ok(ValueRef::Text(self.as_bytes()))
    }
}

impl ToSql for String {
    fn to_sql(&self) -> Result<ValueRef<'_>> {
        Ok(ValueRef::Text(self.as_bytes()))
    }
}

impl ToSql for [u8] {
    fn to_sql(&self) -> Result<ValueRef<'_>> {
        Ok(ValueRef::Blob(self))
    }
}

impl ToSql for Vec<u8> {
    fn to_sql(&self) -> Result<ValueRef<'_>> {
        Ok(ValueRef::Blob(self))
    }
}

impl ToSql for bool {
    fn to_sql(&self) -> Result<ValueRef<'_>> {
        Ok(ValueRef::Integer(i64::from(*self)))
    }
}

impl ToSql for f64 {
    fn to_sql(&self) -> Result<ValueRef<'_>> {
        Ok(ValueRef::Real(*self))
    }
}

macro_rules! integer_to_sql {
    ($($t:ty),*) => {$(
        impl ToSql for $t {
            fn to_sql(&self) -> Result<ValueRef<'_>> {
                i64::try_from(*self).map(ValueRef::Integer).map_err(|_| Error::OutOfRange(self.to_string()))
            }
        }
    )*};
}
integer_to_sql!(i8, i16, i32, i64, u8, u16, u32, u64, usize, isize);

impl<T: FromSql> FromSql for Option<T> {
    fn from_sql(value: ValueRef<'_>) -> std::result::Result<Self, FromSqlError> {
        match value {
            ValueRef::Null => Ok(None),
            value => T::from_sql(value).map(Some),
        }
    }
}

impl FromSql for Value {
    fn from_sql(value: ValueRef<'_>) -> std::result::Result<Self, FromSqlError> {
        Ok(value.to_owned())
    }
}

impl FromSql for String {
    fn from_sql(value: ValueRef<'_>) -> std::result::Result<Self, FromSqlError> {
        value.as_str().map(str::to_string)
    }
}

impl FromSql for Vec<u8> {
    fn from_sql(value: ValueRef<'_>) -> std::result::Result<Self, FromSqlError> {
        match value {
            ValueRef::Blob(bytes) | ValueRef::Text(bytes) => Ok(bytes.to_vec()),
            _ => Err(FromSqlError::InvalidType),
        }
    }
}

impl FromSql for f64 {
    fn from_sql(value: ValueRef<'_>) -> std::result::Result<Self, FromSqlError> {
        match value {
            ValueRef::Integer(n) => Ok(n as f64),
            ValueRef::Real(x) => Ok(x),
            _ => Err(FromSqlError::InvalidType),
        }
    }
}

impl FromSql for bool {
    fn from_sql(value: ValueRef<'_>) -> std::result::Result<Self, FromSqlError> {
        match value {
            ValueRef::Integer(n) => Ok(n != 0),
            _ => Err(FromSqlError::InvalidType),
        }
    }
}

macro_rules! integer_from_sql {
    ($($t:ty),*) => {$(
        impl FromSql for $t {
            fn from_sql(value: ValueRef<'_>) -> std::result::Result<Self, FromSqlError> {
                match value {
                    ValueRef::Integer(n) => <$t>::try_from(n).map_err(|_| FromSqlError::OutOfRange(n)),
                    _ => Err(FromSqlError::InvalidType),
                }
            }
        }
    )*};
}
integer_from_sql!(i8, i16, i32, i64, u8, u16, u32, u64, usize, isize);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_keep_their_class_both_ways() {
        assert_eq!(42i64.to_sql().unwrap(), ValueRef::Integer(42));
        assert_eq!(true.to_sql().unwrap(), ValueRef::Integer(1));
        assert_eq!(None::<i64>.to_sql().unwrap(), ValueRef::Null);
        assert_eq!("ə".to_sql().unwrap(), ValueRef::Text("ə".as_bytes()));
        assert!(matches!(u64::MAX.to_sql(), Err(Error::OutOfRange(_))));
        assert_eq!(i32::from_sql(ValueRef::Integer(7)), Ok(7));
        assert_eq!(u8::from_sql(ValueRef::Integer(300)), Err(FromSqlError::OutOfRange(300)));
        assert_eq!(String::from_sql(ValueRef::Integer(7)), Err(FromSqlError::InvalidType));
        assert_eq!(Option::<String>::from_sql(ValueRef::Null), Ok(None));
        assert_eq!(f64::from_sql(ValueRef::Integer(2)), Ok(2.0));
        assert_eq!(Value::from_sql(ValueRef::Text(b"a")), Ok(Value::Text("a".into())));
    }
}
