//! CSV: a header of the column names, then one record per row (cells as [`super::cell`] writes
//! them; the csv crate quotes what needs quoting). Several tables go one after another, each
//! led by a `# name` line and parted by an empty line, so one file can hold a run's tables.

use super::{cell, Exporter, Rows};
use crate::error::{Error, Result};

pub struct Csv;

impl Exporter for Csv {
    fn serialize(&self, tables: &[Rows]) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        for (i, table) in tables.iter().enumerate() {
            if tables.len() > 1 {
                if i > 0 {
                    out.push(b'\n');
                }
                out.extend_from_slice(format!("# {}\n", table.name).as_bytes());
            }
            out.extend(one(table).map_err(|e| Error::Input(format!("{}: {e}", table.name)))?);
        }
        Ok(out)
    }
}

/// One table as a CSV file of its own.
fn one(table: &Rows) -> csv::Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(&table.columns)?;
    for row in &table.rows {
        w.write_record(table.columns.iter().map(|c| cell(row.get(c))))?;
    }
    w.into_inner().map_err(|e| csv::Error::from(e.into_error()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::export::{Figure, TestRow as Row};

    #[test]
    fn cells_are_quoted_where_csv_needs_it_and_figures_fixed() {
        let rows = [
            Row { bot: "plain".into(), score: Figure(0.5) },
            Row { bot: "a,\"b\"\nc".into(), score: Figure(f64::NAN) },
            Row { bot: "up".into(), score: Figure(f64::INFINITY) },
        ];
        let bytes = Csv.serialize(&[Rows::of("summary", &rows)]).unwrap();
        assert_eq!(String::from_utf8(bytes).unwrap(), "bot,score\nplain,0.500000\n\"a,\"\"b\"\"\nc\",\nup,inf\n");
    }

    #[test]
    fn several_tables_are_named_and_parted() {
        let t = Rows::of::<Row>("a", &[]);
        let mut u = t.clone();
        u.name = "b".into();
        let bytes = Csv.serialize(&[t, u]).unwrap();
        assert_eq!(String::from_utf8(bytes).unwrap(), "# a\nbot,score\n\n# b\nbot,score\n");
    }
}
