//! Reading an uploaded .xlsx in bounded memory and time, whatever the file claims.
//!
//! A workbook is a zip of XML parts, so a small upload can stand for gigabytes (a zip bomb), and a
//! sheet's declared extent (`<dimension ref="A1:XFD1048576">`, or one cell at `XFD1048576`) says
//! nothing about how many cells it really holds. So: every part is first inflated once into
//! nothing while its size is counted, and the workbook is refused when a part or the whole is
//! larger than a real HR sheet could be; then calamine streams the first sheet cell by cell
//! (its cells reader never allocates the extent), and only the cells under the header's named
//! columns are kept, row by row, up to the row limit.

use std::collections::HashMap;
use std::io::{Cursor, Read};

use calamine::{DataRef, Reader, Xlsx};

/// A part of the archive that inflates past this is refused (a sheet of 50,000 rows of six
/// columns is about 15 MB of XML).
const MAX_PART_BYTES: u64 = 48 * 1024 * 1024;
/// The shared-strings part is held in memory whole by the reader, so it has a lower limit.
const MAX_SHARED_STRINGS_BYTES: u64 = 16 * 1024 * 1024;
/// All parts together.
const MAX_INFLATED_BYTES: u64 = 64 * 1024 * 1024;
/// A workbook is a dozen parts; thousands are a crafted archive.
const MAX_PARTS: usize = 1_000;

/// A cell's content as the import reads it.
#[derive(Clone, Debug, PartialEq)]
pub enum CellText {
    /// Text as a person reads it (numbers without a trailing `.0`, booleans as yes/no), trimmed.
    Text(String),
    /// An error value such as `#DIV/0!`: never a name, a phone or an e-mail.
    Error(String),
}

impl CellText {
    pub fn is_blank(&self) -> bool {
        matches!(self, CellText::Text(text) if text.is_empty())
    }
}

/// Why a workbook was not read: a message for the person who sent it.
#[derive(Debug, PartialEq)]
pub struct Refusal(pub String);

pub const NOT_A_WORKBOOK: &str = "The file is not an .xlsx workbook.";
/// How a workbook is refused (`core::refusals`).
pub const REFUSALS: &[&str] = &[
    NOT_A_WORKBOOK,
    "The workbook holds more than an import can take ({mb} MB of sheet data once unpacked); split it into smaller files.",
    "Import at most {max} rows at a time.",
    "The first row must name the columns {columns}; '{name}' is missing.",
];

fn not_a_workbook() -> Refusal {
    Refusal(NOT_A_WORKBOOK.into())
}

fn too_large() -> Refusal {
    Refusal(format!(
        "The workbook holds more than an import can take ({} MB of sheet data once unpacked); split it into smaller files.",
        MAX_INFLATED_BYTES / (1024 * 1024)
    ))
}

