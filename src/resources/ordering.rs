//! Display positions 1..n: campaigns within their category, categories among themselves.
//! Taking a position moves the rows at and after it down by one; leaving a group closes the gap.
//! Every write that touches positions renumbers the whole group inside its own transaction, so a
//! group never has gaps or duplicates, whatever order the writes arrive in.

use crate::db::sql::{Connection, params_from_iter};

use crate::core::error::AppResult;

/// A table's `order_no` column, counted among its live rows (per `group` when given).
pub struct Sequence {
    pub table: &'static str,
    /// The column whose value a sequence is kept within (`campaign_category_id`); `None`: one
    /// sequence over the whole table.
    pub group: Option<&'static str>,
}

impl Sequence {
    /// Puts `row` at `position` among the other live rows of `group` and renumbers the group
    /// 1..n. Without a position, or past the end, the row goes last; without a row the group is
    /// only renumbered (after a delete). Returns the row's position.
    pub fn place(&self, tx: &Connection, group: i64, row: Option<i64>, position: Option<i64>) -> AppResult<i64> {
        let mut ids = self.others(tx, group, row)?;
        let mut placed = 0;
        if let Some(row) = row {
            let index = position.map_or(ids.len(), |p| (p.max(1) as usize - 1).min(ids.len()));
            ids.insert(index, row);
            placed = index as i64 + 1;
        }
        let renumber =
            format!("UPDATE {} SET order_no = ?2 WHERE id = ?1 AND order_no IS DISTINCT FROM ?2", self.table);
        // Nobody reads what they changed: on PostgreSQL they travel with the write's next read.
        for (index, id) in ids.iter().enumerate() {
            tx.execute_later(&renumber, (id, index as i64 + 1))?;
        }
        Ok(placed)
    }

    /// The group a row belongs to and the position it holds (or held, when deleted).
    fn position_of(&self, tx: &Connection, row: i64) -> AppResult<(i64, i64)> {
        let group = self.group.unwrap_or("0");
        let sql = format!("SELECT {group} AS sequence_group, order_no FROM {} WHERE id = ?1", self.table);
        Ok(tx.query_row(&sql, [row], |r| Ok((r.get("sequence_group")?, r.get("order_no")?)))?)
    }

    /// The live rows of `group` other than `except`, in their current order.
    fn others(&self, tx: &Connection, group: i64, except: Option<i64>) -> AppResult<Vec<i64>> {
        // Row ids start at 1, so 0 excludes nothing.
        let (condition, params) = match self.group {
            Some(column) => (format!(" AND {column} = ?2"), vec![except.unwrap_or(0), group]),
            None => (String::new(), vec![except.unwrap_or(0)]),
        };
        let sql = format!(
            "SELECT id FROM {} WHERE deleted_at IS NULL AND id <> ?1{condition} ORDER BY order_no, id",
            self.table
        );
        let mut stmt = tx.prepare_cached(&sql)?;
        let ids = stmt.query_map(params_from_iter(params.iter()), |r| r.get("id"))?.collect::<Result<Vec<i64>, _>>()?;
        Ok(ids)
    }
}

/// Puts restored rows back at the positions they held when deleted (the deleted row keeps its
/// `order_no`; the others closed the gap), in their old order, the others moving down.
pub fn restore_positions(tx: &Connection, sequence: &Sequence, rows: &[i64]) -> AppResult<()> {
    let mut placed =
        rows.iter().map(|&row| Ok((sequence.position_of(tx, row)?, row))).collect::<AppResult<Vec<_>>>()?;
    placed.sort_unstable();
    for ((group, position), row) in placed {
        sequence.place(tx, group, Some(row), Some(position))?;
    }
    Ok(())
}
