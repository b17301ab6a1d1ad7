//! Field values of one decoded instruction word, by field name: what the table's bit fields
//! (`table_types::Field`) extract and the operand kinds (`operand.rs`) interpret. Below both.

/// Field values of one decoded word, looked up by name.
#[derive(Debug, Clone)]
pub struct Fields {
    pub values: Vec<(&'static str, u64)>,
}

impl Fields {
    /// The value of field `name`; a missing field reads as 0 only through [`Fields::get_or_zero`].
    pub fn get(&self, name: &str) -> Option<u64> {
        self.values
            .iter()
            .find(|(n, _)| {
                n.len() == name.len() && n.bytes().zip(name.bytes()).all(|(x, y)| x == y)
            })
            .map(|(_, v)| *v)
    }

    pub fn get_or_zero(&self, name: &str) -> u64 {
        self.get(name).unwrap_or(0)
    }

    pub fn set(&mut self, name: &str, value: u64) -> bool {
        match self.values.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => {
                slot.1 = value;
                true
            }
            None => false,
        }
    }
}