/// One kept row: its number as the spreadsheet shows it, and its cells by column name.
pub type Row = (usize, HashMap<&'static str, CellText>);

/// The rows of the first sheet under a header row: `columns` are looked up in the header (any
/// order and case); a missing `required` column is refused by name. Rows whose named cells are
/// all blank are skipped; more than `max_rows` kept rows are refused as soon as the next is read.
pub fn read_rows(
    bytes: &[u8],
    columns: &[&'static str],
    required: &[&'static str],
    max_rows: usize,
) -> Result<Vec<Row>, Refusal> {
    check_inflated_sizes(bytes)?;
    let mut workbook: Xlsx<_> = calamine::open_workbook_from_rs(Cursor::new(bytes)).map_err(|_| not_a_workbook())?;
    let first_sheet = workbook.sheet_names().first().cloned().ok_or_else(not_a_workbook)?;
    let mut cells = workbook.worksheet_cells_reader(&first_sheet).map_err(|_| not_a_workbook())?;
    let mut collector =
        RowCollector { columns, required, max_rows, header: None, positions: None, row: None, rows: vec![] };
    while let Some(cell) = cells.next_cell().map_err(|_| not_a_workbook())? {
        let (row, column) = cell.get_position();
        collector.add(row, column, cell_text(cell.get_value()))?;
    }
    collector.finish()
}

/// Gathers streamed cells (in sheet order, row by row) into rows under the header's columns.
struct RowCollector<'a> {
    columns: &'a [&'static str],
    required: &'a [&'static str],
    max_rows: usize,
    /// The header row's index and its texts by column, until the first row below it arrives.
    header: Option<(u32, Vec<(u32, String)>)>,
    /// Each named column's position, known once the header row is complete.
    positions: Option<Vec<(&'static str, u32)>>,
    /// The row being read.
    row: Option<(u32, HashMap<&'static str, CellText>)>,
    rows: Vec<Row>,
}

impl RowCollector<'_> {
    fn add(&mut self, row: u32, column: u32, value: CellText) -> Result<(), Refusal> {
        let positions = match (&self.positions, &mut self.header) {
            (Some(positions), _) => positions,
            // The header is the first row holding anything, as a spreadsheet's used range starts.
            (None, None) if value.is_blank() => return Ok(()),
            (None, None) => {
                self.header = Some((row, vec![]));
                return self.add(row, column, value);
            }
            (None, Some((header_row, texts))) if *header_row == row => {
                if let CellText::Text(text) = value {
                    texts.push((column, text));
                }
                return Ok(());
            }
            (None, Some((_, texts))) => {
                let texts = std::mem::take(texts);
                self.positions = Some(positions_from_header(&texts, self.columns, self.required)?);
                return self.add(row, column, value);
            }
        };
        let Some(&(name, _)) = positions.iter().find(|(_, at)| *at == column) else { return Ok(()) };
        let starts_a_row = self.row.as_ref().is_none_or(|(number, _)| *number != row);
        let blank =
            starts_a_row.then(|| positions.iter().map(|(name, _)| (*name, CellText::Text(String::new()))).collect());
        if let Some(blank) = blank {
            let finished = self.row.replace((row, blank));
            self.keep(finished)?;
        }
        if let Some((_, cells)) = self.row.as_mut() {
            cells.insert(name, value);
        }
        Ok(())
    }

    fn keep(&mut self, row: Option<(u32, HashMap<&'static str, CellText>)>) -> Result<(), Refusal> {
        let Some((index, cells)) = row else { return Ok(()) };
        if cells.values().all(CellText::is_blank) {
            return Ok(());
        }
        if self.rows.len() == self.max_rows {
            return Err(Refusal(format!("Import at most {} rows at a time.", self.max_rows)));
        }
        self.rows.push((index as usize + 1, cells));
        Ok(())
    }

    fn finish(mut self) -> Result<Vec<Row>, Refusal> {
        if self.positions.is_none() {
            let texts = self.header.take().map(|(_, texts)| texts).unwrap_or_default();
            positions_from_header(&texts, self.columns, self.required)?;
        }
        let last = self.row.take();
        self.keep(last)?;
        Ok(self.rows)
    }
}

/// Where each named column stands in the header; a missing required one is refused by name.
fn positions_from_header(
    header: &[(u32, String)],
    columns: &[&'static str],
    required: &[&'static str],
) -> Result<Vec<(&'static str, u32)>, Refusal> {
    let mut positions = vec![];
    for name in columns {
        if let Some((at, _)) = header.iter().find(|(_, text)| text.eq_ignore_ascii_case(name)) {
            positions.push((*name, *at));
        } else if required.contains(name) {
            return Err(Refusal(format!(
                "The first row must name the columns {}; '{name}' is missing.",
                required.join(", ")
            )));
        }
    }
    Ok(positions)
}

/// The text of a cell as a person reads it: whole numbers without `.0` (a phone typed as a
/// number), booleans as yes/no, blanks empty; error values kept apart.
fn cell_text(cell: &DataRef<'_>) -> CellText {
    CellText::Text(match cell {
        DataRef::Empty => String::new(),
        DataRef::String(text) => text.trim().to_string(),
        DataRef::SharedString(text) => text.trim().to_string(),
        DataRef::Float(x) if x.fract() == 0.0 && x.abs() < 1e15 => format!("{}", *x as i64),
        DataRef::Float(x) => x.to_string(),
        DataRef::Int(n) => n.to_string(),
        DataRef::Bool(flag) => if *flag { "yes" } else { "no" }.into(),
        DataRef::Error(error) => return CellText::Error(error.to_string()),
        other => calamine::Data::from(other.clone()).to_string().trim().to_string(),
    })
}

/// Inflates every part of the archive into nothing, counting, and refuses the workbook when a
/// part or the whole is larger than the limits, before any reader holds a part in memory.
fn check_inflated_sizes(bytes: &[u8]) -> Result<(), Refusal> {
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|_| not_a_workbook())?;
    if archive.len() > MAX_PARTS {
        return Err(not_a_workbook());
    }
    let mut total = 0u64;
    for index in 0..archive.len() {
        let mut part = archive.by_index(index).map_err(|_| not_a_workbook())?;
        let limit = if part.name().eq_ignore_ascii_case("xl/sharedStrings.xml") {
            MAX_SHARED_STRINGS_BYTES
        } else {
            MAX_PART_BYTES
        };
        // The declared size may lie, so the bytes are counted as they come.
        let inflated =
            std::io::copy(&mut (&mut part).take(limit + 1), &mut std::io::sink()).map_err(|_| not_a_workbook())?;
        total += inflated;
        if inflated > limit || total > MAX_INFLATED_BYTES {
            return Err(too_large());
        }
    }
    Ok(())
}
